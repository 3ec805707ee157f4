import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { messages, type companyJobDetailsInput } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { jobs } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { blankToNull } from '../../platform/text.js';
import { notFound } from '../../platform/errors.js';
import { assertAttachable, cleanFileName, threadUrl } from '../uploads/service.js';
import type { JobLifecycle } from './lifecycle-service.js';
import { findJobViews, forCompany, jobViewsJsonQuery } from './view.js';

type Deps = Pick<Shared, 'db' | 'clock' | 'mailWritten'>;

const openStatuses = ['unassigned', 'pending'] as const;

/** A company's own jobs: its open and completed lists, and the details it adds to a job. */
export function createCompanyJobsService({ db, clock, mailWritten }: Deps, lifecycle: JobLifecycle) {
  // The two lists every company page reads, built once (the SQL text and, on a server, its plan). The
  // statuses are written in, not sent as parameters: with `status in ($3, $4)` PostgreSQL judged its
  // generic plan dearer than a custom one and planned the list again on every request (0.5-0.8 ms).
  const ownJobs = eq(jobs.companyId, sql.placeholder('companyId'));
  const statusIs = (...statuses: Array<(typeof openStatuses)[number] | 'completed'>) =>
    sql`${jobs.status} in (${sql.raw(statuses.map((s) => `'${s}'`).join(', '))})`;
  // The assigned lawyer by name only (forCompany, decision 2238).
  const asCompany = { lawyerContacts: 'hidden' } as const;
  const pendingQuery = jobViewsJsonQuery(db, and(ownJobs, statusIs(...openStatuses)), asCompany).prepare(
    'company_pending_jobs',
  );
  const completedQuery = jobViewsJsonQuery(db, and(ownJobs, statusIs('completed')), asCompany).prepare(
    'company_completed_jobs',
  );
  return {
    /** The company's open jobs as JSON text (jobViewsJsonQuery): the list answered as the database built it. */
    pending: async (companyId: string) =>
      (await pendingQuery.execute({ companyId, now: clock.now().toISOString() }))[0].json,

    completed: async (companyId: string) =>
      (await completedQuery.execute({ companyId, now: clock.now().toISOString() }))[0].json,

    /** Sets the company's detail (and file) on its own open job; answers the job. */
    async editDetails(
      company: AuthUser,
      jobId: string,
      { detail, file, fileName }: z.output<typeof companyJobDetailsInput>,
    ) {
      await db.transaction(async (tx) => {
        const job = await lifecycle.lock(tx, jobId, messages.jobNotFound);
        // Another company's job answers as if it did not exist.
        if (job.companyId !== company.id) throw notFound(messages.jobNotFound);
        lifecycle.check(job, 'give_details', company);
        const set: Partial<typeof jobs.$inferInsert> = { companyDetail: detail };
        const ref = blankToNull(file);
        if (ref) {
          await assertAttachable(tx, company, ref, job.companyFile, fileName);
          set.companyFile = ref;
          set.companyFileName = cleanFileName(fileName, 'Document');
        }
        // The thread names one of our documents by its site-relative address, as the job page's own
        // actions do: canRead opens a thread's document by that address once the job's file moves on.
        const files = ref ? [{ url: threadUrl(ref), name: set.companyFileName! }] : [];
        // The same details sent again at once: given and told once (2221).
        if (await lifecycle.repeated(tx, job, 'give_details', company.id, detail, files)) return;
        await lifecycle.record(tx, job, 'give_details', company, { note: detail, files, set });
      });
      mailWritten();
      const [job] = await findJobViews(db, eq(jobs.id, jobId), { now: clock.now() });
      return forCompany(job);
    },
  };
}

export type CompanyJobsService = ReturnType<typeof createCompanyJobsService>;
