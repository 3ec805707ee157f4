import { and, desc, eq, sql } from 'drizzle-orm';
import { messages, type EditJobDetailsInput, type JobAction, type JobStatus } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { lockSetting } from '../../db/locks.js';
import { holidays, jobEvents, jobs, notifications, products, users } from '../../db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import { assertAttachable, cleanFileName, threadUrl } from '../uploads/service.js';
import {
  companyAssignedMail,
  companyReassignedMail,
  jobCompletedMail,
  lawyerAssignedMail,
  lawyerReassignedMail,
  lawyerReplacedMail,
} from './emails.js';
import { replacedText } from './notification-text.js';
import type { JobLifecycle } from './lifecycle-service.js';
import { checkShownPay, completedAsShown, type ShownPay } from './shown-pay.js';
import type { Ledger } from '../money/ledger.js';
import { applicantsJson, countedTotal, findJobViews, jobViewsJsonQuery, withApplicants, type JobView } from './view.js';

type Admin = { id: string; userType: 'admin'; name: string; verified: boolean };
const adminActing = (id: string): Admin => ({ id, userType: 'admin', name: 'Administrator', verified: true });

interface Paging {
  page: number;
  limit: number;
}

/**
 * Admin side of the job lifecycle. Every change locks the job row, asks the lifecycle table
 * (packages/contracts/src/job-lifecycle.ts) whether the admin may take the action now, and records it
 * (event, notifications) in the same transaction as its mail and audit entry.
 */
