import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PLAN_TIER_INFO, TWO_FACTOR, planMessages, twoFactorMessages, type PlanView } from '@legalmarket/contracts';
import { subscriptionEvents, subscriptionPayments, subscriptions } from '../../src/db/schema.js';
import { planServices, reloggingInject, subscribeInSandbox } from '../../src/features/plans/plan-test-kit.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { twoFactorKit } from '../two-factor-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Tier = 'bronze' | 'silver' | 'gold';
const MINUTE = 60_000;

/**
 * A stolen company session whose owner has two-factor on (decision 2283): the scheduler charges each
 * renewal to the card the first payment saved, with nobody present, at the price of the tier the plan
 * renews at. So a tier change that raises that price asks for a fresh code; a downgrade does not.
 */
describeEachDb('a company raising its monthly plan', (kind) => {
  let t: TestApp;
  let scheduler: ReturnType<typeof planServices>['plans'];
  const { call, codeOf, nextStep, enrol } = twoFactorKit(() => t);
  const inject = reloggingInject(() => t);

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    ({ plans: scheduler } = planServices(t));
  }, 120_000);
  afterAll(() => t.close());

  const changeTier = (who: Login, tier: Tier) => inject('POST', '/api/plans/mine/tier', who, { tier });
  const planRow = async (id: string) =>
    (await t.rt.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
  const tierChanges = async (id: string) =>
    t.rt.database.db
      .select({ note: subscriptionEvents.note })
      .from(subscriptionEvents)
      .where(and(eq(subscriptionEvents.subscriptionId, id), eq(subscriptionEvents.kind, 'tier_change')));
  const renewalsOf = (id: string) =>
    t.rt.database.db
      .select({ amount: subscriptionPayments.amount, tier: subscriptionPayments.tier })
      .from(subscriptionPayments)
      .where(and(eq(subscriptionPayments.subscriptionId, id), eq(subscriptionPayments.kind, 'renewal')));
  const expectStepUp = (res: Awaited<ReturnType<typeof changeTier>>) => {
    expect(res.statusCode, res.body).toBe(TWO_FACTOR.stepUpStatus);
    expect(res.json().message).toBe(twoFactorMessages.stepUpRequired);
  };

  it('asks a stale session for a fresh code before raising the renewal, not before lowering it', async () => {
    const company = await signupAndLogin(t, 'company');
    const secret = await enrol(company);
    const { plan } = await subscribeInSandbox(inject, company, 'silver');
    // What a thief holds: the owner's session, its last code older than the step-up window.
    t.clock.advance((TWO_FACTOR.stepUpMinutes + 1) * MINUTE);

    expectStepUp(await changeTier(company, 'gold'));
    expect(await planRow(plan._id)).toMatchObject({ tier: 'silver', nextTier: null });
    expect(await tierChanges(plan._id)).toEqual([]);

    // A downgrade lowers what the card is charged: no code asked.
    const down = await changeTier(company, 'bronze');
    expect(down.statusCode, down.body).toBe(200);
    expect((down.json().data as PlanView).nextTier).toBe('bronze');
    // Undoing it raises the renewal back to Silver's price, so it asks, and the downgrade stays.
    expectStepUp(await changeTier(company, 'silver'));
    expectStepUp(await changeTier(company, 'gold'));
    expect(await planRow(plan._id)).toMatchObject({ tier: 'silver', nextTier: 'bronze' });
    expect(await tierChanges(plan._id)).toHaveLength(1);

    // The owner proves a code, as the web's step-up prompt does, and the same click goes through.
    nextStep();
    expect((await call('POST', '/api/two-factor/verify', company, { code: codeOf(secret) })).statusCode).toBe(200);
    const up = await changeTier(company, 'gold');
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().message).toBe(planMessages.tierChanged);
    expect(await planRow(plan._id)).toMatchObject({ tier: 'silver', nextTier: 'gold' });
  });

  it('charges the renewal at the old price after a refused upgrade', async () => {
    const company = await signupAndLogin(t, 'company');
    await enrol(company);
    const { plan } = await subscribeInSandbox(inject, company, 'silver');
    t.clock.advance((TWO_FACTOR.stepUpMinutes + 1) * MINUTE);
    expectStepUp(await changeTier(company, 'gold'));

    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + MINUTE);
    await scheduler.tick();
    expect(await renewalsOf(plan._id)).toEqual([{ amount: PLAN_TIER_INFO.silver.price, tier: 'silver' }]);
    expect(await planRow(plan._id)).toMatchObject({ status: 'active', tier: 'silver', period: 2 });
  });

  it('does not ask a company without two-factor', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribeInSandbox(inject, company, 'bronze');
    t.clock.advance((TWO_FACTOR.stepUpMinutes + 1) * MINUTE);
    const up = await changeTier(company, 'gold');
    expect(up.statusCode, up.body).toBe(200);
    expect(await planRow(plan._id)).toMatchObject({ tier: 'bronze', nextTier: 'gold' });
  });
});
