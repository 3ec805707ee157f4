import { isTimedOut } from './http';

/**
 * Whether a failed read is asked again by itself (twice at most): a failure that came fast (a dropped
 * connection) is, since the next try may get through in a second or two; an answer the server gave (a
 * status) is not, nor a call already given up after 30 s without an answer (decision 2306), which
 * would keep a dead line's spinner for 90 s instead of showing the message and its button.
 */
export const retryQuery = (count: number, err: unknown) =>
  count < 2 && !('status' in (err as object)) && !isTimedOut(err);
