import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { messages, type companyJobDetailsInput } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import { jobs } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { blankToNull } from '../../platform/text.js';
import { conflict, notFound } from '../../platform/errors.js';
import { assertAttachable } from '../uploads/service.js';
import { findJobViews } from './view.js';

type Deps = Pick<Shared, 'db' | 'clock'>;

/** A company's own jobs: its open and completed lists, and the details it adds to a job. */
export function createCompanyJobsService({ db, clock }: Deps) {
  return {
    pending: (companyId: string) => findJobViews(db, and(eq(jobs.companyId, companyId), ne(jobs.status, 'completed'))),

    completed: (companyId: string) =>
      findJobViews(db, and(eq(jobs.companyId, companyId), eq(jobs.status, 'completed'))),

    /** Sets the company's detail (and file) on its own job that is not completed; answers the job. */
    async editDetails(
      company: AuthUser,
      jobId: string,
      { detail, file, fileName }: z.output<typeof companyJobDetailsInput>,
    ) {
      const companyId = company.id;
      const set: Partial<typeof jobs.$inferInsert> = { companyDetail: detail, updatedAt: clock.now() };
      if (blankToNull(file)) {
        const [own] = await db
          .select({ companyFile: jobs.companyFile })
          .from(jobs)
          .where(and(eq(jobs.id, jobId), eq(jobs.companyId, companyId)))
          .limit(1);
        await assertAttachable(db, company, file, own?.companyFile ?? null);
        set.companyFile = blankToNull(file);
        set.companyFileName = blankToNull(fileName) ?? 'Document';
      }
      const updated = await db
        .update(jobs)
        .set(set)
        .where(and(eq(jobs.id, jobId), eq(jobs.companyId, companyId), ne(jobs.status, 'completed')))
        .returning({ id: jobs.id });
      if (!updated.length) {
        const [own] = await db
          .select({ status: jobs.status })
          .from(jobs)
          .where(and(eq(jobs.id, jobId), eq(jobs.companyId, companyId)))
          .limit(1);
        if (own?.status === 'completed') throw conflict(messages.jobClosedForEdits);
        throw notFound(messages.notFound);
      }
      const [job] = await findJobViews(db, eq(jobs.id, jobId));
      return job;
    },
  };
}

export type CompanyJobsService = ReturnType<typeof createCompanyJobsService>;
