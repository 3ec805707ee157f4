import { HttpError, isTimedOut } from './http';

/**
 * Whether a write's answer was lost on the way, so the server may have done it (decisions 2306, 2307):
 * no answer in time, or a gateway's 502 or 504 (our API answers neither: nginx does, when an instance
 * died or stalled after the request reached it). A charge or a payment check then goes by reference.
 */
export const isAnswerLost = (err: unknown) =>
  isTimedOut(err) || (err instanceof HttpError && (err.status === 502 || err.status === 504));
