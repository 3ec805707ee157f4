import { and, eq } from 'drizzle-orm';
import {
  findTransition,
  messages,
  type EditJobDetailsInput,
  type JobAction,
  type JobStatus,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { jobs, products, users } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { enqueueMail, plainName } from '../../platform/mailer.js';
import { adminMail } from '../admin/emails.js';
import { assertAttachable } from '../uploads/service.js';
import { findJobViews, jobCount, withApplicants, type JobView } from './view.js';

interface Paging {
  page: number;
  limit: number;
}

/** Why the lifecycle table refuses an action in a state: one clear 409 per case. */
function refusal(action: JobAction, from: JobStatus): AppError {
  if (from === 'completed')
    return conflict(action === 'add_details' ? messages.jobClosedForDetails : messages.jobAlreadyCompleted);
  if (action === 'assign' && from === 'pending') return conflict(messages.jobAlreadyAssigned);
  if (action === 'complete' && from === 'unassigned') return conflict(messages.jobNotAssignedYet);
  return conflict(`A job that is ${from} cannot be changed this way.`);
}

/**
 * Admin side of the job lifecycle. Every change locks the job row, asks the lifecycle table in
 * packages/contracts/src/jobs.ts whether (action, state, admin) is allowed, and applies it in the
 * same transaction as its mail and audit entry.
 */
export function createJobsAdminService(shared: Shared) {
  const { db, clock } = shared;
  const site = shared.config.PUBLIC_URL;

  async function lockJob(tx: Executor, jobId: string, action: JobAction) {
    const rows = await tx.select().from(jobs).where(eq(jobs.id, jobId)).for('update');
    const job = rows[0];
    if (!job) throw notFound(messages.jobNotFound);
    const t = findTransition(action, job.status, 'admin');
    if (!t) throw refusal(action, job.status);
    return { job, to: t.to };
  }

  async function viewOf(ex: Executor, jobId: string): Promise<JobView> {
    const [view] = await withApplicants(ex, await findJobViews(ex, eq(jobs.id, jobId), { limit: 1 }));
    return view;
  }

  async function jobContext(tx: Executor, job: typeof jobs.$inferSelect) {
    const [row] = await tx
      .select({ productName: products.productName, company: users })
      .from(products)
      .innerJoin(users, eq(users.id, job.companyId))
      .where(eq(products.id, job.productId));
    return row;
  }

  return {
    /** Paged list of one state, newest first, with the applicants (the assign page needs them). */
    async list(status: JobStatus, p: Paging) {
      const where = eq(jobs.status, status);
      const [views, total] = await Promise.all([
        findJobViews(db, where, { limit: p.limit, offset: (p.page - 1) * p.limit }),
        jobCount(db, `status:${status}`),
      ]);
      return { items: await withApplicants(db, views), total };
    },

    async one(jobId: string) {
      const view = await viewOf(db, jobId);
      if (!view) throw notFound(messages.jobNotFound);
      return view;
    },

    /**
     * Assigns an unassigned job to a verified lawyer. The job row is locked first, so when two
     * admins assign at once the second sees `pending` and gets a 409; the lawyer row is locked
     * too, so a concurrent withdrawal of verification cannot slip in between.
     */
    async assign(actorId: string, jobId: string, lawyerId: string) {
      const view = await db.transaction(async (tx) => {
        const { job, to } = await lockJob(tx, jobId, 'assign');
        const lawyers = await tx
          .select()
          .from(users)
          .where(and(eq(users.id, lawyerId), eq(users.userType, 'lawyer')))
          .for('share');
        const lawyer = lawyers[0];
        if (!lawyer) throw notFound(messages.lawyerNotFound);
        if (!lawyer.verified) throw conflict(messages.lawyerNotVerifiedForAssign);
        const now = clock.now();
        const updated = await tx
          .update(jobs)
          .set({ status: to, assignedTo: lawyer.id, assignedAt: now, updatedAt: now })
          .where(and(eq(jobs.id, job.id), eq(jobs.status, job.status)))
          .returning({ id: jobs.id });
        if (!updated[0]) throw conflict(messages.jobAlreadyAssigned);
        const ctx = await jobContext(tx, job);
        const companyName = ctx.company.companyName ?? ctx.company.name;
        await enqueueMail(
          tx,
          adminMail(
            lawyer.officialEmail,
            `You have been assigned a job: ${ctx.productName}`,
            [
              `Hello ${lawyer.name},`,
              `An administrator has assigned you the job "${ctx.productName}" for ${plainName(companyName)}.`,
              'You will find it under your pending projects, with the company’s details and contacts.',
            ],
            { label: 'Open your projects', url: `${site}/lawyer/dashboard` },
          ),
        );
        await enqueueMail(
          tx,
          adminMail(
            ctx.company.officialEmail,
            `A lawyer is now working on ${ctx.productName}`,
            [
              `Hello ${companyName},`,
              `Your job "${ctx.productName}" has been assigned to ${plainName(lawyer.name)}, who will contact you.`,
            ],
            { label: 'See your jobs', url: `${site}/company/dashboard` },
          ),
        );
        await recordAudit(tx, {
          actorId,
          action: 'job.assign',
          targetType: 'job',
          targetId: job.id,
          details: { lawyerId: lawyer.id, lawyerName: lawyer.name, productName: ctx.productName, from: job.status, to },
        });
        return viewOf(tx, job.id);
      });
      shared.mailWritten();
      return view;
    },

    /** Marks a pending job completed; the company is told. */
    async complete(actorId: string, jobId: string) {
      const view = await db.transaction(async (tx) => {
        const { job, to } = await lockJob(tx, jobId, 'complete');
        const now = clock.now();
        await tx.update(jobs).set({ status: to, completedAt: now, updatedAt: now }).where(eq(jobs.id, job.id));
        const ctx = await jobContext(tx, job);
        await enqueueMail(
          tx,
          adminMail(
            ctx.company.officialEmail,
            `Your job is completed: ${ctx.productName}`,
            [
              `Hello ${ctx.company.companyName ?? ctx.company.name},`,
              `Your job "${ctx.productName}" has been marked completed. You will find it under Completed jobs on your dashboard.`,
            ],
            { label: 'See your jobs', url: `${site}/company/dashboard` },
          ),
        );
        await recordAudit(tx, {
          actorId,
          action: 'job.complete',
          targetType: 'job',
          targetId: job.id,
          details: { productName: ctx.productName, lawyerId: job.assignedTo, from: job.status, to },
        });
        return viewOf(tx, job.id);
      });
      shared.mailWritten();
      return view;
    },

    /**
     * Sets the admin's details (text, and a document when given) on an open job. Not a state
     * change, but the lifecycle table still decides: a completed job is closed.
     */
    async addDetails(actorId: string, jobId: string, input: EditJobDetailsInput) {
      return db.transaction(async (tx) => {
        const { job } = await lockJob(tx, jobId, 'add_details');
        const file = input.file?.trim() || null;
        const patch: Partial<typeof jobs.$inferInsert> = {
          adminDetail: input.detail.trim(),
          updatedAt: clock.now(),
        };
        if (file) {
          await assertAttachable(tx, { id: actorId, userType: 'admin' }, file, job.adminFile);
          patch.adminFile = file;
          patch.adminFileName = input.fileName?.trim() || file.split('/').pop() || 'document';
        }
        await tx.update(jobs).set(patch).where(eq(jobs.id, job.id));
        await recordAudit(tx, {
          actorId,
          action: 'job.add_details',
          targetType: 'job',
          targetId: job.id,
          details: { withFile: Boolean(file), fileName: patch.adminFileName ?? job.adminFileName ?? null },
        });
        return viewOf(tx, job.id);
      });
    },
  };
}
export type JobsAdminService = ReturnType<typeof createJobsAdminService>;
