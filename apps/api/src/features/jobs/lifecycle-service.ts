import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import {
  DUE_WORKING_DAYS,
  FINAL_STAGES,
  JOB_PAGE_ACTIONS,
  LIMITS,
  THREAD_PAGE,
  EVENTS_AFTER_MAX,
  findJobTransition,
  messages,
  nextStage,
  noteMissingMessage,
  showsText,
  toKobo,
  transitionOf,
  type JobAction,
  type JobActor,
  type JobEventResponse,
  type JobPageResponse,
  type JobRecipient,
  type JobStage,
} from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import { lockLiveAccount, lockSetting, readSetting } from '../../db/locks.js';
import { holidays, jobEvents, jobReads, jobs, jobTimers, notifications, products, users } from '../../db/schema.js';
import { liveAdmin } from '../../db/admins.js';
import type { AuthUser } from '../../platform/auth.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { recordAudit } from '../../platform/audit.js';
import { mailRenderer } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import { plainName } from '../../platform/mail-templates.js';
import { addWorkingDays, dueDate } from '../../platform/working-days.js';
import {
  assertAttachable,
  attachedFileMissing,
  cleanFileName,
  keyOfUrl,
  threadUrl,
  uploadedNames,
  uploadUrl,
} from '../uploads/service.js';
import { jobEventMail } from './emails.js';
import { recipientsText } from './notification-text.js';
import { APPLICANT_NAME, jobPageJsonQuery, notificationsQuery } from './view.js';
import type { Ledger } from '../money/ledger.js';
import type { Refunds } from '../money/refunds.js';
import { checkShownPay, type ShownPay } from './shown-pay.js';

type Job = typeof jobs.$inferSelect;
type EventFile = { url: string; name: string };
/** Who acts: a signed-in user, or the scheduler / the payment (no user). */
type Acting = Pick<AuthUser, 'id' | 'userType' | 'name' | 'verified'> | { clock: true } | { payment: true };
/** The lock a holiday change takes to count the timers again, and the transitions that start them share. */
const HOLIDAY_TIMERS_KEY = 'holiday-timers';

const STAGE_WORDS: Record<JobStage, string> = {
  unassigned: 'waiting for a lawyer',
  in_progress: 'in progress',
  delivered: 'delivered',
  changes_requested: 'waiting for the requested changes',
  completed: 'completed',
  cancelled: 'cancelled',
};

/** How the acting user relates to this job, in the lifecycle table's words; null: no relation. */
function actorOf(job: Job, acting: Acting): JobActor | null {
  if ('clock' in acting) return 'clock';
  if ('payment' in acting) return 'payment';
  if (acting.userType === 'admin') return 'admin';
  if (acting.userType === 'company') return job.companyId === acting.id ? 'company' : null;
  if (job.assignedTo === acting.id) return 'assigned_lawyer';
  return acting.verified ? 'applicant' : null;
}

/**
 * When the clock accepts a delivery made at `deliveredAt`: the lifecycle table's working days after it
 * (Lagos days, the holidays table's days skipped). The timer is set with it, and the job page and the
 * delivery mail read that timer's moment, so all three say one date.
 */
export function autoAcceptAt(deliveredAt: Date, hs: ReadonlySet<string>): Date {
  return addWorkingDays(deliveredAt, transitionOf('auto_accept').at!.workingDays, hs);
}

/** The one refusal for an action the table does not allow: 403 for a stranger, 409 for the wrong moment. */
export function refuse(job: Job, action: JobAction, actor: JobActor | null): never {
  const t = transitionOf(action);
  // The spec's answer to a lawyer applying to a job that is no longer open, its own included.
  if (action === 'apply' && actor === 'assigned_lawyer') throw conflict(messages.jobNotOpen);
  if (!actor || !(t.actors as readonly JobActor[]).includes(actor))
    throw forbidden(actor === 'applicant' || !actor ? messages.notPartyToJob : messages.forbidden);
  if (job.stage === 'completed')
    throw conflict(
      action === 'add_details'
        ? messages.jobClosedForDetails
        : action === 'give_details'
          ? messages.jobClosedForEdits
          : messages.jobAlreadyCompleted,
    );
  // A job cancelled while it waited for a lawyer was never assigned: it is said to be cancelled.
  if (action === 'assign')
    throw conflict(job.stage === 'cancelled' ? messages.jobCancelledNoAssign : messages.jobAlreadyAssigned);
  if (action === 'complete' && job.stage === 'unassigned') throw conflict(messages.jobNotAssignedYet);
  if (action === 'apply') throw conflict(messages.jobNotOpen);
  if (action === 'give_details' && job.stage === 'cancelled') throw conflict(messages.jobClosedForEdits);
  throw conflict(`This job is ${STAGE_WORDS[job.stage]}: “${t.label}” is not possible now.`);
}

/** A note as it is stored: without the blanks around it, and empty when nothing of it shows (showsText). */
function visible(note: string | undefined): string {
  const text = note?.trim() ?? '';
  return showsText(text) ? text : '';
}

