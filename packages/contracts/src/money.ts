import { z } from 'zod';

/**
 * The ledger's words (docs/decisions/1700-one-ledger.md). Every movement of money is one ledger
 * transaction of a kind; its entries move kobo between accounts and sum to zero. Debits are positive.
 */
export const LEDGER_KINDS = [
  'payment',
  'earning',
  'cancellation',
  'refund',
  'payout',
  'payout_settled',
  'payout_failed',
  /** A transfer the provider reported paid and later reversed: the amount is the lawyer's again. */
  'payout_reversed',
  /** What the provider kept from a payment or charged for a transfer (decision 1700). */
  'fee',
  /** A monthly plan's payment, held for the month's credits (decision 1900). */
  'plan_payment',
  /** A plan credit spent: its value held for the job it opened. */
  'plan_credit',
  /** A month's unused plan credits, kept by the platform at renewal or when the plan stops. */
  'plan_expiry',
  /** A cancelled plan job's credit, back with its plan while its month lasts. */
  'plan_credit_return',
  /** Money a payment paid for nothing (paid twice, after its order closed, lines bought already): due back (2250). */
  'unapplied',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LEDGER_ACCOUNTS = [
  /** What the provider holds for us: company payments in, refunds and payouts out. */
  'provider_cash',
  /** Companies' money held for their open jobs, per job. */
  'held_for_jobs',
  /** The platform's share of completed jobs. */
  'platform_commission',
  /** What the platform owes each lawyer, per lawyer (pending until its available date). */
  'lawyer_earnings',
  /** Payouts sent to the provider and not yet settled. */
  'payouts_in_transit',
  /** Refunds owed to companies for cancelled jobs until the provider completes them. */
  'refunds_due',
  /** The provider's fees on payments and transfers: the platform's cost (a debit balance). */
  'provider_fees',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

export const LEDGER_KIND_WORDS: Record<LedgerKind, string> = {
  payment: 'Company payment',
  earning: 'Lawyer earning',
  cancellation: 'Job cancelled',
  refund: 'Refund',
  payout: 'Payout sent',
  payout_settled: 'Payout settled',
  payout_failed: 'Payout failed',
  payout_reversed: 'Payout reversed',
  fee: 'Provider fee',
  plan_payment: 'Plan payment',
  plan_credit: 'Plan credit used',
  plan_expiry: 'Plan credits expired',
  plan_credit_return: 'Plan credit returned',
  unapplied: 'Paid for nothing, refund due',
};

/** The platform's share of a completed job and how long a lawyer's share is held before withdrawal. */
export const DEFAULT_COMMISSION_PERCENT = 20;
export const DEFAULT_HOLD_DAYS = 7;

const naira = z.number().describe('Naira (kobo / 100)');

export const lawyerEarning = z.object({
  jobId: z.string(),
  productName: z.string(),
  companyName: z.string(),
  /** What the company paid for the job. */
  amount: naira,
  commission: naira,
  /** The lawyer's share: amount less commission. */
  earned: naira,
  completedAt: z.string().nullable(),
  availableAt: z.string().nullable(),
});
export type LawyerEarning = z.infer<typeof lawyerEarning>;

/** Get Paid's earnings per job come this many at a time, newest first; older ones by `before`. */
export const EARNINGS_PAGE = 200;

/** GET /job-api/lawyer/earnings?before=<older>: the next page of earnings. */
export const earningsQuery = z.object({
  before: z.coerce
    .number('before must be the older of an earnings answer')
    .int('before must be the older of an earnings answer')
    .min(1, 'before must be the older of an earnings answer')
    .max(Number.MAX_SAFE_INTEGER, 'before must be the older of an earnings answer')
    .optional(),
});

export const earningsResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    /** Completed jobs and what companies paid for them (the Get Paid tab's first figures). */
    total: naira,
    count: z.number().int(),
    currency: z.literal('NGN'),
    /** The lawyer's share that may be withdrawn now. */
    available: naira,
    /** The lawyer's share still in its holding period. */
    pending: naira,
    commissionPercent: z.number(),
    holdDays: z.number().int(),
    /** Newest first, EARNINGS_PAGE at most. */
    jobs: z.array(lawyerEarning),
    /** Only when older jobs remain: ask again with `before` set to it for the next page. */
    older: z.string().optional(),
  }),
});
export type EarningsResponse = z.infer<typeof earningsResponse>;

/** A Lagos day, YYYY-MM-DD, within the years the ledger can hold. */
const ledgerDay = z.iso
  .date('dates are YYYY-MM-DD')
  .refine((d) => d >= '2000-01-01' && d <= '2100-12-31', 'dates run from 2000-01-01 to 2100-12-31');

