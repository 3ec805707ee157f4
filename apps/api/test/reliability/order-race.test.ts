import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { SANDBOX_CARDS } from '@legalmarket/contracts';
import { jobs, orders } from '../../src/db/schema.js';
import { reconcilePendingOrders } from '../../src/features/checkout/reconciler.js';
import type { OrderLine } from '../../src/features/checkout/service.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { insertProduct } from '../commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn, SECRET_HASH } from '../flutterwave-standin.js';
import { secondInstance, settled } from './helpers.js';

/**
 * Issue 14, item 1: a cheap payment must never pay for a dear order. The outside test paid a
 * ₦25,000 order, filled the cart with a dear product and sent the confirmation and a new checkout
 * within a millisecond: the checkout rewrote the row between the unlocked verification and the
 * fulfilment, and the rewritten order was marked paid. These tests race every way an order gets
 * settled (browser, webhook, background job) against every way a cart and a checkout change it, and
 * check after each: every paid order's reference, amount and currency are its provider transaction's,
 * every job is a line of a paid order, and every payment that was made paid its own order.
 */
type Login = Awaited<ReturnType<typeof signupAndLogin>>;

const COMPANIES = 8;
const ROUNDS = 25; // 8 × 25 = 200 interleavings per database
const CHEAP = 25_000;
const DEAR = 150_000;

