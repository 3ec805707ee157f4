import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { JobViewResponse } from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import { jobApplications, jobCounts, jobs, products, users } from '../../db/schema.js';

/** The one shape a job is answered in (`jobView` in contracts), shared by the company, lawyer and admin routes. */
export type JobView = JobViewResponse;

const company = alias(users, 'company');
const lawyer = alias(users, 'lawyer');

const jobViewFields = {
  job: jobs,
  product: {
    id: products.id,
    productName: products.productName,
    productImage: products.productImage,
    productPrice: products.productPrice,
    productDescription: products.productDescription,
  },
  company: {
    id: company.id,
    companyName: company.companyName,
    name: company.name,
    officialEmail: company.officialEmail,
    phoneNumber: company.phoneNumber,
  },
  lawyer: {
    id: lawyer.id,
    name: lawyer.name,
    officialEmail: lawyer.officialEmail,
    phoneNumber: lawyer.phoneNumber,
  },
};

/** Select of jobs joined with product, company and assigned lawyer: one query, no N+1. */
export function selectJobs(ex: Executor) {
  return ex
    .select(jobViewFields)
    .from(jobs)
    .innerJoin(products, eq(products.id, jobs.productId))
    .innerJoin(company, eq(company.id, jobs.companyId))
    .leftJoin(lawyer, eq(lawyer.id, jobs.assignedTo))
    .$dynamic();
}

/**
 * A lawyer's page of jobs in one round trip: selectJobs plus whether `lawyerId` applied to each job
 * and the list's total (`total`, read on every row), so a cold request costs one query, not three.
 */
export function selectLawyerJobPage(ex: Executor, lawyerId: string, total: SQL<number>) {
  return ex
    .select({
      ...jobViewFields,
      applied: sql<boolean>`exists (select 1 from ${jobApplications} where ${jobApplications.jobId} = ${jobs.id} and ${jobApplications.lawyerId} = ${lawyerId})`,
      total: total.mapWith(Number),
    })
    .from(jobs)
    .innerJoin(products, eq(products.id, jobs.productId))
    .innerJoin(company, eq(company.id, jobs.companyId))
    .leftJoin(lawyer, eq(lawyer.id, jobs.assignedTo))
    .$dynamic();
}

/** The total of a list read beside its page: every row counted before LIMIT and OFFSET. */
export const windowTotal = sql<number>`count(*) over ()`;
/** The total of a counted list (jobCount's keys) read beside its page. */
export const countedTotal = (key: 'open' | `status:${JobView['status']}`) =>
  sql<number>`(select ${jobCounts.n} from ${jobCounts} where ${jobCounts.key} = ${key})`;

/** The tables selectJobs reads (what cached job lists depend on, platform/response-cache.ts). */
export const JOB_VIEW_READS = ['jobs', 'products', 'users'] as const;
/** The tables of a paged job list: selectJobs, the applications (applicants, a lawyer's own) and jobCount. */
export const JOB_PAGE_READS = [...JOB_VIEW_READS, 'job_applications', 'job_counts'] as const;
/** The tables of a job's own page: its view, applicants (admins), events with their authors, read marks. */
export const JOB_THREAD_READS = [...JOB_VIEW_READS, 'job_applications', 'job_events', 'job_reads'] as const;
/** The notification centre and the bell's count. */
export const NOTIFICATION_READS = ['notifications'] as const;

type Row = Awaited<ReturnType<ReturnType<typeof selectJobs>['execute']>>[number];

export function toJobView(r: Row): JobView {
  const j = r.job;
  return {
    _id: j.id,
    status: j.status,
    stage: j.stage,
    dueAt: j.dueAt.toISOString(),
    late: j.dueAt.getTime() < Date.now() && !['completed', 'cancelled'].includes(j.stage),
    productId: {
      _id: r.product.id,
      productName: r.product.productName,
      productImage: r.product.productImage,
      productPrice: r.product.productPrice / 100,
      productDescription: r.product.productDescription,
    },
    companyId: {
      _id: r.company.id,
      companyName: r.company.companyName ?? r.company.name,
      officialEmail: r.company.officialEmail,
      phoneNumber: r.company.phoneNumber,
    },
    quantity: j.quantity,
    amount: j.amount / 100,
    detail: j.detail,
    companyDetail: j.companyDetail,
    companyFile: j.companyFile,
    companyFileName: j.companyFileName,
    lawyerRequestedDetail: j.lawyerRequestedDetail,
    adminDetail: j.adminDetail,
    adminFile: j.adminFile,
    adminFileName: j.adminFileName,
    assignedTo: r.lawyer?.id
      ? [
          {
            _id: r.lawyer.id,
            name: r.lawyer.name,
            officialEmail: r.lawyer.officialEmail,
            phoneNumber: r.lawyer.phoneNumber,
          },
        ]
      : [],
    appliedLawer: [],
    createdAt: j.createdAt.toISOString(),
    updatedAt: j.updatedAt.toISOString(),
    completedAt: j.completedAt?.toISOString() ?? null,
  };
}

/** Fills `appliedLawer` for the given views with one extra query. */
export async function withApplicants(ex: Executor, views: JobView[]): Promise<JobView[]> {
  if (!views.length) return views;
  const rows = await ex
    .select({
      jobId: jobApplications.jobId,
      id: users.id,
      name: users.name,
      scn: users.scn,
      verified: users.verified,
      profileImage: users.profileImage,
      createdAt: users.createdAt,
    })
    .from(jobApplications)
    .innerJoin(users, eq(users.id, jobApplications.lawyerId))
    .where(
      inArray(
        jobApplications.jobId,
        views.map((v) => v._id),
      ),
    )
    .orderBy(jobApplications.createdAt);
  const byJob = new Map<string, JobView['appliedLawer']>();
  for (const r of rows) {
    const list = byJob.get(r.jobId) ?? [];
    list.push({
      _id: r.id,
      name: r.name,
      scn: r.scn,
      verified: r.verified,
      profileImage: r.profileImage ? { url: r.profileImage } : null,
      createdAt: r.createdAt.toISOString(),
    });
    byJob.set(r.jobId, list);
  }
  return views.map((v) => ({ ...v, appliedLawer: byJob.get(v._id) ?? [] }));
}

/** Convenience: the views of the jobs matching `where`, newest first. */
export async function findJobViews(
  ex: Executor,
  where: SQL | undefined,
  opts: { limit?: number; offset?: number; order?: SQL[] } = {},
) {
  let q = selectJobs(ex)
    .where(where ?? and())
    .orderBy(...(opts.order ?? []), desc(jobs.createdAt), desc(jobs.id));
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset !== undefined) q = q.offset(opts.offset);
  return (await q).map(toJobView);
}

/**
 * How many jobs a list holds, read from the counters a trigger keeps (migration 0001_job_counts):
 * `status:unassigned|pending|completed`, or `open` (unassigned with nobody assigned). One row read
 * instead of counting every job of that state, so the lists cost the same with 1,000 or 100,000 jobs.
 */
export async function jobCount(ex: Executor, key: 'open' | `status:${JobView['status']}`): Promise<number> {
  const rows = await ex.select({ n: jobCounts.n }).from(jobCounts).where(eq(jobCounts.key, key)).limit(1);
  return Number(rows[0]?.n ?? 0);
}
