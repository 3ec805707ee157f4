import { z } from 'zod';
import { jobView } from './jobs.js';
import { dataResponse, nullsNotSent, showsText } from './common.js';
import { LIMITS, LIST_CAP, LIST_LIMIT_MAX, ORDER_STATUSES } from './constants.js';
import { messages } from './messages.js';

/**
 * Admin workspace: paging, lawyers and companies as the admin sees them, jobs, assignment,
 * payments ledger, settlement account, audit log. One schema per request and answer.
 */

/** `page` (from 1) and `limit` (1 to 100, default the spec's 5) on every admin list. */
export const pageQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(1_000_000, 'page is too large')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(LIMITS.adminPageSize),
});

/** The fields every list answer carries around its items, in `paged` and `listed` alike (fresh per list). */
const listEnvelope = () => ({
  status: z.literal('success'),
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  results: z.number(),
});

/**
 * The paging envelope: the spec's item shape stays under `data` (`data.company`, `data.lawyers`,
 * `data.jobs`); `total` counts every matching item, `page`/`limit` echo the request.
 */
export const paged = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.object({
    ...listEnvelope(),
    data: z.object({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }),
  });

/**
 * The lists of the spec's call table (admin jobs, companies, lawyers). Without `page` the whole list
 * up to `limit` (default LIST_CAP); with `page` the paged form, `limit` defaulting to the spec's 5.
 */
export const listQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(1_000_000, 'page is too large')
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(LIST_LIMIT_MAX, `limit must be at most ${LIST_LIMIT_MAX}`)
    .optional(),
});

/** The page a list query reads, and whether the client asked for the paged form (`page` sent). */
export const listPaging = (q: { page?: number; limit?: number }) =>
  q.page === undefined
    ? { paged: false, page: 1, limit: q.limit ?? LIST_CAP }
    : { paged: true, page: q.page, limit: q.limit ?? LIMITS.adminPageSize };

/**
 * A list with its key at the top of the body, as the spec's client reads it (`company`, `lawyers`,
 * `jobs`); `total` counts every matching item, `page`/`limit` tell what was read.
 */
export const listed = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.object({
    ...listEnvelope(),
    ...({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }),
  });

/**
 * `listed`, with the items under `data` too: the lawyer-and-admin table answers `data.company list` and
 * `data.lawyers`, written as it writes the login's `data.user` (decision 2234). The top-level key stays
 * for our web and for readers of decision 0901.
 */
export const listedWithData = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  listed(key, item).extend({ data: z.object({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }) });

const image = z.object({ url: z.string() }).nullable();

/** A lawyer as the admin sees it (spec section 3: Lawyer). */
const adminLawyer = z.object({
  _id: z.string(),
  name: z.string(),
  phoneNumber: z.string(),
  officialEmail: z.string(),
  lawFirmName: z.string().nullable(),
  lawFirmAddress: z.string().nullable(),
  scn: z.string().nullable(),
  cac: z.string().nullable(),
  areasOfPractise: z.array(z.string()),
  verified: z.boolean(),
  /**
   * Set while an admin's refusal stands (decision 1860): the reason the lawyer was e-mailed and when.
   * Null once the lawyer changes the profile (asking to be checked again) or is verified.
   */
  verificationRejection: z.object({ reason: z.string(), rejectedAt: z.string() }).nullable(),
  yearOfCall: z.string().nullable(),
  yourBio: z.string().nullable(),
  alternativeEmailAddress: z.string().nullable(),
  profileImage: image,
  createdAt: z.string(),
});
export type AdminLawyer = z.infer<typeof adminLawyer>;

/** A company as the admin sees it (spec section 3: Company as seen by admin). */
const adminCompany = z.object({
  _id: z.string(),
  name: z.string(),
  companyName: z.string().nullable(),
  contactName: z.string().nullable(),
  phoneNumber: z.string(),
  officialEmail: z.string(),
  officeAddress: z.string().nullable(),
  cac: z.string().nullable(),
  industry: z.string().nullable(),
  website: z.string().nullable(),
  yourBio: z.string().nullable(),
  alternativeEmailAddress: z.string().nullable(),
  profileImage: image,
  createdAt: z.string(),
});
export type AdminCompany = z.infer<typeof adminCompany>;

export const companiesResponse = listedWithData('company', adminCompany);
export type CompaniesResponse = z.infer<typeof companiesResponse>;
export const lawyersResponse = listedWithData('lawyers', adminLawyer);
export type LawyersResponse = z.infer<typeof lawyersResponse>;

