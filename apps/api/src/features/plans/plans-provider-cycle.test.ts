import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import { subscriptionPayments } from '../../db/schema.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { createLoggedTestApp } from '../../../test/commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn, type FlwTx } from '../../../test/flutterwave-standin.js';
import type { createLedger } from '../money/ledger.js';
import { addMonth, createPlansService } from './service.js';
import {
  flutterwaveWebhook,
  planServices,
  standInProvider,
  standInSubscription,
  startOnFlutterwave,
  subscribeOnFlutterwave,
} from './plan-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Flutterwave charges a card subscribed to a payment plan on its own every month (its documented
 * payment plans), and our scheduler charges each renewal (decision 1900): the subscription our charges
 * make at Flutterwave is cancelled, durably and once, so a company pays each month once; a charge
 * Flutterwave still makes on its own is logged for a refund and listed by the reconciliation.
 */
describeEachDb('monthly plans charged once a month on Flutterwave', (kind) => {
  let t: Awaited<ReturnType<typeof createLoggedTestApp>>;
  // The stand-in's billing cycle runs on the test's clock.
  const flw = flutterwaveStandIn({ now: () => t.clock.now() });
  let plans: ReturnType<typeof createPlansService>;
  let other: ReturnType<typeof createPlansService>;
  let ledger: ReturnType<typeof createLedger>;

  beforeAll(async () => {
    const config = await listenStandIn(flw);
    t = await createLoggedTestApp(kind, config);
    // Two instances' schedulers; the app's own services answer the webhooks.
    const { deps, provider, lifecycle, refunds, ...built } = planServices(t, { provider: standInProvider(config) });
    ({ plans, ledger } = built);
    other = createPlansService(deps, { provider, ledger, lifecycle, refunds });
  });
  afterAll(async () => {
    await t.close();
    flw.server.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, who: Login, payload?: unknown) =>
    t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });
  const webhook = (tx: FlwTx) => flutterwaveWebhook(t, tx);
  const paymentsOf = (subscriptionId: string) =>
    t.rt.database.db
      .select()
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.subscriptionId, subscriptionId))
      .orderBy(subscriptionPayments.id);
  /** What Flutterwave took from this customer's card. */
  const chargesOf = (email: string) =>
    [...flw.txs.values()].filter((x) => x.customer.email === email && x.status === 'successful').map((x) => x.tx_ref);
  const subscriptionAt = (planId: string | number, email: string) => standInSubscription(flw, planId, email);
  const toRenewal = (plan: Pick<PlanView, 'renewsAt'>, minutes = 1) =>
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + minutes * 60_000);

  const start = (who: Login, tier: 'bronze' | 'silver' | 'gold') => startOnFlutterwave(t, flw, who, tier);
  const subscribe = (who: Login, tier: 'bronze' | 'silver' | 'gold' = 'silver') =>
    subscribeOnFlutterwave(t, flw, who, tier);

  it('cancels the subscription a charge of the wrong amount made, though it started no plan', async () => {
    const company = await signupAndLogin(t, 'company');
    const started = (await inject('POST', '/api/plans/subscribe', company, { tier: 'bronze' })).json().data as {
      reference: string;
      amount: number;
      paymentPlan: string;
    };
    const id = flw.pay(started.reference, started.amount - 1000, {
      email: company.email,
      paymentPlan: Number(started.paymentPlan),
    });
    const refused = await inject('POST', '/api/plans/confirm', company, {
      reference: started.reference,
      transactionId: String(id),
    });
    expect(refused.statusCode).toBe(400);
    expect(subscriptionAt(started.paymentPlan, company.email)?.status).toBe('active');
    await plans.tick();
    expect(subscriptionAt(started.paymentPlan, company.email)?.status).toBe('cancelled');
  });

  it("charges each month once: Flutterwave's own cycle finds the subscription our charges made cancelled", async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan, paymentPlan, reference } = await subscribe(company);
    // The scheduler's next minute.
    await plans.tick();
    for (const [month, renewsAt] of [
      [2, new Date(plan.renewsAt)],
      [3, addMonth(new Date(plan.renewsAt))],
    ] as const) {
      toRenewal({ renewsAt: renewsAt.toISOString() });
      // Flutterwave's billing cycle and our scheduler, each on the renewal day.
      expect(
        flw
          .runCycle()
          .filter((x) => x.customer.email === company.email)
          .map((x) => x.tx_ref),
      ).toEqual([]);
      await plans.tick();
      // Our renewal carries `payment_plan` and subscribes the card again: cancelled in the same tick.
      expect(subscriptionAt(paymentPlan, company.email)?.status).toBe('cancelled');
      expect(chargesOf(company.email).at(-1)).toBe(`SUB-${plan._id}-${month}-1`);
    }
    expect(
      flw
        .runCycle()
        .filter((x) => x.customer.email === company.email)
        .map((x) => x.tx_ref),
    ).toEqual([]);
    expect(chargesOf(company.email)).toEqual([reference, `SUB-${plan._id}-2-1`, `SUB-${plan._id}-3-1`]);
    const paid = await paymentsOf(plan._id);
    expect(paid.map((p) => [p.kind, p.status, p.providerCancelledAt !== null])).toEqual([
      ['first', 'paid', true],
      ['renewal', 'paid', true],
      ['renewal', 'paid', true],
    ]);
    expect(await ledger.audit()).toEqual([]);
  });

  it('a cancel Flutterwave did not answer is tried again, and two schedulers cancel once', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan, paymentPlan } = await subscribe(company);
    const asked = () => flw.calls.filter((c) => c.includes(`email=${encodeURIComponent(company.email)}`)).length;
    flw.setDown(true);
    await plans.tick();
    flw.setDown(false);
    expect(subscriptionAt(paymentPlan, company.email)?.status).toBe('active');
    expect((await paymentsOf(plan._id))[0].providerCancelledAt).toBeNull();
    // Claimed for five minutes by the scheduler that failed: nobody asks meanwhile.
    const before = asked();
    await Promise.all([plans.tick(), other.tick()]);
    expect(asked()).toBe(before);
    t.clock.advance(5 * 60_000 + 1);
    await Promise.all([plans.tick(), other.tick()]);
    expect(asked()).toBe(before + 1);
    expect(subscriptionAt(paymentPlan, company.email)?.status).toBe('cancelled');
    expect((await paymentsOf(plan._id))[0].providerCancelledAt).not.toBeNull();
    toRenewal(plan, 0);
    expect(
      flw
        .runCycle()
        .filter((x) => x.customer.email === company.email)
        .map((x) => x.tx_ref),
    ).toEqual([]);
  });

  it('a first payment paid twice (two tabs) leaves no Flutterwave subscription behind', async () => {
    const company = await signupAndLogin(t, 'company');
    // Two tabs: both dialogs opened, both paid, then both confirmed.
    const [first, other] = [await start(company, 'silver'), await start(company, 'gold')];
    expect((await first()).status).toBe(200);
    const second = await other();
    expect(second.status).toBe(409);
    await plans.tick();
    expect(subscriptionAt(second.paymentPlan, company.email)?.status).toBe('cancelled');
    // Re-asked by the background pass: still unapplied, and not cancelled twice.
    const asked = () => flw.calls.filter((c) => c.includes(`email=${encodeURIComponent(company.email)}`)).length;
    const before = asked();
    t.clock.advance(3 * 60_000);
    await plans.reconcileFirstPayments();
    await plans.tick();
    expect(asked()).toBe(before);
  });

  it('a charge Flutterwave made on its own is logged for a refund and listed by the reconciliation', async () => {
    // A plan subscribed before its Flutterwave subscription could be cancelled (or one Flutterwave kept).
    const company = await signupAndLogin(t, 'company');
    const { plan, paymentPlan } = await subscribe(company);
    toRenewal(plan, 0);
    const [own] = flw.runCycle().filter((x) => x.customer.email === company.email);
    expect(own).toMatchObject({ status: 'successful', payment_plan: Number(paymentPlan) });
    // And one whose reference looks like none of ours at all.
    const stray = flw.txs.get(
      flw.pay(`RCR-${Date.now()}`, 80_000, { email: company.email, paymentPlan: Number(paymentPlan) }),
    )!;
    for (const tx of [own, stray]) expect((await webhook(tx)).statusCode).toBe(200);
    await vi.waitFor(() => expect(t.security.of('plan_charged_by_provider')).toHaveLength(2));
    expect(t.security.of('plan_charged_by_provider').map((e) => e.reference)).toEqual(
      expect.arrayContaining([own.tx_ref, stray.tx_ref]),
    );
    // Nothing was paid by it: no month, no ledger entry; the subscription that made it is cancelled.
    expect((await paymentsOf(plan._id)).map((p) => p.kind)).toEqual(['first']);
    // The cancel is asked for after the log line is written: wait for it rather than race it.
    await vi.waitFor(() => expect(subscriptionAt(paymentPlan, company.email)?.status).toBe('cancelled'));
    const report = await inject('GET', '/api/admin/reconciliation', await signupAndLogin(t, 'admin'));
    expect(report.statusCode).toBe(200);
    const missing = (report.json().differences as { kind: string; reference: string }[])
      .filter((d) => d.kind === 'missing_in_ledger')
      .map((d) => d.reference);
    expect(missing).toEqual(expect.arrayContaining([own.tx_ref, stray.tx_ref]));
    expect(await ledger.audit()).toEqual([]);
  });
});
