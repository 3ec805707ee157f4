/**
 * Rows that share a timestamp, for list-order tests: ids chosen so that the insertion (heap) order,
 * its reverse and the id order all differ, so only an ORDER BY with a unique tiebreaker answers
 * the expected order whatever scan the planner picks.
 */
export const TIED_INSERT_ORDER = [2, 1, 3] as const;

/** A fixed uuid: ids of one group sort by `n`. */
export const tiedId = (group: number, n: number) =>
  `00000000-0000-4000-8000-${String(group).padStart(4, '0')}${String(n).padStart(8, '0')}`;
