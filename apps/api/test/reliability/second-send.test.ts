import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { asc, eq, like } from 'drizzle-orm';
import { NIGERIAN_BANKS, type PlanView } from '@legalmarket/contracts';
import {
  auditLog,
  jobApplications,
  jobs,
  payouts,
  sandboxTransactions,
  sandboxTransfers,
  subscriptionEvents,
  subscriptions,
} from '../../src/db/schema.js';
import { createLedger } from '../../src/features/money/ledger.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { SUCCESS_CARD, insertProduct } from '../commerce-helpers.js';
import { planServices } from '../../src/features/plans/plan-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
const DAY = 86_400_000;

/**
 * A send still on its way when the user leaves the screen: the web enables its button again, so the
 * same send can go out twice (or from two tabs), or beside another user's send on the same thing.
 * Whatever the order, one effect: never a 5xx, the other answers as the first or a 4xx naming the
 * problem. Races show on the PostgreSQL server; on PGlite the same sends run one after another.
 */
describeEachDb('a second send beside the first', (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    admin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
  }, 120_000);
  afterAll(() => t.close());
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const post = (who: Login, url: string, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, payload });
  /** No answer is a 5xx, and each refusal says why. */
  function sane(rs: Res[]) {
    for (const r of rs) {
      expect(r.statusCode, r.body).toBeLessThan(500);
      if (r.statusCode >= 400) expect(typeof r.json().message, r.body).toBe('string');
    }
  }

  async function paidJob(company: Login) {
    expect((await post(company, '/api/cart', { productId: product, quantity: 1 })).statusCode).toBe(201);
    const { reference, amount, orderId } = (await post(company, '/api/checkout')).json().data;
    const charged = await post(company, '/api/checkout/sandbox/charge', {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = charged.json().data.transaction_id;
    expect((await post(company, '/api/checkout/verify', { reference, transactionId })).statusCode).toBe(200);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return job.id;
  }

  async function relogin(who: Login): Promise<Login> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json().token as string;
    return { ...who, token, headers: { authorization: `Bearer ${token}` } };
  }

  async function subscribe(company: Login, tier: 'bronze' | 'silver' | 'gold') {
    const { reference, amount } = (await post(company, '/api/plans/subscribe', { tier })).json().data;
    const charged = await post(company, '/api/checkout/sandbox/charge', {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = charged.json().data.transaction_id;
    const confirmed = await post(company, '/api/plans/confirm', { reference, transactionId });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return confirmed.json().data as PlanView;
  }
  const eventsOf = (subId: string) =>
    db()
      .select()
      .from(subscriptionEvents)
      .where(eq(subscriptionEvents.subscriptionId, subId))
      .orderBy(asc(subscriptionEvents.id));

  it("an Apply racing the admin's assignment of another lawyer: the job goes to that lawyer, the Apply is told", async () => {
    const company = await signupAndLogin(t, 'company');
    const applying = await signupAndLogin(t, 'lawyer', { verified: true });
    const chosen = await signupAndLogin(t, 'lawyer', { verified: true });
    for (let i = 0; i < 3; i++) {
      const jobId = await paidJob(company);
      const sends = [
        () => post(applying, `/job-api/applyforjob/${jobId}`),
        () => post(admin, '/job-api/assign', { jobId, lawyerId: chosen.id }),
      ];
      // Both orders on PGlite, where the sends run one after the other.
      const [applied, assigned] = i % 2 ? await Promise.all(sends.map((s) => s())) : await inOrder(sends);
      sane([applied, assigned]);
      expect(assigned.statusCode, assigned.body).toBe(200);
      expect([200, 409]).toContain(applied.statusCode);
      const [job] = await db().select().from(jobs).where(eq(jobs.id, jobId));
      expect([job.status, job.assignedTo]).toEqual(['pending', chosen.id]);
      const apps = await db().select().from(jobApplications).where(eq(jobApplications.jobId, jobId));
      expect(apps.length).toBe(applied.statusCode === 200 ? 1 : 0);
      // The Apply sent again once the job is taken is refused, and adds nothing.
      const again = await post(applying, `/job-api/applyforjob/${jobId}`);
      expect(again.statusCode, again.body).toBe(409);
      expect(await db().select().from(jobApplications).where(eq(jobApplications.jobId, jobId))).toHaveLength(
        apps.length,
      );
    }
  });

  it('a tier change sent twice records it once in the plan history, at once or one after the other', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    const before = (await eventsOf(plan._id)).length;
    const twice = await Promise.all([0, 1].map(() => post(company, '/api/plans/mine/tier', { tier: 'gold' })));
    sane(twice);
    expect(twice.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(twice[1].json().message).toBe(twice[0].json().message);
    const again = await post(company, '/api/plans/mine/tier', { tier: 'gold' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.nextTier).toBe('gold');
    expect((await eventsOf(plan._id)).slice(before).map((e) => e.kind)).toEqual(['tier_change']);
    // Kept as it is, twice: one entry too.
    for (let i = 0; i < 2; i++)
      expect((await post(company, '/api/plans/mine/tier', { tier: 'silver' })).statusCode).toBe(200);
    expect((await eventsOf(plan._id)).slice(before).map((e) => e.kind)).toEqual(['tier_change', 'tier_change']);
  });

  it('a tier up and a tier down sent at once: the plan takes the one its history names last', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    const both = await Promise.all(
      (['gold', 'bronze'] as const).map((tier) => post(company, '/api/plans/mine/tier', { tier })),
    );
    sane(both);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    const changes = (await eventsOf(plan._id)).filter((e) => e.kind === 'tier_change');
    expect(changes).toHaveLength(2);
    expect(changes[1].note).toContain(sub.nextTier === 'gold' ? 'Gold' : 'Bronze');
    expect(sub.tier).toBe('silver');
  });

  it('a tier change racing the cancel: the plan ends at its paid month, with no tier waiting', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    const sends = [
      () => post(company, '/api/plans/mine/tier', { tier: 'gold' }),
      () => post(company, '/api/plans/mine/cancel'),
    ];
    const [changed, cancelled] = kind === 'postgres' ? await Promise.all(sends.map((s) => s())) : await inOrder(sends);
    sane([changed, cancelled]);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect([200, 409]).toContain(changed.statusCode);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect([sub.cancelAtPeriodEnd, sub.nextTier, sub.status]).toEqual([true, null, 'active']);
    // A change sent after the cancel is refused, and changes nothing.
    const late = await post(company, '/api/plans/mine/tier', { tier: 'bronze' });
    expect(late.statusCode, late.body).toBe(409);
    const [still] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect(still.nextTier).toBeNull();
  });

  it('a single approval racing a batch approval of the same payouts: one transfer each, posted once', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const company = await signupAndLogin(t, 'company');
    for (let i = 0; i < 2; i++) {
      const jobId = await paidJob(company);
      expect((await post(admin, '/job-api/assign', { jobId, lawyerId: lawyer.id })).statusCode).toBe(200);
      expect((await post(admin, `/job-api/jobs/${jobId}/actions/complete`)).statusCode).toBe(200);
    }
    await post(lawyer, '/api/add-payment-details', {
      accountNumber: '0123452222',
      accountName: 'Chidi Okeke',
      bank: NIGERIAN_BANKS[0],
    });
    t.clock.advance(8 * DAY);
    admin = await relogin(admin);
    const me = await relogin(lawyer);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const asked = await post(me, '/api/lawyer/payouts', { amount: 1_000 });
      expect(asked.statusCode, asked.body).toBe(201);
      ids.push(asked.json().payout._id as string);
    }
    const answers = await Promise.all([
      post(admin, `/api/admin/payouts/${ids[0]}/approve`),
      post(admin, '/api/admin/payouts/approve', { ids }),
      post(admin, '/api/admin/payouts/approve', { ids: [...ids].reverse() }),
    ]);
    sane(answers);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    for (const id of ids) {
      expect(await db().select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id))).toHaveLength(1);
      expect(await db().select().from(auditLog).where(eq(auditLog.targetId, id))).toHaveLength(1);
    }
    const mine = await db().select().from(payouts).where(eq(payouts.lawyerId, lawyer.id));
    expect(mine.map((p) => p.status)).toEqual(['sending', 'sending']);
  });

  it("a tier change racing the renewal scheduler: charged once, at the price of the month's tier", async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company, 'silver');
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    const me = await relogin(company);
    const { plans } = planServices(t);
    const sends = [() => post(me, '/api/plans/mine/tier', { tier: 'gold' }), () => plans.tick().then(() => null)];
    const [changed] =
      kind === 'postgres' ? await Promise.all(sends.map((s) => s())) : [await sends[0](), await sends[1]()];
    sane([changed!]);
    // Before the claim it is the renewal's tier; under the claim "being charged"; after it the next one's.
    expect([200, 409]).toContain(changed!.statusCode);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    expect([sub.status, sub.period]).toEqual(['active', 2]);
    const made = await db()
      .select()
      .from(sandboxTransactions)
      .where(like(sandboxTransactions.txRef, `SUB-${plan._id}-%`));
    expect(made.map((c) => [c.status, c.amount])).toEqual([
      ['successful', sub.tier === 'gold' ? 12_000_000 : 8_000_000],
    ]);
    if (changed!.statusCode === 200) expect(sub.tier === 'gold' || sub.nextTier === 'gold').toBe(true);
    else expect([sub.tier, sub.nextTier]).toEqual(['silver', null]);
  });
});

/** Runs the sends one after another, in the order given. */
async function inOrder(sends: Array<() => Promise<Res>>) {
  const out: Res[] = [];
  for (const s of sends) out.push(await s());
  return out;
}
