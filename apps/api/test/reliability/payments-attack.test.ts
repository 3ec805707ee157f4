import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import { cartItems, emailOutbox, jobs, orders } from '../../src/db/schema.js';
import { reconcilePendingOrders } from '../../src/features/checkout/reconciler.js';
import { describeEachDb, signupAndLogin } from '../helpers.js';
import { createLoggedTestApp, insertProduct } from '../commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn, SECRET_HASH } from '../flutterwave-standin.js';
import { inBatches, secondInstance, settled, until } from './helpers.js';

/**
 * Issue 8, item 5: payments under attack. payments.test.ts proves each webhook rule once; this file
 * throws a thousand forged deliveries at it, and races the genuine ones against each other, the
 * browser's confirmation and the background job (on PostgreSQL across two instances).
 */
type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type T = Awaited<ReturnType<typeof createLoggedTestApp>>;

const FORGED = 1000;

describeEachDb('payments under attack', (kind) => {
  const flw = flutterwaveStandIn();
  let t: T;
  /** The second backend on PostgreSQL; the same app on PGlite (one writer). */
  let other: { app: FastifyInstance; close(): Promise<void> } | null = null;
  let b: FastifyInstance;
  let nda: string;
  let tm: string;

  beforeAll(async () => {
    t = await createLoggedTestApp(kind, await listenStandIn(flw));
    if (kind === 'postgres') other = await secondInstance(t);
    b = other?.app ?? t.app;
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25000);
    tm = await insertProduct(t, 'Trademark Registration', 150000);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });

  const db = () => t.rt.database.db;
  /** Alternates between the two instances, like a round-robin load balancer. */
  const instance = (i: number) => (i % 2 ? b : t.app);
  const inject = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    who: Login | null,
    payload?: Record<string, unknown>,
    app = t.app,
  ) => app.inject({ method, url, headers: who?.headers ?? {}, payload });
  const fillCart = async (who: Login) => {
    await inject('POST', '/api/cart', who, { productId: nda, quantity: 2, detail: 'Mutual NDA' });
    t.clock.advance(1000);
    await inject('POST', '/api/cart', who, { productId: tm, quantity: 1 });
  };
  const start = async (who: Login) => {
    const res = await inject('POST', '/api/checkout', who);
    expect(res.statusCode).toBe(200);
    return res.json().data as { reference: string; amount: number; orderId: string };
  };
  const ready = async () => {
    const who = await signupAndLogin(t, 'company');
    await fillCart(who);
    return { who, ...(await start(who)) };
  };
  const chargeCompleted = (id: number | string, txRef: string, amount: number, status = 'successful') => ({
    event: 'charge.completed',
    data: { id, tx_ref: txRef, flw_ref: `FLW-MOCK-${id}`, amount, currency: 'NGN', charged_amount: amount, status },
  });
  const hmac = (raw: string, key = SECRET_HASH, enc: 'base64' | 'hex' = 'base64') =>
    createHmac('sha256', key).update(raw).digest(enc);
  const deliver = (raw: string, headers: Record<string, string>, app = t.app) =>
    app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', ...headers },
      payload: raw,
    });

  /**
   * Everything a webhook could change: orders, jobs, carts and mail. Each list in an order of its own
   * (D's two orders share a creation time): PostgreSQL answers an updated row after the others.
   */
  const snapshot = async (companyIds: string[]) => ({
    orders: await db()
      .select()
      .from(orders)
      .where(inArray(orders.companyId, companyIds))
      .orderBy(asc(orders.createdAt), asc(orders.id)),
    jobs: await db()
      .select({ id: jobs.id, orderId: jobs.orderId, lineNo: jobs.lineNo })
      .from(jobs)
      .orderBy(asc(jobs.id)),
    cart: await db()
      .select()
      .from(cartItems)
      .where(inArray(cartItems.companyId, companyIds))
      .orderBy(asc(cartItems.companyId), asc(cartItems.productId)),
    mail: (await db().select({ id: emailOutbox.id }).from(emailOutbox)).length,
  });
  const statusOf = async (orderId: string) =>
    (await db().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]?.status;

  it(`${FORGED} forged, mis-signed and replayed webhooks change nothing`, async () => {
    // A: pending, really paid at Flutterwave (a genuine webhook would fulfil it).
    const a = await ready();
    const paidA = flw.pay(a.reference, a.amount);
    // B: pending, its only payment failed.
    const bOrder = await ready();
    const failedB = flw.pay(bOrder.reference, bOrder.amount, { status: 'failed' });
    // C: already paid; its genuine webhook is captured for replay.
    const c = await ready();
    const paidC = flw.pay(c.reference, c.amount);
    expect(
      (await inject('POST', '/api/checkout/verify', c.who, { reference: c.reference, transactionId: paidC }))
        .statusCode,
    ).toBe(200);
    // D: paid for an old reference, then the cart changed and the order got a new reference.
    const d = await ready();
    const paidOldD = flw.pay(d.reference, d.amount);
    await inject('POST', '/api/cart', d.who, { productId: tm, quantity: 3 });
    const dNow = await start(d.who);
    expect(dNow.reference).not.toBe(d.reference);

    const genuineC = JSON.stringify(chargeCompleted(paidC, c.reference, c.amount));
    const genuineOldD = JSON.stringify(chargeCompleted(paidOldD, d.reference, d.amount));
    // Issue 14: the replaced order keeps its reference and lines, so its genuine payment pays it, with
    // exactly those lines, and leaves the new order pending; the barrage below replays that delivery.
    expect((await deliver(genuineOldD, { 'flutterwave-signature': hmac(genuineOldD) })).statusCode).toBe(200);
    await until(async () => (await statusOf(d.orderId)) === 'paid');
    await settled(() => flw.calls.length);
    const dOrders = await db()
      .select()
      .from(orders)
      .where(eq(orders.companyId, d.who.id))
      .orderBy(asc(orders.createdAt));
    expect(dOrders.map((o) => [o.txRef, o.status, o.amount]).sort()).toEqual(
      [
        [d.reference, 'paid', d.amount * 100],
        [dNow.reference, 'pending', dNow.amount * 100],
      ].sort(),
    );
    expect((await db().select().from(jobs).where(eq(jobs.orderId, d.orderId))).map((j) => j.quantity).sort()).toEqual([
      1, 2,
    ]);
    const bodyA = JSON.stringify(chargeCompleted(paidA, a.reference, a.amount));
    const rand = (n = 24) => randomBytes(n).toString('base64url');

    // Each generator answers [raw body, headers, expected status]. 401: refused at the door;
    // 200: authentic (or replayed) but must not change anything after re-verification.
    type Case = [string, Record<string, string>, 401 | 200, string];
    const generators: Array<(i: number) => Case> = [
      () => [bodyA, {}, 401, 'no signature'],
      () => [bodyA, { 'verif-hash': rand(SECRET_HASH.length) }, 401, 'random verif-hash'],
      (i) => {
        const near = [
          SECRET_HASH.toUpperCase(),
          `${SECRET_HASH} `,
          ` ${SECRET_HASH}`,
          SECRET_HASH.slice(0, -1),
          `${SECRET_HASH}4`,
          SECRET_HASH.replace('s', 'S'),
          '',
          hmac(bodyA),
        ][i % 8];
        return [bodyA, near === '' ? { 'verif-hash': '' } : { 'verif-hash': near }, 401, 'near-miss verif-hash'];
      },
      () => [bodyA, { 'flutterwave-signature': hmac(bodyA, `not-${SECRET_HASH}`) }, 401, 'HMAC with another key'],
      () => [bodyA, { 'flutterwave-signature': rand(32) }, 401, 'random signature'],
      (i) => [bodyA, { 'flutterwave-signature': hmac(bodyA).slice(0, 10 + (i % 30)) }, 401, 'truncated HMAC'],
      // A valid signature, but of another body: the body was swapped on the way.
      () => [bodyA, { 'flutterwave-signature': hmac(genuineC) }, 401, 'valid signature, wrong body'],
      (i) => {
        const tampered = JSON.stringify({ ...JSON.parse(genuineC), padding: i });
        return [tampered, { 'flutterwave-signature': hmac(genuineC, SECRET_HASH, 'hex') }, 401, 'signed body altered'];
      },
      () => [bodyA, { 'verif-hash': 'wrong', 'flutterwave-signature': 'wrong' }, 401, 'both headers wrong'],
      // Replays of genuine deliveries: accepted (they are authentic) and harmless.
      (i) => [
        genuineC,
        i % 2 ? { 'verif-hash': SECRET_HASH } : ({ 'flutterwave-signature': hmac(genuineC) } as Record<string, string>),
        200,
        'replayed webhook of a paid order',
      ],
      () => [
        genuineOldD,
        { 'flutterwave-signature': hmac(genuineOldD) },
        200,
        'replayed webhook of a superseded reference',
      ],
      // Authentic deliveries whose bodies lie: the server asks Flutterwave and believes only it.
      (i) => {
        const lies = [
          chargeCompleted(failedB, bOrder.reference, bOrder.amount), // says successful, was failed
          chargeCompleted(paidC, bOrder.reference, bOrder.amount), // C's payment claimed for B
          chargeCompleted(999_000 + i, bOrder.reference, bOrder.amount), // unknown transaction
          chargeCompleted(failedB, a.reference, a.amount * 10), // B's failed payment claimed for A
          { event: 'charge.completed', data: { tx_ref: `LM-${i}-forged`, status: 'successful' } },
          { event: 'charge.completed', data: null },
          [1, 2, 3],
        ];
        const raw = JSON.stringify(lies[i % lies.length]);
        return [raw, { 'flutterwave-signature': hmac(raw) }, 200, 'authentic signature, lying body'];
      },
      () => ['{"event": "charge.completed", "data": {', { 'verif-hash': SECRET_HASH }, 200, 'broken JSON'],
    ];
    const cases: Case[] = Array.from({ length: FORGED }, (_, i) => generators[i % generators.length](i));
    const companies = [a.who.id, bOrder.who.id, c.who.id, d.who.id];
    const before = await snapshot(companies);
    const refusedBefore = t.security.of('webhook_bad_signature').length;

    const answers = await inBatches(
      cases.map(
        ([raw, headers], i) =>
          () =>
            deliver(raw, headers, instance(i)),
      ),
      50,
    );
    const tally = new Map<string, { sent: number; expected: number; got: Record<number, number> }>();
    answers.forEach((res, i) => {
      const [, , expected, label] = cases[i];
      const row = tally.get(label) ?? { sent: 0, expected, got: {} };
      row.sent++;
      row.got[res.statusCode] = (row.got[res.statusCode] ?? 0) + 1;
      tally.set(label, row);
    });
    for (const [label, row] of tally)
      expect({ label, got: row.got }).toEqual({ label, got: { [row.expected]: row.sent } });
    const refused = cases.filter((x) => x[2] === 401).length;
    // Only the instance `t` logs into t.security; on PostgreSQL half went to the other instance.
    expect(t.security.of('webhook_bad_signature').length - refusedBefore).toBe(
      other ? cases.filter((x, i) => x[2] === 401 && i % 2 === 0).length : refused,
    );

    // Authentic deliveries are processed after the answer: wait until the stand-in stops being asked.
    await settled(() => flw.calls.length);
    const after = await snapshot(companies);
    expect(after).toEqual(before);
    expect(after.orders.find((o) => o.companyId === a.who.id)?.status).toBe('pending');

    // The door still opens for the real thing: A's genuine webhook fulfils A.
    expect((await deliver(bodyA, { 'flutterwave-signature': hmac(bodyA) })).statusCode).toBe(200);
    await until(async () => (await statusOf(a.orderId)) === 'paid');
    await settled(async () => (await db().select().from(jobs).where(eq(jobs.orderId, a.orderId))).length);
    expect(await db().select().from(jobs).where(eq(jobs.orderId, a.orderId))).toHaveLength(2);
    console.info(
      `[payments-attack ${kind}] ${FORGED} forged deliveries: ${refused} refused with 401, ${FORGED - refused} authentic but harmless; ${tally.size} kinds`,
    );
  }, 120_000);

  it('the same genuine webhook 50 times at once, with the browser confirmation and the background job, fulfils once', async () => {
    const c = await ready();
    const id = flw.pay(c.reference, c.amount);
    const raw = JSON.stringify(chargeCompleted(id, c.reference, c.amount));
    const sig = hmac(raw);
    const deliveries = Array.from({ length: 50 }, (_, i) =>
      deliver(raw, i % 2 ? { 'verif-hash': SECRET_HASH } : { 'flutterwave-signature': sig }, instance(i)),
    );
    t.clock.advance(5 * 60_000); // old enough for the background job
    const [answers, browser, browser2, reconciled] = await Promise.all([
      Promise.all(deliveries),
      inject('POST', '/api/checkout/verify', c.who, { reference: c.reference, transactionId: id }),
      inject('POST', '/api/checkout/verify', c.who, { reference: c.reference }, b),
      reconcilePendingOrders({
        config: t.config,
        db: db(),
        clock: t.clock,
        logger: { info() {}, warn() {}, error() {} },
      }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect([browser.statusCode, browser2.statusCode]).toEqual([200, 200]);
    expect(reconciled.expired).toBe(0);
    await settled(() => flw.calls.length);

    const mine = await db().select().from(orders).where(eq(orders.companyId, c.who.id));
    expect(mine.map((o) => o.status)).toEqual(['paid']);
    const [order] = mine;
    expect(order.providerTransactionId).toBe(String(id));
    const made = await db().select().from(jobs).where(eq(jobs.companyId, c.who.id)).orderBy(asc(jobs.lineNo));
    expect(made.map((j) => [j.orderId, j.lineNo, j.quantity])).toEqual([
      [order.id, 1, 2],
      [order.id, 2, 1],
    ]);
    // All of them came from one transaction.
    expect(new Set(made.map((j) => j.createdAt.getTime())).size).toBe(1);
    expect(await db().select().from(cartItems).where(eq(cartItems.companyId, c.who.id))).toHaveLength(0);

    // Later deliveries change nothing either (paidAt and the jobs stay as they are).
    t.clock.advance(60_000);
    await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(raw, { 'verif-hash': SECRET_HASH }, instance(i))));
    await settled(() => flw.calls.length);
    const [again] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(again.paidAt).toEqual(order.paidAt);
    expect(again.updatedAt).toEqual(order.updatedAt);
    expect(await db().select().from(jobs).where(eq(jobs.companyId, c.who.id))).toHaveLength(2);
  }, 60_000);

  it('concurrent checkout starts for one cart, on both instances, make one pending order', async () => {
    const who = await signupAndLogin(t, 'company');
    await fillCart(who);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => inject('POST', '/api/checkout', who, undefined, instance(i))),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
    expect(new Set(answers.map((r) => r.json().data.reference)).size).toBe(1);
    const pending = () =>
      db()
        .select()
        .from(orders)
        .where(eq(orders.companyId, who.id))
        .then((rows) => rows.filter((o) => o.status === 'pending'));
    expect(await pending()).toHaveLength(1);

    // Starts racing with cart changes: still one pending order, and the last start matches the cart.
    const mixed = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        // A product added again adds to its line (decision 1800): additions alternate with removals.
        i % 8 === 0
          ? inject('POST', '/api/cart', who, { productId: tm, quantity: 1 }, instance(i))
          : i % 8 === 4
            ? inject('DELETE', `/api/cart/${tm}`, who, undefined, instance(i))
            : inject('POST', '/api/checkout', who, undefined, instance(i)),
      ),
    );
    expect(mixed.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    expect(await pending()).toHaveLength(1);
    const final = await start(who);
    const cart = (await inject('GET', '/api/cart', who)).json()[0] as { bill: number };
    expect(final.amount).toBe(cart.bill);
    const [row] = await pending();
    expect(row.txRef).toBe(final.reference);

    // Starts racing with the payment: the order is fulfilled once and no second pending order appears.
    const id = flw.pay(final.reference, final.amount);
    const race = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? inject('POST', '/api/checkout/verify', who, { reference: final.reference, transactionId: id }, instance(i))
          : inject('POST', '/api/checkout', who, undefined, instance(i)),
      ),
    );
    // A start before the payment answers the same pending order; after it, the cart is empty (404).
    for (const [i, r] of race.entries()) expect(i % 3 === 0 ? [200] : [200, 404]).toContain(r.statusCode);
    expect(await pending()).toHaveLength(0);
    // Starts after a cart change set earlier orders aside as `replaced` (issue 14); one order is paid.
    const all = await db().select().from(orders).where(eq(orders.companyId, who.id));
    const paid = all.filter((o) => o.status === 'paid');
    expect(paid.map((o) => o.txRef)).toEqual([final.reference]);
    expect(all.every((o) => o.status === 'paid' || o.status === 'replaced')).toBe(true);
    expect(await db().select().from(jobs).where(eq(jobs.orderId, paid[0].id))).toHaveLength(2);
  }, 60_000);
});
