import { jobView } from './jobs.js';
import { z } from 'zod';
import { codeAsText, otpField } from './auth.js';
import { messages } from './messages.js';
import { requiredText, showsText, storedId } from './common.js';
import { LIMITS, LIST_CAP, LIST_LIMIT_MAX } from './constants.js';

/**
 * Lawyer workspace (issue 5): available jobs, applications, projects, payout details.
 * One schema per request and answer, shared by the API routes and the web forms.
 */

/** Sort tabs of the available jobs page; `?sort=` takes the id. */
export const JOB_SORTS = [
  { id: 'bestfit', label: 'Best fit' },
  { id: 'recent', label: 'Recent jobs' },
] as const;
export type JobSort = (typeof JOB_SORTS)[number]['id'];

export const LAWYER_LIST_MAX = 50;

const pageField = z.coerce
  .number({ error: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be at least 1')
  .max(100_000, 'page is too large');

/**
 * `page` and `limit` of the lawyer's lists in the spec's call table (GET /job-api/jobs,
 * /job-api/lawyer/pendingjobs, /completedjobs). Without `page` the answer is the whole list, up to
 * `limit` jobs (default LIST_CAP, at most LIST_LIMIT_MAX), as a client written to the table reads a
 * "list" (decision 0901); with `page` (from 1) one page of `limit` jobs (1-50): `lawyerListPage`.
 */
const lawyerListPaging = {
  page: pageField.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(LIST_LIMIT_MAX, `limit must be at most ${LIST_LIMIT_MAX}`)
    .optional(),
};
const pageLimitAtMost50 = (q: { page?: number; limit?: number }, ctx: z.RefinementCtx) => {
  if (q.page !== undefined && q.limit !== undefined && q.limit > LAWYER_LIST_MAX)
    ctx.addIssue({ code: 'custom', path: ['limit'], message: `limit must be at most ${LAWYER_LIST_MAX}` });
};

/** The page a lawyer list reads: the whole list (up to the cap) without `page`, else that page. */
export const lawyerListPage = (q: { page?: number; limit?: number }, pageSize: number) =>
  q.page === undefined ? { page: 1, limit: q.limit ?? LIST_CAP } : { page: q.page, limit: q.limit ?? pageSize };

/** Open jobs a page holds when `page` is sent without `limit`. */
export const AVAILABLE_JOBS_PAGE = 20;

/**
 * The spec leaves open how the tab is sent, so a tab's label ("Best fit", "Recent jobs") is read as its
 * id; case, spaces, - and _ do not matter.
 */
const sortOfTab = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const typed = v.toLowerCase().replace(/[\s_-]+/g, '');
  // `-createdAt`, the back end's own sort string for "createdAt descending" (section 4), is Recent jobs.
  if (typed === 'createdat') return 'recent';
  return JOB_SORTS.find((s) => s.id === typed || s.label.toLowerCase().replace(/\s+/g, '') === typed)?.id ?? v;
};

const sortField = (name: string) =>
  z.preprocess(sortOfTab, z.enum(['bestfit', 'recent'], `${name} must be bestfit or recent`));
/**
 * "sort option ... (how sent: not shown)": `sort`, or the row's own words `sortOption`, or `sortBy`; `sort`
 * wins when more are sent (decision 2248).
 */
export const availableJobsQuery = z
  .object({
    sort: sortField('sort').optional(),
    sortOption: sortField('sortOption').optional(),
    sortBy: sortField('sortBy').optional(),
    ...lawyerListPaging,
  })
  .superRefine(pageLimitAtMost50)
  .transform(({ sort, sortOption, sortBy, ...paging }) => ({
    sort: sort ?? sortOption ?? sortBy ?? ('bestfit' as const),
    ...paging,
  }));

export const lawyerProjectsQuery = z.object(lawyerListPaging).superRefine(pageLimitAtMost50);

/**
 * An optional id of the caller's own (the job page's lawyerId, lawyer-and-admin spec section 2) as a client
 * fills it from a page without one: empty, or the text JavaScript makes of null and undefined. Read as not
 * sent (decision 2150); quotes of a JSON-stored id are dropped (storedId).
 */
export const optionalOwnId = (field: string) =>
  storedId(
    z.preprocess(
      (v) => (v === null || (typeof v === 'string' && ['', 'null', 'undefined'].includes(v.trim())) ? undefined : v),
      z.uuid(`${field} must be a valid id`).optional(),
    ),
  );
const optionalLawyerId = optionalOwnId('lawyerId');
/** The spec sends lawyerId; the server only accepts the caller's own id (an admin reads any job). */
export const lawyerIdQuery = z.object({ lawyerId: optionalLawyerId });
/** The body may be left out (or be null): the server knows the lawyer from the session. */
export const applyForJobInput = z.object({ lawyerId: optionalLawyerId }).nullish();

export const requestDetailsInput = z.object({
  detail: z
    .string({ error: messages.kindlyRequestDetails })
    .trim()
    .min(1, messages.kindlyRequestDetails)
    .max(2000, 'Your request must be at most 2000 characters')
    .refine(showsText, messages.kindlyRequestDetails),
});

/** The one job shape as a lawyer receives it (contact fields empty until the job is its own), plus whether it applied. */
/**
 * A job as a lawyer reads it. Not assigned to the reader: `companyFile` and `adminFile` (the keys that
 * open documents) are null, the names stay; the reader unverified: the brief (details, files, their
 * names) is null too and `briefWithheld` is true (docs/decisions/0860).
 */
export const lawyerJobSchema = jobView.extend({
  /** Whether the reading lawyer has applied for this job. */
  applied: z.boolean(),
  /** True when the brief is withheld until the reading lawyer is verified. */
  briefWithheld: z.boolean().optional(),
});
export type LawyerJob = z.infer<typeof lawyerJobSchema>;

/** Banks and licensed payment banks that hold Nigerian naira accounts (NUBAN). */
export const NIGERIAN_BANKS = [
  'Access Bank',
  'Citibank Nigeria',
  'Coronation Merchant Bank',
  'Ecobank Nigeria',
  'Fidelity Bank',
  'First Bank of Nigeria',
  'First City Monument Bank (FCMB)',
  'FSDH Merchant Bank',
  'Globus Bank',
  'Greenwich Merchant Bank',
  'Guaranty Trust Bank (GTBank)',
  'Jaiz Bank',
  'Keystone Bank',
  'Kuda Microfinance Bank',
  'Lotus Bank',
  'Moniepoint Microfinance Bank',
  'Nova Bank',
  'OPay',
  'Optimus Bank',
  'PalmPay',
  'Parallex Bank',
  'Polaris Bank',
  'PremiumTrust Bank',
  'Providus Bank',
  'Rand Merchant Bank',
  'Signature Bank',
  'Stanbic IBTC Bank',
  'Standard Chartered Bank',
  'Sterling Bank',
  'SunTrust Bank',
  'TAJBank',
  'Titan Trust Bank',
  'Union Bank of Nigeria',
  'United Bank for Africa (UBA)',
  'Unity Bank',
  'Wema Bank',
  'Zenith Bank',
] as const;
type NigerianBank = (typeof NIGERIAN_BANKS)[number];

const accountNumberField = z
  .string({ error: messages.accountNumberRule })
  .trim()
  .regex(/^\d{10}$/, messages.accountNumberRule);

/** Words a bank's name may carry or leave out without naming another bank. */
const BANK_FILLER = new Set([
  'bank',
  'plc',
  'ltd',
  'limited',
  'nigeria',
  'nig',
  'ng',
  'of',
  'the',
  'microfinance',
  'mfb',
  'merchant',
  'for',
]);
/** Short names people type that the list's own words do not give. */
const BANK_ALIASES: Record<string, NigerianBank> = {
  gtb: 'Guaranty Trust Bank (GTBank)',
  gtbank: 'Guaranty Trust Bank (GTBank)',
  gtco: 'Guaranty Trust Bank (GTBank)',
  firstbank: 'First Bank of Nigeria',
  fbn: 'First Bank of Nigeria',
  uba: 'United Bank for Africa (UBA)',
  fcmb: 'First City Monument Bank (FCMB)',
  stanbic: 'Stanbic IBTC Bank',
  citi: 'Citibank Nigeria',
  taj: 'TAJBank',
  titan: 'Titan Trust Bank',
  rmb: 'Rand Merchant Bank',
};
const bankKey = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !BANK_FILLER.has(w))
    .join('');
