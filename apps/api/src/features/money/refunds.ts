import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, not, or, sql } from 'drizzle-orm';
import { formatNairaExact, planMessages, toKobo, type RefundView } from '@legalmarket/contracts';
import type { Shared } from '../shared.js';
import type { Executor } from '../../db/client.js';
import type { SQL } from 'drizzle-orm';
import { jobs, orders, products, refunds, users } from '../../db/schema.js';
import { liveAdmin } from '../../db/admins.js';
import { recordAudit } from '../../platform/audit.js';
import type { AuthUser } from '../../platform/auth.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { button, mailRenderer, paragraph } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import {
  ProviderUnavailable,
  RefundRefused,
  type PaymentProvider,
  type ProviderRefund,
} from '../../platform/payments/index.js';
import { creditNoteAttachment, creditNoteLine, refundGivenUpMail } from './emails.js';
import { PLAN_PAYMENT_TITLE, creditNoteSuffix } from './receipts.js';
import type { Ledger } from './ledger.js';
import { cancelPlanJob, lockPlanOfJob } from '../plans/credits.js';
import { lockProviderRefund } from '../../db/locks.js';

/**
 * The admin's refunds list: the 200 newest, united with the failed ones (read by
 * refunds_status_idx). A status test OR-ed with the subquery made PostgreSQL read the whole table.
 */
export const ADMIN_LIST_WHERE = inArray(
  refunds.id,
  sql`(select newest.id from (select id from refunds order by created_at desc, id desc limit 200) newest union select failed.id from refunds failed where failed.status = 'failed')`,
);

type Job = typeof jobs.$inferSelect;
type Refund = typeof refunds.$inferSelect;
type Outcome = ProviderRefund | { status: 'failed'; failure: string };
type Order = typeof orders.$inferSelect;
/** A monthly plan's payment that paid nothing (decision 2262): no order, its company and reference. */
type PlanPayment = { companyId: string; reference: string; provider: string };

/** The payment a refund gives back: its own (a payment that paid nothing) or its order's. */
const refundedTransaction = sql<
  string | null
>`coalesce(${refunds.providerTransactionId}, ${orders.providerTransactionId})`;

/** Whose refund it is and the payment reference it names: the plan payment's own, else its order's. */
const refundCompany = sql<string>`coalesce(${refunds.companyId}, ${orders.companyId})`;
const refundReference = sql<string>`coalesce(${refunds.reference}, ${orders.txRef})`;

/** A pending refund the provider never answered may be sent again after this long. */
const RESEND_AFTER_MS = 60_000;
/** A refused refund, or one the provider took and never settled, is tried again after this long. */
const RETRY_FAILED_AFTER_MS = 3600_000;
const DAY_MS = 86_400_000;
/**
 * A refused refund opened this long ago is no longer sent again by the background job (decision 2309):
 * Flutterwave's balance covers a payment within a settlement or two, a weekend included; a refusal
 * that outlasts that is not the balance, and hourly tries would go on for ever.
 */
export const GIVE_UP_AFTER_MS = 3 * DAY_MS;
/** Put before the provider's reason once the admins were told, so they are told once. */
export const GIVEN_UP = 'Not sent again by itself: ';

const TWIN_BEING_SENT = 'Another refund of this payment for the same amount is being sent; try again in a minute';

interface RefundsDeps extends Pick<Shared, 'db' | 'clock' | 'config' | 'mailWritten'> {
  provider: PaymentProvider;
  ledger: Ledger;
  log?: { warn: (o: object, m?: string) => void; error: (o: object, m?: string) => void };
}

/**
 * Refunds of cancelled jobs (docs/decisions/1710-refunds-and-cancellation.md). The cancellation and the
 * refund's row commit with the job's stage; the provider is asked after the commit; its answer or its
 * webhook completes the refund once, under the refund row's lock, and only then is money posted out.
 * One left unsent or refused is sent again by the background job (`resendDue`), never twice.
 */