/** A profile as its owner reads it: the admin's view of the same account, with `userType`. */
export const companyProfile = adminCompany.extend({ userType: z.literal('company') });
export type CompanyProfile = z.infer<typeof companyProfile>;
export const lawyerProfile = adminLawyer.extend({ userType: z.literal('lawyer') });
export type LawyerProfile = z.infer<typeof lawyerProfile>;
const adminProfile = adminCompany
  .pick({
    _id: true,
    name: true,
    officialEmail: true,
    phoneNumber: true,
    profileImage: true,
    yourBio: true,
    alternativeEmailAddress: true,
    createdAt: true,
  })
  .extend({ userType: z.literal('admin') });

/**
 * GET /api/lawyer/{id} (admin): `lawyer` at the top (decision 0901), and under `data` too: the spec's
 * table answers `data.lawyer`, as it answers the company's `data.company` (decisions 2210, 2234).
 */
export const lawyerResponse = z.object({
  status: z.literal('success'),
  lawyer: lawyerProfile,
  data: z.object({ lawyer: lawyerProfile }),
});
export type LawyerResponse = z.infer<typeof lawyerResponse>;
/**
 * GET /api/company/{id} (admin): `company` at the top (decision 0901), and under `data` too: the spec's
 * table answers `data.company`, written as it writes the login's `data.user` (decision 2210).
 */
export const companyResponse = z.object({
  status: z.literal('success'),
  company: companyProfile,
  data: z.object({ company: companyProfile }),
});
export type CompanyResponse = z.infer<typeof companyResponse>;

/** GET /api/userprofile?_id=: the profile itself, `_id` equal to the id asked for (spec section 6). */
export const userProfileResponse = z.discriminatedUnion('userType', [companyProfile, lawyerProfile, adminProfile]);
export type UserProfileResponse = z.infer<typeof userProfileResponse>;

/** PATCH /api/updateprofile: `company` or `lawyer` at the top, as the spec's table answers. */
export const updateProfileResponse = z.union([
  z.object({ status: z.literal('success'), message: z.string(), company: companyProfile }),
  z.object({ status: z.literal('success'), message: z.string(), lawyer: lawyerProfile }),
]);
export type UpdateProfileResponse = z.infer<typeof updateProfileResponse>;

export const verifyLawyerInput = z.object({
  // "Verify lawyer | verified true": a client that keeps the flag as form text sends "true"; the texts
  // `true` and `false` are read as the booleans (decision 2234). Anything else is still refused.
  verified: z.preprocess(
    (v) => (typeof v === 'string' && /^\s*(true|false)\s*$/i.test(v) ? v.trim().toLowerCase() === 'true' : v),
    z.boolean({ error: 'verified must be true or false' }),
  ),
});
/** POST /api/rejectlawyer/{id}: why the application is refused, e-mailed to the lawyer as written. */
export const rejectLawyerInput = z.object({
  reason: z
    .string({ error: messages.rejectionReasonRequired })
    .trim()
    .min(10, messages.rejectionReasonRequired)
    .max(1000, 'reason must be at most 1000 characters'),
});
export type RejectLawyerInput = z.infer<typeof rejectLawyerInput>;
export const verifyLawyerResponse = dataResponse('lawyer', adminLawyer);

/** Admin job lists without `page`: an array of jobs, as the spec's client reads them. */
export const adminJobsResponse = z.array(jobView);
/** Admin job lists with `page` (our admin pages): `jobs` at the top with the paging figures. */
export const adminJobsPageResponse = listed('jobs', jobView);
export type AdminJobsPageResponse = z.infer<typeof adminJobsPageResponse>;
export const oneJobResponse = dataResponse('job', jobView);
export type OneJobResponse = z.infer<typeof oneJobResponse>;

export const assignJobInput = z.object({
  jobId: z.uuid('jobId must be a valid id'),
  // No lawyer chosen answers the spec's alert (lawyer-and-admin spec, sections 5 and 8).
  lawyerId: z.uuid({
    error: (issue) =>
      issue.input === undefined || issue.input === null || (typeof issue.input === 'string' && !issue.input.trim())
        ? messages.selectLawyer
        : Array.isArray(issue.input)
          ? 'Please select one lawyer: a job is assigned to one lawyer.'
          : 'lawyerId must be a valid id',
  }),
});
export type AssignJobInput = z.input<typeof assignJobInput>;
/**
 * The API's body for it: the assign page's "select checkbox (single selection)" kept as the list of checked
 * rows. A list of one is that lawyer, an empty list no lawyer chosen (decision 2248).
 */
