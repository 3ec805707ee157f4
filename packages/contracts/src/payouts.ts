import { z } from 'zod';
import { NIGERIAN_BANKS } from './lawyers.js';
import { formatNairaExact } from './format.js';
import { wholeKobo } from './money.js';

/**
 * Lawyer payouts (issue 17, docs/decisions/1710-lawyer-payouts.md): a lawyer asks for its available
 * share, an admin approves, the money goes by a Flutterwave transfer that its webhook settles once.
 */

/**
 * The bank code Flutterwave's transfer and account-resolution endpoints take (`account_bank`): the
 * NIBSS/CBN code of each bank of NIGERIAN_BANKS, as GET /v3/banks/NG lists them.
 */
export const BANK_CODES: Record<(typeof NIGERIAN_BANKS)[number], string> = {
  'Access Bank': '044',
  'Citibank Nigeria': '023',
  'Coronation Merchant Bank': '559',
  'Ecobank Nigeria': '050',
  'Fidelity Bank': '070',
  'First Bank of Nigeria': '011',
  'First City Monument Bank (FCMB)': '214',
  'FSDH Merchant Bank': '501',
  'Globus Bank': '00103',
  'Greenwich Merchant Bank': '562',
  'Guaranty Trust Bank (GTBank)': '058',
  'Jaiz Bank': '301',
  'Keystone Bank': '082',
  'Kuda Microfinance Bank': '50211',
  'Lotus Bank': '303',
  'Moniepoint Microfinance Bank': '50515',
  'Nova Bank': '561',
  OPay: '999992',
  'Optimus Bank': '107',
  PalmPay: '999991',
  'Parallex Bank': '104',
  'Polaris Bank': '076',
  'PremiumTrust Bank': '105',
  'Providus Bank': '101',
  'Rand Merchant Bank': '502',
  'Signature Bank': '106',
  'Stanbic IBTC Bank': '221',
  'Standard Chartered Bank': '068',
  'Sterling Bank': '232',
  'SunTrust Bank': '100',
  TAJBank: '302',
  'Titan Trust Bank': '102',
  'Union Bank of Nigeria': '032',
  'United Bank for Africa (UBA)': '033',
  'Unity Bank': '215',
  'Wema Bank': '035',
  'Zenith Bank': '057',
};

export const bankCodeOf = (bank: string): string | null =>
  (BANK_CODES as Record<string, string | undefined>)[bank] ?? null;

/** The smallest withdrawal, in naira (Flutterwave's NGN transfer minimum). */
export const MIN_PAYOUT = 100;
/** The most payouts one batch approval takes. */
export const PAYOUT_BATCH_MAX = 50;
/** How long the "This wasn't me" link of a payout-details e-mail works (decision 2244), as 2220's does. */
export const PAYOUT_NOT_ME_LINK_DAYS = 7;
/** The admin Payouts page marks a payout "New account" while its account was saved less than this ago. */
export const PAYOUT_NEW_ACCOUNT_HOURS = 48;

/**
 * requested: waiting for an admin (its amount is reserved from the available balance);
 * sending: approved, the money is in transit at the provider; paid: the provider completed it;
 * failed: the provider refused or failed it, and the money is available again; rejected: an admin
 * turned the request down before it was sent, and its reserved amount is withdrawable again.
 */