export function createRefunds(deps: RefundsDeps) {
  const { db, clock, provider, ledger } = deps;

  /**
   * Inside the cancel's transaction (the job is locked): releases what is held and opens the refund. A
   * plan job paid nothing: its credit goes back to the plan, or expires with its month (cancelPlanJob);
   * a refund of money is refused.
   */
  async function open(tx: Executor, job: Job, admin: AuthUser, refundNaira: number | undefined, reason: string | null) {
    if (job.subscriptionId) {
      if (refundNaira !== undefined && refundNaira > 0) throw badRequest(planMessages.jobRefundRefused);
      const plan = await cancelPlanJob(tx, { clock, ledger }, job);
      await recordAudit(tx, {
        actorId: admin.id,
        action: 'job.cancel',
        targetType: 'job',
        targetId: job.id,
        details: { heldKobo: plan.heldKobo, refundKobo: 0, reason, planCredit: plan.returned ? 'returned' : 'expired' },
      });
      return null;
    }
    const held = await ledger.heldFor(tx, job.id);
    const refund = refundNaira === undefined ? held : toKobo(refundNaira);
    if (refund > held)
      throw badRequest(`The refund cannot be more than the ${formatNairaExact(held / 100)} held for this job`);
    await ledger.recordCancellation(tx, job, held, refund);
    await recordAudit(tx, {
      actorId: admin.id,
      action: 'job.cancel',
      targetType: 'job',
      targetId: job.id,
      details: { heldKobo: held, refundKobo: refund, reason },
    });
    if (refund <= 0) return null;
    const [order] = await tx.select().from(orders).where(eq(orders.id, job.orderId));
    if (!order?.providerTransactionId) throw conflict('This job’s payment has no provider transaction to refund');
    const [row] = await tx
      .insert(refunds)
      .values({
        jobId: job.id,
        orderId: order.id,
        amount: refund,
        reason,
        provider: order.provider,
        requestedBy: admin.id,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning({ id: refunds.id });
    return row.id;
  }

  /**
   * Inside the transaction that finds money a payment paid for nothing (decision 2250): opens its refund
   * and makes the amount due to the company in the ledger, once per provider transaction (the unique
   * index decides between racing verifications, webhooks and the background job). Returns the refund's
   * id to send after the commit, or null when it was already opened (or there is nothing to give back).
   * `from`: `cash` for a payment that paid no order (never posted), `held` for lines a paid order held.
   * The caller holds the company's lock (`lockCompany`, taken first, as erasure takes it): an erasure then
   * either sees this refund among its blockers or has committed, and its account gets none (decision 2170).
   */
  async function openUnapplied(
    tx: Executor,
    u: { transactionId: string; amount: number; reason: string } & (
      { order: Order; from: 'cash' | 'held' } | { plan: PlanPayment; from: 'cash' }
    ),
  ) {
    if (!Number.isSafeInteger(u.amount) || u.amount <= 0) return null;
    const now = clock.now();
    const whose =
      'order' in u
        ? { orderId: u.order.id, provider: u.order.provider, companyId: u.order.companyId, reference: u.order.txRef }
        : { orderId: null, provider: u.plan.provider, companyId: u.plan.companyId, reference: u.plan.reference };
    // Erased before this caller had the lock: the money stays logged for an admin, as any payment for
    // an erased account (2170); a refund opened now would follow an erasure that found nothing owed.
    const [company] = await tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, whose.companyId));
    if (!company || company.deletedAt) {
      deps.log?.warn({ companyId: whose.companyId, transactionId: u.transactionId }, 'no refund for an erased account');
      return null;
    }
    const [row] = await tx
      .insert(refunds)
      .values({
        jobId: null,
        orderId: whose.orderId,
        // A plan payment's refund names its company and reference itself (migration 0032).
        companyId: whose.orderId ? null : whose.companyId,
        reference: whose.orderId ? null : whose.reference,
        providerTransactionId: u.transactionId,
        amount: u.amount,
        reason: u.reason,
        provider: whose.provider,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: refunds.id });
    if (!row) return null;
    await ledger.recordUnapplied(tx, {
      refundId: row.id,
      orderId: whose.orderId,
      companyId: whose.companyId,
      amount: u.amount,
      from: u.from,
      memo: `${u.reason} (${whose.reference})`,
    });
    return row.id;
  }

  /**
   * Whether this provider transaction's money was given back as paid for nothing (openUnapplied): such a
   * payment pays nothing afterwards. Ask it under the company's lock, which every openUnapplied holds.
   */
  async function givenBack(ex: Executor, provider: string, transactionId: string) {
    const [r] = await ex
      .select({ id: refunds.id })
      .from(refunds)
      .where(
        and(eq(refunds.provider, provider), eq(refunds.providerTransactionId, transactionId), isNull(refunds.jobId)),
      )
      .limit(1);
    return Boolean(r);
  }

  /** Applies the provider's word to a pending refund, once: completion posts the money and tells the company. */
  async function settle(refundId: string, outcome: Outcome) {
    const done = await db.transaction(async (tx): Promise<boolean | 'taken'> => {
      const [r] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
      if (!r || r.status !== 'pending') return false;
      const now = clock.now();
      const providerRefundId = 'id' in outcome ? outcome.id : r.providerRefundId;
      if (providerRefundId && providerRefundId !== r.providerRefundId) {
        // Two settlements naming one provider refund (a retry took a twin's whose answer came late)
        // queue here: the first holds it, the other stays pending to be sent again. Posting it twice
        // would show one refund as two; the unique index would answer 500.
        await lockProviderRefund(tx, r.provider, providerRefundId);
        const [holder] = await tx
          .select({ id: refunds.id })
          .from(refunds)
          .where(and(eq(refunds.provider, r.provider), eq(refunds.providerRefundId, providerRefundId)));
        if (holder) {
          deps.log?.warn({ refundId: r.id, heldBy: holder.id, providerRefundId }, 'provider refund held by another');
          return 'taken' as const;
        }
      }
      if (outcome.status === 'pending') {
        await tx.update(refunds).set({ providerRefundId, updatedAt: now }).where(eq(refunds.id, r.id));
        return false;
      }
      if (outcome.status === 'failed') {
        await tx
          .update(refunds)
          .set({
            status: 'failed',
            providerRefundId,
            failure: 'failure' in outcome ? outcome.failure : 'Refused by the provider',
            // The first refusal stays: the pass gives up three days after it (decision 2334).
            firstRefusedAt: r.firstRefusedAt ?? now,
            updatedAt: now,
          })
          .where(eq(refunds.id, r.id));
        return false;
      }
      if (outcome.amount !== r.amount) {
        deps.log?.warn({ refundId: r.id, expected: r.amount, reported: outcome.amount }, 'refund amount differs');
        return false;
      }
      await tx
        .update(refunds)
        .set({ status: 'completed', providerRefundId, settledAt: now, updatedAt: now })
        .where(eq(refunds.id, r.id));
      const [ctx] = await tx
        .select({
          companyId: refundCompany,
          email: users.officialEmail,
          name: sql<string>`coalesce(${users.companyName}, ${users.name})`,
          productName: products.productName,
          reference: refundReference,
          lineNo: jobs.lineNo,
        })
        .from(refunds)
        .leftJoin(orders, eq(orders.id, refunds.orderId))
        .innerJoin(users, eq(users.id, refundCompany))
        .leftJoin(jobs, eq(jobs.id, refunds.jobId))
        .leftJoin(products, eq(products.id, jobs.productId))
        .where(eq(refunds.id, r.id));
      await ledger.recordRefund(tx, { id: r.id, jobId: r.jobId, amount: r.amount, companyId: ctx.companyId });
      // To the kobo, as the ledger and the credit note have it: a partial refund may carry kobo.
      const amount = formatNairaExact(r.amount / 100);
      const suffix = creditNoteSuffix(ctx.lineNo, r.providerTransactionId);
      const what =
        ctx.productName !== null
          ? `${ctx.productName} was cancelled and ${amount} has been refunded`
          : `${r.reason ?? 'A payment paid for nothing'}: ${amount} has been refunded`;
      await enqueueMail(tx, {
        ...mailRenderer(deps.config)({
          to: ctx.email,
          subject: `Your refund of ${amount} is on its way`,
          body: [
            paragraph(`Hello ${ctx.name},`),
            paragraph(
              `${what} to the card or account you paid with (payment ${ctx.reference}). Banks usually show it within 5 to 10 working days.`,
            ),
            paragraph(creditNoteLine(ctx.reference, suffix)),
            button('See your payments', `${deps.config.PUBLIC_URL}/company/dashboard`),
          ],
        }),
        attachments: [creditNoteAttachment(r.id, ctx.reference, suffix)],
      });
      return true;
    });
    if (done === true) deps.mailWritten();
    return done;
  }

  /** Asks the provider for a pending refund not yet sent; a refusal fails it, an outage leaves it to retry. */
  async function send(refundId: string) {
    const [r] = await db
      .select({ refund: refunds, transactionId: refundedTransaction })
      .from(refunds)
      .leftJoin(orders, eq(orders.id, refunds.orderId))
      .where(eq(refunds.id, refundId));
    if (!r || r.refund.status !== 'pending' || r.refund.providerRefundId || !r.transactionId) return;
    let outcome: Outcome;
    try {
      outcome = await provider.refund(r.transactionId, r.refund.amount, r.refund.reason ?? 'Job cancelled');
    } catch (err) {
      if (err instanceof RefundRefused) outcome = { status: 'failed', failure: err.message };
      else if (err instanceof ProviderUnavailable) {
        deps.log?.warn({ err, refundId }, 'refund not sent: provider unavailable; the background job sends it again');
        return;
      } else throw err;
    }
    await settle(refundId, outcome);
  }

  /**
   * Another refund of the same payment and amount being sent right now (its answer still on its way):
   * a refund the provider made for it must not be taken for this one.
   */
  async function twinInFlight(ex: Executor, r: Refund) {
    // A plan payment's refund has no twin: one per transaction, and no job of a plan is refunded in money.
    if (!r.orderId) return;
    const [twin] = await ex
      .select({ id: refunds.id })
      .from(refunds)
      .where(
        and(
          eq(refunds.orderId, r.orderId),
          eq(refunds.amount, r.amount),
          ne(refunds.id, r.id),
          eq(refunds.status, 'pending'),
          isNull(refunds.providerRefundId),
          gt(refunds.updatedAt, new Date(clock.now().getTime() - RESEND_AFTER_MS)),
        ),
      )
      .limit(1);
    if (twin) throw conflict(TWIN_BEING_SENT);
  }

  /**
   * A refund of this refund's payment and amount the provider made and no refund here holds (the answer
   * to an earlier send was lost), or null. Failed ones are left out: they moved no money.
   */
  async function findSent(refundId: string): Promise<ProviderRefund | null> {
    const [r] = await db
      .select({ refund: refunds, transactionId: refundedTransaction })
      .from(refunds)
      .leftJoin(orders, eq(orders.id, refunds.orderId))
      .where(eq(refunds.id, refundId));
    if (!r?.transactionId) return null;
    let listed: ProviderRefund[];
    try {
      // Lagos days, a day wider each side than the refund's life here.
      const day = (d: Date) => new Date(d.getTime() + 3600_000).toISOString().slice(0, 10);
      listed = await provider.listRefunds({
        from: day(new Date(r.refund.createdAt.getTime() - DAY_MS)),
        to: day(new Date(clock.now().getTime() + DAY_MS)),
      });
    } catch (err) {
      if (err instanceof ProviderUnavailable)
        throw new AppError(503, 'The payment provider cannot be reached; try again later');
      throw err;
    }
    const candidates = listed.filter(
      (x) => x.transactionId === r.transactionId && x.amount === r.refund.amount && x.status !== 'failed',
    );
    if (!candidates.length) return null;
    // Asked after the listing: a twin's row commits before its refund is sent, so one listed is seen here.
    await twinInFlight(db, r.refund);
    const held = await db
      .select({ id: refunds.providerRefundId })
      .from(refunds)
      .where(
        and(
          eq(refunds.provider, provider.name),
          inArray(
            refunds.providerRefundId,
            candidates.map((x) => x.id),
          ),
        ),
      );
    const taken = new Set(held.map((h) => h.id));
    return candidates.find((x) => !taken.has(x.id)) ?? null;
  }

  async function view(where: SQL | undefined, limit = 200): Promise<RefundView[]> {
    const rows = await db
      .select({
        r: refunds,
        reference: refundReference,
        productName: sql<string>`coalesce(${products.productName}, ${orders.title}, ${PLAN_PAYMENT_TITLE})`,
        companyName: sql<string>`coalesce(${users.companyName}, ${users.name})`,
      })
      .from(refunds)
      .leftJoin(orders, eq(orders.id, refunds.orderId))
      .leftJoin(jobs, eq(jobs.id, refunds.jobId))
      .leftJoin(products, eq(products.id, jobs.productId))
      .innerJoin(users, eq(users.id, refundCompany))
      .where(where)
      .orderBy(desc(refunds.createdAt), desc(refunds.id))
      .limit(limit);
    return rows.map(({ r, ...x }) => ({
      _id: r.id,
      jobId: r.jobId,
      orderId: r.orderId,
      reference: x.reference,
      productName: x.productName,
      companyName: x.companyName,
      amount: r.amount / 100,
      status: r.status,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
      settledAt: r.settledAt?.toISOString() ?? null,
    }));
  }

  /**
   * The background job's pass (decisions 2251, 2284) over every refund, a cancelled job's as well as one
   * of money paid for nothing, each claimed by one caller (its updatedAt moves on, so another pass, an
   * instance or an admin's retry skips it):
   * - pending and never answered a minute after it was opened or last sent (the provider unreachable,
   *   or a stop between the commit and the send): checked against the provider's refunds (an earlier
   *   send whose answer was lost settles it), else sent again;
   * - failed (refused: Flutterwave refunds from the available balance, which a payment of minutes ago
   *   may not have reached yet) an hour after: sent again the same way;
   * - taken by the provider and still pending an hour on (its webhook lost): asked about.
   */
  async function resendDue(limit = 20) {
    const now = clock.now().getTime();
    const unsentBefore = new Date(now - RESEND_AFTER_MS);
    const laterBefore = new Date(now - RETRY_FAILED_AFTER_MS);
    const unsent = and(
      eq(refunds.status, 'pending'),
      isNull(refunds.providerRefundId),
      lt(refunds.updatedAt, unsentBefore),
    );
    const refused = and(eq(refunds.status, 'failed'), lt(refunds.updatedAt, laterBefore));
    // Refused for days (2309), counted from its first refusal, not its opening (an outage before it is
    // no refusal, decision 2334): the admins are told once, and it is not sent again by itself.
    const staleBefore = new Date(now - GIVE_UP_AFTER_MS);
    const stale = lt(sql`coalesce(${refunds.firstRefusedAt}, ${refunds.updatedAt})`, staleBefore);
    const givenUp = sql`coalesce(starts_with(${refunds.failure}, ${GIVEN_UP}), false)`;
    const unanswered = and(
      eq(refunds.status, 'pending'),
      isNotNull(refunds.providerRefundId),
      lt(refunds.updatedAt, laterBefore),
    );
    const due = await db
      .select({
        id: refunds.id,
        status: refunds.status,
        refusedSince: sql<Date>`coalesce(${refunds.firstRefusedAt}, ${refunds.updatedAt})`.mapWith(refunds.updatedAt),
      })
      .from(refunds)
      .where(or(unsent, and(refused, not(givenUp)), unanswered))
      .orderBy(asc(refunds.updatedAt))
      .limit(limit);
    let done = 0;
    for (const { id, status, refusedSince } of due) {
      if (status === 'failed' && refusedSince.getTime() < staleBefore.getTime()) {
        // A hand-over that fails (a fault on its row) is left for the next pass: it rolled back, so it
        // would stay first in this order and, thrown, end every pass before the refunds due after it.
        await giveUp(id, and(refused, not(givenUp), stale)!).catch((err: unknown) =>
          deps.log?.warn({ err, refundId: id }, 'refund not handed to an admin; the next pass tries again'),
        );
        continue;
      }
      try {
        // A refused one is claimed as pending and sent in the same statement, as an admin's retry marks
        // it (decision 2264): a retry pressed at that moment then finds it being sent, never sends it too.
        // Inside the try: a claim that fails on its row is left for the next pass, not the end of this
        // one for every refund due after it (decision 2334).
        const [claimed] = await db
          .update(refunds)
          .set(
            status === 'failed'
              ? { status: 'pending', failure: null, providerRefundId: null, updatedAt: clock.now() }
              : { updatedAt: clock.now() },
          )
          .where(and(eq(refunds.id, id), status === 'failed' ? refused : or(unsent, unanswered)))
          .returning();
        if (!claimed) continue;
        if (claimed.providerRefundId && claimed.status === 'pending') {
          const found = await provider.fetchRefund(claimed.providerRefundId);
          if (found && found.status !== 'pending') await settle(id, found);
          continue;
        }
        const found = await findSent(id);
        if (found) await settle(id, found);
        else await send(id);
        done++;
      } catch (err) {
        // Unreachable, or a twin being sent: left for the next pass.
        deps.log?.warn({ err, refundId: id }, 'refund not sent; the next pass tries again');
      }
    }
    return done;
  }

  /**
   * Marks a refused refund the background job stops sending and mails each live admin, in one
   * transaction, claimed by the conditional update so two passes mail once (decision 2309).
   */
  async function giveUp(id: string, still: SQL) {
    const told = await db.transaction(async (tx) => {
      const [r] = await tx
        .update(refunds)
        .set({
          failure: sql`${GIVEN_UP} || coalesce(${refunds.failure}, 'Refused by the provider')`,
          updatedAt: clock.now(),
        })
        .where(and(eq(refunds.id, id), still))
        .returning();
      if (!r) return false;
      const [ctx] = await tx
        .select({
          reference: refundReference,
          what: sql<string>`coalesce(${products.productName}, ${orders.title}, ${PLAN_PAYMENT_TITLE})`,
        })
        .from(refunds)
        .leftJoin(orders, eq(orders.id, refunds.orderId))
        .leftJoin(jobs, eq(jobs.id, refunds.jobId))
        .leftJoin(products, eq(products.id, jobs.productId))
        .where(eq(refunds.id, id));
      const render = mailRenderer(deps.config);
      const admins = await tx.select({ email: users.officialEmail }).from(users).where(liveAdmin).limit(20);
      for (const a of admins)
        await enqueueMail(
          tx,
          render(
            refundGivenUpMail({
              to: a.email,
              refundId: r.id,
              amount: r.amount / 100,
              what: ctx.what,
              reference: ctx.reference,
              failure: r.failure!.slice(GIVEN_UP.length),
              url: `${deps.config.PUBLIC_URL}/admin/refunds`,
            }),
          ),
        );
      deps.log?.error({ refundId: r.id, failure: r.failure }, 'refund refused for days; left for an admin');
      return admins.length > 0;
    });
    if (told) deps.mailWritten();
  }

  return {
    /** Before the job's lock: the locks a plan job's cancel needs first (lockPlanOfJob). */
    lockForCancel: lockPlanOfJob,
    open,
    openUnapplied,
    givenBack,
    send,
    settle,
    resendDue,

    /**
     * A signed refund webhook: asks the provider for the refund (the payload is never trusted) and
     * settles ours. Our row is found by the provider's refund id, or, when the webhook beat the refund
     * call's answer, by the payment it refunds and the amount.
     */
    async onWebhook(payload: unknown) {
      const data = (payload as { data?: { id?: unknown } } | null)?.data;
      const id = typeof data?.id === 'number' || typeof data?.id === 'string' ? String(data.id) : null;
      if (!id) return { result: 'ignored' as const };
      const found = await provider.fetchRefund(id);
      if (!found) return { result: 'ignored' as const };
      const [mine] = await db
        .select({ id: refunds.id })
        .from(refunds)
        .where(and(eq(refunds.provider, provider.name), eq(refunds.providerRefundId, found.id)));
      // Two refunds of one payment for the same amount (two jobs of an order cancelled together) cannot
      // be told apart: the webhook is left alone, and each refund's own answer (or an admin's retry,
      // which asks the provider) settles it by the provider's id.
      const candidates = mine
        ? [mine]
        : await db
            .select({ id: refunds.id })
            .from(refunds)
            .leftJoin(orders, eq(orders.id, refunds.orderId))
            .where(
              and(
                eq(refundedTransaction, found.transactionId),
                eq(refunds.status, 'pending'),
                isNull(refunds.providerRefundId),
                eq(refunds.amount, found.amount),
              ),
            )
            .limit(2);
      if (candidates.length !== 1) return { result: 'ignored' as const };
      await settle(candidates[0].id, found);
      return { result: found.status };
    },

    /**
     * An admin sends a failed refund again, or one the provider never answered. One the provider took
     * and is processing is asked about instead: its webhook may have been lost (or left alone as
     * ambiguous), and the provider's word settles it once.
     */
    async retry(refundId: string) {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(refundId))
        throw notFound('Refund not found');
      const again = await db.transaction(async (tx) => {
        const [r] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
        if (!r) throw notFound('Refund not found');
        if (r.status === 'completed') throw conflict('This refund is already completed');
        if (r.status === 'pending' && r.providerRefundId) return { id: r.id, ask: r.providerRefundId };
        // A refund being sent right now (or a retry a moment ago) is not sent twice.
        if (r.status === 'pending' && clock.now().getTime() - r.updatedAt.getTime() < RESEND_AFTER_MS)
          throw conflict('This refund is being sent; try again in a minute if it stays pending');
        await twinInFlight(tx, r);
        await tx
          .update(refunds)
          .set({ status: 'pending', failure: null, providerRefundId: null, updatedAt: clock.now() })
          .where(eq(refunds.id, r.id));
        return { id: r.id, ask: null };
      });
      if (again.ask) {
        const found = await provider.fetchRefund(again.ask);
        if (!found || found.status === 'pending') throw conflict('The provider is still processing this refund');
        await settle(again.id, found);
      } else {
        // An earlier send may have been made at the provider with its answer lost: that refund settles
        // this one; only when the provider has none is it sent again (a refund has no reference of ours).
        const sent = await findSent(again.id);
        if (sent && (await settle(again.id, sent)) === 'taken') throw conflict(TWIN_BEING_SENT);
        if (!sent) await send(again.id);
      }
      return (await view(eq(refunds.id, again.id)))[0];
    },

    // The 200 newest, and every failed refund (up to 1,000 rows in all): money still due that only an
    // admin's Retry sends must not fall off the list behind newer settled ones.
    list: () => view(ADMIN_LIST_WHERE, 1000),
    forJob: async (jobId: string) => (await view(eq(refunds.jobId, jobId)))[0] ?? null,
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
export type { Refund };