export const assignJobBody = z.preprocess((v) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const chosen = (v as { lawyerId?: unknown }).lawyerId;
  return Array.isArray(chosen) && chosen.length <= 1 ? { ...v, lawyerId: chosen[0] } : v;
}, assignJobInput);

/**
 * A file reference stored on a job, as POST /api/uploads answers it: `/uploads/<random key>` on this
 * site, or an http(s) address. Anything else (javascript:, data:, protocol-relative) is refused. Empty is
 * no file, as the spec's optional `file` arrives from a form without an upload.
 */
export const fileReference = z
  .string({ error: 'file must be text' })
  .trim()
  .max(500, 'file must be at most 500 characters')
  .regex(/^(\/uploads\/[A-Za-z0-9._-]+|https?:\/\/\S+|)$/, 'file must be a URL answered by /api/uploads');

export const editJobDetailsInput = z.object({
  detail: z
    .string({ error: messages.kindlyAddDetails })
    .trim()
    .min(1, messages.kindlyAddDetails)
    .max(5000, 'Details must be at most 5000 characters')
    .refine(showsText, messages.kindlyAddDetails),
  file: fileReference.optional(),
  fileName: z
    .string({ error: 'File name must be text' })
    .trim()
    .max(255, 'File name must be at most 255 characters')
    .optional(),
});
export type EditJobDetailsInput = z.input<typeof editJobDetailsInput>;
/** The API's body for it: `file` and `fileName` sent null are not sent, as on the company's form (decision 2210). */
export const editJobDetailsBody = nullsNotSent(['file', 'fileName'], editJobDetailsInput);

/** The platform's settlement account (admin payment page), kept in app_settings. */
export const settlementAccountInput = z.object({
  accountNumber: z
    .string({ error: 'Please enter the account number' })
    .trim()
    .regex(/^\d{10}$/, 'Account number must be the 10-digit NUBAN account number'),
  accountName: z
    .string({ error: 'Please enter the account name' })
    .trim()
    .min(1, 'Please enter the account name')
    .max(120, 'Account name must be at most 120 characters'),
  bank: z
    .string({ error: 'Please enter the bank' })
    .trim()
    .min(1, 'Please enter the bank')
    .max(120, 'bank must be at most 120 characters'),
});
export type SettlementAccountInput = z.input<typeof settlementAccountInput>;
export const settlementAccount = z.object({
  accountNumber: z.string(),
  accountName: z.string(),
  bank: z.string(),
  updatedAt: z.string(),
});
export const settlementAccountResponse = dataResponse('account', settlementAccount.nullable());
export type SettlementAccountResponse = z.infer<typeof settlementAccountResponse>;