export const ledgerQuery = z.object({
  from: ledgerDay.optional(),
  to: ledgerDay.optional(),
  kind: z.enum(LEDGER_KINDS).optional(),
  companyId: z.uuid().optional(),
  lawyerId: z.uuid().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type LedgerQuery = z.infer<typeof ledgerQuery>;

export const ledgerEntry = z.object({
  account: z.enum(LEDGER_ACCOUNTS),
  /** Naira; positive debit, negative credit. */
  amount: naira,
  jobId: z.string().nullable(),
  companyId: z.string().nullable(),
  lawyerId: z.string().nullable(),
  availableAt: z.string().nullable(),
});

export const ledgerTransaction = z.object({
  _id: z.string(),
  kind: z.enum(LEDGER_KINDS),
  memo: z.string(),
  orderId: z.string().nullable(),
  jobId: z.string().nullable(),
  createdAt: z.string(),
  entries: z.array(ledgerEntry),
});
export type LedgerTransaction = z.infer<typeof ledgerTransaction>;

export const ledgerBalances = z.object({
  providerCash: naira,
  heldForJobs: naira,
  platformCommission: naira,
  owedToLawyers: naira,
  payoutsInTransit: naira,
  refundsDue: naira,
  /** Fees the provider kept from payments and charged for transfers (the platform's cost), shown positive. */
  providerFees: naira,
});
export type LedgerBalances = z.infer<typeof ledgerBalances>;

export const ledgerResponse = z.object({
  status: z.literal('success'),
  transactions: z.array(ledgerTransaction),
  total: z.number().int(),
  balances: ledgerBalances,
});
export type LedgerResponse = z.infer<typeof ledgerResponse>;

export const moneySettings = z.object({
  commissionPercent: z.number().min(0).max(50),
  holdDays: z.number().int().min(0).max(90),
});
export type MoneySettingsInput = z.infer<typeof moneySettings>;

export const moneySettingsResponse = z.object({ status: z.literal('success'), settings: moneySettings });

export const REFUND_STATUSES = ['pending', 'completed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const refundView = z.object({
  _id: z.string(),
  jobId: z
    .string()
    .nullable()
    .describe('The cancelled job; null for a refund of money a payment paid for nothing (decision 2250)'),
  orderId: z
    .string()
    .nullable()
    .describe("The order paid; null for a refund of a monthly plan's payment (decision 2262)"),
  reference: z.string().describe("The order's payment reference, or the plan payment's"),
  productName: z
    .string()
    .describe("The job's product, or the order's title for a refund with no job ('Monthly plan payment' for a plan's)"),
  companyName: z.string(),
  amount: naira,
  status: z.enum(REFUND_STATUSES),
  reason: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type RefundView = z.infer<typeof refundView>;

export const refundsResponse = z.object({ status: z.literal('success'), refunds: z.array(refundView) });
export type RefundsResponse = z.infer<typeof refundsResponse>;

export { VAT_RATE_PERCENT, vatIncludedKobo } from './vat.js';

/** GET /api/refunds: a company's completed refunds, each with its credit note (GET /api/refunds/{id}/credit-note.pdf). */
export const companyRefundsResponse = z.object({
  status: z.literal('success'),
  refunds: z.array(
    z.object({
      _id: z.string(),
      orderId: z.string().nullable(),
      reference: z.string().describe("The refunded order's payment reference, or the plan payment's (decision 2262)"),
      productName: z.string(),
      amount: naira,
      settledAt: z.string(),
    }),
  ),
});
export type CompanyRefundsResponse = z.infer<typeof companyRefundsResponse>;
export type CompanyRefund = CompanyRefundsResponse['refunds'][number];

/**
 * A naira amount given in whole kobo (at most 2 decimals), for `.refine(...wholeKobo('amount'))`.
 * Rounded to the kobo, a fraction moves another sum than the one asked: ₦0.004 none at all. The
 * tolerance grows with the sum: above ₦134,217,728 `n * 100` is off by more than 1e-6 kobo
 * (₦310,786,835.84 by 3.8e-6) while a fraction of a kobo is off by at least 0.001.
 */
export const wholeKobo = (field: string) =>
  [
    (n: number) => Math.abs(Math.round(n * 100) - n * 100) < Math.max(1e-6, Math.abs(n * 100) * Number.EPSILON * 4),
    `${field} must be in whole kobo (at most 2 decimals)`,
  ] as const;