export function createJobsAdminService(shared: Shared, lifecycle: JobLifecycle, ledger: Ledger) {
  const { db, clock } = shared;
  const site = shared.config.PUBLIC_URL;
  const render = mailRenderer(shared.config);

  async function lockJob(tx: Executor, admin: Admin, jobId: string, action: JobAction) {
    const job = await lifecycle.lock(tx, jobId);
    lifecycle.check(job, action, admin);
    return job;
  }

  async function viewOf(ex: Executor, jobId: string): Promise<JobView> {
    const [view] = await withApplicants(ex, await findJobViews(ex, eq(jobs.id, jobId), { limit: 1, now: clock.now() }));
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

  /**
   * The lawyer a job was taken from is told, in the bell (under the hand-over's `assign` event) and by
   * mail (decision 2316); the lifecycle's own notice goes to the job's lawyer, now the new one.
   */
  async function tellReplaced(tx: Executor, job: typeof jobs.$inferSelect, from: string, product: string, now: Date) {
    const [old] = await tx
      .select({ name: users.name, email: users.officialEmail, deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, from));
    // An erased account has no inbox and no bell left to tell.
    if (!old || old.deletedAt) return;
    const [event] = await tx
      .select({ id: jobEvents.id })
      .from(jobEvents)
      .where(and(eq(jobEvents.jobId, job.id), eq(jobEvents.action, 'assign')))
      .orderBy(desc(jobEvents.id))
      .limit(1);
    const text = replacedText(product);
    await tx
      .insert(notifications)
      .values({ userId: from, jobId: job.id, eventId: event.id, action: 'assign', text, createdAt: now });
    await enqueueMail(
      tx,
      render(
        lawyerReplacedMail(old.email, {
          lawyerName: old.name,
          text,
          productName: product,
          url: `${site}/lawyer/dashboard`,
        }),
      ),
    );
  }

  const listHolidays = () =>
    db.select({ date: holidays.day, name: holidays.name }).from(holidays).orderBy(holidays.day);

  return {
    holidays: listHolidays,

    async saveHoliday(actorId: string, h: { date: string; name: string }) {
      if (Number.isNaN(Date.parse(`${h.date}T00:00:00Z`))) throw badRequest('Please enter a real date');
      await db.transaction(async (tx) => {
        await lockSetting(tx, `holiday:${h.date}`);
        const [before] = await tx.select().from(holidays).where(eq(holidays.day, h.date));
        // The holiday as it stands, sent again (a double tap, a retry), changes nothing and records nothing.
        if (before?.name === h.name) return;
        await tx
          .insert(holidays)
          .values({ day: h.date, name: h.name })
          .onConflictDoUpdate({ target: holidays.day, set: { name: h.name } });
        // A new day off moves the timers counted in working days now, not only when they come due
        // (decisions 2331, 2356); a rename keeps the days.
        if (!before) await lifecycle.recountHolidayTimers(tx);
        await recordAudit(tx, { actorId, action: 'holiday.save', targetType: 'holiday', targetId: h.date, details: h });
      });
      return listHolidays();
    },

    async deleteHoliday(actorId: string, date: string) {
      await db.transaction(async (tx) => {
        const gone = await tx.delete(holidays).where(eq(holidays.day, date)).returning();
        if (!gone.length) throw notFound('No holiday on that date');
        // A working day again: the timers counted over it are counted again (decision 2356).
        await lifecycle.recountHolidayTimers(tx);
        await recordAudit(tx, { actorId, action: 'holiday.delete', targetType: 'holiday', targetId: date });
      });
      return listHolidays();
    },

    /**
     * Paged list of one state, newest first, with the applicants (the assign page needs them).
     * `reordersAt`: for the late-first pending list, the next due time of any pending job, when the
     * order (so any page, not only the one holding that job) changes with nothing written.
     */
    async list(status: JobStatus, p: Paging) {
      const where = eq(jobs.status, status);
      // Late jobs first: they need an admin most.
      const now = clock.now();
      const order = status === 'pending' ? [sql`${jobs.dueAt} < ${now} desc`] : [];
      // The page, its applicants and the total in one statement: read apart, a job assigned or
      // completed between the reads made `total` disagree with the rows answered.
      const page = jobViewsJsonQuery(db, where, {
        limit: p.limit,
        offset: (p.page - 1) * p.limit,
        order,
        applicants: applicantsJson,
        // Which lawyers lost verification, so the admin sees the jobs to pass on (decision 2333).
        lawyerVerified: true,
        // No counter row until a job first takes this state.
        total: sql<number>`coalesce(${countedTotal(`status:${status}`)}, 0)`,
      });
      const [[row], next] = await Promise.all([
        page.execute({ now: now.toISOString() }),
        status === 'pending'
          ? db
              .select({ at: sql<number | null>`(extract(epoch from min(${jobs.dueAt})) * 1000)::float8` })
              .from(jobs)
              .where(and(where, sql`${jobs.dueAt} >= ${now}`))
          : null,
      ]);
      const at = next?.[0]?.at;
      const reordersAt = at == null ? undefined : new Date(Number(at));
      return { items: JSON.parse(row.json) as JobView[], total: row.total, reordersAt };
    },

    async one(jobId: string) {
      const view = await viewOf(db, jobId);
      if (!view) throw notFound(messages.jobNotFound);
      const [lawyer] = view.assignedTo;
      if (!lawyer) return view;
      // The admin's assign page offers to pass a job on when its lawyer lost verification (decision 2316).
      const [row] = await db
        .select({ verified: users.verified, deletedAt: users.deletedAt })
        .from(users)
        .where(eq(users.id, lawyer._id));
      const assignedTo = [{ ...lawyer, verified: Boolean(row?.verified && !row.deletedAt) }];
      if (view.stage === 'completed' || view.stage === 'cancelled') return { ...view, assignedTo };
      // Mark as Completed pays the present lawyer, who after a hand-over may have delivered nothing:
      // the admin's confirmation names whom it pays and how much before it is sent (decision 2322).
      const [earning, [delivery]] = await Promise.all([
        ledger.earningFor(db, jobId),
        db
          .select({ id: jobEvents.id })
          .from(jobEvents)
          .where(
            and(
              eq(jobEvents.jobId, jobId),
              eq(jobEvents.actorId, lawyer._id),
              sql`${jobEvents.action} in ('deliver', 'deliver_again')`,
            ),
          )
          .limit(1),
      ]);
      const payOnComplete = {
        lawyerId: lawyer._id,
        name: lawyer.name,
        amount: earning / 100,
        delivered: Boolean(delivery),
      };
      return { ...view, assignedTo, payOnComplete };
    },

    /**
     * Assigns an unassigned job to a verified lawyer. The job row is locked first, so when two
     * admins assign at once the second sees `pending` and gets a 409; the lawyer row is locked
     * too, so a concurrent withdrawal of verification cannot slip in between.
     */
    async assign(actorId: string, jobId: string, lawyerId: string) {
      const view = await db.transaction(async (tx) => {
        // A hand-over deletes the job's reminders: they are locked before the job, as the timer pass
        // takes them (a timer, then its job), so the two never wait on each other. The holiday lock
        // comes before both: a holiday's recount holds it while it rewrites those timers.
        await lifecycle.holdHolidays(tx);
        await lifecycle.lockReminders(tx, jobId);
        const job = await lifecycle.lock(tx, jobId);
        // A job at work whose lawyer lost verification (or the account) passes to another verified
        // lawyer; its thread and deliveries stay with it (decision 2310). Any other assigned job is refused.
        const from = job.assignedTo && job.stage !== 'completed' && job.stage !== 'cancelled' ? job.assignedTo : null;
        if (from) {
          const [current] = await tx
            .select({ verified: users.verified, deletedAt: users.deletedAt })
            .from(users)
            .where(eq(users.id, from))
            .for('share');
          if (current?.verified && !current.deletedAt) throw conflict(messages.jobAlreadyAssigned);
          // The delivery's lawyer is paid if the company accepts it: it is not handed to another.
          if (job.stage === 'delivered') throw conflict(messages.reassignDelivered);
        } else lifecycle.check(job, 'assign', adminActing(actorId));
        const lawyers = await tx
          .select()
          .from(users)
          .where(and(eq(users.id, lawyerId), eq(users.userType, 'lawyer')))
          .for('share');
        const lawyer = lawyers[0];
        if (!lawyer) throw notFound(messages.lawyerNotFound);
        // An erased lawyer ("Deleted user") is never assignable, even if verified before the erasure.
        if (!lawyer.verified || lawyer.deletedAt) throw conflict(messages.lawyerNotVerifiedForAssign);
        const now = clock.now();
        // The new lawyer of a job handed on gets a fresh due window from now, never an earlier date
        // than the company was given (2310); the reminders are set for it again (lifecycle record).
        const fresh = from ? await lifecycle.dueAtFor(tx, now) : null;
        const updated = await lifecycle.record(tx, job, 'assign', adminActing(actorId), {
          mail: false,
          set: { assignedTo: lawyer.id, assignedAt: now, ...(fresh && fresh > job.dueAt ? { dueAt: fresh } : {}) },
        });
        const to = updated.status;
        const ctx = await jobContext(tx, job);
        const companyName = ctx.company.companyName ?? ctx.company.name;
        if (from) await tellReplaced(tx, job, from, ctx.productName, now);
        const stage = job.stage.replace('_', ' ');
        const jobUrl = `${site}/jobs/${job.id}`;
        await enqueueMail(
          tx,
          render(
            from
              ? lawyerReassignedMail(lawyer.officialEmail, {
                  lawyerName: lawyer.name,
                  productName: ctx.productName,
                  companyName,
                  stage,
                  url: jobUrl,
                })
              : lawyerAssignedMail(lawyer.officialEmail, {
                  lawyerName: lawyer.name,
                  productName: ctx.productName,
                  companyName,
                  url: `${site}/lawyer/dashboard`,
                }),
          ),
        );
        await enqueueMail(
          tx,
          render(
            from
              ? companyReassignedMail(ctx.company.officialEmail, {
                  companyName,
                  productName: ctx.productName,
                  lawyerName: lawyer.name,
                  stage,
                  url: jobUrl,
                })
              : companyAssignedMail(ctx.company.officialEmail, {
                  companyName,
                  productName: ctx.productName,
                  lawyerName: lawyer.name,
                  url: `${site}/company/dashboard`,
                }),
          ),
        );
        await recordAudit(tx, {
          actorId,
          action: 'job.assign',
          targetType: 'job',
          targetId: job.id,
          details: {
            lawyerId: lawyer.id,
            lawyerName: lawyer.name,
            productName: ctx.productName,
            from: job.status,
            to,
            ...(from ? { replacedLawyerId: from } : {}),
          },
        });
        return viewOf(tx, job.id);
      });
      shared.mailWritten();
      return view;
    },

    /**
     * Marks a pending job completed; the company is told. `shown`: whom and how much the admin's
     * confirmation said it pays (payOnComplete); if another admin has since handed the job on or changed
     * the commission, 409 naming the new payee and amount instead of paying what was not confirmed (2340).
     */
    async complete(actorId: string, jobId: string, shown?: ShownPay) {
      const view = await db.transaction(async (tx) => {
        const job = await lifecycle.lock(tx, jobId);
        // Sent again after a lost answer with what its dialog showed: done already, so the job as it
        // stands, nothing recorded twice. A bare repeat or another completion keeps its 409 (2357).
        if (shown && (await completedAsShown(tx, job, actorId, shown))) return viewOf(tx, job.id);
        lifecycle.check(job, 'complete', adminActing(actorId));
        await checkShownPay(tx, ledger, job, shown);
        // The company gets the spec's e-mail below; the lawyer the job e-mail (the table tells both).
        const { status: to } = await lifecycle.record(tx, job, 'complete', adminActing(actorId), {
          mailed: ['company'],
        });
        const ctx = await jobContext(tx, job);
        await enqueueMail(
          tx,
          render(
            jobCompletedMail(ctx.company.officialEmail, {
              companyName: ctx.company.companyName ?? ctx.company.name,
              productName: ctx.productName,
              url: `${site}/company/dashboard`,
            }),
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
      const view = await db.transaction(async (tx) => {
        const job = await lockJob(tx, adminActing(actorId), jobId, 'add_details');
        const file = input.file?.trim() || null;
        const patch: Partial<typeof jobs.$inferInsert> = { adminDetail: input.detail.trim() };
        if (file) {
          await assertAttachable(tx, { id: actorId, userType: 'admin' }, file, job.adminFile, input.fileName);
          patch.adminFile = file;
          patch.adminFileName = cleanFileName(input.fileName?.trim() || file.split('/').pop(), 'document');
        }
        // Named in the thread by its site-relative address, so it keeps opening after the file is replaced.
        const files = file ? [{ url: threadUrl(file), name: patch.adminFileName ?? 'Document' }] : [];
        // The same details sent again at once: added, told and audited once (2221).
        if (await lifecycle.repeated(tx, job, 'add_details', actorId, patch.adminDetail!, files))
          return viewOf(tx, job.id);
        await lifecycle.record(tx, job, 'add_details', adminActing(actorId), {
          note: patch.adminDetail,
          files,
          set: patch,
        });
        await recordAudit(tx, {
          actorId,
          action: 'job.add_details',
          targetType: 'job',
          targetId: job.id,
          details: { withFile: Boolean(file), fileName: patch.adminFileName ?? job.adminFileName ?? null },
        });
        return viewOf(tx, job.id);
      });
      shared.mailWritten();
      return view;
    },
  };
}
export type JobsAdminService = ReturnType<typeof createJobsAdminService>;