const BANK_KEYS = new Map<string, NigerianBank>(Object.entries(BANK_ALIASES));
for (const bank of NIGERIAN_BANKS) {
  // "Guaranty Trust Bank (GTBank)": the name without the brackets, and the short name inside them.
  for (const part of [bank, bank.replace(/\s*\(.*\)/, ''), /\((.*)\)/.exec(bank)?.[1]]) {
    if (part) BANK_KEYS.set(bankKey(part), bank);
  }
}

/**
 * The bank of NIGERIAN_BANKS a typed name means ("GTBank", "gtbank", "Guaranty Trust Bank", "Access"),
 * or null. Case, spaces, punctuation and words such as Bank, Plc, Nigeria are ignored.
 */
export function matchBank(text: string): NigerianBank | null {
  return BANK_KEYS.get(bankKey(text)) ?? null;
}

export const payoutDetailsInput = z.object({
  accountNumber: accountNumberField,
  accountName: requiredText('account name', 100),
  /** The spec's client types the bank's name; it is matched to our list (decision 0900). */
  bank: z.preprocess(
    (v) => (typeof v === 'string' ? (matchBank(v) ?? v) : v),
    z.enum(NIGERIAN_BANKS, messages.bankRule),
  ),
  /** Sent by the original client; must be the caller's own id when present. */
  lawyerId: z.uuid('lawyerId must be a valid id').optional(),
});
export type PayoutDetailsInput = z.input<typeof payoutDetailsInput>;
/**
 * The API's body for it: the spec shows no type for accountNumber, and one sent as a JSON number has lost
 * its leading zeros (123456789 for 0123456789); padded back to ten digits it is the number typed (decision
 * 2248). The web's form keeps its text schema.
 */
