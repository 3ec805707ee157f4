import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import {
  emailOutbox,
  ledgerTransactions,
  subscriptionEvents,
  subscriptionPayments,
  subscriptions,
} from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { flutterwaveStandIn, listenStandIn } from '../../../test/flutterwave-standin.js';
import type { createLedger } from '../money/ledger.js';
import { type createPlansService, planDiscountPercent } from './service.js';
import { flutterwaveWebhook, planServices, standInProvider, subscribeOnFlutterwave } from './plan-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 86_400_000;

/**
 * The plans against Flutterwave's documented contract (the stand-in): a monthly payment plan, the first
 * charge on it, renewals as tokenized charges carrying the plan, signed `charge.completed` webhooks
 * (repeated, as Flutterwave retries them), a declined renewal, and the subscription cancelled at lapse.
 */
describeEachDb('monthly plans on Flutterwave', (kind) => {
  const flw = flutterwaveStandIn();
  let t: TestApp;
  let plans: ReturnType<typeof createPlansService>;
  let ledger: ReturnType<typeof createLedger>;

  beforeAll(async () => {
    const config = await listenStandIn(flw);
    t = await createTestApp(kind, config);
    // A second instance's scheduler: the app's own answers the webhooks.
    ({ plans, ledger } = planServices(t, { provider: standInProvider(config) }));
  });
  afterAll(async () => {
    await t.close();
    flw.server.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, who: Login, payload?: unknown) =>
    t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });
  const webhook = (id: number, txRef: string, status: string) => flutterwaveWebhook(t, { id, tx_ref: txRef, status });
  /** Webhooks are answered at once and handled after; wait until `done` holds. */
  async function until(done: () => Promise<boolean>) {
    for (let i = 0; i < 100 && !(await done()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await done()).toBe(true);
  }
  const paymentsOf = (subscriptionId: string) =>
    t.rt.database.db
      .select()
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.subscriptionId, subscriptionId))
      .orderBy(subscriptionPayments.id);
  const eventsOf = async (subscriptionId: string) =>
    (
      await t.rt.database.db
        .select({ kind: subscriptionEvents.kind })
        .from(subscriptionEvents)
        .where(eq(subscriptionEvents.subscriptionId, subscriptionId))
        .orderBy(subscriptionEvents.id)
    ).map((e) => e.kind);

  const subscribe = (who: Login) => subscribeOnFlutterwave(t, flw, who);

  it('makes a monthly payment plan once per tier and charges the first month on it', async () => {
    const a = await signupAndLogin(t, 'company');
    const b = await signupAndLogin(t, 'company');
    const first = await subscribe(a);
    const second = await subscribe(b);
    expect(second.paymentPlan).toBe(first.paymentPlan);
    const plan = flw.plans.get(Number(first.paymentPlan))!;
    expect(plan).toMatchObject({ interval: 'monthly', amount: 80_000, currency: 'NGN' });
    expect([...flw.subscriptions.values()].filter((s) => s.plan === plan.id && s.status === 'active')).toHaveLength(2);
    expect(first.plan).toMatchObject({ tier: 'silver', status: 'active' });
  });

  it('a first payment or renewal charged below the price (charged_amount) pays nothing', async () => {
    const company = await signupAndLogin(t, 'company');
    const started = (await inject('POST', '/api/plans/subscribe', company, { tier: 'silver' })).json().data;
    const short = flw.pay(started.reference, started.amount, {
      email: company.email,
      paymentPlan: Number(started.paymentPlan),
      chargedAmount: started.amount - 1,
    });
    const refused = await inject('POST', '/api/plans/confirm', company, {
      reference: started.reference,
      transactionId: String(short),
    });
    expect(refused.statusCode).toBe(400);
    const { plan, paymentPlan } = await subscribe(company);
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    const reference = `SUB-${plan._id}-2-1`;
    const id = flw.pay(reference, 80_000, {
      email: company.email,
      paymentPlan: Number(paymentPlan),
      chargedAmount: 79_000,
    });
    expect((await webhook(id, reference, 'successful')).statusCode).toBe(200);
    await until(async () => (await paymentsOf(plan._id)).length === 2);
    expect((await paymentsOf(plan._id)).map((p) => [p.kind, p.status])).toEqual([
      ['first', 'paid'],
      ['renewal', 'failed'],
    ]);
    expect(await ledger.audit()).toEqual([]);
  });

  it('a first payment and a renewal whose customer bore the fee post no fee', async () => {
    const company = await signupAndLogin(t, 'company');
    // "Make customers pay the transaction fees": ₦80,000 charged ₦81,120, all ₦80,000 settled to us.
    flw.setFeeBearer('customer');
    try {
      const { plan } = await subscribe(company);
      t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
      await plans.tick();
      const paid = await paymentsOf(plan._id);
      expect(paid.map((p) => [p.kind, p.status])).toEqual([
        ['first', 'paid'],
        ['renewal', 'paid'],
      ]);
      for (const p of paid)
        expect(flw.txs.get(Number(p.providerTransactionId))).toMatchObject({
          amount: 80_000,
          charged_amount: 81_120,
          app_fee: 1_120,
        });
      const fees = await t.rt.database.db
        .select({ id: ledgerTransactions.id })
        .from(ledgerTransactions)
        .where(
          and(
            eq(ledgerTransactions.kind, 'fee'),
            inArray(
              ledgerTransactions.subscriptionPaymentId,
              paid.map((p) => p.id),
            ),
          ),
        );
      expect(fees).toEqual([]);
      expect(await ledger.audit()).toEqual([]);
    } finally {
      flw.setFeeBearer('merchant');
    }
  });

  it('a renewal charged once, whatever the repeated webhooks and schedulers', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan, paymentPlan } = await subscribe(company);
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    // Another instance charged the renewal and stopped before applying it; Flutterwave tells us thrice.
    const reference = `SUB-${plan._id}-2-1`;
    const id = flw.pay(reference, 80_000, { email: company.email, paymentPlan: Number(paymentPlan) });
    // Two schedulers run meanwhile: their charge of the same month finds it made (Flutterwave refuses a
    // repeated tx_ref and the charge is read back), so no second charge and no second month.
    const [answers] = await Promise.all([
      Promise.all([1, 2, 3].map(() => webhook(id, reference, 'successful'))),
      plans.tick(),
      plans.tick(),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    await until(async () => (await paymentsOf(plan._id)).length === 2);
    const paid = await paymentsOf(plan._id);
    expect(paid.map((p) => [p.kind, p.status, p.providerTransactionId])).toEqual([
      ['first', 'paid', expect.any(String)],
      ['renewal', 'paid', String(id)],
    ]);
    expect([...flw.txs.values()].filter((x) => x.tx_ref.startsWith(`SUB-${plan._id}-`))).toHaveLength(1);
    expect((await eventsOf(plan._id)).filter((k) => k === 'renewed')).toHaveLength(1);
    expect(await ledger.audit()).toEqual([]);
  });

  /**
   * A renewal Flutterwave cannot charge at all: the scheduler must treat it as unpaid (grace, then a
   * lapse), not as an outage that keeps the plan active, its discount too, while every retry waits.
   */
  async function renewalsUntilLapse(plan: PlanView) {
    const end = new Date(plan.renewsAt).getTime();
    t.clock.advance(end + 60_000 - t.clock.now().getTime());
    await plans.tick();
    const [inGrace] = await t.rt.database.db.select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    for (const d of [1, 2, 3]) {
      t.clock.advance(end + d * DAY + 120_000 - t.clock.now().getTime());
      await plans.tick();
    }
    const [after] = await t.rt.database.db.select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    return { inGrace, after };
  }

  it('a plan whose first month was paid without a card lapses at its renewal, discount and all', async () => {
    const company = await signupAndLogin(t, 'company');
    const d = (await inject('POST', '/api/plans/subscribe', company, { tier: 'gold' })).json().data;
    // Paid by USSD: Flutterwave's recurring charges are card-only, so no token comes back.
    const id = flw.pay(d.reference, d.amount, { email: company.email, paymentType: 'ussd' });
    const confirmed = await inject('POST', '/api/plans/confirm', company, {
      reference: d.reference,
      transactionId: String(id),
    });
    expect(confirmed.statusCode).toBe(200);
    const plan = confirmed.json().data as PlanView;
    expect(await planDiscountPercent(t.rt.database.db, company.id)).toBe(20);
    const { inGrace, after } = await renewalsUntilLapse(plan);
    expect(inGrace).toMatchObject({ status: 'grace', claimedUntil: null });
    expect(after.status).toBe('lapsed');
    expect(await planDiscountPercent(t.rt.database.db, company.id)).toBe(0);
    expect(await eventsOf(plan._id)).toEqual(['subscribed', 'renewal_failed', 'reminder', 'reminder', 'lapsed']);
    // Nothing was charged: the unpaid attempts name no provider transaction.
    expect([...flw.txs.values()].filter((x) => x.tx_ref.startsWith(`SUB-${plan._id}-`))).toEqual([]);
    const renewals = (await paymentsOf(plan._id)).filter((p) => p.kind === 'renewal');
    expect(renewals.map((p) => [p.status, p.providerTransactionId])).toEqual(renewals.map(() => ['failed', null]));
    expect(await ledger.audit()).toEqual([]);
  });

  it("names the way a plan was paid in its receipt mail in words, as the order's receipt does", async () => {
    const company = await signupAndLogin(t, 'company');
    const d = (await inject('POST', '/api/plans/subscribe', company, { tier: 'bronze' })).json().data;
    const id = flw.pay(d.reference, d.amount, { email: company.email, paymentType: 'bank_transfer' });
    const confirmed = await inject('POST', '/api/plans/confirm', company, {
      reference: d.reference,
      transactionId: String(id),
    });
    expect(confirmed.statusCode).toBe(200);
    const mails = await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, company.email));
    const receipt = mails.find((m) => m.subject === 'Your plan is active: Bronze plan')!;
    expect(receipt).toBeDefined();
    // The provider's code (bank_transfer) is not words a founder reads.
    expect(receipt.text).toContain('Paid by: Bank transfer\n');
    expect(receipt.text).not.toContain('bank_transfer');
    expect(receipt.html).not.toContain('bank_transfer');
  });

  it('a plan whose card token expired lapses at its renewal; nothing is charged', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company);
    flw.expireToken(company.email);
    const { inGrace, after } = await renewalsUntilLapse(plan);
    expect(inGrace).toMatchObject({ status: 'grace', claimedUntil: null });
    expect(after.status).toBe('lapsed');
    expect(await planDiscountPercent(t.rt.database.db, company.id)).toBe(0);
    expect([...flw.txs.values()].filter((x) => x.tx_ref.startsWith(`SUB-${plan._id}-`))).toEqual([]);
    expect(await ledger.audit()).toEqual([]);
  });

  it('a declined renewal: grace, reminders, then a lapse that cancels the Flutterwave subscription', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan, paymentPlan } = await subscribe(company);
    flw.setDeclining(company.email, true);
    const end = new Date(plan.renewsAt).getTime();
    t.clock.advance(end + 60_000 - t.clock.now().getTime());
    await plans.tick();
    const failed = [...flw.txs.values()].find((x) => x.tx_ref === `SUB-${plan._id}-2-1`)!;
    expect(failed).toMatchObject({ status: 'failed', payment_plan: Number(paymentPlan) });
    // Flutterwave's webhook for the failed charge, twice: nothing more happens.
    await Promise.all([webhook(failed.id, failed.tx_ref, 'failed'), webhook(failed.id, failed.tx_ref, 'failed')]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await eventsOf(plan._id)).toEqual(['subscribed', 'renewal_failed']);
    t.clock.advance(DAY);
    await plans.tick();
    t.clock.advance(2 * DAY);
    await plans.tick();
    expect(await eventsOf(plan._id)).toEqual(['subscribed', 'renewal_failed', 'reminder', 'lapsed']);
    const sub = [...flw.subscriptions.values()].find(
      (s) => s.plan === Number(paymentPlan) && s.customer.customer_email === company.email,
    );
    expect(sub?.status).toBe('cancelled');
    expect(flw.calls.some((c) => /^PUT \/v3\/subscriptions\/\d+\/cancel$/.test(c))).toBe(true);
    expect(await ledger.audit()).toEqual([]);
  });
});
