/**
 * Loads a lazy module once and shares the download; a failed one is forgotten, so the next call
 * tries again (a phone gone offline must not be stuck with the failure: decision 2266).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}
