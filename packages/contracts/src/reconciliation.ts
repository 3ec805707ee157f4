import { z } from 'zod';
import { PAYOUT_STATUSES } from './payouts.js';

/**
 * The admin's reconciliation (issue 17, item 6): the ledger's payments and refunds of a period next to
 * the payment provider's transactions and refunds, the lawyers' payouts next to its transfers (decision
 * 2229), and every place where they disagree.
 */

/** The longest period one reconciliation covers (the provider is asked page by page). */
export const RECONCILIATION_MAX_DAYS = 92;

const day = z.iso
  .date('dates are YYYY-MM-DD')
  .refine((d) => d >= '2000-01-01' && d <= '2100-12-31', 'dates run from 2000-01-01 to 2100-12-31');

export const reconciliationQuery = z
  .object({
    /** Lagos days, inclusive; both default to the last 7 days. */
    from: day.optional(),
    to: day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => !q.from || !q.to || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < RECONCILIATION_MAX_DAYS, {
    message: `the period is at most ${RECONCILIATION_MAX_DAYS} days`,
    path: ['to'],
  });
export type ReconciliationQuery = z.infer<typeof reconciliationQuery>;

export const DIFFERENCE_KINDS = [
  /** The provider has a successful payment or a completed refund the ledger does not. */
  'missing_in_ledger',
  /** The ledger has a payment or refund the provider does not know. */
  'missing_at_provider',
  'amount_differs',
  'currency_differs',
  /** The provider reports it other than successful (payment) or completed (refund). */
  'status_differs',
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export const DIFFERENCE_WORDS: Record<DifferenceKind, string> = {
  missing_in_ledger: 'Not in the ledger',
  missing_at_provider: 'Unknown to Flutterwave',
  amount_differs: 'Amounts differ',
  currency_differs: 'Currencies differ',
  status_differs: 'Status differs',
};

const naira = z.number().describe('Naira (kobo / 100)');

export const reconciliationDifference = z.object({
  kind: z.enum(DIFFERENCE_KINDS),
  /** What disagrees: a company's payment or a refund of a cancelled job. */
  subject: z.enum(['payment', 'refund']),
  /** The payment's tx_ref (for a refund, the refunded order's), or the provider's id when nothing else is known. */
  reference: z.string(),
  providerId: z.string().nullable(),
  /**
   * For a payment, what it settles net of the fee the platform bore (the ledger's payment less its `fee`
   * posting; Flutterwave's `amount_settled`, the whole amount when the customer paid `app_fee` on top,
   * decision 2348); for a refund, the amount refunded.
   */
  ledgerAmount: naira.nullable(),
  providerAmount: naira.nullable(),
  providerCurrency: z.string().nullable(),
  providerStatus: z.string().nullable(),
  paymentType: z.string().nullable(),
  /** When it happened: the ledger's posting, else the provider's record. */
  date: z.string(),
  ledgerTransactionId: z.string().nullable(),
  orderId: z.string().nullable(),
  jobId: z.string().nullable(),
});
export type ReconciliationDifference = z.infer<typeof reconciliationDifference>;

/** A lawyer payout (the ledger's `payout` posting) and the provider's transfer disagree (decision 2229). */
export const payoutDifference = z.object({
  /**
   * `missing_in_ledger`: a successful or pending transfer no posted payout names; `missing_at_provider`: a
   * paid payout with no transfer; `status_differs`: a paid payout whose transfer is not successful (failed,
   * reversed by the bank, still pending), or a failed one whose transfer went through or may still.
   */
  kind: z.enum(DIFFERENCE_KINDS),
  /** The transfer's reference: ours is the payout id. */
  reference: z.string(),
  /** The provider's transfer id. */
  providerId: z.string().nullable(),
  /** What the payout sent, and what the transfer sent (its fee apart). */
  ledgerAmount: naira.nullable(),
  providerAmount: naira.nullable(),
  providerCurrency: z.string().nullable(),
  /** The provider's word, lower case: successful, failed, reversed, new, pending. */
  providerStatus: z.string().nullable(),
  /** The payout's status; `requested` or `rejected` when a transfer names a payout never posted. */
  ledgerStatus: z.enum(PAYOUT_STATUSES).nullable(),
  /** When it happened: the payout's posting (its approval), else the provider's record. */
  date: z.string(),
  ledgerTransactionId: z.string().nullable(),
  payoutId: z.string().nullable(),
  lawyerId: z.string().nullable(),
  lawyerName: z.string().nullable(),
});
export type PayoutDifference = z.infer<typeof payoutDifference>;

/** Payouts that left: the ledger's paid ones and the provider's successful transfers, with their fees. */
const payoutTotals = z.object({ payouts: z.number().int(), paidOut: naira, fees: naira });

export const reconciliationResponse = z.object({
  status: z.literal('success'),
  from: z.string(),
  to: z.string(),
  provider: z.enum(['sandbox', 'flutterwave']),
  /** What was compared, in number and naira: payments gross, the fees the platform bore on them, refunds. */
  ledger: z.object({
    payments: z.number().int(),
    refunds: z.number().int(),
    paid: naira,
    fees: naira,
    refunded: naira,
  }),
  atProvider: z.object({
    payments: z.number().int(),
    refunds: z.number().int(),
    paid: naira,
    fees: naira,
    refunded: naira,
  }),
  differences: z.array(reconciliationDifference),
  /** Lawyer payouts posted in the period next to the provider's transfers made in it (decision 2229). */
  payouts: z.object({
    ledger: payoutTotals,
    atProvider: payoutTotals,
    differences: z.array(payoutDifference),
  }),
});
export type ReconciliationResponse = z.infer<typeof reconciliationResponse>;