export const PAYOUT_STATUSES = ['requested', 'sending', 'paid', 'failed', 'rejected'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_STATUS_WORDS: Record<PayoutStatus, string> = {
  requested: 'Waiting for approval',
  sending: 'Approved, sending',
  paid: 'Paid',
  failed: 'Failed, returned to your balance',
  rejected: 'Rejected, returned to your balance',
};

const naira = z.number().describe('Naira (kobo / 100)');

/** POST /api/lawyer/payouts: the amount in naira; left out, everything available now. */
export const payoutRequestInput = z
  .object({
    amount: z
      .number({ error: 'amount must be a number of naira' })
      .positive('amount must be more than 0')
      .max(100_000_000, 'amount is too large')
      .refine(...wholeKobo('amount'))
      .optional(),
  })
  .nullish();
export type PayoutRequestInput = z.input<typeof payoutRequestInput>;

export const payoutView = z.object({
  _id: z.string(),
  lawyerId: z.string(),
  lawyerName: z.string(),
  amount: naira,
  status: z.enum(PAYOUT_STATUSES),
  bank: z.string(),
  /** Masked, "•••• 6789". */
  accountNumber: z.string(),
  accountName: z.string(),
  /** Why it did not go: the provider's reason for a failed one, the admin's for a rejected one. */
  failure: z.string().nullable(),
  createdAt: z.string(),
  approvedAt: z.string().nullable(),
  settledAt: z.string().nullable(),
  /**
   * When the account this payout goes to was saved as the lawyer's payout details (ISO time); null when
   * the lawyer's saved details are another account now (decision 2244). Admins see "New account" when it
   * is younger than PAYOUT_NEW_ACCOUNT_HOURS.
   */
  detailsAddedAt: z.string().nullable(),
  /**
   * A `rejected` payout its lawyer cancelled before approval (decision 2344), not an admin's rejection.
   * Absent from a server before that decision.
   */
  cancelled: z.boolean().optional(),
});
export type PayoutView = z.infer<typeof payoutView>;

export const lawyerPayoutsResponse = z.object({
  status: z.literal('success'),
  /** What may be asked for now: the available share less payouts still waiting for approval. */
  withdrawable: naira,
  /** Whether the saved payout details were checked with the bank (a payout needs them). */
  detailsResolved: z.boolean(),
  payouts: z.array(payoutView),
  /**
   * How `withdrawable` adds up (decision 2314), over every earning and payout, not only those listed:
   * earned − held − paid − sending − requested = withdrawable. Failed, rejected and reversed payouts are
   * back in the balance and in none of these.
   */
  totals: z
    .object({
      /** The lawyer's share of every completed job, before any payout. */
      earned: naira,
      /** Of that, still in its holding period. */
      held: naira,
      requested: naira,
      sending: naira,
      paid: naira,
    })
    .optional()
    .describe('Absent from a server before decision 2314'),
});
export type LawyerPayoutsResponse = z.infer<typeof lawyerPayoutsResponse>;

export const payoutResponse = z.object({ status: z.literal('success'), message: z.string(), payout: payoutView });
export type PayoutResponse = z.infer<typeof payoutResponse>;

export const adminPayoutsQuery = z.object({
  status: z.enum(PAYOUT_STATUSES, `status must be one of ${PAYOUT_STATUSES.join(', ')}`).optional(),
});

export const adminPayoutsResponse = z.object({
  status: z.literal('success'),
  payouts: z.array(payoutView),
  /** Sum of the payouts waiting for approval. */
  waitingTotal: naira,
  /**
   * How many payouts wait for approval, all of them: the list stops at 300, the total does not, so the
   * count beside the total is this one, not the list's length.
   */
  waitingCount: z.number().int().optional(),
});
export type AdminPayoutsResponse = z.infer<typeof adminPayoutsResponse>;

export const approvePayoutsInput = z.object({
  ids: z
    .array(z.uuid('each id must be a valid id'), { error: 'ids must be a list of payout ids' })
    .min(1, 'Choose at least one payout')
    .max(PAYOUT_BATCH_MAX, `At most ${PAYOUT_BATCH_MAX} payouts at once`),
});

export const approvePayoutsResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  payouts: z.array(payoutView),
});
export type ApprovePayoutsResponse = z.infer<typeof approvePayoutsResponse>;

/** POST /api/admin/payouts/{id}/reject: why, told to the lawyer. */
export const rejectPayoutInput = z.object({
  reason: z
    .string({ error: 'reason is required' })
    .trim()
    .min(3, 'Please give the lawyer a reason (at least 3 characters)')
    .max(500, 'reason must be at most 500 characters'),
});
export type RejectPayoutInput = z.infer<typeof rejectPayoutInput>;

/** POST /api/lawyer/payouts/{id}/cancel: nothing to send; the payout is named by the path. */
export const cancelPayoutInput = z.object({}).nullish();

/** Sandbox provider only: how a transfer still pending at the sandbox ends. */
export const sandboxTransferOutcomeInput = z.object({
  status: z.enum(['SUCCESSFUL', 'FAILED'], 'status must be SUCCESSFUL or FAILED'),
});