function noteOf(action: JobAction, note: string | undefined): string | null {
  // Its length was checked once, by the route's schema (jobActionRequest): counting a long note's
  // characters again would double the request's dearest work (decision 2336).
  const text = visible(note);
  if (!text && transitionOf(action).needs?.note) throw badRequest(noteMissingMessage(action));
  return text || null;
}

export function createJobLifecycle(
  shared: Pick<Shared, 'db' | 'clock' | 'config' | 'mailWritten'>,
  money: { ledger: Ledger; refunds: Refunds },
) {
  const { ledger } = money;
  const { db, clock } = shared;
  const site = shared.config.PUBLIC_URL;
  const render = mailRenderer(shared.config);
  // The page every party opens, built once (the SQL text and, on a server, its plan).
  const pageQuery = jobPageJsonQuery(db).prepare('job_page');
  const notificationsPage = notificationsQuery(db).prepare('notifications_page');
  // The bell asks this on every page change and every 30 s: built once, planned once on a server.
  const unreadQuery = db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(notifications)
    .where(and(eq(notifications.userId, sql.placeholder('userId')), isNull(notifications.readAt)))
    .prepare('notifications_unread');

  /** A job id that cannot exist answers 404 before any query (the id column is a uuid). */
  function assertJobId(jobId: string, missing: string = messages.jobNotFound) {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(jobId)) throw notFound(missing);
  }

  /** The event of this action this user already took on this job under this client key, if any. */
  async function keyed(ex: Executor, jobId: string, userId: string, action: JobAction, key: string) {
    const [row] = await ex
      .select({ note: jobEvents.note, files: jobEvents.files })
      .from(jobEvents)
      .where(
        and(
          eq(jobEvents.jobId, jobId),
          eq(jobEvents.actorId, userId),
          eq(jobEvents.action, action),
          eq(jobEvents.clientKey, key),
        ),
      )
      .limit(1);
    return row;
  }

  /**
   * Whether a request sent again under its key carries what the event it made holds (note and
   * documents as they were stored): a different one is another request, never to be answered as done.
   */
  function sameRequest(
    taken: { note: string | null; files: EventFile[] },
    input: { note?: string; files?: EventFile[] },
  ) {
    if ((visible(input.note) || null) !== taken.note) return false;
    const sent = (input.files ?? []).map((f) => {
      const key = keyOfUrl(f.url);
      return [key && uploadUrl(key), cleanFileName(f.name, 'Document')];
    });
    return JSON.stringify(sent) === JSON.stringify(taken.files.map((f) => [f.url, f.name]));
  }

  /**
   * Whether a cancellation sent again under its key asks for the refund its first sending made (in
   * kobo, as posted): none given is everything held, or nothing for a plan job (its credit goes back).
   */
  async function sameRefund(tx: Executor, job: Job, refundNaira: number | undefined) {
    const posted = (await ledger.cancellationOf(tx, job.id)) ?? { held: 0, refund: 0 };
    const asked = refundNaira !== undefined ? toKobo(refundNaira) : job.subscriptionId ? 0 : posted.held;
    return asked === posted.refund;
  }

  /**
   * Whether an action of the spec's routes, which carry no key, is the job's newest event sent again:
   * the same action by the same person with the same words and documents within the repeat window (a
   * double tap, a retry after a lost answer), taken once (docs/decisions/2221). Asked under the job's
   * row lock, so the second of two requests at once finds the first one's event.
   */
  async function repeated(
    tx: Executor,
    job: Job,
    action: JobAction,
    actorId: string,
    note: string,
    files: EventFile[],
  ) {
    const [last] = await tx
      .select({
        action: jobEvents.action,
        actorId: jobEvents.actorId,
        note: jobEvents.note,
        files: jobEvents.files,
        createdAt: jobEvents.createdAt,
      })
      .from(jobEvents)
      .where(eq(jobEvents.jobId, job.id))
      .orderBy(desc(jobEvents.id))
      .limit(1);
    if (!last || last.action !== action || last.actorId !== actorId || last.note !== note) return false;
    if (last.createdAt.getTime() <= clock.now().getTime() - LIMITS.repeatWindowSeconds * 1000) return false;
    const pairs = (list: EventFile[]) => JSON.stringify(list.map((f) => [f.url, f.name]));
    return pairs(last.files) === pairs(files);
  }

  async function holidaySet(ex: Executor) {
    return new Set((await ex.select({ day: holidays.day }).from(holidays)).map((h) => h.day));
  }

  /** The transitions that start timers counted in working days (assign, deliver, request_changes). */
  const countsWorkingDays = (action: JobAction) =>
    action === 'assign' || action === 'deliver' || action === 'deliver_again' || action === 'request_changes';

  /**
   * Holds off a holiday change (recountHolidayTimers) until this transaction commits, so the timers it
   * counts are either counted with the change or found and counted again by it (decision 2356). Shared:
   * transitions never wait on each other. Take it first in the transaction, before any timer or job
   * row: the recount waits here holding no row, then rewrites timer rows the timer pass may hold.
   */
  const holdHolidays = (tx: Executor) => readSetting(tx, HOLIDAY_TIMERS_KEY);

  /**
   * Called in the transaction that adds or removes a public holiday: the pending timers counted in
   * working days are counted again with the holidays as they now stand (decision 2356). A delivered
   * job's automatic acceptance only ever moves later, so the page names the new moment (decision 2331)
   * and a deadline the company was told is never shortened (decision 2335); the reminders, which promise
   * nothing, follow the count either way: the company's from its delivery, the lawyer's due-soon one
   * back from the due date.
   */
  async function recountHolidayTimers(tx: Executor): Promise<void> {
    // One holiday change at a time, so each counts with the holidays the one before it committed.
    await lockSetting(tx, HOLIDAY_TIMERS_KEY);
    const hs = await holidaySet(tx);
    const pending = await tx
      .select({
        id: jobTimers.id,
        action: jobTimers.action,
        fireAt: jobTimers.fireAt,
        deliveredAt: jobs.deliveredAt,
        dueAt: jobs.dueAt,
      })
      .from(jobTimers)
      .innerJoin(jobs, eq(jobs.id, jobTimers.jobId))
      .where(
        and(
          isNull(jobTimers.firedAt),
          or(
            and(
              inArray(jobTimers.action, ['auto_accept', 'remind_company']),
              eq(jobs.deliveries, jobTimers.cycle),
              eq(jobs.stage, 'delivered'),
              isNotNull(jobs.deliveredAt),
            ),
            and(eq(jobTimers.action, 'remind_due'), notInArray(jobs.stage, [...FINAL_STAGES])),
          ),
        ),
      )
      // In the timer pass's order: it holds one timer at a time, in this order.
      .orderBy(asc(jobTimers.fireAt), asc(jobTimers.id));
    for (const timer of pending) {
      const days = transitionOf(timer.action as JobAction).at!.workingDays;
      const fireAt =
        timer.action === 'remind_due'
          ? addWorkingDays(timer.dueAt, days, hs)
          : addWorkingDays(timer.deliveredAt!, days, hs);
      if (fireAt.getTime() === timer.fireAt.getTime()) continue;
      if (timer.action === 'auto_accept' && fireAt < timer.fireAt) continue;
      // The timer pass may have put an acceptance off meanwhile: never earlier than it stands.
      const at =
        timer.action === 'auto_accept'
          ? sql`greatest(${jobTimers.fireAt}, ${fireAt.toISOString()}::timestamptz)`
          : fireAt;
      await tx
        .update(jobTimers)
        .set({ fireAt: at })
        .where(and(eq(jobTimers.id, timer.id), isNull(jobTimers.firedAt)));
    }
  }

  async function lock(tx: Executor, jobId: string, missing: string = messages.jobNotFound): Promise<Job> {
    assertJobId(jobId, missing);
    const [job] = await tx.select().from(jobs).where(eq(jobs.id, jobId)).for('update');
    if (!job) throw notFound(missing);
    return job;
  }

  /**
   * Locks the job's reminder timers, in the order the timer pass takes them, before the job is locked:
   * a reassignment deletes them, and the pass holds a timer while it waits for the job's lock, so taking
   * the job first and its timers second would deadlock with it.
   */
  async function lockReminders(tx: Executor, jobId: string): Promise<void> {
    assertJobId(jobId);
    await tx
      .select({ id: jobTimers.id })
      .from(jobTimers)
      .where(and(eq(jobTimers.jobId, jobId), inArray(jobTimers.action, ['remind_due', 'remind_late'])))
      .orderBy(asc(jobTimers.fireAt), asc(jobTimers.id))
      .for('update');
  }

  /** Checks the files a party attaches: each one its own upload, named for display. */
  async function filesOf(tx: Executor, acting: Acting, files: EventFile[] | undefined): Promise<EventFile[]> {
    if (!files?.length) return [];
    if ('clock' in acting || 'payment' in acting) return [];
    const out: EventFile[] = [];
    for (const f of files) {
      const key = keyOfUrl(f.url);
      if (!key) throw attachedFileMissing(f.name, f.url);
      // One document twice (under two names, or as a relative and an absolute address) is one document:
      // listed twice it would show twice and be taken for two.
      if (out.some((o) => o.url === uploadUrl(key))) throw badRequest(messages.documentAttachedTwice);
      await assertAttachable(tx, acting, f.url, null, f.name);
      out.push({ url: uploadUrl(key), name: cleanFileName(f.name, 'Document') });
    }
    return out;
  }

  /**
   * Records an action taken on a locked job: the stage change, the event, the clock's timers, a
   * notification and an e-mail to each recipient the table names (never the actor). Runs inside the
   * caller's transaction; the caller calls mailWritten() after commit.
   */
  async function record(
    tx: Executor,
    job: Job,
    action: JobAction,
    acting: Acting,
    input: {
      note?: string | null;
      files?: EventFile[];
      /** false: no e-mail at all (in-app only). */
      mail?: boolean;
      /** Recipients the caller e-mails itself with a spec template; the others get the job e-mail. */
      mailed?: readonly JobRecipient[];
      set?: Partial<typeof jobs.$inferInsert>;
      /** The client's key for this action (act). */
      key?: string;
    } = {},
  ): Promise<Job> {
    const t = transitionOf(action);
    const now = clock.now();
    // An assignment to a job at work passes it to another lawyer at the stage it stands (decision 2310).
    const to = action === 'assign' && job.stage !== 'unassigned' ? job.stage : nextStage(t, job.stage);
    const set: Partial<typeof jobs.$inferInsert> = { ...input.set };
    if (to !== job.stage) set.stage = to;
    if (action === 'deliver' || action === 'deliver_again') {
      set.deliveredAt = now;
      set.deliveries = job.deliveries + 1;
    }
    if (to === 'completed') set.completedAt = now;
    if (to === 'cancelled') set.cancelledAt = now;
    let updated = job;
    if (Object.keys(set).length) {
      set.updatedAt = now;
      [updated] = await tx.update(jobs).set(set).where(eq(jobs.id, job.id)).returning();
    }
    // A completed job pays its lawyer in the same transaction (the ledger posts it once).
    if (to === 'completed' && job.stage !== 'completed') await ledger.recordEarning(tx, updated);
    const actorId = 'id' in acting ? acting.id : null;
    const actorRole = 'clock' in acting ? 'clock' : 'payment' in acting ? 'payment' : acting.userType;
    const [event] = await tx
      .insert(jobEvents)
      .values({
        jobId: job.id,
        action,
        actorId,
        actorRole,
        note: input.note ?? null,
        files: input.files ?? [],
        fromStage: action === 'paid' ? null : job.stage,
        toStage: to,
        createdAt: now,
        clientKey: input.key ?? null,
      })
      .returning({ id: jobEvents.id });

    // The clock's timers start with the transition that makes them due, under the holiday lock (the caller
    // took it first; taken again, it waits for nothing): a holiday declared or removed meanwhile waits for
    // this commit and then counts these timers too, or is counted here (decisions 2345, 2356).
    if (countsWorkingDays(action)) await holdHolidays(tx);
    const hs = countsWorkingDays(action) ? await holidaySet(tx) : null;
    if (action === 'assign' && hs) {
      // Handed to another lawyer (2310): the old lawyer's reminders go, the new lawyer's due window
      // (set by the caller) gets its own, as at a first assignment. The caller locked these timers
      // before the job (lockReminders), as the timer pass does.
      if (job.stage !== 'unassigned')
        await tx
          .delete(jobTimers)
          .where(and(eq(jobTimers.jobId, job.id), inArray(jobTimers.action, ['remind_due', 'remind_late'])));
      const due = updated.dueAt;
      await tx
        .insert(jobTimers)
        .values([
          { jobId: job.id, action: 'remind_due', fireAt: addWorkingDays(due, -2, hs) },
          { jobId: job.id, action: 'remind_late', fireAt: due },
        ])
        .onConflictDoNothing();
    }
    // Back at work after a delivery: a reminder that fell due while the job was delivered was passed
    // over, so each one the lawyer has not had yet is set again for this round (the late one at once
    // when the job is late already).
    if (action === 'request_changes' && hs) {
      const sent = new Set(
        (
          await tx
            .select({ action: jobEvents.action })
            .from(jobEvents)
            .where(
              and(
                eq(jobEvents.jobId, job.id),
                inArray(jobEvents.action, ['remind_due', 'remind_late']),
                // Only the reminders of the job's present lawyer: a replaced one's were not theirs.
                sql`${jobEvents.id} > coalesce((select max(e.id) from ${jobEvents} e
                  where e.job_id = ${job.id} and e.action = 'assign'), 0)`,
              ),
            )
        ).map((e) => e.action),
      );
      // A timer not fired yet still stands: it is not set twice.
      for (const pending of await tx
        .select({ action: jobTimers.action })
        .from(jobTimers)
        .where(
          and(
            eq(jobTimers.jobId, job.id),
            inArray(jobTimers.action, ['remind_due', 'remind_late']),
            isNull(jobTimers.firedAt),
          ),
        ))
        sent.add(pending.action);
      const due = updated.dueAt;
      const soon = addWorkingDays(due, -2, hs);
      const again = [
        ...(!sent.has('remind_due') && !sent.has('remind_late') && soon > now
          ? [{ jobId: job.id, action: 'remind_due', cycle: updated.deliveries, fireAt: soon }]
          : []),
        ...(!sent.has('remind_late')
          ? [{ jobId: job.id, action: 'remind_late', cycle: updated.deliveries, fireAt: due > now ? due : now }]
          : []),
      ];
      if (again.length) await tx.insert(jobTimers).values(again).onConflictDoNothing();
    }
    // Named in the company's delivery mail: the moment the clock accepts this delivery unanswered.
    let acceptsAt: Date | null = null;
    if ((action === 'deliver' || action === 'deliver_again') && hs) {
      const cycle = updated.deliveries;
      acceptsAt = autoAcceptAt(now, hs);
      await tx
        .insert(jobTimers)
        .values([
          { jobId: job.id, action: 'auto_accept', cycle, fireAt: acceptsAt },
          { jobId: job.id, action: 'remind_company', cycle, fireAt: addWorkingDays(now, 3, hs) },
        ])
        .onConflictDoNothing();
    }
    // The company's reminder asks for an answer: it names the moment the clock answers instead, as the
    // delivery's mail did (decision 2339), from the timer that will fire then.
    if (action === 'remind_company') {
      const fireAt = await acceptTimerOf({ id: job.id, deliveries: updated.deliveries }, tx);
      // Due already (the scheduler was down and both came due in one tick): no past moment is named.
      acceptsAt = fireAt && fireAt > now ? fireAt : null;
    }

    // Notifications: one per recipient user, never to the actor.
    const [ctx] = await tx
      .select({
        productName: products.productName,
        companyName: sql<string>`coalesce(${users.companyName}, ${users.name})`,
        companyEmail: users.officialEmail,
      })
      .from(products)
      .innerJoin(users, eq(users.id, updated.companyId))
      .where(eq(products.id, updated.productId));
    const lawyer = updated.assignedTo
      ? (
          await tx
            .select({ id: users.id, name: users.name, email: users.officialEmail })
            .from(users)
            .where(eq(users.id, updated.assignedTo))
        )[0]
      : undefined;
    const recipients = new Map<string, { email: string; as: JobRecipient }>();
    for (const r of t.notify) {
      if (r === 'company') recipients.set(updated.companyId, { email: ctx.companyEmail, as: r });
      if (r === 'lawyer' && lawyer) recipients.set(lawyer.id, { email: lawyer.email, as: r });
      if (r === 'admins') {
        const admins = await tx.select({ id: users.id, email: users.officialEmail }).from(users).where(liveAdmin);
        for (const a of admins) recipients.set(a.id, { email: a.email, as: r });
      }
    }
    if (actorId) recipients.delete(actorId);
    const who =
      'name' in acting
        ? acting.userType === 'company'
          ? ctx.companyName
          : acting.name
        : action === 'assign' || action === 'remind_company'
          ? (lawyer?.name ?? '')
          : ctx.companyName;
    const text = recipientsText(
      action,
      plainName(action === 'assign' ? (lawyer?.name ?? who) : who),
      ctx.productName,
      updated.dueAt,
    );
    // A message is e-mailed to someone who has read the thread since the last one they were told
    // of; while one sits unread, the next wait in the thread and the bell, so a chatty party does not
    // fill every inbox (decision 2160).
    const waiting =
      action === 'message' && recipients.size
        ? new Set(
            (
              await tx
                .selectDistinct({ userId: notifications.userId })
                .from(notifications)
                .where(
                  and(
                    eq(notifications.jobId, job.id),
                    eq(notifications.action, 'message'),
                    isNull(notifications.readAt),
                    inArray(notifications.userId, [...recipients.keys()]),
                  ),
                )
            ).map((r) => r.userId),
          )
        : new Set<string>();
    if (recipients.size) {
      await tx.insert(notifications).values(
        [...recipients.keys()].map((userId) => ({
          userId,
          jobId: job.id,
          eventId: event.id,
          action,
          text,
          createdAt: now,
        })),
      );
      if (input.mail !== false) {
        // The mail lists each document under the name it was uploaded with, which ends in its real
        // extension, not the free text it was attached under (decision 2297).
        const uploaded =
          'id' in acting
            ? await uploadedNames(tx, input.files?.map((f) => f.url) ?? [], acting)
            : new Map<string, string>();
        const mail = {
          text,
          note: action !== 'apply' ? input.note : null,
          files: input.files?.map((f) => uploaded.get(threadUrl(f.url)) ?? f.name),
          url: `${site}/jobs/${job.id}`,
          thread: action === 'message',
        };
        for (const [userId, { email, as }] of recipients)
          if (!input.mailed?.includes(as) && !waiting.has(userId))
            await enqueueMail(
              tx,
              render(jobEventMail(email, as === 'company' && acceptsAt ? { ...mail, acceptsAt } : mail)),
            );
      }
    }
    return updated;
  }

  /** The due date of a job paid now: 10 working days. */
  async function dueAtFor(ex: Executor, paidAt: Date) {
    return dueDate(paidAt, DUE_WORKING_DAYS, await holidaySet(ex));
  }

  function check(job: Job, action: JobAction, acting: Acting) {
    const actor = actorOf(job, acting);
    const t = actor ? findJobTransition(action, job.stage, actor) : null;
    if (!t) refuse(job, action, actor);
    // A lawyer whose verification was withdrawn while assigned reads the job but adds nothing to it
    // until verified again or replaced by an admin (decision 2310).
    if (actor === 'assigned_lawyer' && 'verified' in acting && !acting.verified)
      throw forbidden(messages.assignedLawyerUnverified);
    return t;
  }

  function toEvent(r: {
    id: number;
    action: string;
    actorId: string | null;
    actorRole: string;
    actorName: string | null;
    actorCompany: string | null;
    note: string | null;
    files: EventFile[];
    fromStage: string | null;
    toStage: string;
    createdAt: Date;
  }): JobEventResponse {
    const role = r.actorRole as JobEventResponse['actor']['role'];
    const name =
      role === 'clock'
        ? 'LegalMarket'
        : role === 'payment'
          ? 'Payment'
          : role === 'admin'
            ? `${r.actorName ?? 'Administrator'} (admin)`
            : (r.actorCompany ?? r.actorName ?? 'Former user');
    return {
      _id: String(r.id),
      action: r.action as JobAction,
      actor: { _id: r.actorId, name, role },
      note: r.note,
      files: r.files,
      fromStage: r.fromStage as JobStage | null,
      toStage: r.toStage as JobStage,
      createdAt: r.createdAt.toISOString(),
    };
  }

  /**
   * A job's events, oldest first: all after `after`, or the latest THREAD_PAGE before `before` (the
   * newest when it is absent) with `earlier` saying whether older ones remain.
   */
  async function eventsOf(
    ex: Executor,
    jobId: string,
    at: { after: number } | { before?: number },
    reader: Pick<AuthUser, 'userType'>,
  ) {
    // Who applied is named to admins only (decision 0301), as on the job page (jobPageJsonQuery).
    const named = (e: JobEventResponse): JobEventResponse =>
      reader.userType === 'admin' || e.action !== 'apply'
        ? e
        : { ...e, actor: { ...e.actor, _id: null, name: APPLICANT_NAME } };
    const columns = {
      id: jobEvents.id,
      action: jobEvents.action,
      actorId: jobEvents.actorId,
      actorRole: jobEvents.actorRole,
      actorName: users.name,
      actorCompany: users.companyName,
      note: jobEvents.note,
      files: jobEvents.files,
      fromStage: jobEvents.fromStage,
      toStage: jobEvents.toStage,
      createdAt: jobEvents.createdAt,
    };
    const from = () => ex.select(columns).from(jobEvents).leftJoin(users, eq(users.id, jobEvents.actorId));
    if ('after' in at) {
      const rows = await from()
        .where(and(eq(jobEvents.jobId, jobId), gt(jobEvents.id, at.after)))
        .orderBy(asc(jobEvents.id))
        .limit(EVENTS_AFTER_MAX + 1);
      return {
        events: rows.slice(0, EVENTS_AFTER_MAX).map((r) => named(toEvent(r))),
        earlier: false,
        later: rows.length > EVENTS_AFTER_MAX,
      };
    }
    const rows = await from()
      .where(and(eq(jobEvents.jobId, jobId), at.before ? lt(jobEvents.id, at.before) : undefined))
      .orderBy(desc(jobEvents.id))
      .limit(THREAD_PAGE + 1);
    return {
      events: rows
        .slice(0, THREAD_PAGE)
        .reverse()
        .map((r) => named(toEvent(r))),
      earlier: rows.length > THREAD_PAGE,
      later: false,
    };
  }

  /** Who may open the job page: its company, its assigned lawyer, admins. Applicants read the brief only. */
  function viewerOf(job: Job, user: AuthUser): JobPageResponse['viewer'] {
    const actor = actorOf(job, user);
    if (actor === 'company' || actor === 'assigned_lawyer' || actor === 'admin') return actor;
    throw forbidden(messages.notPartyToJob);
  }

  const actionsFor = (job: Job, user: AuthUser) => {
    const actor = actorOf(job, user);
    if (!actor || (actor === 'assigned_lawyer' && !user.verified)) return [];
    return ([...JOB_PAGE_ACTIONS, 'assign'] as const).filter((a) => findJobTransition(a, job.stage, actor));
  };

  /**
   * When the clock will accept the job's latest delivery: its timer's moment (autoAcceptAt at the
   * delivery), null when there is none; the cached page reads the timers (JOB_THREAD_READS).
   */
  async function acceptTimerOf(job: Pick<Job, 'id' | 'deliveries'>, ex: Executor = db): Promise<Date | null> {
    const [timer] = await ex
      .select({ fireAt: jobTimers.fireAt })
      .from(jobTimers)
      .where(
        and(
          eq(jobTimers.jobId, job.id),
          eq(jobTimers.action, 'auto_accept'),
          eq(jobTimers.cycle, job.deliveries),
          isNull(jobTimers.firedAt),
        ),
      )
      .limit(1);
    return timer?.fireAt ?? null;
  }

  async function readJob(jobId: string) {
    assertJobId(jobId);
    const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId)).limit(1);
    if (!job) throw notFound(messages.jobNotFound);
    return job;
  }

  /**
   * Fires the clock's transitions due at `at`, each in its own transaction: the timer row is taken
   * with SKIP LOCKED and marked fired under that lock, so several instances never fire one twice and
   * a crash leaves it to the next tick. A timer whose job has moved on is marked fired and does nothing.
   * A timer that fails is left for the next tick and passed over for the rest of this one, so it never
   * holds back the timers due after it; the tick then throws its errors (the caller logs them).
   */
  async function tick(at: Date = clock.now()): Promise<number> {
    let fired = 0;
    const failed: number[] = [];
    const errors: unknown[] = [];
    for (;;) {
      let taken: number | null = null;
      const took = await db
        .transaction(async (tx) => {
          const [timer] = await tx
            .select()
            .from(jobTimers)
            .where(
              and(
                isNull(jobTimers.firedAt),
                lte(jobTimers.fireAt, at),
                failed.length ? notInArray(jobTimers.id, failed) : undefined,
              ),
            )
            .orderBy(asc(jobTimers.fireAt), asc(jobTimers.id))
            .limit(1)
            .for('update', { skipLocked: true });
          if (!timer) return 'none';
          taken = timer.id;
          const job = await lock(tx, timer.jobId);
          const action = timer.action as JobAction;
          // A delivery's timers belong to its round. The lawyer's reminders belong to no round: their
          // number only keeps a reminder set again apart from the one passed over, and the stage decides
          // (WORKING); judged by the count, one set again by a request for changes was passed over once
          // the work was delivered and sent back again, and that round set none while it stood.
          const reminder = action === 'remind_due' || action === 'remind_late';
          const current = reminder || timer.cycle === 0 || timer.cycle === job.deliveries;
          const fires = current && findJobTransition(action, job.stage, 'clock');
          // A public holiday declared after the delivery (the admin's table) is not a working day the
          // company loses: counted again with today's holidays, a later moment puts the timer off.
          if (fires && fires.at?.after === 'delivered' && job.deliveredAt) {
            const fireAt = addWorkingDays(job.deliveredAt, fires.at.workingDays, await holidaySet(tx));
            if (fireAt > at) {
              await tx.update(jobTimers).set({ fireAt }).where(eq(jobTimers.id, timer.id));
              return 'passed';
            }
          }
          if (fires) await record(tx, job, action, { clock: true });
          await tx.update(jobTimers).set({ firedAt: clock.now() }).where(eq(jobTimers.id, timer.id));
          return fires ? 'fired' : 'passed';
        })
        .catch((err: unknown) => {
          if (taken === null) throw err;
          failed.push(taken);
          errors.push(err);
          return 'failed';
        });
      if (took === 'none') break;
      if (took === 'fired') fired++;
    }
    if (fired) shared.mailWritten();
    if (errors.length) throw new AggregateError(errors, `${errors.length} job timer(s) failed: ${failed.join(', ')}`);
    return fired;
  }

  return {
    record,
    check,
    repeated,
    tick,
    recountHolidayTimers,
    mailWritten: () => shared.mailWritten(),
    lock,
    lockReminders,
    holdHolidays,
    dueAtFor,

    /** Applies one of the job page's actions (message, deliver, accept, ...) in one transaction. */
    async act(
      user: AuthUser,
      jobId: string,
      action: JobAction,
      input: {
        note?: string;
        files?: EventFile[];
        refund?: number;
        key?: string;
        delivery?: number;
        payOnComplete?: ShownPay;
      },
    ) {
      if (input.refund !== undefined && action !== 'cancel') throw badRequest('Only a cancellation takes a refund');
      if (input.payOnComplete !== undefined && action !== 'complete')
        throw badRequest('Only a completion takes payOnComplete');
      const judged = action === 'accept' || action === 'request_changes';
      if (input.delivery !== undefined && !judged) throw badRequest(messages.deliveryNotNamed);
      const refundId = await db.transaction(async (tx) => {
        // A plan job's cancel takes its company's lock before the job's, as a credit request does.
        if (action === 'cancel') {
          assertJobId(jobId);
          await money.refunds.lockForCancel(tx, jobId);
        }
        if (countsWorkingDays(action)) await holdHolidays(tx);
        const job = await lock(tx, jobId);
        // After the company's and the job's locks, as the erasure takes its locks before the account's row.
        const { verified } = await lockLiveAccount(tx, user.id);
        // Taken already under this key (a double click, a retry): answered as done, not taken again.
        // The job's lock makes the second request wait for the first and then find its event.
        const taken = input.key ? await keyed(tx, jobId, user.id, action, input.key) : undefined;
        if (taken) {
          // A key reused for other words or documents would otherwise drop them silently.
          if (!sameRequest(taken, input)) throw new AppError(422, messages.actionKeyReused);
          // A cancellation sent again with another refund would be answered as if that refund were made.
          if (action === 'cancel' && !(await sameRefund(tx, job, input.refund)))
            throw new AppError(422, messages.cancelKeyReused);
          return null;
        }
        check(job, action, { ...user, verified });
        // Under the job's lock, then the money settings' lock, as the spec's completion checks it (2340).
        if (action === 'complete') await checkShownPay(tx, ledger, job, input.payOnComplete);
        // Taken on the delivery the reader saw, not on one that replaced it since (decision 2258).
        if (judged && input.delivery !== undefined && input.delivery !== job.deliveries)
          throw input.delivery > job.deliveries
            ? badRequest(`This job has no delivery ${input.delivery}: it was delivered ${job.deliveries} time(s)`)
            : conflict(messages.deliveryReplaced);
        const note = noteOf(action, input.note);
        const files = await filesOf(tx, user, input.files);
        if (transitionOf(action).needs?.files && !files.length) throw badRequest(messages.deliveryNeedsDocument);
        const set: Partial<typeof jobs.$inferInsert> = {};
        // The spec's single fields answer the latest of each kind.
        if (action === 'request_details') set.lawyerRequestedDetail = note;
        if (action === 'give_details') {
          set.companyDetail = note;
          if (files[0]) Object.assign(set, { companyFile: files[0].url, companyFileName: files[0].name });
        }
        if (action === 'add_details') {
          set.adminDetail = note;
          if (files[0]) Object.assign(set, { adminFile: files[0].url, adminFileName: files[0].name });
        }
        // A cancellation releases what is held for the job and opens the company's refund, in this transaction.
        const opened = action === 'cancel' ? await money.refunds.open(tx, job, user, input.refund, note) : null;
        await record(tx, job, action, user, { note, files, set, key: input.key });
        // An admin's override from the job page is audited as the spec's routes audit it (the
        // cancellation is audited where its refund opens).
        if (user.userType === 'admin' && (action === 'complete' || action === 'add_details'))
          await recordAudit(tx, {
            actorId: user.id,
            action: `job.${action}`,
            targetType: 'job',
            targetId: job.id,
            details:
              action === 'complete'
                ? { lawyerId: job.assignedTo, from: job.status, to: 'completed', via: 'job page' }
                : { withFile: Boolean(files[0]), fileName: files[0]?.name ?? null, via: 'job page' },
          });
        return opened;
      });
      shared.mailWritten();
      // The provider is asked after the commit: a slow provider never holds the job's lock.
      if (refundId) await money.refunds.send(refundId);
      return this.page(user, jobId);
    },

    /**
     * The job page, read in one statement (jobPageJsonQuery); the job row beside it decides who may
     * read it and which actions they may take. Answered as JSON text, serialised once.
     */
    async page(user: AuthUser, jobId: string): Promise<string> {
      assertJobId(jobId);
      const [row] = await pageQuery.execute({
        jobId,
        userId: user.id,
        admin: user.userType === 'admin',
        company: user.userType === 'company',
        now: clock.now().toISOString(),
      });
      if (!row) throw notFound(messages.jobNotFound);
      const accepts = row.job.stage === 'delivered' ? await acceptTimerOf(row.job) : null;
      const page: JobPageResponse = {
        job: row.view,
        viewer: viewerOf(row.job, user),
        actions: actionsFor(row.job, user),
        events: row.events,
        earlier: row.earlier,
        lastReadEventId: row.lastRead,
        planCredit: row.job.subscriptionId !== null,
        deliveries: row.job.deliveries,
        autoAcceptAt: accepts?.toISOString() ?? null,
      };
      return JSON.stringify(page);
    },

    /** What happened since `after` (one indexed read when nothing did), or the page of events before `before`. */
    async eventsSince(user: AuthUser, jobId: string, at: { after: number } | { before: number }) {
      const job = await readJob(jobId);
      viewerOf(job, user);
      return {
        stage: job.stage,
        actions: actionsFor(job, user),
        deliveries: job.deliveries,
        ...(await eventsOf(db, jobId, at, user)),
      };
    },

    async markRead(user: AuthUser, jobId: string, lastEventId: number) {
      const job = await readJob(jobId);
      viewerOf(job, user);
      // Up to the newest event there is: a mark past it would hide the messages written after it.
      const mark = sql`least(${lastEventId}, coalesce((select max(${jobEvents.id}) from ${jobEvents} where ${jobEvents.jobId} = ${jobId}), 0))`;
      await db
        .insert(jobReads)
        .values({ jobId, userId: user.id, lastEventId: mark })
        .onConflictDoUpdate({
          target: [jobReads.jobId, jobReads.userId],
          set: { lastEventId: sql`greatest(${jobReads.lastEventId}, excluded.last_event_id)` },
        });
      // Reading the thread reads its notifications too.
      await db
        .update(notifications)
        .set({ readAt: clock.now() })
        .where(
          and(
            eq(notifications.userId, user.id),
            eq(notifications.jobId, jobId),
            lte(notifications.eventId, lastEventId),
            isNull(notifications.readAt),
          ),
        );
    },

    async notifications(user: AuthUser, before?: number) {
      const [page] = await notificationsPage.execute({
        userId: user.id,
        admin: user.userType === 'admin',
        before: before ?? Number.MAX_SAFE_INTEGER,
      });
      return page;
    },

    async unread(user: AuthUser) {
      const [r] = await unreadQuery.execute({ userId: user.id });
      return r?.n ?? 0;
    },

    /** Some notifications (those the list showed, decision 2279), or all of them (or up to an id, decision 2259). */
    async readNotifications(user: AuthUser, ids: number[] | { upTo?: number }) {
      await db
        .update(notifications)
        .set({ readAt: clock.now() })
        .where(
          and(
            eq(notifications.userId, user.id),
            isNull(notifications.readAt),
            Array.isArray(ids)
              ? inArray(notifications.id, ids)
              : ids.upTo !== undefined
                ? lte(notifications.id, ids.upTo)
                : undefined,
          ),
        );
      return { unread: await this.unread(user) };
    },
  };
}

export type JobLifecycle = ReturnType<typeof createJobLifecycle>;
