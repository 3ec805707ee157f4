import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import { subscriptionEvents } from '../../src/db/schema.js';
import { createLedger } from '../../src/features/money/ledger.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { SUCCESS_CARD } from '../commerce-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Res = Awaited<ReturnType<TestApp['app']['inject']>>;

/**
 * A send still on its way when the user leaves the screen: the web enables its button again, so the
 * same send can go out twice (or from two tabs), or beside another user's send on the same thing.
 * Whatever the order, one effect: never a 5xx, the other answers as the first or a 4xx naming the
 * problem. Races show on the PostgreSQL server; on PGlite the same sends run one after another.
 */
describeEachDb('a second send beside the first', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
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
});