const isoDay = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date like 2026-01-31`)
    // Date.parse rolls 2025-02-30 over to March and takes year 0000, which the database refuses (a 500).
    .refine((v) => {
      const t = Date.parse(`${v}T00:00:00Z`);
      return !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
    }, `${name} must be a real date`)
    .refine((v) => v >= '2000-01-01' && v <= '2100-12-31', `${name} must be between 2000-01-01 and 2100-12-31`);

export const paymentsQuery = pageQuery
  .extend({
    from: isoDay('from').optional(),
    to: isoDay('to').optional(),
    status: z.enum(ORDER_STATUSES, 'status must be pending, paid, failed, expired or replaced').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type PaymentsQuery = z.input<typeof paymentsQuery>;

export const payment = z.object({
  _id: z.string(),
  reference: z.string(),
  provider: z.string(),
  providerTransactionId: z.string().nullable(),
  title: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(ORDER_STATUSES),
  company: z.object({ _id: z.string(), companyName: z.string(), officialEmail: z.string() }),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
const statusTotal = z.object({ count: z.number(), amount: z.number() });
export const paymentsResponse = z.object({
  status: z.literal('success'),
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  results: z.number(),
  data: z.object({
    payments: z.array(payment),
    /** Over the whole chosen period (every page), naira. */
    totals: z.object({
      paid: statusTotal,
      pending: statusTotal,
      failed: statusTotal,
      expired: statusTotal,
      replaced: statusTotal,
    }),
  }),
});
export type PaymentsResponse = z.infer<typeof paymentsResponse>;

const auditEntry = z.object({
  _id: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  actor: z.object({ _id: z.string(), name: z.string(), officialEmail: z.string() }).nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditLogResponse = paged('entries', auditEntry);

/** What an audit entry can name (`targetType`): each opens a page of its own on the web. */
export const AUDIT_TARGET_TYPES = [
  'job',
  'lawyer',
  'company',
  'product',
  'review',
  'payout',
  'order',
  'refund',
  'settings',
  'holiday',
  'remuneration_order',
  'user',
] as const;

/**
 * The audit page's filters (docs/decisions/2021-the-audit-page.md): `actor` is an admin's id or part of
 * their name or e-mail, `action` one action (`job.assign`), `targetType`/`targetId` the object,
 * `from`/`to` the period (YYYY-MM-DD, UTC, inclusive); paged as every admin list.
 */
export const auditLogQuery = pageQuery
  .extend({
    actor: z.string().trim().max(200, 'actor must be at most 200 characters').optional(),
    action: z
      .string()
      .trim()
      .regex(/^[a-z0-9_.]{1,64}$/, 'action must be an action name like job.assign')
      .optional(),
    targetType: z.enum(AUDIT_TARGET_TYPES, `targetType must be one of ${AUDIT_TARGET_TYPES.join(', ')}`).optional(),
    targetId: z.string().trim().max(100, 'targetId must be at most 100 characters').optional(),
    from: isoDay('from').optional(),
    to: isoDay('to').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type AuditLogQuery = z.input<typeof auditLogQuery>;

export const dashboardResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    counts: z.object({
      openJobs: z.number(),
      pendingJobs: z.number(),
      completedJobs: z.number(),
      unverifiedLawyers: z.number(),
      verifiedLawyers: z.number(),
      companies: z.number(),
      payments: z.number(),
      reviews: z.number(),
    }),
    recentActivity: z.array(auditEntry),
  }),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;

/** Human words for audit actions (dashboard). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'lawyer.verify': 'verified a lawyer',
  'lawyer.unverify': 'revoked a lawyer’s verification',
  'job.assign': 'assigned a job',
  'job.complete': 'marked a job completed',
  'job.add_details': 'added details to a job',
  'job.cancel': 'cancelled a job',
  'payout.approve': 'approved a payout',
  'payout.reject': 'rejected a payout',
  'product.create': 'created a product',
  'product.update': 'updated a product',
  'product.delete': 'deleted a product',
  'review.remove': 'removed a review',
  'settlement.update': 'changed the settlement account',
  'remuneration_order.upload': 'uploaded the Remuneration Order',
  'lawyer.reject': 'rejected a lawyer’s verification',
  'lawyer.scn_change': 'changed a lawyer’s SCN',
  'holiday.save': 'saved a holiday',
  'holiday.delete': 'deleted a holiday',
  'money_settings.update': 'changed the commission or holding period',
  'two_factor.enable': 'turned on two-factor authentication',
  'two_factor.disable': 'turned off two-factor authentication',
  'two_factor.not_me': 'turned off two-factor authentication with the “This wasn’t me” link',
  'two_factor.undo_email_change': 'had two-factor authentication turned off by undoing a change of address',
  'sessions.end_others': 'signed out of all other devices',
  'payout_details.not_me': 'removed payout details with the “This wasn’t me” link',
};

// ---------------------------------------------------------------- remuneration order

const MB = 1024 * 1024;
/** PUT /api/remuneration-order: the body is the PDF itself, at most this many bytes. */
export const REMUNERATION_ORDER_MAX_BYTES = 20 * MB;

/**
 * The admin's Remuneration Order upload as the browser can check it before sending: a PDF by its
 * name or type, not empty, within the limit. The server then checks its bytes (a damaged PDF: 422).
 */
export const remunerationOrderUpload = z.object({
  file: z
    .custom<File | null>()
    .superRefine((file, ctx) => {
      const problem = !(file instanceof Blob)
        ? 'Choose the PDF to upload'
        : file.size === 0
          ? 'The file is empty. Choose the PDF again.'
          : file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)
            ? 'The file must be a PDF'
            : file.size > REMUNERATION_ORDER_MAX_BYTES
              ? `The file is too large: the limit is ${REMUNERATION_ORDER_MAX_BYTES / MB} MB`
              : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .pipe(z.custom<File>((v) => v instanceof Blob)),
});
