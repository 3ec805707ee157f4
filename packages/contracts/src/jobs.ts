import { z } from 'zod';
import { JOB_ACTIONS, JOB_STAGES, jobEvent } from './job-lifecycle.js';

/** The spec's three list statuses (a job's stage decides it: job-lifecycle.ts). */
export const JOB_STATUSES = ['unassigned', 'pending', 'completed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const person = z.object({ _id: z.string(), name: z.string(), officialEmail: z.string(), phoneNumber: z.string() });

/**
 * The one job answer shape (lawyer-and-admin spec, section 3), for companies, lawyers and admins alike.
 * apps/api/src/features/jobs/view.ts builds it; money is in naira.
 */
export const jobView = z.object({
  _id: z.string(),
  /** The spec's status; `cancelled` shows in none of the spec's lists. */
  status: z.enum([...JOB_STATUSES, 'cancelled']),
  /** Where the job is in JOB_LIFECYCLE (job-lifecycle.ts). */
  stage: z.enum(JOB_STAGES).optional(),
  /** 10 Nigerian working days after payment. */
  dueAt: z.string().optional(),
  /** Past its due date and not finished. */
  late: z.boolean().optional(),
  productId: z.object({
    _id: z.string(),
    productName: z.string(),
    productImage: z.string(),
    productPrice: z.number(),
    productDescription: z.string(),
  }),
  /**
   * Contact fields are empty for a lawyer reading a job not assigned to it; `_id` and `companyName` too
   * for an unverified lawyer (decision 2238).
   */
  companyId: person.omit({ name: true }).extend({ companyName: z.string() }),
  quantity: z.number(),
  amount: z.number(),
  detail: z.string().nullable(),
  companyDetail: z.string().nullable(),
  companyFile: z.string().nullable(),
  companyFileName: z.string().nullable(),
  lawyerRequestedDetail: z.string().nullable(),
  adminDetail: z.string().nullable(),
  adminFile: z.string().nullable(),
  adminFileName: z.string().nullable(),
  /** Contact fields are empty for the job's company: it reaches its lawyer on the job page (decision 2238). */
  assignedTo: z.array(
    person.extend({
      /**
       * The admin's answers only (the one job and the admin jobs lists): false when the lawyer lost
       * verification or the account (decisions 2316, 2333).
       */
      verified: z.boolean().optional(),
    }),
  ),
  /** Filled only where asked for (admin views); the spec spells it so. */
  appliedLawer: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      scn: z.string().nullable(),
      verified: z.boolean(),
      profileImage: z.object({ url: z.string() }).nullable(),
      createdAt: z.string(),
    }),
  ),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  /**
   * Admin's one-job answer only, on a job at work: whom an admin's Mark as Completed pays now (the job's
   * present lawyer) and how much (naira: what is held for the job less the commission), and whether that
   * lawyer has delivered on the job: after a hand-over the drafts may all be the replaced lawyer's (2322).
   */
  payOnComplete: z
    .object({ lawyerId: z.string(), name: z.string(), amount: z.number(), delivered: z.boolean() })
    .optional(),
});
export type JobViewResponse = z.infer<typeof jobView>;

/** GET /job-api/company/pendingjobs and /completedjobs: the company's own jobs as a bare array. */
export const companyJobsResponse = z.array(jobView);

/** PUT /job-api/company/editjobdetails/:jobId: the edited job under `data`. */
export const companyJobEditedResponse = z.object({ status: z.literal('success'), message: z.string(), data: jobView });

/** GET /job-api/jobs/:id: the job page for its company, its assigned lawyer and admins. */
export const jobPageResponse = z.object({
  job: jobView,
  /** How the reader relates to the job; the buttons follow from it. */
  viewer: z.enum(['company', 'assigned_lawyer', 'admin']),
  /** The actions this reader may take now, from JOB_LIFECYCLE. */
  actions: z.array(z.enum(JOB_ACTIONS)),
  /** The newest THREAD_PAGE events, oldest first. */
  events: z.array(jobEvent),
  /** Older events remain: GET /job-api/jobs/:id/events?before={events[0]._id} answers them. */
  earlier: z.boolean(),
  /** The newest event this reader has seen ("0" for none): later ones are unread. */
  lastReadEventId: z.string(),
  /**
   * The job was opened with a monthly plan's credit (decision 1900): it cost ₦0, and cancelling it gives
   * the credit back to the plan while its month lasts; no money is refunded.
   */
  planCredit: z.boolean(),
  /**
   * How many times the work has been delivered (0 before the first delivery). An acceptance or a
   * request for changes sends it back as `delivery`, so a newer delivery is never taken unseen (decision 2258).
   */
  deliveries: z.number(),
  /**
   * While the job is delivered: when the clock accepts the work unless the company accepts it or asks
   * for changes first (five Nigerian working days after the latest delivery, decision 2331); null
   * otherwise. Left out by answers made before it.
   */
  autoAcceptAt: z.string().nullable().optional(),
});
export type JobPageResponse = z.infer<typeof jobPageResponse>;
