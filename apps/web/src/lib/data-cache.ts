/**
 * Clears cached server data on logout or an expired session. The query cache registers itself here
 * when it first loads, so the first page does not have to ship the query library.
 */
const clearers = new Set<() => void>();
export const onClearData = (clear: () => void) => {
  clearers.add(clear);
  return () => clearers.delete(clear);
};
export const clearData = () => clearers.forEach((c) => c());
