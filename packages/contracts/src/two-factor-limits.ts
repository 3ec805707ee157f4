/** Two-factor authentication's limits (decision 2020); here, free of zod, for the web's http client. */
export const TWO_FACTOR = {
  /** Actions on money ask for a code again when the session's last one is older than this. */
  stepUpMinutes: 15,
  /** How long the challenge of a sign-in waits for its code. */
  challengeMinutes: 5,
  /** Wrong codes per account in `windowMinutes` before every try answers 429. */
  maxFailures: 5,
  windowMinutes: 15,
  recoveryCodes: 10,
  /** How long the "This wasn't me" link of the two-factor-on e-mail works (decision 2220). */
  notMeLinkDays: 7,
  /** The status of the answer that asks for a fresh code before an action on money. */
  stepUpStatus: 428,
} as const;
