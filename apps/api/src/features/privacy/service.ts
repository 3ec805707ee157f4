// Data protection (NDPA 2023, issue 20 item 5; docs/decisions/2030-data-protection-export-and-erasure.md):
// a person downloads everything we hold about them as one zip, and deletes their account.
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { and, asc, eq, inArray, isNotNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import {
  formatNaira,
  formatNairaExact,
  PLAN_TIER_INFO,
  privacyMessages,
  type DeletionBlocker,
} from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import {
  auditLog,
  cartItems,
  emailOutbox,
  jobApplications,
  jobEvents,
  jobReads,
  jobs,
  lawyerReviews,
  ledgerEntries,
  notifications,
  oneTimeTokens,
  orders,
  payoutDetails,
  payouts,
  products,
  refunds,
  reservationMoves,
  reviews,
  subscriptionEvents,
  subscriptionPayments,
  subscriptions,
  twoFactor,
  twoFactorRecoveryCodes,
  uploads,
  users,
} from '../../db/schema.js';
import { liveAdmin } from '../../db/admins.js';
import type { AuthUser } from '../../platform/auth.js';
import { recordAudit } from '../../platform/audit.js';
import { conflict, forbidden, notFound, unauthorized } from '../../platform/errors.js';
import { verifyPassword } from '../../platform/passwords.js';
import type { Shared } from '../shared.js';
import { lockCompany, lockLawyerPayouts } from '../../db/locks.js';
import { sharedThroughJobs } from '../uploads/service.js';
import { PLAN_PAYMENT_TITLE } from '../money/receipts.js';
import { nameInNotification } from '../jobs/notification-text.js';
import { escapeHtml, plainName } from '../../platform/mail-templates.js';

/** How an erased account reads wherever its row is still named (jobs, threads, the ledger's lists). */
export const ERASED_NAME = 'Deleted user';
/** What a receipt prints for a deleted company; migration 0019 allows exactly this change of a paid order. */
export const ERASED_BILLED_TO = { name: 'Account deleted', address: null, email: '' };
/** An unpaid order younger than this may still be paid (checkout's EXPIRE_AFTER_MS): deletion waits for it. */
const PAYMENT_OPEN_MS = 24 * 3600_000;
const OPEN_JOB_NAMES = 5;

const erasedEmail = (id: string) => `deleted-${id}@deleted.invalid`;
// The day in Lagos (UTC+1 all year), as the pages name it: a plan renewing at 23:30 UTC renews the next day there.
const day = (d: Date) => new Date(d.getTime() + 3_600_000).toISOString().slice(0, 10);
const naira = (kobo: number) => formatNaira(kobo / 100);

/** Reviews of lawyers, written by a company or about a lawyer, without the other party's identity. */
const lawyerReviewsOf = (db: Executor, where: SQL) =>
  db
    .select({
      jobId: lawyerReviews.jobId,
      stars: lawyerReviews.stars,
      reviewTitle: lawyerReviews.reviewTitle,
      review: lawyerReviews.review,
      reply: lawyerReviews.reply,
      createdAt: lawyerReviews.createdAt,
      updatedAt: lawyerReviews.updatedAt,
    })
    .from(lawyerReviews)
    .where(where)
    .orderBy(asc(lawyerReviews.createdAt), asc(lawyerReviews.id));

/** Oldest first; a cart's jobs share their time, so they follow its lines, as its receipt lists them. */
const jobsInOrder = [asc(jobs.createdAt), asc(jobs.orderId), asc(jobs.lineNo)];

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
/** A file name safe in every unzip tool: the stored key, then the person's name for it. */
const archiveName = (key: string, originalName: string) =>
  `files/${key.replace(/[^A-Za-z0-9._-]/g, '_')}-${originalName.replace(/[^\p{L}\p{N} ._()-]/gu, '_').slice(0, 120)}`;

/**
 * Replaces each phrase in the mails the outbox keeps for these addresses (subject, text, and the HTML's
 * escaped form), of those whose text holds `within` when given. Each phrase holds the name with the fixed
 * words around it, never the name alone.
 */
const WRITTEN_WITH_MS = 500;

async function rewriteMails(
  tx: Executor,
  to: string[],
  phrases: Array<[string, string]>,
  within?: string,
  writtenAt?: Date[],
) {
  const swaps = phrases.flatMap(([from, into]) => {
    const html: [string, string] = [escapeHtml(from), escapeHtml(into)];
    return html[0] === from ? [[from, into] as [string, string]] : [[from, into] as [string, string], html];
  });
  if (!to.length || !swaps.length) return;
  const swapped = (column: SQL) =>
    swaps.reduce<SQL>((value, [from, into]) => sql`replace(${value}, ${from}, ${into})`, column);
  const holds = (column: SQL) =>
    sql.join(
      swaps.map(([from]) => sql`strpos(${column}, ${from}) > 0`),
      sql` or `,
    );
  const subject = sql`${emailOutbox.subject}`;
  const text = sql`${emailOutbox.text}`;
  const html = sql`coalesce(${emailOutbox.html}, '')`;
  await tx
    .update(emailOutbox)
    .set({
      subject: swapped(subject),
      text: swapped(text),
      html: sql`case when ${emailOutbox.html} is null then null else ${swapped(sql`${emailOutbox.html}`)} end`,
    })
    .where(
      and(
        inArray(emailOutbox.to, [...new Set(to)]),
        within === undefined ? undefined : sql`strpos(${emailOutbox.text}, ${within}) > 0`,
        // Mails written before the request gave both one time carry their transaction's start instead,
        // milliseconds from the payout's: half a second either way still tells a namesake a second apart.
        writtenAt === undefined
          ? undefined
          : or(
              ...writtenAt.map(
                (at) =>
                  sql`${emailOutbox.createdAt} between ${new Date(at.getTime() - WRITTEN_WITH_MS).toISOString()}::timestamptz and ${new Date(at.getTime() + WRITTEN_WITH_MS).toISOString()}::timestamptz`,
              ),
            ),
        sql`(${holds(subject)} or ${holds(text)} or ${holds(html)})`,
      ),
    );
}

/**
 * The erased person's name where other accounts' rows wrote it into text (docs/decisions/2296): their
 * notifications and the mails the outbox keeps of them, found through the rows that name the person by
 * id (the job's company or lawyer, the event's actor), the name replaced where the text puts it.
 */
async function eraseNameFromOthersTexts(tx: Executor, row: typeof users.$inferSelect) {
  // The name as the texts wrote it: a company by its company name, anyone else by name, defanged.
  const name = plainName(row.userType === 'company' ? (row.companyName ?? row.name) : row.name);
  const erased = ERASED_NAME;
  const recipient = alias(users, 'recipient');
  // A job passes to another lawyer when its own loses verification (2310): the lawyers it had are in the
  // admins' job.assign entries, one per assign event and in the same order, as each assignment wrote both.
  const wasAssigned = sql`exists (select 1 from ${auditLog} a where a.action = 'job.assign'
    and a.target_type = 'job' and a.target_id = ${jobs.id}::text and a.details ->> 'lawyerId' = ${row.id})`;
  const assignedBy = sql`coalesce((select a.lawyer from (select a.details ->> 'lawyerId' as lawyer,
      row_number() over (order by a.id) as n from ${auditLog} a where a.action = 'job.assign'
      and a.target_type = 'job' and a.target_id = ${jobs.id}::text) a
    where a.n = (select count(*) from ${jobEvents} e where e.job_id = ${jobs.id} and e.action = 'assign'
      and e.id <= ${jobEvents.id})), ${jobs.assignedTo}::text)`;
  const named = await tx
    .select({
      id: notifications.id,
      action: notifications.action,
      text: notifications.text,
      product: products.productName,
      to: recipient.officialEmail,
      jobId: notifications.jobId,
    })
    .from(notifications)
    .innerJoin(jobEvents, eq(jobEvents.id, notifications.eventId))
    .innerJoin(jobs, eq(jobs.id, notifications.jobId))
    .innerJoin(products, eq(products.id, jobs.productId))
    .innerJoin(recipient, eq(recipient.id, notifications.userId))
    .where(
      and(
        or(eq(jobs.companyId, row.id), eq(jobs.assignedTo, row.id), eq(jobEvents.actorId, row.id), wasAssigned),
        // Whom the lifecycle's text names: the lawyer of an assignment, the company where the payment or
        // the clock acted, else whoever acted.
        sql`(case when ${notifications.action} = 'assign' then ${assignedBy}
          when ${jobEvents.actorId} is null then ${jobs.companyId}::text else ${jobEvents.actorId}::text end)
          = ${row.id}`,
      ),
    );
  // Each name the texts wrote (the person may have been renamed since), for the mails below too.
  const names = new Set([name]);
  const changed = named.flatMap((n) => {
    const span = nameInNotification(n.text, n.action, name, n.product);
    if (!span) return [];
    names.add(n.text.slice(...span));
    return [{ ...n, into: n.text.slice(0, span[0]) + erased + n.text.slice(span[1]) }];
  });
  names.delete('');
  // One JSON parameter, not two a row: a busy account's texts pass PostgreSQL's 65,535 parameters a statement.
  if (changed.length)
    await tx.execute(sql`update ${notifications} set "text" = v.body
      from jsonb_to_recordset(${JSON.stringify(changed.map((n) => ({ id: n.id, body: n.into })))}::jsonb)
        as v(id bigint, body text) where ${notifications.id} = v.id`);
  // A notification's mail has its text as the subject and the first line, and links its job.
  const mails = new Map<string, { to: string; jobId: string; phrases: Map<string, string> }>();
  for (const n of changed) {
    const key = `${n.to} ${n.jobId}`;
    const mail = mails.get(key) ?? { to: n.to, jobId: n.jobId, phrases: new Map<string, string>() };
    mail.phrases.set(n.text, n.into);
    mails.set(key, mail);
  }
  for (const m of mails.values()) await rewriteMails(tx, [m.to], [...m.phrases], `/jobs/${m.jobId}`);

  // The addresses the admins' SCN mails gave for this lawyer (read before the audit forgets them): those
  // mails name a lawyer by name, and only this lawyer's own lose it, never a namesake's.
  const scnAddresses = new Set([row.officialEmail]);
  if (row.userType === 'lawyer')
    for (const a of await tx
      .select({ email: sql<string | null>`${auditLog.details} ->> 'officialEmail'` })
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'lawyer.scn_change'), eq(auditLog.targetType, 'lawyer'), eq(auditLog.targetId, row.id)),
      ))
      if (a.email) scnAddresses.add(a.email);

  // The audit log keeps whom an admin acted on by id (2030); the name and address some entries copied go.
  const auditField = (key: string, value: string, where: SQL) =>
    tx
      .update(auditLog)
      .set({ details: sql`jsonb_set(${auditLog.details}, ${`{${key}}`}::text[], to_jsonb(${value}::text))` })
      .where(and(where, sql`${auditLog.details} -> ${key}::text is not null`));
  const aboutMe = and(eq(auditLog.targetType, 'lawyer'), eq(auditLog.targetId, row.id))!;
  await auditField('name', erased, aboutMe);
  await auditField('officialEmail', erasedEmail(row.id), aboutMe);
  await auditField(
    'lawyerName',
    erased,
    and(eq(auditLog.action, 'job.assign'), sql`${auditLog.details} ->> 'lawyerId' = ${row.id}`)!,
  );

  // The job mails that name the other party by a template of their own (jobs/emails.ts), and the
  // admins' mails naming a lawyer (money/emails.ts, profiles/emails.ts), under each name found.
  const each = (phrase: (who: string) => string): Array<[string, string]> =>
    [...names].map((who): [string, string] => [phrase(who), phrase(erased)]);
  const other = alias(users, 'other');
  if (row.userType === 'company') {
    // The lawyers of the company's jobs, and those replaced on them (2310), whom the job.assign entries
    // name: each kept the assignment's mail naming the company.
    const lawyers = await tx
      .select({ to: other.officialEmail })
      .from(other)
      .where(
        or(
          inArray(other.id, tx.select({ id: jobs.assignedTo }).from(jobs).where(eq(jobs.companyId, row.id))),
          sql`${other.id} in (select (a.details ->> 'lawyerId')::uuid from ${auditLog} a
            where a.action = 'job.assign' and a.target_type = 'job'
            and a.target_id in (select j.id::text from ${jobs} j where j.company_id = ${row.id}))`,
        ),
      );
    await rewriteMails(
      tx,
      lawyers.map((l) => l.to),
      each((who) => `" for ${who}.`),
    );
  }
  if (row.userType === 'lawyer') {
    const companies = await tx
      .selectDistinct({ to: other.officialEmail })
      .from(jobs)
      .innerJoin(other, eq(other.id, jobs.companyId))
      .where(or(eq(jobs.assignedTo, row.id), wasAssigned));
    await rewriteMails(
      tx,
      companies.map((c) => c.to),
      [
        ...each((who) => `has been assigned to ${who}, who will`),
        // A job passed on from a lawyer who lost verification (decision 2316).
        ...each((who) => `has passed it to ${who}, who will`),
        ...each((who) => `\n\n${who}, the lawyer working on your `),
        ...each((who) => `>${escapeHtml(who)}, the lawyer working on your `),
      ],
    );
    const admins = (await tx.select({ to: users.officialEmail }).from(users).where(liveAdmin)).map((a) => a.to);
    // These mails name the lawyer by name alone, and names are not unique (anyone may sign up under one and
    // delete the account): a withdrawal's mail is this lawyer's when it names one of their payouts' amounts
    // and was written with that payout (the request gives both one time), so a namesake's withdrawal of
    // the same amount keeps its name; an SCN mail is theirs when it also gives one of their addresses.
    const own = await tx
      .select({ kobo: payouts.amount, at: payouts.createdAt })
      .from(payouts)
      .where(eq(payouts.lawyerId, row.id));
    const timesOf = new Map<number, Date[]>();
    for (const p of own) timesOf.set(p.kobo, [...(timesOf.get(p.kobo) ?? []), p.at]);
    // One statement an amount: a phrase more is one replace() deeper in each column.
    for (const [kobo, times] of timesOf) {
      const asked = `asked to withdraw ${formatNairaExact(kobo / 100)}.`;
      await rewriteMails(
        tx,
        admins,
        [...each((who) => `\n\n${who} ${asked}`), ...each((who) => `>${escapeHtml(who)} ${asked}`)],
        asked,
        times,
      );
    }
    for (const address of scnAddresses)
      await rewriteMails(
        tx,
        admins,
        [
          ...each((who) => `Verify again: ${who} changed their SCN`),
          ...each((who) => `\n\n${who}, a verified lawyer, changed`),
          ...each((who) => `>${escapeHtml(who)}, a verified lawyer, changed`),
          ...[...names].flatMap((who): Array<[string, string]> => [
            [`Lawyer: ${who} (${address})`, `Lawyer: ${erased} (${erasedEmail(row.id)})`],
            [`>${escapeHtml(`${who} (${address})`)}<`, `>${escapeHtml(`${erased} (${erasedEmail(row.id)})`)}<`],
          ]),
        ],
        `(${address})`,
      );
  }
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;

