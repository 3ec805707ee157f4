import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { PLAN_TIER_INFO, planMessages, type PlanView } from '@legalmarket/contracts';
import {
  jobs,
  ledgerTransactions,
  sandboxSubscriptions,
  sandboxTransactions,
  subscriptionPayments,
  subscriptions,
} from '../../db/schema.js';
import { sandboxProvider, setSandboxRenewalFailure } from '../../platform/payments/sandbox.js';
import type { AuthUser } from '../../platform/auth.js';
import { PASSWORD, describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { SUCCESS_CARD, createLoggedTestApp } from '../../../test/commerce-helpers.js';
import { createLedger } from '../money/ledger.js';
import { createRefunds } from '../money/refunds.js';
import { createJobLifecycle } from '../jobs/lifecycle-service.js';
import { createPlansService } from './service.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Tier = 'bronze' | 'silver' | 'gold';
const DAY = 86_400_000;

/**
 * Plan money an attacker (or a slow mobile network) would push on: starts sent together, a credit
 * request sent twice, charges that arrive late or were never ours, and the amounts a payment is judged
 * by. Every test ends with the books balanced; the concurrent ones race for real on PostgreSQL.
 */
describeEachDb('plan money under races and retries', (kind) => {
  let t: Awaited<ReturnType<typeof createLoggedTestApp>>;
  let plans: ReturnType<typeof createPlansService>;
  let ledger: ReturnType<typeof createLedger>;
  /** What this test's plans service logged (the app's own routes log to t.security). */
  const logged: Array<Record<string, unknown> & { security: string }> = [];
  const logOf = (name: string) => [...logged, ...t.security.events].filter((e) => e.security === name);

  beforeAll(async () => {
    t = await createLoggedTestApp(kind);
    // The sessions and the plans' clock start at the real time, as the database's own now() does.
    t.clock.advance(Date.now() - t.clock.now().getTime());
    const deps = {
      db: t.rt.database.db,
      clock: t.clock,
      config: t.config,
      mailWritten: () => {},
      securityLog: (security: string, fields: Record<string, unknown>) => logged.push({ security, ...fields }),
    };
    ledger = createLedger(deps);
    const provider = sandboxProvider(deps.db, t.clock);
    const refunds = createRefunds({ ...deps, provider, ledger });
    const lifecycle = createJobLifecycle(deps, { ledger, refunds });
    plans = createPlansService(deps, { provider, ledger, lifecycle, refunds });
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await ledger.audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const asUser = (who: Login) => ({ id: who.id }) as AuthUser;
  /** A request; a session the moved clock expired is renewed by logging in again. */
  async function inject(url: string, who: Login, payload?: unknown, method: 'GET' | 'POST' = 'POST') {
    const send = () => t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });
    const res = await send();
    if (res.statusCode !== 401) return res;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    who.headers.authorization = `Bearer ${(login.json() as { token: string }).token}`;
    return send();
  }
  const start = async (who: Login, tier: Tier) => {
    const res = await inject('/api/plans/subscribe', who, { tier });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { reference: string; amount: number; paymentPlan: string; paymentOptions: string };
  };
  /** The dialog's charge (naira, as the window sends it); answers the transaction id. */
  const charge = async (who: Login, reference: string, amount: number, extra: Record<string, unknown> = {}) => {
    const res = await inject('/api/checkout/sandbox/charge', who, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { transaction_id: string }).transaction_id;
  };
  const confirm = (who: Login, reference: string, transactionId: string) =>
    inject('/api/plans/confirm', who, { reference, transactionId });
  async function subscribe(who: Login, tier: Tier = 'silver') {
    const d = await start(who, tier);
    const res = await confirm(who, d.reference, await charge(who, d.reference, d.amount));
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as PlanView;
  }
  const firstPayments = (companyId: string) =>
    db()
      .select()
      .from(subscriptionPayments)
      .where(and(eq(subscriptionPayments.companyId, companyId), eq(subscriptionPayments.kind, 'first')))
      .orderBy(subscriptionPayments.id);
  const planOf = async (id: string) => (await db().select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
  const request = (who: Login, body: Record<string, unknown>) => inject('/api/plans/mine/requests', who, body);
  /** A transaction the provider holds under this reference, as a checkout window paid with any reference would. */
  async function providerHolds(reference: string, amountKobo: number, email: string, currency = 'NGN') {
    const [row] = await db()
      .insert(sandboxTransactions)
      .values({
        txRef: reference,
        amount: amountKobo,
        currency,
        status: 'successful',
        paymentType: 'card',
        customerEmail: email,
        processorResponse: 'Approved by Financial Institution',
        createdAt: t.clock.now(),
      })
      .returning();
    return String(row.id);
  }
  const webhook = (id: string, reference: string) =>
    plans.onWebhook({ event: 'charge.completed', data: { id, tx_ref: reference } });

  // --- 1. Starting a plan

  it('plan starts sent at once (a double click, two tabs) open one first payment', async () => {
    const company = await signupAndLogin(t, 'company');
    const answers = await Promise.all(Array.from({ length: 6 }, () => start(company, 'silver')));
    expect(new Set(answers.map((a) => a.reference)).size).toBe(1);
    const rows = await firstPayments(company.id);
    expect(rows.map((p) => [p.tier, p.amount, p.status])).toEqual([['silver', 8_000_000, 'pending']]);
    // Paid once, confirmed from every tab: one plan, one payment posted.
    const transactionId = await charge(company, answers[0].reference, answers[0].amount);
    const confirmed = await Promise.all(answers.map((a) => confirm(company, a.reference, transactionId)));
    expect(confirmed.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    expect(await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id))).toHaveLength(1);
  });

  it('two tiers started at once: each payment buys its own tier, one plan, the other payment logged', async () => {
    const company = await signupAndLogin(t, 'company');
    const [bronze, gold] = await Promise.all([start(company, 'bronze'), start(company, 'gold')]);
    expect([bronze.amount, gold.amount]).toEqual([50_000, 120_000]);
    const rows = await firstPayments(company.id);
    expect(rows.map((p) => [p.txRef, p.tier, p.amount]).sort()).toEqual(
      [
        [bronze.reference, 'bronze', 5_000_000],
        [gold.reference, 'gold', 12_000_000],
      ].sort(),
    );
    // Bronze's price paid under Gold's reference buys nothing.
    const cheap = await charge(company, gold.reference, bronze.amount);
    expect((await confirm(company, gold.reference, cheap)).statusCode).toBe(400);
    // Both windows paid, both confirmed at once: one plan, of the tier whose payment started it.
    const [payBronze, payGold] = [
      await charge(company, bronze.reference, bronze.amount),
      await charge(company, gold.reference, gold.amount),
    ];
    const answered = await Promise.all([
      confirm(company, bronze.reference, payBronze),
      confirm(company, gold.reference, payGold),
    ]);
    expect(answered.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const plansOf = await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id));
    expect(plansOf).toHaveLength(1);
    const paid = (await firstPayments(company.id)).filter((p) => p.status === 'paid');
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ subscriptionId: plansOf[0].id, tier: plansOf[0].tier });
    expect(paid[0].amount).toBe(PLAN_TIER_INFO[plansOf[0].tier].price);
    const other = paid[0].txRef === bronze.reference ? gold.reference : bronze.reference;
    expect(logOf('plan_paid_twice').map((e) => e.reference)).toContain(other);
  });

  it('a start answers the same reference only for the same tier, and only until the payment is asked about', async () => {
    const company = await signupAndLogin(t, 'company');
    const a = await start(company, 'silver');
    expect((await start(company, 'silver')).reference).toBe(a.reference);
    expect((await start(company, 'gold')).reference).not.toBe(a.reference);
    t.clock.advance(3 * 60_000);
    expect((await start(company, 'silver')).reference).not.toBe(a.reference);
  });

  it('a window paid twice under one reference: one plan; the second charge logged and its subscription cancelled', async () => {
    const company = await signupAndLogin(t, 'company');
    const d = await start(company, 'silver');
    const first = await charge(company, d.reference, d.amount);
    expect((await confirm(company, d.reference, first)).statusCode).toBe(200);
    // The provider subscription the first charge made is cancelled; a minute later the other tab pays too.
    await plans.tick();
    t.clock.advance(60_000);
    const second = await charge(company, d.reference, d.amount);
    const active = () =>
      db()
        .select({ status: sandboxSubscriptions.status })
        .from(sandboxSubscriptions)
        .where(eq(sandboxSubscriptions.customerEmail, company.email));
    expect(await active()).toEqual([{ status: 'active' }]);
    await webhook(second, d.reference);
    expect((await confirm(company, d.reference, second)).statusCode).toBe(409);
    expect((await confirm(company, d.reference, first)).statusCode).toBe(200);
    expect(logOf('plan_paid_twice').filter((e) => e.transactionId === second).length).toBeGreaterThanOrEqual(2);
    const [payment] = await firstPayments(company.id);
    expect(payment).toMatchObject({ status: 'paid', providerTransactionId: first, providerCancelledAt: null });
    // The subscription the second charge made at the provider is cancelled too.
    await plans.tick();
    expect(await active()).toEqual([{ status: 'cancelled' }]);
    const posted = await db()
      .select()
      .from(ledgerTransactions)
      .where(
        and(eq(ledgerTransactions.kind, 'plan_payment'), eq(ledgerTransactions.subscriptionPaymentId, payment.id)),
      );
    expect(posted).toHaveLength(1);
  });

  it('a plan payment never changes what it buys: the database refuses another amount, tier or reference', async () => {
    const company = await signupAndLogin(t, 'company');
    const d = await start(company, 'bronze');
    for (const set of [sql`amount_kobo = 12000000`, sql`tier = 'gold'`, sql`tx_ref = 'PLAN-other'`]) {
      await expect(
        db().execute(sql`update subscription_payments set ${set} where tx_ref = ${d.reference}`),
      ).rejects.toThrow();
    }
    const plan = await subscribe(company, 'gold');
    await expect(
      db().execute(sql`update subscription_payments set status = 'failed' where subscription_id = ${plan._id}`),
    ).rejects.toThrow();
  });

  // --- 2. Spending credits

  it('a credit request sent at once under one key opens one job and spends one credit', async () => {
    const company = await signupAndLogin(t, 'company');
    await subscribe(company, 'silver');
    const key = 'tap-0001-draft';
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => request(company, { kind: 'draft', detail: 'A supply agreement', key })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(answers.map((r) => (r.json().data as { jobId: string }).jobId));
    expect(ids.size).toBe(1);
    const last = answers.at(-1)!.json().data as { plan: PlanView };
    expect(last.plan.credits.draft).toBe(2);
    expect(await db().select().from(jobs).where(eq(jobs.companyId, company.id))).toHaveLength(1);
    // Different keys for the last credit of a kind: one job, the others told none is left.
    const opinions = await Promise.all(
      ['tap-0002-a', 'tap-0002-b', 'tap-0002-c'].map((k) => request(company, { kind: 'opinion', key: k })),
    );
    expect(opinions.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('a retried credit request answers its job; other work under its key is refused; a new key spends another', async () => {
    const company = await signupAndLogin(t, 'company');
    await subscribe(company, 'bronze');
    expect((await request(company, { kind: 'draft', key: 'short' })).statusCode).toBe(400);
    const body = { kind: 'draft', detail: 'Employment contract', key: 'retry-key-1' };
    const first = await request(company, body);
    expect(first.statusCode).toBe(201);
    const { jobId } = first.json().data as { jobId: string };
    const again = await request(company, body);
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toMatchObject({ jobId, plan: { credits: { draft: 1 }, creditsUsed: { draft: 1 } } });
    for (const other of [
      { ...body, detail: 'Another contract' },
      { ...body, kind: 'review' },
      { kind: 'draft', key: body.key },
    ]) {
      const refused = await request(company, other);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(planMessages.requestKeyReused);
    }
    const next = await request(company, { ...body, key: 'retry-key-2' });
    expect(next.statusCode).toBe(201);
    expect((next.json().data as { jobId: string }).jobId).not.toBe(jobId);
    // No draft credit is left: a retry of the first still answers its job, not "none left".
    expect((await request(company, body)).statusCode).toBe(201);
    expect((await request(company, { ...body, key: 'retry-key-3' })).statusCode).toBe(409);
    // A key is the company's own: another company using it opens its own job.
    const other = await signupAndLogin(t, 'company');
    await subscribe(other, 'bronze');
    const theirs = await request(other, body);
    expect(theirs.statusCode).toBe(201);
    expect((theirs.json().data as { jobId: string }).jobId).not.toBe(jobId);
    expect(await db().select().from(jobs).where(eq(jobs.companyId, company.id))).toHaveLength(2);
  });

  // --- 3. The end of a paid month, and renewals that arrive late

  it('a plan past its paid month spends no credit before the scheduler ends or renews it', async () => {
    const cancelled = await signupAndLogin(t, 'company');
    const renewing = await signupAndLogin(t, 'company');
    const a = await subscribe(cancelled, 'silver');
    const b = await subscribe(renewing, 'silver');
    await plans.cancel(asUser(cancelled));
    t.clock.advance(Math.max(Date.parse(a.renewsAt), Date.parse(b.renewsAt)) - t.clock.now().getTime() + 1_000);
    for (const who of [cancelled, renewing])
      expect((await request(who, { kind: 'review', key: `late-${who.id.slice(0, 8)}` })).statusCode).toBe(409);
    expect((await planOf(a._id)).credits.review).toBe(2);
    expect((await planOf(b._id)).credits.review).toBe(2);
    await plans.tick();
    expect((await planOf(a._id)).status).toBe('ended');
    expect((await planOf(b._id)).period).toBe(2);
  });

  it('charges under renewal references made up at a window: the exact price pays the next month, no other moves the plan', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    await request(company, { kind: 'review', key: 'made-up-1' });
    // Mid-month, under the next month's first renewal reference: ₦100, then a declined charge.
    const small = `SUB-${plan._id}-2-1`;
    const declined = `SUB-${plan._id}-2-2`;
    const tooFar = `SUB-${plan._id}-3-1`;
    expect(await webhook(await providerHolds(small, 10_000, company.email), small)).toEqual({ result: 'unapplied' });
    const declinedId = await providerHolds(declined, 8_000_000, company.email);
    await db()
      .update(sandboxTransactions)
      .set({ status: 'failed' })
      .where(eq(sandboxTransactions.id, Number(declinedId)));
    expect(await webhook(declinedId, declined)).toEqual({ result: 'duplicate' });
    // The full price for a month after the next one pays nothing either.
    expect(await webhook(await providerHolds(tooFar, 8_000_000, company.email), tooFar)).toEqual({
      result: 'unapplied',
    });
    const sub = await planOf(plan._id);
    expect(sub).toMatchObject({ status: 'active', period: 1, attempts: 0, graceUntil: null });
    expect(sub.credits.review).toBe(1);
    // Kept as payments that paid nothing, so a repeat is a duplicate.
    const kept = await db()
      .select()
      .from(subscriptionPayments)
      .where(and(eq(subscriptionPayments.subscriptionId, plan._id), eq(subscriptionPayments.kind, 'renewal')));
    expect(kept.map((p) => [p.txRef, p.status]).sort()).toEqual(
      [
        [small, 'failed'],
        [declined, 'failed'],
        [tooFar, 'failed'],
      ].sort(),
    );
    expect(logOf('plan_renewal_unapplied').map((e) => e.reference)).toEqual(expect.arrayContaining([small, tooFar]));
    expect(logOf('plan_renewal_unapplied').map((e) => e.reference)).not.toContain(declined);
    // The real renewal still comes, once, charged under a reference of its own (the provider would
    // answer a made-up one's charge instead of making it).
    t.clock.advance(Date.parse(plan.renewsAt) - t.clock.now().getTime() + 60_000);
    await plans.tick();
    expect(await planOf(plan._id)).toMatchObject({ status: 'active', period: 2 });
    const paid = async (id: string) =>
      (
        await db()
          .select()
          .from(subscriptionPayments)
          .where(and(eq(subscriptionPayments.subscriptionId, id), eq(subscriptionPayments.status, 'paid')))
          .orderBy(subscriptionPayments.id)
      ).map((p) => [p.kind, p.txRef, p.amount]);
    expect(await paid(plan._id)).toEqual([
      ['first', expect.stringMatching(/^PLAN-/), 8_000_000],
      ['renewal', `SUB-${plan._id}-2-3`, 8_000_000],
    ]);
    // Another company pays its next month at a window, early and exactly: that month is paid, once.
    const early = await signupAndLogin(t, 'company');
    const own = await subscribe(early, 'bronze');
    const ref = `SUB-${own._id}-2-1`;
    expect(await webhook(await providerHolds(ref, 5_000_000, early.email), ref)).toEqual({ result: 'renewed' });
    const renewed = await planOf(own._id);
    expect(renewed).toMatchObject({ status: 'active', period: 2 });
    expect(renewed.periodStart.toISOString()).toBe(own.renewsAt);
    t.clock.advance(Date.parse(own.renewsAt) - t.clock.now().getTime() + 60_000);
    await plans.tick();
    expect(await paid(own._id)).toEqual([
      ['first', expect.stringMatching(/^PLAN-/), 5_000_000],
      ['renewal', ref, 5_000_000],
    ]);
  });

  it('renewal webhooks arriving late renew once; a charge of that month nobody made is logged for a refund', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    await setSandboxRenewalFailure(db(), company.email, true);
    t.clock.advance(Date.parse(plan.renewsAt) - t.clock.now().getTime() + 60_000);
    await plans.tick();
    expect((await planOf(plan._id)).status).toBe('grace');
    await setSandboxRenewalFailure(db(), company.email, false);
    t.clock.advance(DAY);
    await plans.tick();
    const renewed = await planOf(plan._id);
    expect(renewed).toMatchObject({ status: 'active', period: 2 });
    // The next month renews too; then the webhooks of month 2's declined and paid attempts arrive.
    t.clock.advance(renewed.periodEnd.getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();
    expect((await planOf(plan._id)).period).toBe(3);
    const month2 = await db()
      .select()
      .from(sandboxTransactions)
      .where(like(sandboxTransactions.txRef, `SUB-${plan._id}-2-%`))
      .orderBy(sandboxTransactions.id);
    expect(month2.map((c) => c.status)).toEqual(['failed', 'successful']);
    for (const c of month2) expect(await webhook(String(c.id), c.txRef)).toEqual({ result: 'duplicate' });
    expect(await planOf(plan._id)).toMatchObject({ status: 'active', period: 3 });
    expect(logOf('plan_renewal_unapplied').filter((e) => e.subscriptionId === plan._id)).toEqual([]);
    // A charge under a month-2 reference the scheduler never made: money taken, no month given; logged.
    const stray = `SUB-${plan._id}-2-7`;
    const id = await providerHolds(stray, 8_000_000, company.email);
    expect(await webhook(id, stray)).toEqual({ result: 'unapplied' });
    expect(await webhook(id, stray)).toEqual({ result: 'duplicate' });
    expect(await planOf(plan._id)).toMatchObject({ status: 'active', period: 3 });
    expect(logOf('plan_renewal_unapplied').filter((e) => e.transactionId === id)).toHaveLength(1);
  });

  it('a renewal charge for a plan that ended renews nothing and is logged for a refund', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'gold');
    await plans.cancel(asUser(company));
    t.clock.advance(Date.parse(plan.renewsAt) - t.clock.now().getTime() + 60_000);
    // Past its month, before the scheduler ends it: a charge for the next month renews nothing either.
    const early = `SUB-${plan._id}-2-9`;
    expect(await webhook(await providerHolds(early, 12_000_000, company.email), early)).toEqual({
      result: 'unapplied',
    });
    expect(await planOf(plan._id)).toMatchObject({ status: 'active', period: 1, cancelAtPeriodEnd: true });
    await plans.tick();
    expect((await planOf(plan._id)).status).toBe('ended');
    const ref = `SUB-${plan._id}-2-1`;
    expect(await webhook(await providerHolds(ref, 12_000_000, company.email), ref)).toEqual({ result: 'unapplied' });
    expect(await planOf(plan._id)).toMatchObject({ status: 'ended', period: 1 });
    expect(logOf('plan_renewal_unapplied').map((e) => e.reference)).toEqual(expect.arrayContaining([early, ref]));
  });

  it('a cancel racing the renewal: cancelled plans are never charged, charged plans are renewed', async () => {
    const companies = await Promise.all(Array.from({ length: 4 }, () => signupAndLogin(t, 'company')));
    const subscribed = [];
    for (const c of companies) subscribed.push(await subscribe(c, 'silver'));
    const due = Math.max(...subscribed.map((p) => Date.parse(p.renewsAt)));
    t.clock.advance(due - t.clock.now().getTime() + 60_000);
    const [, ...cancels] = await Promise.all([
      plans.tick(),
      ...companies.map((c) =>
        plans.cancel(asUser(c)).then(
          () => true,
          () => false,
        ),
      ),
    ]);
    await plans.tick();
    for (const [i, plan] of subscribed.entries()) {
      const sub = await planOf(plan._id);
      const charged = await db()
        .select()
        .from(sandboxTransactions)
        .where(like(sandboxTransactions.txRef, `SUB-${plan._id}-%`));
      if (cancels[i]) {
        expect(charged).toEqual([]);
        expect(sub.status).toBe('ended');
      } else {
        expect(charged.map((c) => [c.status, c.amount])).toEqual([['successful', 8_000_000]]);
        expect(sub).toMatchObject({ status: 'active', period: 2 });
      }
    }
  });

  // --- 4. and 5. What a plan payment is paid with, and what it is judged by

  it('a plan is paid by card only: the window offers a card, and another method is refused', async () => {
    const company = await signupAndLogin(t, 'company');
    const d = await start(company, 'silver');
    expect(d.paymentOptions).toBe('card');
    for (const paymentType of ['ussd', 'banktransfer', 'mobilemoney']) {
      const res = await inject('/api/checkout/sandbox/charge', company, {
        reference: d.reference,
        amount: d.amount,
        currency: 'NGN',
        paymentType,
        otp: '12345',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(planMessages.cardOnly);
    }
  });

  it('a first payment in kobo for naira, or in another currency, starts nothing and is logged', async () => {
    const company = await signupAndLogin(t, 'company');
    const d = await start(company, 'silver');
    // ₦80,000 is 8,000,000 kobo: the kobo figure paid as naira, and a hundredth of the price, both refused.
    for (const amount of [d.amount * 100, d.amount / 100]) {
      const id = await charge(company, d.reference, amount);
      expect((await confirm(company, d.reference, id)).statusCode).toBe(400);
    }
    const dollars = await charge(company, d.reference, d.amount, { currency: 'USD' });
    expect(await webhook(dollars, d.reference)).toEqual({ result: 'ignored' });
    expect(logOf('plan_payment_mismatch').filter((e) => e.transactionId === dollars)).toHaveLength(1);
    const [payment] = await firstPayments(company.id);
    expect(payment.status).toBe('pending');
    expect(payment.providerCancelAfter).not.toBeNull();
    expect((await inject('/api/plans/mine', company, undefined, 'GET')).json().data).toBeNull();
    // The subscription those charges made is cancelled; the right payment then subscribes the card
    // again, and that one is cancelled too once it starts the plan.
    await plans.tick();
    const paid = await charge(company, d.reference, d.amount);
    expect((await confirm(company, d.reference, paid)).statusCode).toBe(200);
    await plans.tick();
    const subs = await db()
      .select()
      .from(sandboxSubscriptions)
      .where(eq(sandboxSubscriptions.customerEmail, company.email));
    expect(subs.map((s) => s.status)).toEqual(['cancelled']);
  });
});
