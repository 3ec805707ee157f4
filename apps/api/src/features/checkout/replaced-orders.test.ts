import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs, orders } from '../../db/schema.js';
import { createLedger } from '../money/ledger.js';
import { moneyTestKit, type MoneyTestApp, type Started } from '../money/money-test-kit.js';
import { reconcilePendingOrders } from './reconciler.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';

/** The background job's own logger: its security events, kept for the race's count. */
const jobEvents: Record<string, unknown>[] = [];
const jobLogger = {
  info: (o: object) => void jobEvents.push(o as Record<string, unknown>),
  warn: () => {},
  error: () => {},
};
type Login = Awaited<ReturnType<typeof signupAndLogin>>;

// Decision 2243: a replaced order paid in its old window and its replacement paid too buy each cart line once.
describeEachDb('a paid replaced order and its paid replacement', (kind) => {
  // The stand-in dates its payments by the real time, as this suite's always were.
  const kit = moneyTestKit(kind, { products: true, standInClock: 'real' });
  const { flw, inject, add, start, verify } = kit;
  let t: MoneyTestApp;
  let nda: string;
  let tm: string;
  beforeAll(() => {
    ({ t, nda, tm } = kit.suite);
  });

  const bought = async (who: Login) => {
    const rows = await t.rt.database.db
      .select({ productId: jobs.productId, quantity: jobs.quantity, orderId: jobs.orderId })
      .from(jobs)
      .innerJoin(orders, eq(orders.id, jobs.orderId))
      .where(eq(orders.companyId, who.id));
    const by = new Map<string, number>();
    for (const r of rows) by.set(r.productId, (by.get(r.productId) ?? 0) + r.quantity);
    return Object.fromEntries([...by].map(([p, q]) => [p === nda ? 'nda' : p === tm ? 'tm' : p, q]));
  };
  const status = async (o: Started) =>
    (await t.rt.database.db.select().from(orders).where(eq(orders.id, o.orderId)))[0].status;
  const audit = async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]);
  const twice = (o: Started) =>
    [...t.security.events, ...jobEvents].filter(
      (e) => e.security === 'payment_lines_bought_twice' && e.orderId === o.orderId,
    );

  /** Order A holds the NDA; the cart then gets the trademark too and B (NDA + trademark) replaces A. */
  async function replaced() {
    const who = await signupAndLogin(t, 'company');
    await add(who, nda);
    const a = await start(who);
    await add(who, tm);
    const b = await start(who);
    expect(b.reference).not.toBe(a.reference);
    expect(await status(a)).toBe('replaced');
    return { who, a, b };
  }

  it('A paid in its old window, then B: the NDA is bought once, the surplus logged for a refund', async () => {
    const { who, a, b } = await replaced();
    t.clock.advance(1000);
    expect((await verify(a, flw.pay(a.reference, a.amount))).statusCode).toBe(200);
    expect(await bought(who)).toEqual({ nda: 1 });
    t.clock.advance(1000);
    expect((await verify(b, flw.pay(b.reference, b.amount))).statusCode).toBe(200);
    expect(await status(b)).toBe('paid');
    expect(await bought(who)).toEqual({ nda: 1, tm: 1 });
    expect(twice(b)).toHaveLength(1);
    expect(twice(b)[0]).toMatchObject({ reference: b.reference, refundDue: 25000 * 100, boughtBy: [a.reference] });
    expect((await inject('GET', '/api/cart', who)).json()[0]?.products ?? []).toEqual([]);
    await audit();
  });

  it('B paid first, then A in its old window: A opens nothing and is logged', async () => {
    const { who, a, b } = await replaced();
    t.clock.advance(1000);
    expect((await verify(b, flw.pay(b.reference, b.amount))).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await verify(a, flw.pay(a.reference, a.amount))).statusCode).toBe(200);
    expect(await bought(who)).toEqual({ nda: 1, tm: 1 });
    expect(twice(a)).toHaveLength(1);
    expect(twice(a)[0]).toMatchObject({ refundDue: 25000 * 100, boughtBy: [b.reference] });
    expect(twice(b)).toHaveLength(0);
    await audit();
  });

  it('a quantity raised between the starts: B buys only the rest of the line', async () => {
    const who = await signupAndLogin(t, 'company');
    await add(who, nda);
    const a = await start(who);
    await add(who, nda); // the line becomes 2
    const b = await start(who);
    t.clock.advance(1000);
    expect((await verify(a, flw.pay(a.reference, a.amount))).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await verify(b, flw.pay(b.reference, b.amount))).statusCode).toBe(200);
    expect(await bought(who)).toEqual({ nda: 2 });
    expect(twice(b)[0]).toMatchObject({ refundDue: 25000 * 100 });
    await audit();
  });

  it('the same product bought again after a paid order is a new purchase', async () => {
    const who = await signupAndLogin(t, 'company');
    await add(who, nda);
    const a = await start(who);
    expect((await verify(a, flw.pay(a.reference, a.amount))).statusCode).toBe(200);
    await add(who, nda);
    const c = await start(who);
    t.clock.advance(1000);
    expect((await verify(c, flw.pay(c.reference, c.amount))).statusCode).toBe(200);
    expect(await bought(who)).toEqual({ nda: 2 });
    expect(twice(c)).toHaveLength(0);
    await audit();
  });

  it('A and B verified at once, by the browser, twice each and the background job: each line once', async () => {
    for (let round = 0; round < (kind === 'postgres' ? 6 : 3); round++) {
      const { who, a, b } = await replaced();
      const ids = [flw.pay(a.reference, a.amount), flw.pay(b.reference, b.amount)] as const;
      t.clock.advance(3 * 60_000);
      await Promise.all([
        verify(a, ids[0]),
        verify(b, ids[1]),
        verify(b),
        verify(a),
        reconcilePendingOrders(
          { config: t.config, db: t.rt.database.db, clock: t.clock, logger: jobLogger },
          { minAgeMs: 0 },
        ),
      ]);
      expect(await status(a)).toBe('paid');
      expect(await status(b)).toBe('paid');
      expect(await bought(who)).toEqual({ nda: 1, tm: 1 });
      expect(twice(a).length + twice(b).length).toBe(1);
    }
    await audit();
  });
});