export function createPrivacyService(shared: Pick<Shared, 'db' | 'clock' | 'auth' | 'storage' | 'securityLog'>) {
  const { db, clock, storage } = shared;

  /**
   * Everything that stands in the way of deleting this account, each named; empty when it may go. Each
   * kind's rows oldest first, by id within one instant, so the check and the 409 read the same every time.
   */
  async function blockersOf(ex: Executor, user: { id: string; userType: string }): Promise<DeletionBlocker[]> {
    const blockers: DeletionBlocker[] = [];
    const party = user.userType === 'lawyer' ? jobs.assignedTo : jobs.companyId;
    if (user.userType !== 'admin') {
      const open = await ex
        .select({ id: jobs.id, status: jobs.status, product: products.productName })
        .from(jobs)
        .innerJoin(products, eq(products.id, jobs.productId))
        .where(and(eq(party, user.id), notInArray(jobs.status, ['completed', 'cancelled'])))
        .orderBy(...jobsInOrder);
      if (open.length) {
        const names = open.slice(0, OPEN_JOB_NAMES).map((j) => `${j.product} (${j.status})`);
        const more = open.length > OPEN_JOB_NAMES ? ` and ${open.length - OPEN_JOB_NAMES} more` : '';
        blockers.push({
          kind: 'open_job',
          message: `You have ${open.length} open job${open.length > 1 ? 's' : ''}: ${names.join(', ')}${more}. A job must be completed or cancelled first.`,
        });
      }
    }
    if (user.userType === 'lawyer') {
      const [earned] = rowsOf<{ balance: string | null }>(
        await ex.execute(
          sql`select -coalesce(sum(${ledgerEntries.amount}), 0) as balance from ${ledgerEntries}
              where ${ledgerEntries.lawyerId} = ${user.id} and ${ledgerEntries.account} = 'lawyer_earnings'`,
        ),
      );
      const balance = Number(earned?.balance ?? 0);
      if (balance !== 0)
        blockers.push({
          kind: 'lawyer_balance',
          message: `You have ${naira(balance)} of earnings not yet paid out (available or still in the holding period). Withdraw it from Get Paid first.`,
        });
      const open = await ex
        .select({ amount: payouts.amount, createdAt: payouts.createdAt })
        .from(payouts)
        .where(and(eq(payouts.lawyerId, user.id), inArray(payouts.status, ['requested', 'sending'])))
        .orderBy(asc(payouts.createdAt), asc(payouts.id));
      for (const p of open)
        blockers.push({
          kind: 'pending_payout',
          message: `Your payout of ${naira(p.amount)} requested on ${day(p.createdAt)} is still being processed.`,
        });
    }
    if (user.userType === 'company') {
      const owed = await ex
        // A cancelled job's, one of money an order's payment paid for nothing (no job, decision 2250), or
        // a plan payment's (no order: it names its company itself, decision 2262), labelled as the refunds list does.
        .select({
          amount: refunds.amount,
          product: sql<string>`coalesce(${products.productName}, ${orders.title}, ${PLAN_PAYMENT_TITLE})`,
        })
        .from(refunds)
        .leftJoin(orders, eq(orders.id, refunds.orderId))
        .leftJoin(jobs, eq(jobs.id, refunds.jobId))
        .leftJoin(products, eq(products.id, jobs.productId))
        .where(
          and(
            sql`coalesce(${refunds.companyId}, ${orders.companyId}) = ${user.id}`,
            inArray(refunds.status, ['pending', 'failed']),
          ),
        )
        .orderBy(asc(refunds.createdAt), asc(refunds.id));
      for (const r of owed)
        blockers.push({
          kind: 'pending_refund',
          message: `A refund of ${naira(r.amount)} for ${r.product} has not reached you yet.`,
        });
      const since = new Date(clock.now().getTime() - PAYMENT_OPEN_MS);
      const paying = await ex
        .select({ txRef: orders.txRef, createdAt: orders.createdAt })
        .from(orders)
        .where(
          and(
            eq(orders.companyId, user.id),
            inArray(orders.status, ['pending', 'replaced']),
            sql`${orders.createdAt} > ${since}`,
          ),
        )
        .orderBy(asc(orders.createdAt), asc(orders.id));
      // A live plan renews from a saved card: erasing the account under it would charge a deleted person.
      const plans = await ex
        .select({
          tier: subscriptions.tier,
          periodEnd: subscriptions.periodEnd,
          cancel: subscriptions.cancelAtPeriodEnd,
        })
        .from(subscriptions)
        .where(and(eq(subscriptions.companyId, user.id), inArray(subscriptions.status, ['active', 'grace'])));
      for (const p of plans)
        blockers.push({
          kind: 'live_plan',
          message: p.cancel
            ? `Your ${PLAN_TIER_INFO[p.tier].name} plan is paid until ${day(p.periodEnd)}; the account can be deleted once it ends.`
            : `Your ${PLAN_TIER_INFO[p.tier].name} plan renews on ${day(p.periodEnd)}. Cancel it from My plan first; the account can be deleted once the paid month ends.`,
        });
      for (const o of paying)
        blockers.push({
          kind: 'payment_in_progress',
          message: `A payment you started on ${day(o.createdAt)} (order ${o.txRef}) may still be completing; an unpaid order closes 24 hours after it was started.`,
        });
      // A plan's first payment may still be confirmed too, and would start a plan that renews from the card.
      const planPaying = await ex
        .select({
          txRef: subscriptionPayments.txRef,
          tier: subscriptionPayments.tier,
          createdAt: subscriptionPayments.createdAt,
        })
        .from(subscriptionPayments)
        .where(
          and(
            eq(subscriptionPayments.companyId, user.id),
            eq(subscriptionPayments.kind, 'first'),
            eq(subscriptionPayments.status, 'pending'),
            sql`${subscriptionPayments.createdAt} > ${since}`,
          ),
        )
        .orderBy(asc(subscriptionPayments.createdAt), asc(subscriptionPayments.id));
      for (const p of planPaying)
        blockers.push({
          kind: 'payment_in_progress',
          message: `A payment for the ${PLAN_TIER_INFO[p.tier].name} plan you started on ${day(p.createdAt)} (${p.txRef}) may still be completing; an unpaid plan payment closes 24 hours after it was started.`,
        });
    }
    if (user.userType === 'admin') {
      const [others] = await ex
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(and(liveAdmin, sql`${users.id} <> ${user.id}`));
      if (!others?.n)
        blockers.push({
          kind: 'last_admin',
          message: 'You are the only admin. Another admin must exist before your account can be deleted.',
        });
    }
    return blockers;
  }

  /** The person's own rows, as the archive's JSON files (no other person's contact details). */
  async function collect(user: AuthUser) {
    const [me] = await db.select().from(users).where(eq(users.id, user.id));
    if (!me || me.deletedAt) throw notFound();
    const { passwordHash: _hidden, ...profile } = me;
    const party = me.userType === 'lawyer' ? jobs.assignedTo : jobs.companyId;
    const files: Record<string, unknown> = {};
    files['profile.json'] = profile;

    if (me.userType !== 'admin') {
      const myJobs = await db
        .select({ job: jobs, product: products.productName })
        .from(jobs)
        .innerJoin(products, eq(products.id, jobs.productId))
        .where(eq(party, me.id))
        .orderBy(...jobsInOrder);
      const ids = myJobs.map((j) => j.job.id);
      // The job's thread: both parties' messages on a job this person took part in (decision 2030), the
      // other party named as the job page names them, never their contact details.
      const thread = ids.length
        ? await db
            .select({
              jobId: jobEvents.jobId,
              action: jobEvents.action,
              actorRole: jobEvents.actorRole,
              mine: sql<boolean>`${jobEvents.actorId} is not distinct from ${me.id}`,
              note: jobEvents.note,
              files: jobEvents.files,
              createdAt: jobEvents.createdAt,
            })
            .from(jobEvents)
            .where(inArray(jobEvents.jobId, ids))
            .orderBy(asc(jobEvents.id))
        : [];
      files['jobs.json'] = myJobs.map(({ job, product }) => {
        const { assignedTo: _lawyer, companyId: _company, ...all } = job;
        // The order and plan a job was paid from (and the key its credit request was sent with) are the
        // company's own: a lawyer's copy leaves them out.
        const { orderId: _order, lineNo: _line, subscriptionId: _plan, planRequestKey: _key, ...shared } = all;
        const fields = me.userType === 'lawyer' ? shared : all;
        return {
          ...fields,
          product,
          messages: thread
            .filter((e) => e.jobId === job.id)
            .map(({ jobId: _j, mine, ...e }) => ({ ...e, from: mine ? 'you' : e.actorRole })),
        };
      });
      files['notifications.json'] = await db
        .select({
          jobId: notifications.jobId,
          text: notifications.text,
          createdAt: notifications.createdAt,
          readAt: notifications.readAt,
        })
        .from(notifications)
        .where(eq(notifications.userId, me.id))
        .orderBy(asc(notifications.id));
    }
    // What the person wrote or did on jobs jobs.json does not hold: an admin's messages and actions, a
    // lawyer's on a job handed to another lawyer (2310). Their own entries only: the rest of such a job
    // is the company's and its new lawyer's (2319).
    files['job-actions.json'] = await db
      .select({
        jobId: jobEvents.jobId,
        product: products.productName,
        action: jobEvents.action,
        note: jobEvents.note,
        files: jobEvents.files,
        createdAt: jobEvents.createdAt,
      })
      .from(jobEvents)
      .innerJoin(jobs, eq(jobs.id, jobEvents.jobId))
      .innerJoin(products, eq(products.id, jobs.productId))
      .where(
        and(
          eq(jobEvents.actorId, me.id),
          me.userType === 'admin' ? undefined : sql`${party} is distinct from ${me.id}`,
        ),
      )
      .orderBy(asc(jobEvents.id));
    if (me.userType === 'company') {
      files['orders.json'] = (
        await db
          .select()
          .from(orders)
          .where(and(eq(orders.companyId, me.id), notInArray(orders.status, ['replaced'])))
          .orderBy(asc(orders.createdAt), asc(orders.id))
      ).map(({ companyId: _c, ...o }) => ({
        ...o,
        receipt: o.status === 'paid' ? `/api/orders/${o.id}/receipt.pdf` : null,
      }));
      files['reviews.json'] = await db
        .select({
          product: products.productName,
          reviewTitle: reviews.reviewTitle,
          review: reviews.review,
          stars: reviews.status,
          date: reviews.date,
        })
        .from(reviews)
        .innerJoin(products, eq(products.id, reviews.productId))
        .where(eq(reviews.companyId, me.id))
        .orderBy(asc(reviews.date), asc(reviews.id));
      files['lawyer-reviews.json'] = await lawyerReviewsOf(db, eq(lawyerReviews.companyId, me.id));
      // The monthly plans and what was paid for them; the provider's card token charges the card and is
      // no data about the person, so it stays out of a file that may be forwarded.
      files['plans.json'] = {
        plans: (
          await db
            .select()
            .from(subscriptions)
            .where(eq(subscriptions.companyId, me.id))
            .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id))
        ).map(({ companyId: _c, cardToken: _token, claimedUntil: _claim, ...plan }) => plan),
        payments: (
          await db
            .select()
            .from(subscriptionPayments)
            .where(eq(subscriptionPayments.companyId, me.id))
            .orderBy(asc(subscriptionPayments.createdAt), asc(subscriptionPayments.id))
        ).map(({ companyId: _c, ...payment }) => payment),
      };
      // Each plan's timeline (started, renewed, lapsed, ended) with its notes: its own file, as plans.json
      // keeps its shape. Only events of this company's plans.
      files['plan-events.json'] = (
        await db
          .select({ event: subscriptionEvents })
          .from(subscriptionEvents)
          .innerJoin(subscriptions, eq(subscriptions.id, subscriptionEvents.subscriptionId))
          .where(eq(subscriptions.companyId, me.id))
          .orderBy(asc(subscriptionEvents.createdAt), asc(subscriptionEvents.id))
      ).map(({ event }) => event);
      // Refunds of its jobs, orders and plan payments, as the deletion check finds them; who asked is staff.
      files['refunds.json'] = (
        await db
          .select({ refund: refunds })
          .from(refunds)
          .leftJoin(orders, eq(orders.id, refunds.orderId))
          .where(sql`coalesce(${refunds.companyId}, ${orders.companyId}) = ${me.id}`)
          .orderBy(asc(refunds.createdAt), asc(refunds.id))
      ).map(({ refund: { requestedBy: _admin, companyId: _c, ...refund } }) => refund);
      files['cart.json'] = await db
        .select()
        .from(cartItems)
        .where(eq(cartItems.companyId, me.id))
        .orderBy(asc(cartItems.createdAt), asc(cartItems.productId));
    }
    if (me.userType === 'lawyer') {
      files['lawyer-reviews.json'] = await lawyerReviewsOf(db, eq(lawyerReviews.lawyerId, me.id));
      const [details] = await db.select().from(payoutDetails).where(eq(payoutDetails.lawyerId, me.id));
      files['payouts.json'] = {
        payoutDetails: details ?? null,
        payouts: (
          await db
            .select()
            .from(payouts)
            .where(eq(payouts.lawyerId, me.id))
            .orderBy(asc(payouts.createdAt), asc(payouts.id))
        ).map(({ approvedBy: _a, rejectedBy: _r, ...p }) => p),
        earnings: await db
          .select({
            jobId: ledgerEntries.jobId,
            amountKobo: sql<number>`-${ledgerEntries.amount}`,
            availableAt: ledgerEntries.availableAt,
            createdAt: ledgerEntries.createdAt,
          })
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.lawyerId, me.id), eq(ledgerEntries.account, 'lawyer_earnings')))
          .orderBy(asc(ledgerEntries.id)),
      };
      files['applications.json'] = await db
        .select({ jobId: jobApplications.jobId, createdAt: jobApplications.createdAt })
        .from(jobApplications)
        .where(eq(jobApplications.lawyerId, me.id))
        .orderBy(asc(jobApplications.createdAt), asc(jobApplications.jobId));
    }
    if (me.userType === 'admin')
      files['admin-actions.json'] = await db
        .select({
          action: auditLog.action,
          targetType: auditLog.targetType,
          targetId: auditLog.targetId,
          createdAt: auditLog.createdAt,
        })
        .from(auditLog)
        .where(eq(auditLog.actorId, me.id))
        .orderBy(asc(auditLog.id));

    const owned = await db
      .select()
      .from(uploads)
      .where(eq(uploads.ownerId, me.id))
      .orderBy(asc(uploads.createdAt), asc(uploads.id));
    files['files.json'] = owned.map((u) => ({
      name: u.originalName,
      contentType: u.contentType,
      size: u.size,
      uploadedAt: u.createdAt,
      inArchive: archiveName(u.key, u.originalName),
    }));
    return { files, owned };
  }

  return {
    blockers: async (user: AuthUser) => {
      const [me] = await db.select().from(users).where(eq(users.id, user.id));
      if (!me || me.deletedAt) throw notFound();
      return blockersOf(db, me);
    },

    /**
     * The archive as a stream: the JSON files first, then each file the person uploaded, read from
     * storage a chunk at a time (stored, not recompressed), so a large file is never held in memory.
     */
    async exportArchive(user: AuthUser): Promise<{ filename: string; stream: Readable }> {
      const { files, owned } = await collect(user);
      const out = new PassThrough();
      const zip = new Zip((err, chunk, final) => {
        // The client went away: the response destroyed the stream; nothing more is written.
        if (out.destroyed) return;
        if (err) out.destroy(err);
        else {
          out.write(chunk);
          if (final) out.end();
        }
      });
      const readme = [
        'Your data at LegalMarket, as Nigeria Data Protection Act 2023 section 34 gives you the right to have it.',
        `Made ${clock.now().toISOString()} for ${user.officialEmail}.`,
        '',
        'profile.json: your account. jobs.json: the jobs you took part in with their messages (the other party named by role).',
        'job-actions.json: what you wrote or did on jobs not in jobs.json (a job handed to another lawyer; an admin’s messages).',
        'orders.json, plans.json, plan-events.json, refunds.json, reviews.json, cart.json (companies); payouts.json, applications.json (lawyers); admin-actions.json (admins).',
        'files/: every file you uploaded; files.json lists them. Files the other party shared on a job are named in jobs.json.',
      ].join('\n');
      const entry = (name: string, bytes: Uint8Array) => {
        const f = new ZipDeflate(name, { level: 6 });
        zip.add(f);
        f.push(bytes, true);
      };
      entry('README.txt', new TextEncoder().encode(`${readme}\n`));
      for (const [name, value] of Object.entries(files)) entry(name, json(value));
      void (async () => {
        try {
          for (const u of owned) {
            const stored = await storage.get(u.key);
            if (!stored) continue;
            const f = new ZipPassThrough(archiveName(u.key, u.originalName));
            zip.add(f);
            for await (const chunk of stored.stream) {
              if (out.destroyed) {
                stored.stream.destroy();
                return;
              }
              f.push(chunk as Uint8Array);
              // Back-pressure: a slow phone reads the archive no faster than storage is read.
              if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
            }
            f.push(new Uint8Array(0), true);
          }
          zip.end();
        } catch (err) {
          out.destroy(err as Error);
        }
      })();
      shared.securityLog('data_export', { actor: user.id });
      return { filename: `legalmarket-data-${day(clock.now())}.zip`, stream: out };
    },

    /**
     * Deletes the account after its password is checked: the person's data is erased or anonymised,
     * what the law keeps (orders, receipts, the ledger, payout records) stays without their name, and
     * every session ends. Refused (409, each blocker named) while a job is open or money is owed.
     */
    async deleteAccount(user: AuthUser, password: string, passwordRight: () => Promise<void> = async () => {}) {
      const [me] = await db.select().from(users).where(eq(users.id, user.id));
      if (!me) throw notFound();
      // Deleted since this session was checked (its other request won a double tap): the session ended
      // with the account, as the next request would hear.
      if (me.deletedAt) throw unauthorized();
      if (!(await verifyPassword(me.passwordHash, password))) {
        shared.securityLog('account_delete_refused', { actor: me.id, reason: 'wrong password' });
        throw forbidden(privacyMessages.deletePasswordWrong);
      }
      await passwordRight();
      const now = clock.now();
      const removeKeys = await db.transaction(async (tx) => {
        // The same locks a checkout (company) or a payout request (lawyer) takes, then the row an
        // assignment reads FOR SHARE: whichever commits first, the other sees it.
        if (me.userType === 'company') await lockCompany(tx, me.id);
        if (me.userType === 'lawyer') await lockLawyerPayouts(tx, me.id);
        const [row] = await tx.select().from(users).where(eq(users.id, me.id)).for('update');
        if (!row) throw notFound();
        // The same request sent twice at once deleted it while this one, its password checked too,
        // waited for the row: the same answer (docs/decisions/2221).
        if (row.deletedAt) return null;
        if (row.passwordHash !== me.passwordHash) throw forbidden(privacyMessages.deletePasswordWrong);
        const blockers = await blockersOf(tx, row);
        if (blockers.length)
          throw conflict(`${privacyMessages.deleteBlockedIntro} ${blockers.map((b) => b.message).join(' ')}`);

        // Files only this person needs go; a file on a job stays with the job (the other party's record).
        // Only references that open the file count: one someone else wrote must not keep it (2140).
        const url = sql`'/uploads/' || ${uploads.key}`;
        const unneeded = (
          await tx
            .select({ key: uploads.key })
            .from(uploads)
            .where(
              and(
                eq(uploads.ownerId, row.id),
                sql`not ${sharedThroughJobs(uploads.key, row)}`,
                sql`not exists (select 1 from ${products} where ${products.productImage} = ${url})`,
                sql`not exists (select 1 from ${orders}, jsonb_array_elements(${orders.lines}) line
                  where ${orders.status} = 'paid' and ${orders.companyId} = ${row.id}
                    and (line->>'file' = ${url} or line->>'file' like '%' || ${url}))`,
              ),
            )
        ).map((r) => r.key);
        if (unneeded.length) await tx.delete(uploads).where(inArray(uploads.key, unneeded));

        // Mails to the account's own address only: the alternative address is typed, never confirmed and
        // never mailed, so it may be another account's inbox, whose mails are not ours to erase (2238).
        await tx.delete(emailOutbox).where(eq(emailOutbox.to, row.officialEmail));
        await tx.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, row.id));
        await tx.delete(cartItems).where(eq(cartItems.companyId, row.id));
        await tx.delete(reservationMoves).where(eq(reservationMoves.companyId, row.id));
        await tx.delete(reviews).where(eq(reviews.companyId, row.id));
        await tx.delete(lawyerReviews).where(eq(lawyerReviews.companyId, row.id));
        // The reviews of a lawyer are the companies' words and stay; the lawyer's replies are its own and
        // were read by every signed-in user through its id (decision 2276).
        await tx
          .update(lawyerReviews)
          .set({ reply: null, repliedAt: null, updatedAt: now })
          .where(and(eq(lawyerReviews.lawyerId, row.id), isNotNull(lawyerReviews.reply)));
        // The sessions' step-up marks go with the revoked sessions; the authenticator's secret goes now.
        await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, row.id));
        await tx.delete(twoFactor).where(eq(twoFactor.userId, row.id));
        await tx.delete(jobApplications).where(eq(jobApplications.lawyerId, row.id));
        await tx.delete(notifications).where(eq(notifications.userId, row.id));
        await eraseNameFromOthersTexts(tx, row);
        await tx.delete(jobReads).where(eq(jobReads.userId, row.id));
        await tx.delete(payoutDetails).where(eq(payoutDetails.lawyerId, row.id));
        // Ended plans keep their payments' trail, not the card or the address they were charged to.
        await tx
          .update(subscriptions)
          .set({ customerEmail: erasedEmail(row.id), cardToken: null })
          .where(eq(subscriptions.companyId, row.id));
        // Payout records are kept for the transfer's trail (their account number never changes).
        await tx.update(payouts).set({ accountName: ERASED_NAME, updatedAt: now }).where(eq(payouts.lawyerId, row.id));

        await tx
          .update(users)
          .set({
            officialEmail: erasedEmail(row.id),
            passwordHash: '!deleted',
            name: ERASED_NAME,
            phoneNumber: '',
            emailConfirmedAt: null,
            companyName: row.userType === 'company' ? ERASED_NAME : null,
            contactName: null,
            officeAddress: null,
            industry: null,
            website: null,
            cac: null,
            yourBio: null,
            alternativeEmailAddress: null,
            profileImage: null,
            scn: null,
            lawFirmName: null,
            lawFirmAddress: null,
            areasOfPractise: [],
            yearOfCall: null,
            verified: false,
            verificationRejectedAt: null,
            verificationRejectionReason: null,
            deletedAt: now,
            updatedAt: now,
          })
          .where(eq(users.id, row.id));
        // After deleted_at is set: the receipt guard (0019) allows exactly this change of a paid order.
        await tx
          .update(orders)
          .set({ billedTo: ERASED_BILLED_TO, updatedAt: now })
          .where(
            and(
              eq(orders.companyId, row.id),
              or(eq(orders.status, 'paid'), sql`${orders.billedTo} is not null`),
              sql`${orders.billedTo} is distinct from ${JSON.stringify(ERASED_BILLED_TO)}::jsonb`,
            ),
          );
        await shared.auth.revokeAllSessions(tx, row.id);
        await recordAudit(tx, {
          actorId: row.id,
          action: 'account.delete',
          targetType: 'user',
          targetId: row.id,
          details: { userType: row.userType, filesRemoved: unneeded.length },
        });
        return unneeded;
      });
      if (!removeKeys) return;
      // Storage after commit: a failure leaves an orphan object no row points at, never a row without its file.
      for (const key of removeKeys) await storage.remove(key).catch(() => undefined);
      shared.securityLog('account_deleted', { actor: me.id, userType: me.userType });
    },
  };
}