export const payoutMessages = {
  accountNotFound:
    'We could not find this account number at the bank you chose. Please check the account number and the bank.',
  bankCheckUnavailable: 'We could not check your account with your bank just now. Please try again in a few minutes.',
  nameFromBank: (name: string) => `Your bank holds this account as “${name}”, so that is the name we saved.`,
  noDetails: 'Please add your payment details before you withdraw.',
  requestKeyReused: 'This key was already used for a withdrawal of another amount. Please send a fresh key.',
  detailsNotResolved:
    'Please submit your payment details again (the same ones are fine) so we can check them with your bank before you withdraw.',
  nothingAvailable: 'You have nothing available to withdraw yet.',
  aboveAvailable: (available: number) => `You can withdraw at most ${formatNairaExact(available)} now.`,
  belowMinimum: `The smallest withdrawal is ${formatNairaExact(MIN_PAYOUT)}.`,
  requested: 'Your withdrawal request was sent. You will be e-mailed when the money is on its way.',
  approved: 'The payout was approved and sent to the bank.',
  batchApproved: (n: number) => `${n} ${n === 1 ? 'payout was' : 'payouts were'} approved and sent to the bank.`,
  /**
   * A batch of `batchSize` payouts is approved all or nothing (decision 2295): each payout in its way, and
   * why, and what to do with the others.
   */
  batchRefused: (
    refused: readonly { lawyerName: string; amount: number; id: string; why: string }[],
    batchSize: number,
  ) =>
    `Nothing was approved: ${refused
      .map((p) => `the payout of ${formatNairaExact(p.amount)} to ${p.lawyerName} (id ${p.id}) ${p.why}`)
      .join(
        '; ',
      )}.${batchSize > refused.length ? ` Leave ${refused.length === 1 ? 'it' : 'them'} out and approve the others again.` : ''}`,
  batchWhyRejected: 'was rejected by an admin',
  batchWhyCancelled: 'was cancelled by the lawyer',
  batchWhyShort: 'is no longer covered by the lawyer’s available balance',
  notFound: 'Payout not found',
  notRequested: 'This payout is no longer waiting for approval.',
  rejected: 'The payout was rejected; the lawyer was told why and the money is back in its balance.',
  sandboxFinished: 'The sandbox bank finished the transfer.',
  notSandbox: 'Only a transfer still pending at the sandbox can be finished this way.',
  // The "This wasn't me" link of the payout-details e-mails (decision 2244).
  notMeLinkIncomplete: 'This link is incomplete. Please open the link from the email again.',
  notMeLinkUnknown:
    'This link is not valid. Check that you opened the whole link from the email about your payment details.',
  notMeLinkUsed: 'This link has already been used. Reset your password to sign in, or contact support.',
  notMeLinkExpired: `This link has expired: it worked for ${PAYOUT_NOT_ME_LINK_DAYS} days after the payment details were saved. Contact support if these details are not yours.`,
  notMeLinkStale:
    'The payment details were changed or removed since this email was sent, so this link no longer applies. Use the link in the latest email about your payment details, or contact support.',
  notMeAddressChanged:
    'The sign-in email address of this account was changed after this email was sent. First undo that change with the link we emailed to this address, then open this link again.',
  notMeDone:
    'The payment details were removed, withdrawals waiting to go to them were stopped, every device is logged out and your old password no longer works. We emailed you a code to set a new password.',
  notMeRejection: 'The account holder reported these payment details as not added by them',
  // A lawyer cancels its own withdrawal before approval (decision 2344).
  cancelled: 'Your withdrawal was cancelled. Nothing was sent, and its amount is back in your available balance.',
  cancelledReason: 'Cancelled by the lawyer before approval',
  cancelTooLate:
    'This withdrawal is no longer waiting for approval, so it cannot be cancelled. Refresh the page to see where it is.',
} as const;

/** Token of a payout-details "This wasn't me" link: the query of its check, the body of its confirmation. */
export const payoutNotMeInput = z.object({
  token: z
    .string({ error: payoutMessages.notMeLinkIncomplete })
    .min(20, payoutMessages.notMeLinkUnknown)
    .max(200, payoutMessages.notMeLinkUnknown),
});
export type PayoutNotMeInput = z.input<typeof payoutNotMeInput>;

/** GET /api/payment-details/not-me: the link can be used; the details it is about. */
export const payoutNotMeCheckResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    bank: z.string(),
    /** Masked, "•••• 6789". */
    accountNumber: z.string(),
    accountName: z.string(),
    /** When these details were saved (ISO time). */
    savedAt: z.string(),
    /** When the link stops working (ISO time). */
    expiresAt: z.string(),
  }),
});
export type PayoutNotMeCheckResponse = z.infer<typeof payoutNotMeCheckResponse>;

/** POST /api/payment-details/not-me: done; the reset code went to this address. */
export const payoutNotMeResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({
    officialEmail: z.string(),
    /** Withdrawals that were waiting for approval to these details and were stopped. */
    payoutsStopped: z.number().int().nonnegative(),
  }),
});
export type PayoutNotMeResponse = z.infer<typeof payoutNotMeResponse>;

/**
 * Whether the name the lawyer typed and the bank's name clearly belong to different people: not one
 * word in common (case, order, punctuation and initials aside).
 */
export function namesClearlyDiffer(typed: string, bank: string): boolean {
  const words = (s: string) =>
    new Set(
      s
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length > 1),
    );
  const b = words(bank);
  return ![...words(typed)].some((w) => b.has(w));
}
