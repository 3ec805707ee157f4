import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import { ledgerEntries, sandboxTransactions, subscriptionPayments, subscriptions } from '../../db/schema.js';
import type { AuthUser } from '../../platform/auth.js';
import { ProviderUnavailable, type PaymentProvider } from '../../platform/payments/index.js';
import { sandboxProvider, setSandboxRenewalFailure } from '../../platform/payments/sandbox.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { SUCCESS_CARD } from '../../../test/commerce-helpers.js';
import { createLedger } from '../money/ledger.js';
import { createRefunds } from '../money/refunds.js';
import { createJobLifecycle } from '../jobs/lifecycle-service.js';
import { createPlansService } from './service.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 86_400_000;

/**
 * The plan scheduler charges a renewal outside its transaction (claimed meanwhile). What the company
 * does on its plan page while that charge is on its way must not turn a real charge into a "failed"
 * one, nor leave a cancelled plan being charged.
 */
describeEachDb('plan renewals racing the company', (kind) => {
  let t: TestApp;
  let plans: ReturnType<typeof createPlansService>;
  let ledger: ReturnType<typeof createLedger>;
  /** Runs while the scheduler's renewal charge of this customer is with the provider. */
  let duringCharge: { email: string; run: () => Promise<void> } | null = null;
  /** This customer's next renewal charge is made, but its answer is lost on the way back. */
  let loseNextResponseOf: string | null = null;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const deps = {
      db: t.rt.database.db,
      clock: t.clock,
      config: t.config,
      mailWritten: () => {},
      securityLog: () => {},
    };
    ledger = createLedger(deps);
    const sandbox = sandboxProvider(deps.db, t.clock);
    const provider: PaymentProvider = {
      ...sandbox,
      async chargePlan(req) {
        const hook = duringCharge?.email === req.email ? duringCharge : null;
        if (hook) {
          duringCharge = null;
          await hook.run();
        }
        const made = await sandbox.chargePlan(req);
        if (loseNextResponseOf === req.email) {
          loseNextResponseOf = null;
          throw new ProviderUnavailable('socket hang up');
        }
        return made;
      },
    };
    const refunds = createRefunds({ ...deps, provider, ledger });
    const lifecycle = createJobLifecycle(deps, { ledger, refunds });
    plans = createPlansService(deps, { provider, ledger, lifecycle, refunds });
  });
  afterAll(() => t.close());
  afterEach(async () => {
    duringCharge = null;
    loseNextResponseOf = null;
    expect(await ledger.audit()).toEqual([]);
  });

  const db = () => t.rt.database.db;
  const asUser = (who: Login) => ({ id: who.id }) as AuthUser;

  async function subscribe(who: Login, tier: 'bronze' | 'silver' | 'gold') {
    const inject = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, headers: who.headers, payload });
    const d = (await inject('/api/plans/subscribe', { tier })).json().data as { reference: string; amount: number };
    const charged = await inject('/api/checkout/sandbox/charge', {
      reference: d.reference,
      amount: d.amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
    const confirmed = await inject('/api/plans/confirm', { reference: d.reference, transactionId });
    expect(confirmed.statusCode).toBe(200);
    return confirmed.json().data as PlanView;
  }

  const charges = (subId: string) =>
    db()
      .select()
      .from(sandboxTransactions)
      .where(like(sandboxTransactions.txRef, `SUB-${subId}-%`))
      .orderBy(sandboxTransactions.id);

  it('a renewal charged while the company changes tier is never recorded as failed', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    // The scheduler charges Silver's price; meanwhile the company picks Gold for the next renewal.
    duringCharge = {
      email: company.email,
      run: async () => {
        await plans.changeTier(asUser(company), 'gold').catch(() => null);
      },
    };
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();

    const made = await charges(plan._id);
    expect(made.map((c) => [c.status, c.amount])).toEqual([['successful', 8_000_000]]);
    // The company was charged; that money must pay its renewal (not sit unrecorded at the provider
    // while the plan goes into grace and is charged again).
    const renewals = await db()
      .select()
      .from(subscriptionPayments)
      .where(and(eq(subscriptionPayments.subscriptionId, plan._id), eq(subscriptionPayments.kind, 'renewal')));
    expect(renewals.map((p) => p.status)).toEqual(['paid']);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(sub.status).toBe('active');
    expect(sub.period).toBe(2);
  });

  it('a plan cancelled while its renewal is being charged is not charged again', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    await setSandboxRenewalFailure(db(), company.email, true);
    let cancelledAt: number | null = null;
    duringCharge = {
      email: company.email,
      run: async () => {
        const ok = await plans.cancel(asUser(company)).then(
          () => true,
          () => false,
        );
        if (ok) cancelledAt = t.clock.now().getTime();
      },
    };
    const end = new Date(plan.renewsAt).getTime();
    t.clock.advance(end - t.clock.now().getTime() + 60_000);
    await plans.tick();
    // The company's card works again; the scheduler comes back the next days.
    await setSandboxRenewalFailure(db(), company.email, false);
    for (const d of [1, 2, 3]) {
      t.clock.advance(end + d * DAY + 120_000 - t.clock.now().getTime());
      await plans.tick();
    }
    const made = await charges(plan._id);
    if (cancelledAt !== null) {
      // The cancel was accepted: nothing may be charged after it.
      expect(made.filter((c) => c.createdAt.getTime() > cancelledAt!)).toEqual([]);
      const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
      expect(sub.status).toBe('ended');
    }
  });

  it("expires each month's unused credits, the last month's too", async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    // Month 1 renews (its 7 unused credits expire); month 2 is cancelled and ends unused.
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();
    const [renewed] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(renewed.period).toBe(2);
    await plans.cancel(asUser(company));
    t.clock.advance(renewed.periodEnd.getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();
    const [ended] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(ended.status).toBe('ended');
    // Nothing is held for a plan that has ended: every month's credits were used or expired.
    const [held] = await db()
      .select({ kobo: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.account, 'held_for_jobs'),
          eq(ledgerEntries.companyId, company.id),
          isNull(ledgerEntries.jobId),
        ),
      );
    expect(Number(held.kobo)).toBe(0);
  });

  /** Every successful renewal charge paid a month: none sits at the provider unrecorded. */
  async function expectEveryChargeApplied(subId: string) {
    const made = (await charges(subId)).filter((c) => c.status === 'successful');
    const paid = await db()
      .select()
      .from(subscriptionPayments)
      .where(
        and(
          eq(subscriptionPayments.subscriptionId, subId),
          eq(subscriptionPayments.kind, 'renewal'),
          eq(subscriptionPayments.status, 'paid'),
        ),
      );
    expect(paid.map((p) => [p.txRef, p.amount]).sort()).toEqual(made.map((c) => [c.txRef, c.amount]).sort());
    return made;
  }

  it('a lost renewal answer holds the cancel until it is known, and the charge renews the plan', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    loseNextResponseOf = company.email;
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();
    // The claim runs out with the charge made and its answer (and webhook) still missing; the company
    // cancels before the next tick asks again.
    t.clock.advance(5 * 60_000 + 1_000);
    const cancelled = await plans.cancel(asUser(company)).then(
      () => 'cancelled',
      (err: { statusCode?: number }) => err.statusCode,
    );
    await plans.tick();
    const made = await expectEveryChargeApplied(plan._id);
    expect(made).toHaveLength(1);
    expect(cancelled).toBe(409);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(sub).toMatchObject({ status: 'active', period: 2, cancelAtPeriodEnd: false });
    // Known now: the cancel is taken and ends the month the charge paid for.
    await plans.cancel(asUser(company));
  });

  it('a lost renewal answer holds the tier until it is known: the charge is never judged at another price', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    loseNextResponseOf = company.email;
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();
    t.clock.advance(5 * 60_000 + 1_000);
    const changed = await plans.changeTier(asUser(company), 'gold').then(
      () => 'changed',
      (err: { statusCode?: number }) => err.statusCode,
    );
    await plans.tick();
    const made = await expectEveryChargeApplied(plan._id);
    expect(made.map((c) => c.amount)).toEqual([8_000_000]);
    expect(changed).toBe(409);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(sub).toMatchObject({ status: 'active', period: 2, tier: 'silver' });
  });

  it('a lost answer to the last retry in grace is asked for before the plan lapses', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    await setSandboxRenewalFailure(db(), company.email, true);
    const end = new Date(plan.renewsAt).getTime();
    t.clock.advance(end - t.clock.now().getTime() + 60_000);
    await plans.tick();
    t.clock.advance(DAY);
    await plans.tick();
    // The card pays again; the next retry's charge is made but its answer is lost, and the grace ends
    // before the retry after it.
    await setSandboxRenewalFailure(db(), company.email, false);
    loseNextResponseOf = company.email;
    t.clock.advance(DAY);
    await plans.tick();
    t.clock.advance(end + 3 * DAY + 60_000 - t.clock.now().getTime());
    await plans.tick();
    const made = await expectEveryChargeApplied(plan._id);
    expect(made).toHaveLength(1);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(sub).toMatchObject({ status: 'active', period: 2 });
  });

  it('a renewal charge whose answer was lost is not charged again when the claim runs out', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    loseNextResponseOf = company.email;
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    await plans.tick();
    // No webhook came; the next ticks after the 5-minute claim run out.
    t.clock.advance(6 * 60_000);
    await plans.tick();
    t.clock.advance(6 * 60_000);
    await plans.tick();
    const made = await charges(plan._id);
    expect(made.filter((c) => c.status === 'successful').map((c) => c.amount)).toEqual([8_000_000]);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(sub).toMatchObject({ status: 'active', period: 2 });
  });
});
