import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, like, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import {
  PLAN_CREDIT_KINDS,
  PLAN_CREDIT_WORDS,
  PLAN_GRACE_DAYS,
  PLAN_PAYMENT_OPTIONS,
  PLAN_TIER_INFO,
  formatNairaExact,
  messages,
  planMessages,
  type PlanCreditKind,
  type PlanCredits,
  type PlanRequestInput,
  type PlanStatus,
  type PlanTier,
  type PlanView,
  type SubscribeData,
  type SubscriberRow,
} from '@legalmarket/contracts';
import type { Executor } from '../../db/client.js';
import {
  jobs,
  orders,
  planProviderPlans,
  products,
  subscriptionEvents,
  subscriptionPayments,
  subscriptions,
  users,
} from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { button, facts, paragraph, mailRenderer, type MailTemplate } from '../../platform/mail-templates.js';
import { enqueueMail } from '../../platform/mailer.js';
import {
  ChargeRefused,
  merchantFee,
  ProviderUnavailable,
  type PaymentProvider,
  type ProviderTransaction,
} from '../../platform/payments/index.js';
import type { Shared } from '../shared.js';
import type { JobLifecycle } from '../jobs/lifecycle-service.js';
import type { Ledger } from '../money/ledger.js';
import type { Refunds } from '../money/refunds.js';
import { companyAsBilled, paymentMethodWords } from '../money/receipts.js';
import { assertAttachable, cleanFileName } from '../uploads/service.js';
import { assertRecentCode } from '../two-factor/service.js';
import { lockCompany, lockLiveAccount } from '../../db/locks.js';

type Sub = typeof subscriptions.$inferSelect;
type Payment = typeof subscriptionPayments.$inferSelect;

/** The reasons a plan payment's refund gives (its e-mail and credit note say them). */
const PAID_TWICE = 'A second payment of your monthly plan';
const RENEWAL_UNAPPLIED = 'A plan renewal charge that paid no month';
const REFUNDED_STARTS_NOTHING = 'This payment was refunded, so it starts no plan: subscribe again to start one';

const DAY_MS = 86_400_000;
/** How long a scheduler owns a renewal it is charging before another may try. */
const CLAIM_MS = 5 * 60_000;
/** A first payment the browser and webhook left unconfirmed is asked about after this (as orders are). */
const FIRST_RECHECK_AFTER_MS = 2 * 60_000;
/** ...and closed when still unpaid after this; one paid but not applied (paid twice) is re-asked for 2 days. */
const FIRST_EXPIRE_AFTER_MS = DAY_MS;
const LIVE: PlanStatus[] = ['active', 'grace'];
const NO_CREDITS: PlanCredits = { review: 0, draft: 0, opinion: 0, policy: 0 };

const LAGOS_OFFSET_MS = 3_600_000;

/** The same day next month (the last day when next month is shorter), in Lagos. */
export function addMonth(d: Date): Date {
  // Counted on Lagos's calendar (UTC+1 all year): a plan started at 00:30 on 1 March there (23:30 UTC
  // the day before) renews on 1 April, the day its page and mails name, not on 28 March.
  const next = new Date(d.getTime() + LAGOS_OFFSET_MS);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, last));
  return new Date(next.getTime() - LAGOS_OFFSET_MS);
}

const totalOf = (c: PlanCredits) => PLAN_CREDIT_KINDS.reduce((s, k) => s + c[k], 0);

/**
 * What one credit of a tier's month is worth (decision 1900): the month's price shared equally by the
 * credits it includes, in whole kobo; the rounding remainder is the platform's at payment.
 */
export const creditValueOf = (tier: PlanTier) =>
  Math.floor(PLAN_TIER_INFO[tier].price / totalOf(PLAN_TIER_INFO[tier].credits));

/** Renewal references name the plan, the month they pay for and the attempt: SUB-<id>-<month>-<attempt>. */
const RENEWAL_REF = /^SUB-([0-9a-f-]{36})-(\d{1,6})-(\d{1,4})$/;

/** The discount (percent) a company's live plan gives on single products; 0 without one. */
export async function planDiscountPercent(ex: Executor, companyId: string): Promise<number> {
  const [row] = await ex
    .select({ tier: subscriptions.tier })
    .from(subscriptions)
    .where(and(eq(subscriptions.companyId, companyId), inArray(subscriptions.status, LIVE)))
    .limit(1);
  return row ? PLAN_TIER_INFO[row.tier].percentOff : 0;
}

/** A price less a plan's discount, in whole kobo (half a kobo rounds to the company's favour). */
export const discounted = (kobo: number, percent: number) =>
  percent ? kobo - Math.ceil((kobo * percent) / 100 - 0.5) : kobo;

export interface PlansDeps {
  provider: PaymentProvider;
  ledger: Ledger;
  lifecycle: JobLifecycle;
  /** Refunds of plan payments that paid nothing (decision 2262), on the same provider and ledger. */
  refunds: Refunds;
  log?: { info: (o: object, m?: string) => void; warn: (o: object, m?: string) => void };
}

