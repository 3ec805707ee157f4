import { z } from 'zod';
import type { UserType } from './constants.js';

/**
 * The job lifecycle, defined once. The API applies transitions through `canTransition`;
 * pages derive which buttons to show from (state, role).
 */
export const JOB_STATUSES = ['unassigned', 'pending', 'completed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JOB_TRANSITIONS = [
  { action: 'assign', from: 'unassigned', to: 'pending', roles: ['admin'] },
  { action: 'complete', from: 'pending', to: 'completed', roles: ['admin'] },
  // Not a state change: an admin adds details (text and a document) while the job is still open.
  { action: 'add_details', from: 'unassigned', to: 'unassigned', roles: ['admin'] },
  { action: 'add_details', from: 'pending', to: 'pending', roles: ['admin'] },
] as const satisfies ReadonlyArray<{
  action: string;
  from: JobStatus;
  to: JobStatus;
  roles: readonly UserType[];
}>;
export type JobAction = (typeof JOB_TRANSITIONS)[number]['action'];

export function findTransition(action: JobAction, from: JobStatus, role: UserType) {
  const t = JOB_TRANSITIONS.find(
    (x) => x.action === action && x.from === from && (x.roles as readonly UserType[]).includes(role),
  );
  return t ?? null;
}

export const allowedActions = (from: JobStatus, role: UserType): JobAction[] =>
  JOB_TRANSITIONS.filter((t) => t.from === from && (t.roles as readonly UserType[]).includes(role)).map(
    (t) => t.action,
  );

const person = z.object({ _id: z.string(), name: z.string(), officialEmail: z.string(), phoneNumber: z.string() });

/**
 * The one job answer shape (lawyer-and-admin spec, section 3), for companies, lawyers and admins alike.
 * apps/api/src/features/jobs/view.ts builds it; money is in naira.
 */
export const jobView = z.object({
  _id: z.string(),
  status: z.enum(JOB_STATUSES),
  productId: z.object({
    _id: z.string(),
    productName: z.string(),
    productImage: z.string(),
    productPrice: z.number(),
    productDescription: z.string(),
  }),
  /** Contact fields are empty for a lawyer reading a job not assigned to it. */
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
  assignedTo: z.array(person),
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
});
export type JobViewResponse = z.infer<typeof jobView>;

/** GET /job-api/company/pendingjobs and /completedjobs: the company's own jobs as a bare array. */
export const companyJobsResponse = z.array(jobView);

/** PUT /job-api/company/editjobdetails/:jobId: the edited job under `data`. */
export const companyJobEditedResponse = z.object({ status: z.literal('success'), message: z.string(), data: jobView });
