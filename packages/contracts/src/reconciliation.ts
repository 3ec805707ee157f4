import { z } from 'zod';

/**
 * The admin's reconciliation (issue 17, item 6): the ledger's payments and refunds of a period next to
 * the payment provider's transactions and refunds, and every place where they disagree.
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
   * For a payment, what it settles net of the provider's fee (the ledger's payment less its `fee`
   * posting; Flutterwave's `amount` less `app_fee`, its `amount_settled`); for a refund, the amount refunded.
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

export const reconciliationResponse = z.object({
  status: z.literal('success'),
  from: z.string(),
  to: z.string(),
  provider: z.enum(['sandbox', 'flutterwave']),
  /** What was compared, in number and naira: payments gross, the provider's fees on them, refunds. */
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
});
export type ReconciliationResponse = z.infer<typeof reconciliationResponse>;
