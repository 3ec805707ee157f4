import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { jobs, orders, products } from '../../db/schema.js';
import { PASSWORD, describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import { SECRET_HASH, flutterwaveStandIn, listenStandIn } from '../../../test/flutterwave-standin.js';
import { createLedger } from '../money/ledger.js';
import { reconcilePendingOrders } from './reconciler.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

const HOUR = 3600_000;
const COMPANIES = 8;
const CHEAP = 25_000;
const DEAR = 150_000;

/**
 * Decision 2237: an order freezes the day's prices, so a payment of its reference made two days after it
 * was started (the order long expired or set aside, the catalogue price raised since, or a plan's
 * discount gone) buys nothing, however it is verified; a payment made in time and verified late (a lost
 * webhook, a transfer pending for days) still pays it, once.
 */
describeEachDb('payments of orders closed long ago', (kind) => {
  let t: Awaited<ReturnType<typeof createLoggedTestApp>>;
  const flw = flutterwaveStandIn({ now: () => t.clock.now() });
  let product: string;

  beforeAll(async () => {
    t = await createLoggedTestApp(kind, await listenStandIn(flw));
    product = await insertProduct(t, 'Employment Contract', CHEAP);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });

  const db = () => t.rt.database.db;
  const inject = (method: 'POST' | 'GET', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });
  /** Sessions last 12 hours: signed in again after the clock moved on. */
  const again = async (who: Login): Promise<Login> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    return { ...who, headers: { authorization: `Bearer ${(res.json() as { token: string }).token}` } };
  };
  const start = async (who: Login) => {
    const res = await inject('POST', '/api/checkout', who);
    expect(res.statusCode).toBe(200);
    return res.json().data as { reference: string; amount: number; orderId: string };
  };
  const webhook = (id: number, txRef: string, amount: number) => {
    const raw = JSON.stringify({
      event: 'charge.completed',
      data: { id, tx_ref: txRef, amount, currency: 'NGN', charged_amount: amount, status: 'successful' },
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: {
        'content-type': 'application/json',
        'flutterwave-signature': createHmac('sha256', SECRET_HASH).update(raw).digest('base64'),
      },
      payload: raw,
    });
  };
  const reconcile = () =>
    reconcilePendingOrders(
      { config: t.config, db: db(), clock: t.clock, logger: { info() {}, warn() {}, error() {} } },
      { minAgeMs: 0 },
    );
  const orderOf = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0];

  it('a reference paid two days on buys nothing at its old price by verify, webhook or the background job; one paid in time still pays', async () => {
    const companies = await Promise.all(Array.from({ length: COMPANIES }, () => signupAndLogin(t, 'company')));
    const startedAt = t.clock.now().getTime();
    const started = await Promise.all(
      companies.map(async (who, i) => {
        await inject('POST', '/api/cart', who, { productId: product, quantity: 2, detail: `Brief ${i}` });
        return start(who);
      }),
    );
    // Half left pending (the background job was not running), half expired by it.
    await db()
      .update(orders)
      .set({ status: 'expired' })
      .where(
        inArray(
          orders.id,
          started.filter((_, i) => i % 2).map((o) => o.orderId),
        ),
      );
    // The catalogue price goes up; two days and a minute after the orders were started...
    await db()
      .update(products)
      .set({ productPrice: DEAR * 100 })
      .where(eq(products.id, product));
    t.clock.advance(48 * HOUR + 60_000);
    const logins = await Promise.all(companies.map(again));
    // ...every other company pays its old reference now; the others paid within the hour and every
    // answer and webhook of it was lost.
    const late = (i: number) => i % 4 < 2;
    const paid = started.map((o, i) =>
      flw.pay(o.reference, o.amount, late(i) ? {} : { createdAt: new Date(startedAt + HOUR) }),
    );
    const answers = await Promise.all(
      started.flatMap((o, i) => [
        inject('POST', '/api/checkout/verify', logins[i], { reference: o.reference, transactionId: String(paid[i]) }),
        inject('POST', '/api/checkout/verify', logins[i], { reference: o.reference }),
        webhook(paid[i], o.reference, o.amount),
        reconcile(),
      ]),
    );
    // Let the webhooks' work (after their 200) finish.
    await reconcile();
    for (const [i, o] of started.entries()) {
      const row = await orderOf(o.orderId);
      const opened = await db().select().from(jobs).where(eq(jobs.orderId, o.orderId));
      const verified = answers.slice(i * 4, i * 4 + 2).map((r) => ('statusCode' in r ? r.statusCode : null));
      if (late(i)) {
        expect({ status: row.status, jobs: opened.length }, `late ${o.reference}`).toEqual({
          // The background job closes the pending ones it found refused.
          status: 'expired',
          jobs: 0,
        });
        expect(verified).toEqual([400, 400]);
        expect(t.security.of('payment_for_closed_order').some((e) => e.reference === o.reference)).toBe(true);
      } else {
        expect({ status: row.status, jobs: opened.length, by: row.providerTransactionId }).toEqual({
          status: 'paid',
          jobs: 1,
          by: String(paid[i]),
        });
        expect(verified).toEqual([200, 200]);
      }
    }
    expect(await createLedger({ db: db(), clock: t.clock }).audit()).toEqual([]);
  }, 120_000);

  it('a checkout start hands out a pending order only while it is open: a day on, the cart gets today’s price', async () => {
    const who = await signupAndLogin(t, 'company');
    await db()
      .update(products)
      .set({ productPrice: CHEAP * 100 })
      .where(eq(products.id, product));
    await inject('POST', '/api/cart', who, { productId: product, quantity: 1 });
    const first = await start(who);
    expect((await start(who)).reference).toBe(first.reference);
    await db()
      .update(products)
      .set({ productPrice: DEAR * 100 })
      .where(eq(products.id, product));
    // The price went up and the cart reads it, so an order started now says so at once.
    const dear = await start(who);
    expect(dear.amount).toBe(DEAR);
    // Unchanged a day on (the background job not running): set aside, and a fresh order in its place.
    t.clock.advance(24 * HOUR + 60_000);
    const later = await again(who);
    const fresh = await start(later);
    expect(fresh.reference).not.toBe(dear.reference);
    expect(fresh.amount).toBe(DEAR);
    expect((await orderOf(dear.orderId)).status).toBe('expired');
  });

  it('a payment whose provider gives no time is taken as made when verified: in time it pays, two days on it does not', async () => {
    const [inTime, late] = await Promise.all([signupAndLogin(t, 'company'), signupAndLogin(t, 'company')]);
    await db()
      .update(products)
      .set({ productPrice: CHEAP * 100 })
      .where(eq(products.id, product));
    for (const who of [inTime, late]) await inject('POST', '/api/cart', who, { productId: product, quantity: 1 });
    const [a, b] = [await start(inTime), await start(late)];
    const paidInTime = flw.pay(a.reference, a.amount, { createdAt: null });
    const ok = await inject('POST', '/api/checkout/verify', inTime, {
      reference: a.reference,
      transactionId: String(paidInTime),
    });
    expect(ok.statusCode).toBe(200);
    expect((await orderOf(a.orderId)).status).toBe('paid');

    t.clock.advance(48 * HOUR + 60_000);
    const lateLogin = await again(late);
    const paidLate = flw.pay(b.reference, b.amount, { createdAt: null });
    const refused = await inject('POST', '/api/checkout/verify', lateLogin, {
      reference: b.reference,
      transactionId: String(paidLate),
    });
    expect(refused.statusCode).toBe(400);
    expect((await orderOf(b.orderId)).status).not.toBe('paid');
    expect(await db().select().from(jobs).where(eq(jobs.orderId, b.orderId))).toEqual([]);
    expect(t.security.of('payment_for_closed_order').some((e) => e.reference === b.reference)).toBe(true);
  });
});