export function createPlansService(
  shared: Pick<Shared, 'db' | 'clock' | 'config' | 'mailWritten' | 'securityLog'>,
  deps: PlansDeps,
) {
  const { db, clock, config } = shared;
  // Figures that would post the whole payment as a fee are bad data: logged raw, not posted (decision 2348).
  const feeImplausible = (tx: { id: string }) => (figures: object) =>
    shared.securityLog('payment_fee_implausible', { transactionId: tx.id, ...figures });
  const { provider, ledger, lifecycle, refunds } = deps;
  const renderMail = mailRenderer(config);
  const planUrl = `${config.PUBLIC_URL}/company/plan`;

  const event = (
    tx: Executor,
    subscriptionId: string,
    kind: (typeof subscriptionEvents.$inferInsert)['kind'],
    note: string,
  ) => tx.insert(subscriptionEvents).values({ subscriptionId, kind, note, createdAt: clock.now() });

  // The day in Lagos, as the plan page shows it (a renewal at 23:30 UTC is the next day there).
  const day = (d: Date) => new Date(d.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);

  /**
   * Money a plan payment took for nothing (decision 2262): inside the transaction that finds it, its
   * refund is opened and the amount due posted, once per provider transaction (racing callers open one).
   * Only a successful NGN charge is refunded, whole. Returns the refund to send after the commit.
   */
  function openRefund(t: Executor, tx: ProviderTransaction, companyId: string, reason: string) {
    if (tx.status !== 'successful' || tx.currency !== 'NGN' || !tx.id) return Promise.resolve(null);
    // Charged less than its amount (the provider's answer contradicts itself): left logged for an admin,
    // since a refund of the amount would be refused, and one of the charge would not match the payment.
    if (tx.chargedAmount !== undefined && tx.chargedAmount < tx.amount) return Promise.resolve(null);
    return refunds.openUnapplied(t, {
      plan: { companyId, reference: tx.txRef, provider: provider.name },
      transactionId: String(tx.id),
      amount: tx.amount,
      reason,
      from: 'cash',
    });
  }

  /** After the commit: the provider's answer (or its outage, retried by the background job) never changes the payment's. */
  async function sendRefund(refundId: string | null) {
    if (!refundId) return;
    await refunds
      .send(refundId)
      .catch((err) => deps.log?.warn({ err, refundId }, 'plan refund not sent; retried later'));
  }

  /**
   * A first payment of the wrong amount pays nothing: it goes back whole (NGN only; one of another
   * currency or another reference's transaction stays logged).
   */
  async function refundMismatch(p: Payment, tx: ProviderTransaction | null, problem: string) {
    if (problem !== 'amount' || !tx) return;
    await sendRefund(
      await db.transaction(async (t) => {
        // The company lock first, as startPlan and erasure take it: never a refund after an erasure's check.
        await lockCompany(t, p.companyId);
        return openRefund(t, tx, p.companyId, 'A plan payment of the wrong amount (it started no plan)');
      }),
    );
  }

  /**
   * To the address the company signs in with now. The plan's `customerEmail` is the one its card was
   * charged under at the provider, kept for the provider; an e-mail change leaves it behind, and the
   * old inbox (a former employee's) must not go on getting the plan's receipts (decision 2222).
   */
  async function mail(tx: Executor, sub: Pick<Sub, 'companyId'>, m: Omit<MailTemplate, 'to'>) {
    const [company] = await tx.select({ email: users.officialEmail }).from(users).where(eq(users.id, sub.companyId));
    if (company) await enqueueMail(tx, renderMail({ ...m, to: company.email }));
  }

  /** The provider's payment plan for a tier, made the first time it is needed. */
  async function providerPlanFor(tier: PlanTier): Promise<string> {
    const find = async () =>
      (
        await db
          .select()
          .from(planProviderPlans)
          .where(and(eq(planProviderPlans.provider, provider.name), eq(planProviderPlans.tier, tier)))
      )[0];
    const known = await find();
    if (known) return known.providerPlanId;
    const info = PLAN_TIER_INFO[tier];
    const made = await provider.createPaymentPlan({
      name: `LegalMarket ${info.name} (monthly)`,
      amount: info.price,
      interval: 'monthly',
    });
    // Two first subscribers may each make one; the first stored is the one used.
    await db
      .insert(planProviderPlans)
      .values({ provider: provider.name, tier, providerPlanId: made.id, createdAt: clock.now() })
      .onConflictDoNothing();
    return (await find())!.providerPlanId;
  }

  async function liveOf(ex: Executor, companyId: string, lock = false) {
    const q = ex
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.companyId, companyId), inArray(subscriptions.status, LIVE)))
      .limit(1);
    const [row] = lock ? await q.for('update') : await q;
    return row;
  }

  async function lastPaymentOf(ex: Executor, subscriptionId: string) {
    const [row] = await ex
      .select()
      .from(subscriptionPayments)
      .where(and(eq(subscriptionPayments.subscriptionId, subscriptionId), eq(subscriptionPayments.status, 'paid')))
      .orderBy(desc(subscriptionPayments.id))
      .limit(1);
    return row;
  }

  /** A plan payment: the provider holds it; the month's credits are held for the jobs they will open. */
  function postPayment(tx: Executor, payment: Payment, sub: Sub) {
    const held = sub.creditValue * totalOf(PLAN_TIER_INFO[sub.tier].credits);
    return ledger.post(
      tx,
      { kind: 'plan_payment', subscriptionPaymentId: payment.id, memo: `Plan payment ${payment.txRef}` },
      [
        { account: 'provider_cash', amount: payment.amount, companyId: sub.companyId },
        { account: 'held_for_jobs', amount: -held, companyId: sub.companyId },
        { account: 'platform_commission', amount: -(payment.amount - held) },
      ],
    );
  }

  /** The month's unused credits: what was held for them is the platform's (no carry-over). */
  async function postExpiry(tx: Executor, sub: Sub, monthPayment?: Payment) {
    // Keyed on the payment of the month that expires: a renewal's own payment keys the next month's.
    const paid = monthPayment ?? (await lastPaymentOf(tx, sub.id));
    const unused = totalOf(sub.credits) * sub.creditValue;
    if (!paid) return;
    await ledger.post(
      tx,
      { kind: 'plan_expiry', subscriptionPaymentId: paid.id, memo: 'Unused plan credits expired' },
      [
        { account: 'held_for_jobs', amount: unused, companyId: sub.companyId },
        { account: 'platform_commission', amount: -unused },
      ],
    );
  }

  async function toView(ex: Executor, sub: Sub): Promise<PlanView> {
    const info = PLAN_TIER_INFO[sub.tier];
    const events = await ex
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, sub.id))
      .orderBy(asc(subscriptionEvents.id))
      .limit(500);
    const planJobs = await ex
      .select({ id: jobs.id, status: jobs.status, createdAt: jobs.createdAt, title: orders.title })
      .from(jobs)
      .innerJoin(orders, eq(orders.id, jobs.orderId))
      .where(eq(jobs.subscriptionId, sub.id))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(200);
    return {
      _id: sub.id,
      tier: sub.tier,
      tierName: info.name,
      price: info.price / 100,
      status: sub.status,
      percentOff: info.percentOff,
      periodStart: sub.periodStart.toISOString(),
      renewsAt: sub.periodEnd.toISOString(),
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      nextTier: sub.nextTier,
      graceUntil: sub.graceUntil?.toISOString() ?? null,
      credits: sub.credits,
      creditsUsed: sub.creditsUsed,
      included: info.credits,
      events: events.map((e) => ({ kind: e.kind, note: e.note, at: e.createdAt.toISOString() })),
      jobs: planJobs.map((j) => ({
        _id: j.id,
        kind: j.title,
        status: j.status,
        createdAt: j.createdAt.toISOString(),
      })),
    };
  }

  /**
   * Starts a subscription: a pending first payment the checkout dialog pays on the tier's payment plan,
   * by card only (decision 2190). Made under the company's lock in one transaction, so starts sent
   * together (a double click, two tabs) see one another: the same tier's payment made in the last
   * FIRST_RECHECK_AFTER_MS, before the background pass asks the provider about it, is answered again
   * (one reference, which the provider charges once), and no start is made beside a live plan.
   */
  async function subscribe(user: AuthUser, tier: PlanTier): Promise<SubscribeData> {
    if (await liveOf(db, user.id)) throw conflict(planMessages.alreadySubscribed);
    // Asked of the provider before the lock, never under it; made once per tier and kept.
    const planId = await providerPlanFor(tier);
    const info = PLAN_TIER_INFO[tier];
    const payment = await db.transaction(async (t) => {
      await lockCompany(t, user.id);
      await lockLiveAccount(t, user.id);
      if (await liveOf(t, user.id)) throw conflict(planMessages.alreadySubscribed);
      const now = clock.now();
      const [open] = await t
        .select()
        .from(subscriptionPayments)
        .where(
          and(
            eq(subscriptionPayments.companyId, user.id),
            eq(subscriptionPayments.kind, 'first'),
            eq(subscriptionPayments.status, 'pending'),
            eq(subscriptionPayments.tier, tier),
            eq(subscriptionPayments.provider, provider.name),
            eq(subscriptionPayments.providerPlanId, planId),
            gt(subscriptionPayments.createdAt, new Date(now.getTime() - FIRST_RECHECK_AFTER_MS)),
          ),
        )
        .orderBy(desc(subscriptionPayments.id))
        .limit(1);
      if (open) return open;
      const [made] = await t
        .insert(subscriptionPayments)
        .values({
          companyId: user.id,
          tier,
          kind: 'first',
          txRef: `PLAN-${now.getTime()}-${randomBytes(5).toString('hex')}`,
          amount: info.price,
          status: 'pending',
          provider: provider.name,
          providerPlanId: planId,
          createdAt: now,
        })
        .returning();
      return made;
    });
    return {
      reference: payment.txRef,
      amount: payment.amount / 100,
      currency: 'NGN',
      title: `${info.name} plan (monthly)`,
      paymentPlan: planId,
      paymentOptions: PLAN_PAYMENT_OPTIONS,
      customer: { email: user.officialEmail, phone: user.phoneNumber, name: user.name },
      provider: { name: provider.name, ...provider.publicSettings() },
    };
  }

  /** Why a provider's answer does not pay this first payment, or null when it does. */
  function mismatch(p: Payment, tx: ProviderTransaction | null): string | null {
    if (!tx) return 'unknown';
    if (tx.txRef !== p.txRef) return 'reference';
    if (tx.status !== 'successful') return tx.status === 'pending' ? 'pending' : 'failed';
    if (tx.currency !== 'NGN') return 'currency';
    if (tx.amount !== p.amount || (tx.chargedAmount !== undefined && tx.chargedAmount < p.amount)) return 'amount';
    return null;
  }

  /**
   * A charge made on our payment plan subscribes the card at the provider even when it pays nothing
   * here (the wrong amount or currency, a second charge of a paid reference): its subscription is
   * cancelled by the scheduler as a paid one's is. One made after that cancel ran (a tab paying later)
   * is cancelled again; one whose cancel is still to run is left to it, and the plan that cancel names is
   * never swapped for another (a charge on another plan is cancelled when the provider charges it itself,
   * `providerCharge`).
   */
  async function cancelSubscriptionOf(ex: Executor, p: Payment, tx: ProviderTransaction | null) {
    if (!tx || tx.status !== 'successful' || !tx.paymentPlan || tx.txRef !== p.txRef) return;
    const made = tx.createdAt ? new Date(tx.createdAt) : null;
    await ex
      .update(subscriptionPayments)
      .set({
        providerPlanId: tx.paymentPlan,
        providerCancelAfter: clock.now(),
        providerCancelledAt: null,
        // The subscription is the charge's, found by its e-mail: a later address change must not lose it.
        ...(tx.customerEmail ? { customerEmail: tx.customerEmail } : {}),
      })
      .where(
        and(
          eq(subscriptionPayments.id, p.id),
          or(
            isNull(subscriptionPayments.providerCancelAfter),
            made && !Number.isNaN(made.getTime())
              ? lt(subscriptionPayments.providerCancelledAt, made)
              : isNotNull(subscriptionPayments.providerCancelledAt),
            // A cancel of the same plan claimed and running now may reach the provider before this charge
            // subscribed the card: set due again, the running one no longer marks it done.
            and(
              isNull(subscriptionPayments.providerCancelledAt),
              gt(subscriptionPayments.providerCancelAfter, clock.now()),
              eq(subscriptionPayments.providerPlanId, tx.paymentPlan),
            ),
          ),
        ),
      );
  }

  /** A successful charge under a paid first payment's reference that is not the one that paid it. */
  const chargedAgain = (p: Payment, tx: ProviderTransaction) =>
    p.status === 'paid' && tx.txRef === p.txRef && tx.status === 'successful' && tx.id !== p.providerTransactionId;

  /** The first payment verified: the plan starts now with the tier's month of credits, once. */
  async function activate(paymentId: string | number, tx: ProviderTransaction) {
    return (await startPlan(paymentId, tx)).sub;
  }

  /** The plan started once, and whether this call started it. */
  type Started = {
    sub: Sub | null;
    newly: boolean;
    twice?: Payment;
    erased?: Payment;
    refundId?: string | null;
    refunded?: boolean;
  };
  async function startPlan(paymentId: string | number, tx: ProviderTransaction) {
    const out = await db.transaction(async (t): Promise<Started> => {
      const [p0] = await t
        .select()
        .from(subscriptionPayments)
        .where(eq(subscriptionPayments.id, Number(paymentId)));
      await lockCompany(t, p0.companyId);
      const [p] = await t.select().from(subscriptionPayments).where(eq(subscriptionPayments.id, p0.id)).for('update');
      if (p.status === 'paid' && p.subscriptionId) {
        // The window paid twice under one reference (two tabs): the second charge buys nothing more; it
        // is logged for a refund like a second payment (decision 2191) and its subscription cancelled.
        if (chargedAgain(p, tx)) {
          await cancelSubscriptionOf(t, p, tx);
          return { sub: null, newly: false, twice: p, refundId: await openRefund(t, tx, p.companyId, PAID_TWICE) };
        }
        const [s] = await t.select().from(subscriptions).where(eq(subscriptions.id, p.subscriptionId));
        return { sub: s, newly: false };
      }
      const now = clock.now();
      // Read under the company lock erasure takes: a payment that arrives for an erased account starts
      // no plan (its card would be charged every month); it is closed and logged for a refund (2170).
      const [owner] = await t.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, p.companyId));
      if (owner?.deletedAt) {
        await t
          .update(subscriptionPayments)
          .set({ status: 'failed' })
          .where(and(eq(subscriptionPayments.id, p.id), eq(subscriptionPayments.status, 'pending')));
        return { sub: null, newly: false, erased: p };
      }
      // A payment already given back (paid while another plan was live, which has ended since) starts
      // nothing: its money is on its way back to the card (decision 2262).
      if (await refunds.givenBack(t, provider.name, String(tx.id))) return { sub: null, newly: false, refunded: true };
      if (await liveOf(t, p.companyId, true)) {
        // Paid twice (two tabs): the second payment is refunded (decision 2262), and the
        // subscription its charge made at the provider is cancelled like any other (decision 1900).
        if (p.providerPlanId && !p.providerCancelAfter && !p.providerCancelledAt)
          await t
            .update(subscriptionPayments)
            .set({ providerCancelAfter: now, customerEmail: tx.customerEmail ?? null })
            .where(eq(subscriptionPayments.id, p.id));
        return { sub: null, newly: false, twice: p, refundId: await openRefund(t, tx, p.companyId, PAID_TWICE) };
      }
      const [company] = await t.select().from(users).where(eq(users.id, p.companyId));
      const info = PLAN_TIER_INFO[p.tier];
      const [sub] = await t
        .insert(subscriptions)
        .values({
          companyId: p.companyId,
          tier: p.tier,
          status: 'active',
          provider: p.provider,
          // The card's token and its subscription at the provider are tied to the e-mail the charge was
          // made with, not to the sign-in address, which may have moved since the window opened.
          customerEmail: tx.customerEmail ?? company.officialEmail,
          cardToken: tx.cardToken ?? null,
          periodStart: now,
          periodEnd: addMonth(now),
          credits: info.credits,
          creditsUsed: NO_CREDITS,
          creditValue: creditValueOf(p.tier),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const [paid] = await t
        .update(subscriptionPayments)
        .set({
          status: 'paid',
          subscriptionId: sub.id,
          providerTransactionId: tx.id,
          paymentMethod: tx.paymentType?.slice(0, 40) || null,
          paidAt: now,
          // The charge on the payment plan subscribed the card: the provider would charge it itself (a
          // cancel run for an earlier charge that paid nothing did not cancel this one).
          providerCancelAfter: p.providerPlanId ? now : null,
          providerCancelledAt: null,
          customerEmail: tx.customerEmail ?? null,
        })
        .where(eq(subscriptionPayments.id, p.id))
        .returning();
      await postPayment(t, paid, sub);
      await ledger.recordFee(t, { subscriptionPaymentId: paid.id }, merchantFee(tx, feeImplausible(tx)));
      await event(t, sub.id, 'subscribed', `${info.name} plan started; ${formatNairaExact(info.price / 100)} paid`);
      await mail(t, sub, receiptMail(companyAsBilled(company).name, paid, sub, 'Your plan is active'));
      return { sub, newly: true };
    });
    if (out.erased) {
      const p = out.erased;
      shared.securityLog('payment_for_deleted_account', {
        companyId: p.companyId,
        reference: p.txRef,
        transactionId: tx.id,
        amount: tx.amount,
        currency: tx.currency,
      });
      // The charge subscribed the card to our payment plan at the provider, under the e-mail it was
      // made with (the account's own is erased): cancel it now; a charge it still makes is logged too.
      const planId = tx.paymentPlan ?? p.providerPlanId;
      if (planId && tx.customerEmail)
        await provider
          .cancelPlanSubscription(planId, tx.customerEmail)
          .catch((err) => deps.log?.warn({ err }, 'cancelling the provider subscription failed'));
      throw conflict('This account has been deleted: the payment starts no plan and will be refunded');
    }
    if (out.refunded) throw conflict(REFUNDED_STARTS_NOTHING);
    if (!out.sub) {
      const p = out.twice!;
      shared.securityLog('plan_paid_twice', {
        companyId: p.companyId,
        reference: p.txRef,
        transactionId: tx.id,
        amount: tx.amount,
        currency: tx.currency,
        refundId: out.refundId ?? null,
      });
      await sendRefund(out.refundId ?? null);
      throw conflict(planMessages.alreadySubscribed);
    }
    if (out.newly) shared.mailWritten();
    return { sub: out.sub, newly: out.newly };
  }

  function receiptMail(name: string, p: Payment, sub: Sub, subject: string): Omit<MailTemplate, 'to'> {
    const info = PLAN_TIER_INFO[sub.tier];
    return {
      subject: `${subject}: ${info.name} plan`,
      body: [
        paragraph(`Hello ${name},`),
        paragraph(
          `We received ${formatNairaExact(p.amount / 100)} for your ${info.name} plan. It renews on ${day(sub.periodEnd)}.`,
        ),
        facts([
          ['Receipt', p.txRef],
          ['Plan', `${info.name} (monthly)`],
          ['Month', `${day(sub.periodStart)} to ${day(sub.periodEnd)}`],
          ['Amount', formatNairaExact(p.amount / 100)],
          // In words, as the order's receipt says it: the provider's code (bank_transfer) is not.
          ['Paid by', paymentMethodWords(p.paymentMethod ?? 'card')],
        ]),
        paragraph(planMessages.noCarryOver),
        button('See your plan', planUrl),
      ],
    };
  }

  /** Browser confirmation of the first payment: asks the provider, never the caller. */
  async function confirm(user: AuthUser, reference: string, transactionId?: string): Promise<PlanView> {
    const [p] = await db.select().from(subscriptionPayments).where(eq(subscriptionPayments.txRef, reference));
    if (!p || p.kind !== 'first') throw notFound(planMessages.paymentNotFound);
    if (p.companyId !== user.id) {
      shared.securityLog('plan_payment_other_company', { actor: user.id, reference });
      throw forbidden(messages.orderNotYours);
    }
    let tx: ProviderTransaction | null;
    try {
      tx = transactionId ? await provider.verifyById(transactionId) : await provider.verifyByReference(reference);
    } catch (err) {
      if (err instanceof ProviderUnavailable) throw new AppError(503, messages.paymentPending);
      throw err;
    }
    const problem = p.status === 'paid' ? null : mismatch(p, tx);
    if (problem === 'pending') throw new AppError(409, messages.paymentPending);
    if (problem) {
      if (problem !== 'failed' && problem !== 'unknown') {
        shared.securityLog('plan_payment_mismatch', { reference, problem, transactionId: tx?.id });
        await cancelSubscriptionOf(db, p, tx);
        await refundMismatch(p, tx, problem);
      }
      throw badRequest(messages.paymentFailed);
    }
    if (!tx) {
      // Only a paid payment gets here without a transaction: an id the provider does not know adds
      // nothing to it, so the answer is the plan it started, as a paid order's verify answers.
      const [s] = p.subscriptionId
        ? await db.select().from(subscriptions).where(eq(subscriptions.id, p.subscriptionId))
        : [];
      if (!s) throw notFound(planMessages.paymentNotFound);
      return toView(db, s);
    }
    const sub = await activate(p.id, tx);
    return toView(db, sub);
  }

  async function mine(user: AuthUser): Promise<PlanView | null> {
    const [sub] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.companyId, user.id))
      .orderBy(desc(sql`${subscriptions.status} in ('active', 'grace')`), desc(subscriptions.createdAt))
      .limit(1);
    return sub ? toView(db, sub) : null;
  }

  /** Runs `fn` on the company's live plan under its locks. */
  async function withLive<T>(companyId: string, fn: (t: Executor, sub: Sub) => Promise<T>) {
    return db.transaction(async (t) => {
      await lockCompany(t, companyId);
      const sub = await liveOf(t, companyId, true);
      if (!sub) throw notFound(planMessages.noPlan);
      return fn(t, sub);
    });
  }

  /**
   * A renewal charge made and not yet answered: the scheduler took an attempt and nothing is recorded
   * for its reference (the answer and the webhook were lost, or are still on their way).
   */
  async function unanswered(ex: Executor, sub: Sub) {
    if (!sub.attempts) return false;
    const [answered] = await ex
      .select({ id: subscriptionPayments.id })
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.txRef, `SUB-${sub.id}-${sub.period + 1}-${sub.attempts}`));
    return !answered;
  }

  /**
   * The next attempt's number: past any reference of the month a charge was already recorded under
   * without the scheduler making it (a reference made up at a checkout window), which the provider
   * would answer with that charge instead of making ours.
   */
  async function nextAttempt(ex: Executor, sub: Sub) {
    const prefix = `SUB-${sub.id}-${sub.period + 1}-`;
    const taken = await ex
      .select({ txRef: subscriptionPayments.txRef })
      .from(subscriptionPayments)
      .where(and(eq(subscriptionPayments.subscriptionId, sub.id), like(subscriptionPayments.txRef, `${prefix}%`)));
    const used = new Set(taken.map((r) => Number(r.txRef.slice(prefix.length))));
    let attempt = sub.attempts + 1;
    while (used.has(attempt)) attempt++;
    return attempt;
  }

  /**
   * A renewal the scheduler claimed is being charged at the tier it read then, outside any lock: the
   * tier and the cancellation stay as they are until its answer is applied. The claim running out does
   * not end that: a charge whose answer was lost is asked for again at the same tier, and a cancel taken
   * meanwhile would end the plan with the month charged and never given.
   */
  async function assertNotCharging(ex: Executor, sub: Sub) {
    if ((sub.claimedUntil && sub.claimedUntil > clock.now()) || (await unanswered(ex, sub)))
      throw conflict(planMessages.renewalBeingCharged);
  }

  async function changeTier(user: AuthUser, tier: PlanTier) {
    return withLive(user.id, async (t, sub) => {
      if (sub.cancelAtPeriodEnd) throw conflict(planMessages.alreadyCancelled);
      await assertNotCharging(t, sub);
      // The renewal charges the saved card with nobody present: a change that raises its amount (an
      // upgrade, or undoing a pending downgrade) asks a fresh code (decision 2283), compared under the
      // lock with the amount a concurrent change left.
      if (PLAN_TIER_INFO[tier].price > PLAN_TIER_INFO[sub.nextTier ?? sub.tier].price)
        await assertRecentCode(t, clock.now(), user);
      const next = tier === sub.tier ? null : tier;
      // Sent again (a second tab, a send resent after leaving the page): answered as the first, and
      // the plan's history keeps one entry for it (decision 2294).
      if (next === sub.nextTier)
        return { message: next ? planMessages.tierChanged : planMessages.tierKept, plan: await toView(t, sub) };
      const [s] = await t
        .update(subscriptions)
        .set({ nextTier: next, updatedAt: clock.now() })
        .where(eq(subscriptions.id, sub.id))
        .returning();
      await event(
        t,
        sub.id,
        'tier_change',
        next
          ? `${PLAN_TIER_INFO[next].name} from the renewal on ${day(sub.periodEnd)}`
          : `Stays ${PLAN_TIER_INFO[sub.tier].name}`,
      );
      return { message: next ? planMessages.tierChanged : planMessages.tierKept, plan: await toView(t, s) };
    });
  }

  /** Stops renewal; the month paid for stays, credits and discount included, until its end. */
  async function cancel(user: AuthUser) {
    const out = await withLive(user.id, async (t, sub) => {
      if (sub.cancelAtPeriodEnd) throw conflict(planMessages.alreadyCancelled);
      if (sub.status !== 'active') throw conflict(planMessages.noPlan);
      await assertNotCharging(t, sub);
      const [s] = await t
        .update(subscriptions)
        .set({ cancelAtPeriodEnd: true, nextTier: null, updatedAt: clock.now() })
        .where(eq(subscriptions.id, sub.id))
        .returning();
      await event(t, sub.id, 'cancelled', `Will not renew; the plan ends on ${day(sub.periodEnd)}`);
      const last = await lastPaymentOf(t, sub.id);
      return { plan: await toView(t, s), planId: last?.providerPlanId, email: sub.customerEmail };
    });
    // The provider stops charging too; a failure here is harmless (our renewal never runs for it).
    if (out.planId)
      await provider
        .cancelPlanSubscription(out.planId, out.email)
        .catch((err) => deps.log?.warn({ err }, 'cancelling the provider subscription failed'));
    return out.plan;
  }

  /**
   * The hidden catalogue product a tier's kind of work is filed under (jobs point at a product), so the
   * job names its plan wherever it is shown: "Draft (Silver plan)".
   */
  async function planProduct(t: Executor, kind: PlanCreditKind, tier: PlanTier) {
    const name = `${PLAN_CREDIT_WORDS[kind]} (${PLAN_TIER_INFO[tier].name} plan)`;
    await t.execute(sql`select pg_advisory_xact_lock(hashtextextended('lm-plan-products', 0))`);
    const [found] = await t.select({ id: products.id }).from(products).where(eq(products.productName, name)).limit(1);
    if (found) return { id: found.id, name };
    const now = clock.now();
    const [made] = await t
      .insert(products)
      .values({
        productName: name,
        productPrice: 0,
        productDescription: `Work included in the ${PLAN_TIER_INFO[tier].name} monthly plan: ${PLAN_CREDIT_WORDS[kind].toLowerCase()}.`,
        productImage: '',
        category: 'Plans',
        // Never listed in the catalogue; jobs keep pointing at it.
        deletedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: products.id });
    return { id: made.id, name };
  }

  /** The job a credit request sent under this key opened, with what was asked for. */
  async function requestedWith(ex: Executor, companyId: string, key: string) {
    const [row] = await ex
      .select({
        jobId: jobs.id,
        subscriptionId: jobs.subscriptionId,
        kind: jobs.planCreditKind,
        lines: orders.lines,
      })
      .from(jobs)
      .innerJoin(orders, eq(orders.id, jobs.orderId))
      .where(and(eq(jobs.companyId, companyId), eq(jobs.planRequestKey, key)))
      .limit(1);
    return row;
  }

  /**
   * Spends one credit: a ₦0 paid order and its job in the workspace, named after the plan, with the
   * credit's value moved from the plan's payment to the job (what its lawyer is paid from), at once.
   * A request sent again under its key (decision 2191) spends nothing more and answers the job it opened.
   */
  async function request(user: AuthUser, input: PlanRequestInput) {
    const kind = input.kind as PlanCreditKind;
    const detail = input.detail?.trim() || null;
    const file = input.file?.trim() || null;
    const fileName = file && input.fileName?.trim() ? cleanFileName(input.fileName, 'Document') : null;
    const key = input.key ?? null;
    const out = await db.transaction(async (t) => {
      await lockCompany(t, user.id);
      // Looked up under the company's lock, before the plan's checks: a request sent at once waits for
      // the first and finds its job, and a retry after the last credit (or the month) went still gets it.
      const taken = key ? await requestedWith(t, user.id, key) : undefined;
      if (taken) {
        const line = (taken.lines as Array<{ detail: string | null; file: string | null; fileName: string | null }>)[0];
        // A key reused for other work would otherwise drop that work silently.
        if (taken.kind !== kind || line?.detail !== detail || line?.file !== file || line?.fileName !== fileName)
          throw new AppError(422, planMessages.requestKeyReused);
        const [s] = await t.select().from(subscriptions).where(eq(subscriptions.id, taken.subscriptionId!));
        return { jobId: taken.jobId, plan: await toView(t, s), again: true };
      }
      const sub = await liveOf(t, user.id, true);
      if (!sub) throw notFound(planMessages.noPlan);
      const now = clock.now();
      if (sub.status !== 'active' || sub.periodEnd <= now) throw conflict(planMessages.noPlan);
      if (sub.credits[kind] <= 0) throw conflict(planMessages.noCredit(kind));
      await assertAttachable(t, user, file, null, input.fileName);
      const product = await planProduct(t, kind, sub.tier);
      const info = PLAN_TIER_INFO[sub.tier];
      const [company] = await t.select().from(users).where(eq(users.id, user.id));
      const [order] = await t
        .insert(orders)
        .values({
          companyId: user.id,
          txRef: `PLANJOB-${now.getTime()}-${randomBytes(5).toString('hex')}`,
          amount: 0,
          currency: 'NGN',
          status: 'paid',
          provider: 'plan',
          title: `${info.name} plan: ${PLAN_CREDIT_WORDS[kind]}`,
          lines: [
            {
              lineNo: 1,
              productId: product.id,
              productName: product.name,
              unitPrice: 0,
              quantity: 1,
              amount: 0,
              detail,
              file,
              fileName,
            },
          ],
          billedTo: companyAsBilled(company),
          paymentMethod: 'plan',
          createdAt: now,
          paidAt: now,
          updatedAt: now,
        })
        .returning();
      const dueAt = await lifecycle.dueAtFor(t, now);
      const [job] = await t
        .insert(jobs)
        .values({
          orderId: order.id,
          lineNo: 1,
          companyId: user.id,
          productId: product.id,
          status: 'unassigned',
          quantity: 1,
          amount: 0,
          detail: detail
            ? `${info.name} plan credit (${PLAN_CREDIT_WORDS[kind]}). ${detail}`
            : `${info.name} plan credit (${PLAN_CREDIT_WORDS[kind]})`,
          companyFile: file,
          companyFileName: fileName,
          subscriptionId: sub.id,
          planCreditKind: kind,
          planPeriod: sub.period,
          planRequestKey: key,
          dueAt,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await lifecycle.record(t, job, 'paid', { payment: true });
      // The ₦0 order is in the ledger like any paid order; the credit's value is held for the job.
      await ledger.recordPayment(t, order, [job]);
      await ledger.post(t, { kind: 'plan_credit', jobId: job.id, memo: `${info.name} plan credit` }, [
        { account: 'held_for_jobs', amount: sub.creditValue, companyId: user.id },
        { account: 'held_for_jobs', amount: -sub.creditValue, jobId: job.id, companyId: user.id },
      ]);
      const [s] = await t
        .update(subscriptions)
        .set({
          credits: { ...sub.credits, [kind]: sub.credits[kind] - 1 },
          creditsUsed: { ...sub.creditsUsed, [kind]: sub.creditsUsed[kind] + 1 },
          updatedAt: now,
        })
        .where(eq(subscriptions.id, sub.id))
        .returning();
      await event(t, sub.id, 'credit_used', `${PLAN_CREDIT_WORDS[kind]} requested`);
      return { jobId: job.id, plan: await toView(t, s), again: false };
    });
    if (!out.again) shared.mailWritten();
    return { jobId: out.jobId, plan: out.plan };
  }

  /**
   * A renewal charge's outcome, from the scheduler or a `charge.completed` webhook: once per month,
   * under the plan's row lock. A success starts the next month (new tier, fresh credits, the old
   * month's unused credits expired); a failure opens the grace period.
   */
  async function applyRenewal(tx: ProviderTransaction, via: string) {
    const ref = RENEWAL_REF.exec(tx.txRef);
    if (!ref) return 'ignored' as const;
    const [subId, month, attempt] = [ref[1], Number(ref[2]), Number(ref[3])];
    let stray: Sub | null = null;
    let strayRefund: string | null = null;
    const outcome = await db.transaction(async (t) => {
      const [s0] = await t.select().from(subscriptions).where(eq(subscriptions.id, subId));
      if (!s0) return 'ignored' as const;
      await lockCompany(t, s0.companyId);
      const [sub] = await t.select().from(subscriptions).where(eq(subscriptions.id, subId)).for('update');
      const tier = sub.nextTier ?? sub.tier;
      const info = PLAN_TIER_INFO[tier];
      const ok = tx.status === 'successful' && paysExactly(tx, info.price);
      // A charge for the month after a live plan's current one decides that month when the scheduler
      // claimed its attempt (a failure opens the grace); any other pays it only when it is exactly the
      // price of a plan that renews. Nothing else moves the plan: not one for a month already renewed, nor
      // for a plan that stopped or was cancelled, nor a failure or a wrong amount under a reference the
      // scheduler never charged (made up at a checkout window, it would put a paid month into grace).
      const claimed = attempt >= 1 && attempt <= sub.attempts;
      const next = month === sub.period + 1 && LIVE.includes(sub.status);
      // Not known yet, whoever made it: nothing is recorded until it is (a claimed one holds the plan).
      if (tx.status === 'pending') return 'pending' as const;
      if (!next || !(claimed || (ok && !sub.cancelAtPeriodEnd))) {
        if (!tx.id) return 'duplicate' as const;
        // Recorded (failed: it paid no month) so that a repeat of it is a duplicate and the scheduler
        // never charges under its reference, which the provider would answer with this charge.
        const [kept] = await t
          .insert(subscriptionPayments)
          .values({
            subscriptionId: sub.id,
            companyId: sub.companyId,
            tier,
            kind: 'renewal',
            txRef: tx.txRef,
            amount: tx.amount,
            status: 'failed',
            provider: sub.provider,
            providerPlanId: tx.paymentPlan ?? '',
            providerTransactionId: tx.id,
            paymentMethod: tx.paymentType?.slice(0, 40) || null,
            createdAt: clock.now(),
          })
          .onConflictDoNothing()
          .returning({ id: subscriptionPayments.id });
        if (tx.status === 'successful' && (kept || (await unapplied(t, tx)))) stray = sub;
        if (stray) strayRefund = await openRefund(t, tx, sub.companyId, RENEWAL_UNAPPLIED);
        return stray ? ('unapplied' as const) : ('duplicate' as const);
      }
      if (tx.status === 'successful' && !ok)
        shared.securityLog('plan_renewal_mismatch', { via, reference: tx.txRef, amount: tx.amount });
      const now = clock.now();
      const monthPayment = await lastPaymentOf(t, sub.id);
      const [p] = await t
        .insert(subscriptionPayments)
        .values({
          subscriptionId: sub.id,
          companyId: sub.companyId,
          tier,
          kind: 'renewal',
          txRef: tx.txRef,
          amount: info.price,
          status: ok ? 'paid' : 'failed',
          provider: sub.provider,
          providerPlanId: tx.paymentPlan ?? '',
          // A refused charge made no transaction at the provider.
          providerTransactionId: tx.id || null,
          paymentMethod: tx.paymentType?.slice(0, 40) || null,
          createdAt: now,
          paidAt: ok ? now : null,
          // A charge on the payment plan subscribes the card again, paid here or not: cancelled too.
          providerCancelAfter: tx.status === 'successful' && tx.paymentPlan ? now : null,
          customerEmail: tx.customerEmail ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (!p) {
        if (await unapplied(t, tx)) stray = sub;
        if (stray) strayRefund = await openRefund(t, tx, sub.companyId, RENEWAL_UNAPPLIED);
        return stray ? ('unapplied' as const) : ('duplicate' as const);
      }
      // Taken at the wrong amount, the charge pays no month (recorded failed above): it goes back whole,
      // once, like any renewal charge that paid nothing (decision 2262).
      if (tx.status === 'successful' && !ok) strayRefund = await openRefund(t, tx, sub.companyId, RENEWAL_UNAPPLIED);
      const [company] = await t.select().from(users).where(eq(users.id, sub.companyId));
      const name = companyAsBilled(company).name;
      if (ok) {
        await postExpiry(t, sub, monthPayment);
        const [next] = await t
          .update(subscriptions)
          .set({
            tier,
            nextTier: null,
            status: 'active',
            periodStart: sub.periodEnd,
            periodEnd: addMonth(sub.periodEnd),
            period: month,
            attempts: 0,
            graceUntil: null,
            nextReminderAt: null,
            claimedUntil: null,
            credits: info.credits,
            creditsUsed: NO_CREDITS,
            creditValue: creditValueOf(tier),
            updatedAt: now,
          })
          .where(eq(subscriptions.id, sub.id))
          .returning();
        await postPayment(t, p, next);
        await ledger.recordFee(t, { subscriptionPaymentId: p.id }, merchantFee(tx, feeImplausible(tx)));
        await event(
          t,
          sub.id,
          'renewed',
          `${info.name} plan renewed; ${formatNairaExact(info.price / 100)} paid; credits reset (unused ones do not carry over)`,
        );
        await mail(t, next, receiptMail(name, p, next, 'Your plan renewed'));
        return 'renewed' as const;
      }
      if (sub.status === 'active') {
        const graceUntil = new Date(sub.periodEnd.getTime() + PLAN_GRACE_DAYS * DAY_MS);
        await t
          .update(subscriptions)
          .set({
            status: 'grace',
            graceUntil,
            nextReminderAt: new Date(now.getTime() + DAY_MS),
            claimedUntil: null,
            updatedAt: now,
          })
          .where(eq(subscriptions.id, sub.id));
        await event(
          t,
          sub.id,
          'renewal_failed',
          `The renewal charge failed; the plan lapses on ${day(graceUntil)} unless paid`,
        );
        await mail(t, sub, {
          subject: `Your ${info.name} plan renewal failed`,
          body: [
            paragraph(`Hello ${name},`),
            paragraph(
              `We could not charge ${formatNairaExact(info.price / 100)} for your ${info.name} plan. We will try again each day; if it still fails, your plan stops on ${day(graceUntil)} (its credits and discount too).`,
            ),
            button('See your plan', planUrl),
          ],
        });
      } else {
        await t.update(subscriptions).set({ claimedUntil: null, updatedAt: now }).where(eq(subscriptions.id, sub.id));
      }
      return 'failed' as const;
    });
    if (outcome === 'renewed' || outcome === 'failed') shared.mailWritten();
    if (stray) await refundable(stray, tx, via, strayRefund);
    else await sendRefund(strayRefund);
    return outcome;
  }

  /** Whether a charge's amount and currency are exactly what it was for (kobo). */
  const paysExactly = (tx: ProviderTransaction, amount: number) =>
    tx.amount === amount && (tx.chargedAmount === undefined || tx.chargedAmount >= amount) && tx.currency === 'NGN';

  /**
   * A successful renewal charge whose reference already holds a payment of another transaction: it pays
   * no month (decision 2192). A repeat of the transaction recorded there is a duplicate.
   */
  async function unapplied(ex: Executor, tx: ProviderTransaction) {
    if (tx.status !== 'successful') return false;
    const [known] = await ex.select().from(subscriptionPayments).where(eq(subscriptionPayments.txRef, tx.txRef));
    return !known || !tx.id || known.providerTransactionId !== tx.id;
  }

  /**
   * Money taken for a month that was not given: logged, and refunded whole (decision 2262: the refund
   * opened with the charge's record is sent here, after the commit), and the provider subscription the
   * charge made is cancelled.
   */
  async function refundable(sub: Sub, tx: ProviderTransaction, via: string, refundId: string | null) {
    shared.securityLog('plan_renewal_unapplied', {
      via,
      companyId: sub.companyId,
      subscriptionId: sub.id,
      reference: tx.txRef,
      transactionId: tx.id,
      amount: tx.amount,
      currency: tx.currency,
      refundId,
    });
    await sendRefund(refundId);
    if (tx.paymentPlan)
      await provider
        .cancelPlanSubscription(tx.paymentPlan, tx.customerEmail ?? sub.customerEmail)
        .catch((err) => deps.log?.warn({ err }, 'cancelling the provider subscription failed'));
  }

  /** The plan stops (cancelled and its month over, or the grace ran out): unused credits expire. */
  async function stop(t: Executor, sub: Sub, status: 'ended' | 'lapsed') {
    const now = clock.now();
    await postExpiry(t, sub);
    await t
      .update(subscriptions)
      .set({ status, credits: NO_CREDITS, claimedUntil: null, nextReminderAt: null, updatedAt: now })
      .where(eq(subscriptions.id, sub.id));
    const info = PLAN_TIER_INFO[sub.tier];
    await event(
      t,
      sub.id,
      status,
      status === 'ended'
        ? `${info.name} plan ended as cancelled`
        : `${info.name} plan lapsed: the renewal was not paid`,
    );
    await mail(t, sub, {
      subject: status === 'ended' ? `Your ${info.name} plan has ended` : `Your ${info.name} plan has lapsed`,
      body: [
        paragraph(
          status === 'ended'
            ? 'Your plan ended at the end of the month you paid for, as you asked.'
            : 'We could not charge your renewal, so your plan has stopped: its credits and discount no longer apply.',
        ),
        // The plan page offers a new plan; /products opens on its Single tab, not on Packages.
        paragraph('You can start a new plan from your plan page at any time.'),
        button('Start a new plan', planUrl),
      ],
    });
  }

  /**
   * The scheduler (every minute, like the job timers): takes due plans with FOR UPDATE SKIP LOCKED,
   * ends cancelled ones, lapses those whose grace ran out, reminds, and charges renewals on the
   * provider's payment plan outside the transaction (claimed meanwhile, so two instances charge once;
   * the provider charges a reference once anyway); then cancels the provider subscriptions those charges
   * made (`cancelProviderSubscriptions`).
   */
  async function tick(at: Date = clock.now()) {
    let handled = 0;
    // Plans whose step failed in this pass (one bad row, a database fault): passed over for the rest of
    // it, so they never hold back the plans due after them, and taken again by the next pass.
    const failed: string[] = [];
    const errors: unknown[] = [];
    for (;;) {
      let taken: string | null = null;
      const step = await db
        .transaction(async (t) => {
          const [sub] = await t
            .select()
            .from(subscriptions)
            .where(
              and(
                inArray(subscriptions.status, LIVE),
                failed.length ? notInArray(subscriptions.id, failed) : undefined,
                or(isNull(subscriptions.claimedUntil), lte(subscriptions.claimedUntil, at)),
                or(
                  and(eq(subscriptions.status, 'active'), lte(subscriptions.periodEnd, at)),
                  and(
                    eq(subscriptions.status, 'grace'),
                    or(lte(subscriptions.graceUntil, at), lte(subscriptions.nextReminderAt, at)),
                  ),
                ),
              ),
            )
            .orderBy(asc(subscriptions.periodEnd))
            .limit(1)
            .for('update', { skipLocked: true });
          if (!sub) return null;
          taken = sub.id;
          // A charge whose answer never came (nothing recorded for its reference, no webhook) is asked
          // for again with the same reference, which the provider answers with the charge it made; the
          // plan neither ends nor lapses before that answer says whether the month was paid.
          const pending = await unanswered(t, sub);
          if (!pending && sub.status === 'active' && sub.cancelAtPeriodEnd) {
            await stop(t, sub, 'ended');
            return { sub, charge: false };
          }
          if (!pending && sub.status === 'grace' && sub.graceUntil && sub.graceUntil <= at) {
            await stop(t, sub, 'lapsed');
            return { sub, charge: false, cancelAtProvider: true };
          }
          const attempt = pending ? sub.attempts : await nextAttempt(t, sub);
          const set: Partial<typeof subscriptions.$inferInsert> = {
            attempts: attempt,
            claimedUntil: new Date(at.getTime() + CLAIM_MS),
            updatedAt: clock.now(),
          };
          // No reminder once the grace is over: this only asks for the last retry's lost answer.
          if (sub.status === 'grace' && sub.graceUntil && sub.graceUntil > at) {
            set.nextReminderAt = new Date(at.getTime() + DAY_MS);
            const info = PLAN_TIER_INFO[sub.nextTier ?? sub.tier];
            await event(
              t,
              sub.id,
              'reminder',
              `Reminder: the renewal is unpaid; the plan lapses on ${day(sub.graceUntil!)}`,
            );
            await mail(t, sub, {
              subject: `Reminder: your ${info.name} plan renewal is unpaid`,
              body: [
                paragraph(
                  `We still could not charge ${formatNairaExact(info.price / 100)} for your plan. Please make sure your card can pay it: we try again each day, and the plan stops on ${day(sub.graceUntil!)}.`,
                ),
                button('See your plan', planUrl),
              ],
            });
          }
          await t.update(subscriptions).set(set).where(eq(subscriptions.id, sub.id));
          return { sub: { ...sub, attempts: attempt }, charge: true };
        })
        .catch((err: unknown) => {
          if (taken === null) throw err;
          failed.push(taken);
          errors.push(err);
          deps.log?.warn({ err, subscriptionId: taken }, 'plan scheduler step failed; the next pass tries again');
          return 'failed' as const;
        });
      if (!step) break;
      if (step === 'failed') continue;
      handled++;
      shared.mailWritten();
      const { sub } = step;
      if (step.cancelAtProvider) {
        const last = await lastPaymentOf(db, sub.id);
        if (last?.providerPlanId)
          await provider
            .cancelPlanSubscription(last.providerPlanId, sub.customerEmail)
            .catch((err) => deps.log?.warn({ err }, 'cancelling the provider subscription failed'));
      }
      if (!step.charge) continue;
      try {
        const tier = sub.nextTier ?? sub.tier;
        const reference = `SUB-${sub.id}-${sub.period + 1}-${sub.attempts}`;
        const planId = await providerPlanFor(tier);
        const charged = await provider
          .chargePlan({
            planId,
            token: sub.cardToken,
            email: sub.customerEmail,
            amount: PLAN_TIER_INFO[tier].price,
            reference,
          })
          .catch((err: unknown): ProviderTransaction => {
            if (!(err instanceof ChargeRefused)) throw err;
            // Nothing was charged and asking again will not change that (no saved card, an expired
            // token): the month is unpaid like a declined card's, so the plan goes into grace and lapses
            // rather than staying active, discount included, with every retry left claimed.
            deps.log?.warn({ err, subscriptionId: sub.id }, 'plan renewal charge refused');
            return { id: '', txRef: reference, status: 'failed', amount: PLAN_TIER_INFO[tier].price, currency: 'NGN' };
          });
        await applyRenewal(charged, 'scheduler');
      } catch (err) {
        // Left claimed: the next tick after the claim runs out tries again.
        deps.log?.warn({ err, subscriptionId: sub.id }, 'plan renewal charge failed to run');
      }
    }
    // Last, so a renewal charged just now has its provider subscription cancelled in the same tick.
    await cancelProviderSubscriptions(at).catch((err) =>
      deps.log?.warn({ err }, 'cancelling provider subscriptions failed to run'),
    );
    if (errors.length) throw new AggregateError(errors, `${errors.length} plan(s) failed: ${failed.join(', ')}`);
    return handled;
  }

  /**
   * Cancels the subscriptions our charges on a payment plan made at the provider (decision 1900): a
   * charge with Flutterwave's `payment_plan` subscribes the card, and Flutterwave would then charge it
   * itself every month besides our scheduler's renewals. Due payments are claimed for CLAIM_MS with
   * FOR UPDATE SKIP LOCKED, so two instances do not both cancel one; one the provider did not answer
   * stays due and is tried again when the claim runs out. Cancelling again changes nothing.
   */
  async function cancelProviderSubscriptions(at: Date = clock.now(), limit = 50) {
    const claimUntil = new Date(at.getTime() + CLAIM_MS);
    const claimed = await db.transaction(async (t) => {
      const due = await t
        .select({
          id: subscriptionPayments.id,
          planId: subscriptionPayments.providerPlanId,
          // The e-mail the charge was made with: the payment's own, else the plan's, else (a row from
          // before migration 0030 that started no plan) the company's.
          email: sql<string>`coalesce(${subscriptionPayments.customerEmail}, ${subscriptions.customerEmail}, ${users.officialEmail})`,
        })
        .from(subscriptionPayments)
        .innerJoin(users, eq(users.id, subscriptionPayments.companyId))
        .leftJoin(subscriptions, eq(subscriptions.id, subscriptionPayments.subscriptionId))
        .where(
          and(
            lte(subscriptionPayments.providerCancelAfter, at),
            isNull(subscriptionPayments.providerCancelledAt),
            eq(subscriptionPayments.provider, provider.name),
          ),
        )
        .orderBy(asc(subscriptionPayments.providerCancelAfter))
        .limit(limit)
        .for('update', { of: subscriptionPayments, skipLocked: true });
      if (due.length)
        await t
          .update(subscriptionPayments)
          .set({ providerCancelAfter: claimUntil })
          .where(
            inArray(
              subscriptionPayments.id,
              due.map((d) => d.id),
            ),
          );
      return due;
    });
    // One call per plan and customer, however many of their payments are due.
    const groups = new Map<string, typeof claimed>();
    for (const p of claimed) {
      const key = JSON.stringify([p.planId, p.email]);
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    let cancelled = 0;
    for (const payments of groups.values()) {
      const { planId, email } = payments[0];
      try {
        await provider.cancelPlanSubscription(planId, email);
      } catch (err) {
        deps.log?.warn({ err, planId }, 'cancelling the provider subscription failed; tried again later');
        if (err instanceof ProviderUnavailable) break;
        continue;
      }
      // Only what is still this pass's claim: one set due again meanwhile (a charge that subscribed the
      // card while the cancel was on its way) stays due for the next pass.
      const done = await db
        .update(subscriptionPayments)
        .set({ providerCancelledAt: clock.now() })
        .where(
          and(
            inArray(
              subscriptionPayments.id,
              payments.map((p) => p.id),
            ),
            eq(subscriptionPayments.providerCancelAfter, claimUntil),
          ),
        )
        .returning({ id: subscriptionPayments.id });
      cancelled += done.length;
    }
    return cancelled;
  }

  /**
   * A successful charge on one of our payment plans that is none of ours (no `PLAN-` first payment, no
   * `SUB-` renewal of ours): the provider charged the card on its own cycle. It pays no month (our
   * scheduler charges those), so it is logged for an admin to refund, as a plan paid twice is, and shows
   * in the reconciliation report as money missing in the ledger; the subscription that made it is
   * cancelled too.
   */
  async function providerCharge(tx: ProviderTransaction) {
    if (!tx.paymentPlan || tx.status !== 'successful') return 'ignored' as const;
    const [known] = await db
      .select({ id: planProviderPlans.tier })
      .from(planProviderPlans)
      .where(and(eq(planProviderPlans.provider, provider.name), eq(planProviderPlans.providerPlanId, tx.paymentPlan)));
    if (!known) return 'ignored' as const;
    shared.securityLog('plan_charged_by_provider', {
      reference: tx.txRef,
      transactionId: tx.id,
      paymentPlan: tx.paymentPlan,
      amount: tx.amount,
      customerEmail: tx.customerEmail,
    });
    if (tx.customerEmail)
      await provider
        .cancelPlanSubscription(tx.paymentPlan, tx.customerEmail)
        .catch((err) => deps.log?.warn({ err }, 'cancelling the provider subscription failed'));
    return 'charged_by_provider' as const;
  }

  /**
   * A signed `charge.completed` webhook for a plan, or for a reference no order has (the payload is
   * never trusted): re-verified by id, then a first payment is activated or a renewal applied, each
   * once; a charge on our payment plan with a reference that is not ours was made by the provider itself
   * and is logged for an admin's refund (`providerCharge`; the others that pay nothing are refunded, 2262).
   */
  async function onWebhook(payload: unknown) {
    const data = (payload as { data?: { id?: unknown; tx_ref?: unknown } } | null)?.data;
    const reference = typeof data?.tx_ref === 'string' ? data.tx_ref : null;
    const id = typeof data?.id === 'number' || typeof data?.id === 'string' ? String(data.id) : null;
    if (!reference) return { result: 'ignored' };
    const tx = id ? await provider.verifyById(id) : await provider.verifyByReference(reference);
    if (!tx || tx.txRef !== reference) {
      shared.securityLog('plan_webhook_unverified', { reference, transactionId: id });
      return { result: 'ignored' };
    }
    if (RENEWAL_REF.test(reference)) return { result: await applyRenewal(tx, 'webhook') };
    const [p] = await db.select().from(subscriptionPayments).where(eq(subscriptionPayments.txRef, reference));
    // Not a reference of ours: a charge the provider made on its own cycle is recorded for a refund.
    if (!p) return { result: await providerCharge(tx) };
    if (p.kind !== 'first') return { result: 'ignored' };
    // A paid reference charged again goes to startPlan, which logs it; an unpaid one's charge of the
    // wrong amount or currency is logged and its subscription cancelled, as confirm does.
    const problem = p.status === 'paid' ? null : mismatch(p, tx);
    if (problem) {
      if (problem !== 'pending' && problem !== 'failed') {
        shared.securityLog('plan_payment_mismatch', {
          via: 'webhook',
          reference,
          problem,
          transactionId: tx.id,
          amount: tx.amount,
          currency: tx.currency,
        });
        await cancelSubscriptionOf(db, p, tx);
        await refundMismatch(p, tx, problem);
      }
      return { result: 'ignored' };
    }
    await activate(p.id, tx).catch(() => null);
    return { result: 'paid' };
  }

  /**
   * The background pass for first payments nobody confirmed (the tab closed, the webhook was lost):
   * asks the provider by reference and starts a paid plan through `activate`, which locks the company
   * and the payment, so several instances and a late confirm or webhook still start it once. One the
   * provider calls failed, or still unpaid a day on, is closed.
   */
  async function reconcileFirstPayments(at: Date = clock.now(), limit = 50) {
    const due = await db
      .select()
      .from(subscriptionPayments)
      .where(
        and(
          eq(subscriptionPayments.kind, 'first'),
          eq(subscriptionPayments.status, 'pending'),
          lte(subscriptionPayments.createdAt, new Date(at.getTime() - FIRST_RECHECK_AFTER_MS)),
          gt(subscriptionPayments.createdAt, new Date(at.getTime() - 2 * FIRST_EXPIRE_AFTER_MS)),
        ),
      )
      .orderBy(asc(subscriptionPayments.id))
      .limit(limit);
    const counts = { checked: 0, started: 0, closed: 0 };
    for (const p of due) {
      counts.checked++;
      let tx: ProviderTransaction | null;
      try {
        tx = await provider.verifyByReference(p.txRef);
      } catch (err) {
        if (err instanceof ProviderUnavailable) break;
        throw err;
      }
      const problem = mismatch(p, tx);
      if (!problem) {
        try {
          if ((await startPlan(p.id, tx!)).newly) counts.started++;
        } catch (err) {
          // Paid twice: left pending, its payment refunded by startPlan (decision 2262), as confirm leaves it.
          deps.log?.warn({ err, reference: p.txRef }, 'a paid plan payment could not start a plan');
        }
        continue;
      }
      if (problem !== 'pending' && problem !== 'failed') {
        await cancelSubscriptionOf(db, p, tx);
        await refundMismatch(p, tx, problem);
      }
      const old = at.getTime() - p.createdAt.getTime() >= FIRST_EXPIRE_AFTER_MS;
      // Still pending at the provider (a bank transfer on its way) is never closed, as with orders.
      if (problem === 'pending' || (problem !== 'failed' && !old)) continue;
      const done = await db
        .update(subscriptionPayments)
        .set({ status: 'failed' })
        .where(and(eq(subscriptionPayments.id, p.id), eq(subscriptionPayments.status, 'pending')))
        .returning({ id: subscriptionPayments.id });
      counts.closed += done.length;
    }
    return counts;
  }

  async function subscribers(status?: PlanStatus): Promise<SubscriberRow[]> {
    const rows = await db
      .select({ s: subscriptions, companyName: users.companyName, name: users.name })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.companyId))
      .where(status ? eq(subscriptions.status, status) : undefined)
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(500);
    return rows.map(({ s, companyName, name }) => ({
      _id: s.id,
      companyId: s.companyId,
      companyName: companyName?.trim() || name,
      tier: s.tier,
      status: s.status,
      renewsAt: s.periodEnd.toISOString(),
      nextTier: s.nextTier,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      creditsUsed: s.creditsUsed,
      included: PLAN_TIER_INFO[s.tier].credits,
    }));
  }

  return {
    subscribe,
    confirm,
    mine,
    changeTier,
    cancel,
    request,
    tick,
    reconcileFirstPayments,
    applyRenewal,
    onWebhook,
    subscribers,
    providerPlanFor,
  };
}
export type PlansService = ReturnType<typeof createPlansService>;