const pause = (ms: number) => (ms ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

describeEachDb('an order is paid only by a payment of that order', (kind) => {
  const flw = flutterwaveStandIn();
  let t: TestApp;
  let other: { app: FastifyInstance; close(): Promise<void> } | null = null;
  let cheap: string;
  let dear: string;

  beforeAll(async () => {
    t = await createTestApp(kind, await listenStandIn(flw));
    if (kind === 'postgres') other = await secondInstance(t);
    cheap = await insertProduct(t, 'Non-Disclosure Agreement', CHEAP);
    dear = await insertProduct(t, 'Trademark Registration', DEAR);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });

  const db = () => t.rt.database.db;
  /** Two backends on PostgreSQL, like a load balancer; one app on PGlite. */
  const instance = (i: number) => (other && i % 2 ? other.app : t.app);
  const inject = (i: number, method: string, url: string, who: Login, payload?: object) =>
    instance(i).inject({ method: method as 'POST', url, headers: who.headers, payload });
  const start = async (i: number, who: Login) => {
    const res = await inject(i, 'POST', '/api/checkout', who);
    expect(res.statusCode).toBe(200);
    return res.json().data as { reference: string; amount: number; orderId: string };
  };
  const webhook = (i: number, id: number, txRef: string, amount: number) => {
    const raw = JSON.stringify({
      event: 'charge.completed',
      data: { id, tx_ref: txRef, amount, currency: 'NGN', charged_amount: amount, status: 'successful' },
    });
    const signature = createHmac('sha256', SECRET_HASH).update(raw).digest('base64');
    return instance(i).inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'flutterwave-signature': signature },
      payload: raw,
    });
  };
  const reconcile = (limit = 100) =>
    reconcilePendingOrders(
      { config: t.config, db: db(), clock: t.clock, logger: { info() {}, warn() {}, error() {} } },
      { minAgeMs: 0, limit },
    );

  const paidStatus = async (txRef: string) =>
    (await db().select({ status: orders.status }).from(orders).where(eq(orders.txRef, txRef)))[0]?.status;

  /** The invariants, over every order and job of these companies. */
  async function checkInvariants(companyIds: string[], payments: Map<string, { id: number; amount: number }>) {
    const all = await db().select().from(orders).where(inArray(orders.companyId, companyIds));
    const paid = all.filter((o) => o.status === 'paid');
    for (const o of paid) {
      const payment = payments.get(o.txRef);
      expect(payment, `paid order ${o.id} (₦${o.amount / 100}) has a payment of its reference`).toBeDefined();
      expect({ id: o.providerTransactionId, amount: o.amount, currency: o.currency }).toEqual({
        id: String(payment!.id),
        amount: payment!.amount * 100,
        currency: 'NGN',
      });
    }
    // Every payment made paid its own order: nothing taken without the service bought.
    const byRef = new Map(all.map((o) => [o.txRef, o]));
    for (const [ref] of payments) expect(byRef.get(ref)?.status, `order of ${ref}`).toBe('paid');
    const made = await db().select().from(jobs).where(inArray(jobs.companyId, companyIds));
    const paidById = new Map(paid.map((o) => [o.id, o]));
    for (const j of made) {
      const o = paidById.get(j.orderId);
      expect(o, `job ${j.id} belongs to a paid order`).toBeDefined();
      const line = (o!.lines as OrderLine[]).find((l) => l.lineNo === j.lineNo);
      expect(line && { productId: line.productId, quantity: line.quantity, amount: line.amount }).toEqual({
        productId: j.productId,
        quantity: j.quantity,
        amount: j.amount,
      });
    }
    const lines = paid.reduce((n, o) => n + (o.lines as OrderLine[]).length, 0);
    expect(made).toHaveLength(lines);
    return { paid: paid.length, jobs: made.length };
  }

  it(`${COMPANIES * ROUNDS} interleavings of verification, webhook and background job with checkout and cart changes`, async () => {
    const companies = await Promise.all(Array.from({ length: COMPANIES }, () => signupAndLogin(t, 'company')));
    const payments = new Map<string, { id: number; amount: number }>();
    const tally: Record<string, number> = {};

    // What settles R1 while the cart and the checkout change under it.
    const settles: Array<(i: number, who: Login, ref: string, id: number, amount: number) => Promise<unknown>> = [
      (i, who, ref, id) =>
        inject(i, 'POST', '/api/checkout/verify', who, { reference: ref, transactionId: String(id) }),
      (i, who, ref) => inject(i, 'POST', '/api/checkout/verify', who, { reference: ref }),
      (i, _who, ref, id, amount) => webhook(i, id, ref, amount),
      () => {
        t.clock.advance(1); // the job takes orders last changed before now
        return reconcile(10);
      },
    ];
    const changes: Array<(i: number, who: Login) => Promise<unknown>> = [
      (i, who) => inject(i, 'POST', '/api/checkout', who),
      (i, who) =>
        inject(i, 'POST', '/api/cart', who, { productId: dear, quantity: 3 }).then(() =>
          inject(i, 'POST', '/api/checkout', who),
        ),
      (i, who) => inject(i, 'DELETE', `/api/cart/${cheap}`, who).then(() => inject(i, 'POST', '/api/checkout', who)),
      (i, who) => Promise.all([inject(i, 'POST', '/api/checkout', who), inject(i + 1, 'POST', '/api/checkout', who)]),
    ];

    await Promise.all(
      companies.map(async (who, c) => {
        for (let r = 0; r < ROUNDS; r++) {
          const i = c * ROUNDS + r;
          await inject(i, 'POST', '/api/clear-cart', who);
          // A brief of its own per round: a late fulfilment of an earlier round must leave this line alone.
          await inject(i, 'POST', '/api/cart', who, { productId: cheap, quantity: 1, detail: `Round ${r}` });
          const r1 = await start(i, who);
          expect(r1.amount).toBe(CHEAP);
          const id = flw.pay(r1.reference, r1.amount);
          payments.set(r1.reference, { id, amount: r1.amount });
          await inject(i, 'POST', '/api/cart', who, { productId: dear, quantity: 10 });
          const s = i % settles.length;
          const ch = Math.floor(i / settles.length) % changes.length;
          // Vary which side goes first by a millisecond or two, as clients on a network would.
          const lead = i % 3;
          await Promise.all([
            pause(lead === 1 ? 1 : 0).then(() => settles[s](i, who, r1.reference, id, r1.amount)),
            pause(lead === 2 ? 1 : 0).then(() => changes[ch](i, who)),
          ]);
          tally[`${s}:${ch}`] = (tally[`${s}:${ch}`] ?? 0) + 1;
          // A webhook is processed after its answer; let it finish before this company's next round.
          if (s === 2) await settled(() => paidStatus(r1.reference), 50, 10_000);
        }
      }),
    );
    await settled(() => flw.calls.length);
    // Nothing lost: the background job's passes settle whatever the race left unsettled.
    for (let pass = 0; pass < 20; pass++) {
      t.clock.advance(1000);
      if ((await reconcile()).checked < 100) break;
    }
    const seen = await checkInvariants(
      companies.map((c) => c.id),
      payments,
    );
    expect(seen.paid).toBe(COMPANIES * ROUNDS);
    expect(Object.keys(tally)).toHaveLength(settles.length * changes.length);
    // No order that holds the dear product was paid: none was ever charged.
    const dearPaid = (await db().select().from(orders).where(eq(orders.status, 'paid'))).filter((o) =>
      (o.lines as OrderLine[]).some((l) => l.productId === dear),
    );
    expect(dearPaid).toHaveLength(0);
    console.info(`[order-race ${kind}] ${COMPANIES * ROUNDS} interleavings: ${seen.paid} paid, ${seen.jobs} jobs`);
  }, 240_000);

  it('the outside test’s repro in the sandbox: a confirmation and a new checkout within a millisecond', async () => {
    // The sandbox provider, as the outside test used it (a separate app on the same database kind).
    const s = await createTestApp(kind);
    try {
      const sCheap = await insertProduct(s, 'Employment Contract', CHEAP);
      const sDear = await insertProduct(s, 'Shareholders Agreement', DEAR);
      const who = await signupAndLogin(s, 'company');
      const call = (method: string, url: string, payload?: object) =>
        s.app.inject({ method: method as 'POST', url, headers: who.headers, payload });
      const charged = new Map<string, { id: number; amount: number }>();
      for (let n = 0; n < 24; n++) {
        await call('POST', '/api/clear-cart');
        await call('POST', '/api/cart', { productId: sCheap, quantity: 1 });
        const r1 = (await call('POST', '/api/checkout')).json().data as { reference: string; amount: number };
        const pay = await call('POST', '/api/checkout/sandbox/charge', {
          reference: r1.reference,
          amount: r1.amount,
          currency: 'NGN',
          paymentType: 'card',
          cardNumber: SANDBOX_CARDS.success.number,
          pin: SANDBOX_CARDS.success.pin,
          otp: SANDBOX_CARDS.success.otp,
        });
        const transactionId = (pay.json().data as { transaction_id: string }).transaction_id;
        charged.set(r1.reference, { id: Number(transactionId), amount: r1.amount });
        await call('POST', '/api/cart', { productId: sDear, quantity: 10 });
        const [verified] = await Promise.all([
          call('POST', '/api/checkout/verify', { reference: r1.reference, transactionId }),
          call('POST', '/api/checkout'),
        ]);
        expect(verified.statusCode).toBe(200);
      }
      const mine = await s.rt.database.db.select().from(orders).where(eq(orders.companyId, who.id));
      const paid = mine.filter((o) => o.status === 'paid');
      expect(paid).toHaveLength(24);
      for (const o of paid) {
        expect(o.amount).toBe(CHEAP * 100);
        expect(String(charged.get(o.txRef)?.id)).toBe(o.providerTransactionId);
        expect((o.lines as OrderLine[]).map((l) => [l.productId, l.quantity])).toEqual([[sCheap, 1]]);
      }
      const made = await s.rt.database.db.select().from(jobs).where(eq(jobs.companyId, who.id));
      expect(made.map((j) => j.productId)).toEqual(Array(24).fill(sCheap));
    } finally {
      await s.close();
    }
  }, 120_000);

  it('the database refuses to change what a payment was checked against, and to unpay a paid order', async () => {
    const who = await signupAndLogin(t, 'company');
    await inject(0, 'POST', '/api/cart', who, { productId: cheap, quantity: 1 });
    const r = await start(0, who);
    const attempt = (set: Partial<typeof orders.$inferInsert>) =>
      db()
        .update(orders)
        .set(set)
        .where(eq(orders.id, r.orderId))
        .then(
          () => 'changed',
          () => 'refused',
        );
    expect(await attempt({ amount: 1 })).toBe('refused');
    expect(await attempt({ txRef: 'LM-forged' })).toBe('refused');
    expect(await attempt({ lines: [] })).toBe('refused');
    expect(await attempt({ status: 'bogus' as 'paid' })).toBe('refused');
    const id = flw.pay(r.reference, r.amount);
    const ok = await inject(0, 'POST', '/api/checkout/verify', who, {
      reference: r.reference,
      transactionId: String(id),
    });
    expect(ok.statusCode).toBe(200);
    expect(await attempt({ status: 'pending' })).toBe('refused');
    expect(await attempt({ updatedAt: new Date() })).toBe('changed');
  });
});