export const payoutDetailsBody = z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const n = (v as { accountNumber?: unknown }).accountNumber;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= 9_999_999_999
      ? { ...v, accountNumber: String(n).padStart(10, '0') }
      : v;
  },
  // The caller's own id when present; blank or JSON-quoted as the job page's (decision 2350).
  payoutDetailsInput.extend({ lawyerId: optionalLawyerId }),
);

export const accountDetails = z.object({ accountNumber: z.string(), accountName: z.string(), bank: z.string() });
export type AccountDetails = z.infer<typeof accountDetails>;

const payoutHolder = z.object({ _id: z.string(), accountDetails: z.array(accountDetails) });
/** GET /api/get-payment-details: `lawyer` at the top, with `_id` and `accountDetails`. */
export const getPaymentDetailsResponse = z.object({
  status: z.literal('success'),
  lawyer: payoutHolder.extend({ name: z.string(), officialEmail: z.string() }),
});
export type GetPaymentDetailsResponse = z.infer<typeof getPaymentDetailsResponse>;
/** POST /api/add-payment-details: `lawyer` at the top, with `_id` and `accountDetails`. */
export const addPaymentDetailsResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  lawyer: payoutHolder,
});
export type AddPaymentDetailsResponse = z.infer<typeof addPaymentDetailsResponse>;
/** PATCH /api/edit-payment-details: `lawyerUpdate.accountDetails` at the top. */
export const editPaymentDetailsResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  lawyerUpdate: payoutHolder,
});
export type EditPaymentDetailsResponse = z.infer<typeof editPaymentDetailsResponse>;

/**
 * POST /api/send-otp asked again while the code mailed less than a minute ago is unused: nothing is sent,
 * the answer stays the spec's 200 (decision 2221) and its Retry-After header says when a new code may be
 * asked for; the web then shows this (decision 2312).
 */
export const payoutCodeStillValid = (seconds: number) =>
  `We e-mailed you a code less than a minute ago and it still works. Please check your inbox and spam folder; you can ask for a new code in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;

/**
 * The code page's confirm got no answer (a dropped connection or the web's 30 s limit) and the same code
 * sent again was refused as used: the first try may have been taken. A code works once, so the web goes
 * on to the update step with this note instead of "OTP confirmed" (decision 2312).
 */
export const payoutCodeMaybeConfirmed =
  'The connection dropped before we could tell you whether your code was confirmed. It probably was: enter your new payment details. If it was not, we will ask you for a new code.';
/**
 * The update was refused for want of a confirmed code (403) and no earlier Update went out in this code's
 * window: nothing changed, a new code is needed (decision 2312).
 */
export const payoutCodeNotConfirmed = `Your payment details were not changed: your code was not confirmed, or its ${LIMITS.codeTtlMinutes} minutes are over. Send a new code to try again.`;
/**
 * The same 403 after an earlier Update of this window lost its answer, and the details read again are not
 * what it sent: that Update may have used the code, so nothing is claimed either way (decision 2312).
 */
export const payoutUpdateUnsure = `We could not tell whether your earlier Update went through: its answer was lost on the way, and your code has now been used or its ${LIMITS.codeTtlMinutes} minutes are over. Press Cancel to see the payment details we hold, or send a new code to change them.`;

/** The /lawyer/otp form's body: the six digits joined. */
export const payoutOtpForm = z.object({ otp: otpField });
/**
 * The spec sends the code "as joined digits" and names no field: `otp` and `OTP` are accepted (decision
 * 2234), and so are `code` (the screen's "one-time code") and `token` (the reset's confirm call sends its
 * code so, decision 2248). The digits made a number too (`codeAsText`).
 */
const CODE_FIELDS = ['otp', 'OTP', 'code', 'token'] as const;
export const confirmPayoutOtpInput = z.preprocess((v) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const sent = v as Record<string, unknown>;
  const field = CODE_FIELDS.find((f) => f in sent);
  return field ? { ...sent, otp: codeAsText(sent[field]) } : v;
}, payoutOtpForm);

/** Fields of the lawyer profile page; the side card's Profile Status bar is the share of them filled in. */
const LAWYER_PROFILE_FIELDS = [
  'profileImage',
  'name',
  'officialEmail',
  'phoneNumber',
  'scn',
  'yearOfCall',
  'yourBio',
  'alternativeEmailAddress',
  'areasOfPractise',
] as const;

export function profileCompleteness(p: Partial<Record<(typeof LAWYER_PROFILE_FIELDS)[number], unknown>>): number {
  const filled = LAWYER_PROFILE_FIELDS.filter((k) => {
    const v = p[k];
    if (Array.isArray(v)) return v.length > 0;
    if (v && typeof v === 'object') return Boolean((v as { url?: unknown }).url);
    return typeof v === 'string' ? v.trim().length > 0 : Boolean(v);
  }).length;
  return Math.round((filled / LAWYER_PROFILE_FIELDS.length) * 100);
}

/** "•••• 6789": how an account number appears in e-mails and logs. */
export const maskAccountNumber = (n: string) => `•••• ${n.slice(-4)}`;
