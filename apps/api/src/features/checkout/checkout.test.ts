import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEFAULT_PRODUCT_TITLE, SANDBOX_CARDS, messages } from '@legalmarket/contracts';
import { jobs, orders, products } from '../../db/schema.js';
import { reconcilePendingOrders } from './reconciler.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { SUCCESS_CARD, createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import { uploadDocument } from '../../../test/upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type T = Awaited<ReturnType<typeof createLoggedTestApp>>;

const DECLINED_CARD = { paymentType: 'card', cardNumber: '5258 5859 2266 6506' };

describeEachDb('checkout with the sandbox provider', (kind) => {
  let t: T;
  let nda: string;
  let tm: string;

  beforeAll(async () => {
    t = await createLoggedTestApp(kind);
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25000);
    tm = await insertProduct(t, 'Trademark Registration', 150000);
  });
  afterAll(async () => t?.close());

  const inject = (method: 'GET' | 'POST', url: string, who: Login | null, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload });
  /** The document each company attached in fillCart (a cart line names only its company's uploads). */
  const briefs = new Map<string, string>();
  const fillCart = async (who: Login) => {
    const brief = (await uploadDocument(t.app, who.headers)).url;
    briefs.set(who.id, brief);
    await inject('POST', '/api/cart', who, {
      productId: nda,
      quantity: 2,
      detail: 'Mutual NDA',
      file: brief,
      fileName: 'brief.pdf',
    });
    t.clock.advance(1000); // lines are ordered by when they were added
    await inject('POST', '/api/cart', who, { productId: tm, quantity: 1, detail: 'Word mark' });
  };
  const start = async (who: Login) => {
    const res = await inject('POST', '/api/checkout', who);
    expect(res.statusCode).toBe(200);
    return res.json().data as { reference: string; amount: number; orderId: string };
  };
  const charge = async (
    who: Login,
    reference: string,
    amount: number,
    extra: Record<string, unknown>,
    currency = 'NGN',
  ) => {
    const res = await inject('POST', '/api/checkout/sandbox/charge', who, { reference, amount, currency, ...extra });
    expect(res.statusCode).toBe(200);
    return res.json().data as { status: string; transaction_id: string };
  };
  const verify = (who: Login, reference: string, transactionId?: string) =>
    inject('POST', '/api/checkout/verify', who, { reference, transactionId });
  const jobsOf = (orderId: string) => t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, orderId));
  const pendingOrders = (companyId: string) =>
    t.rt.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.companyId, companyId), eq(orders.status, 'pending')));

  it('answers what the payment dialog needs, with the amount from the catalogue', async () => {
    const a = await signupAndLogin(t, 'company');
    expect((await inject('POST', '/api/checkout', a)).statusCode).toBe(404);
    await fillCart(a);
    const res = await inject('POST', '/api/checkout', a);
    expect(res.json()).toMatchObject({
      status: 'success',
      data: {
        amount: 200000,
        currency: 'NGN',
        title: 'Non-Disclosure Agreement and 1 more',
        paymentOptions: 'card,mobilemoney,ussd,banktransfer',
        customer: { email: a.email, phone: '08012345678', name: expect.any(String) },
        provider: { name: 'sandbox', testMode: true },
      },
    });
    expect(res.json().data.reference).toMatch(/^LM-\d{13}-/);
  });

  it('shares one pending order between concurrent starts and refreshes it when the cart changes', async () => {
    const a = await signupAndLogin(t, 'company');
    await fillCart(a);
    const answers = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/api/checkout', a)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const refs = new Set(answers.map((r) => r.json().data.reference));
    expect(refs.size).toBe(1);
    expect(await pendingOrders(a.id)).toHaveLength(1);

    // Adds to the line of 1 (decision 1800): 3 in all.
    await inject('POST', '/api/cart', a, { productId: tm, quantity: 2 });
    const changed = await start(a);
    expect(refs.has(changed.reference)).toBe(false);
    expect(changed.amount).toBe(50000 + 450000);
    const [row] = await pendingOrders(a.id);
    expect(row.amount).toBe(500000 * 100);
    expect((row.lines as Array<{ quantity: number }>).map((l) => l.quantity)).toEqual([2, 3]);
    expect(await pendingOrders(a.id)).toHaveLength(1);
  });

  it('uses "Default Product Name" when the first product has no name', async () => {
    const a = await signupAndLogin(t, 'company');
    const nameless = await insertProduct(t, ' ', 1000);
    await inject('POST', '/api/cart', a, { productId: nameless, quantity: 1 });
    const res = await inject('POST', '/api/checkout', a);
    expect(res.json().data.title).toBe(DEFAULT_PRODUCT_TITLE);
    await t.rt.database.db.update(products).set({ deletedAt: new Date() }).where(eq(products.id, nameless));
  });

  it('pays with the success test card: order paid, one job per line, cart emptied', async () => {
    const a = await signupAndLogin(t, 'company');
    await fillCart(a);
    const c = await start(a);
    const tx = await charge(a, c.reference, c.amount, SUCCESS_CARD);
    expect(tx.status).toBe('successful');
    const res = await verify(a, c.reference, tx.transaction_id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'success',
      message: messages.paymentSuccessful,
      data: { order: { status: 'paid', amount: 200000, reference: c.reference } },
    });
    const made = await jobsOf(c.orderId);
    expect(made).toHaveLength(2);
    const byProduct = Object.fromEntries(made.map((j) => [j.productId, j]));
    expect(byProduct[nda]).toMatchObject({
      status: 'unassigned',
      quantity: 2,
      amount: 5000000,
      detail: 'Mutual NDA',
      companyFile: briefs.get(a.id),
      companyFileName: 'brief.pdf',
      companyId: a.id,
    });
    expect(byProduct[tm]).toMatchObject({ status: 'unassigned', quantity: 1, amount: 15000000, detail: 'Word mark' });
    expect((await inject('GET', '/api/cart', a)).statusCode).toBe(404);
    // Repeating the confirmation is harmless.
    expect((await verify(a, c.reference, tx.transaction_id)).statusCode).toBe(200);
    expect(await jobsOf(c.orderId)).toHaveLength(2);
    const list = (await inject('GET', '/api/orders', a)).json().data;
    expect(list).toEqual([
      expect.objectContaining({
        reference: c.reference,
        status: 'paid',
        amount: 200000,
        createdAt: expect.any(String),
      }),
    ]);
  });

  it('a declined card leaves the cart and the order as they were', async () => {
    const a = await signupAndLogin(t, 'company');
    await fillCart(a);
    const c = await start(a);
    const tx = await charge(a, c.reference, c.amount, DECLINED_CARD);
    expect(tx.status).toBe('failed');
    const res = await verify(a, c.reference, tx.transaction_id);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.paymentFailed);
    expect(await jobsOf(c.orderId)).toHaveLength(0);
    const cart = (await inject('GET', '/api/cart', a)).json();
    expect(cart[0].products).toHaveLength(2);
    expect(cart[0].bill).toBe(200000);
    expect(await pendingOrders(a.id)).toHaveLength(1);
    // Wrong PIN is refused before anything is recorded.
    const wrongPin = await inject('POST', '/api/checkout/sandbox/charge', a, {
      reference: c.reference,
      amount: c.amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
      pin: '0000',
    });
    expect(wrongPin.statusCode).toBe(400);
    // Flutterwave's published decline cards fail with the reason the dialog shows.
    for (const [number, reason] of [
      [SANDBOX_CARDS.insufficientFunds.number, 'Insufficient Funds'],
      [SANDBOX_CARDS.incorrectPin.number, 'Incorrect PIN'],
    ]) {
      const declined = await inject('POST', '/api/checkout/sandbox/charge', a, {
        reference: c.reference,
        amount: c.amount,
        currency: 'NGN',
        paymentType: 'card',
        cardNumber: number,
        pin: '3310',
        otp: '12345',
      });
      expect(declined.json().data).toMatchObject({ status: 'failed', processor_response: reason });
      expect((await verify(a, c.reference, declined.json().data.transaction_id)).statusCode).toBe(400);
    }
    expect(await jobsOf(c.orderId)).toHaveLength(0);
  });

  it('refuses and logs a lower amount, another currency and a reference from another order', async () => {
    const a = await signupAndLogin(t, 'company');
    const b = await signupAndLogin(t, 'company');
    await fillCart(a);
    await fillCart(b);
    const ca = await start(a);
    const cb = await start(b);

    const low = await charge(a, ca.reference, ca.amount - 1, SUCCESS_CARD);
    const r1 = await verify(a, ca.reference, low.transaction_id);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().message).toBe(messages.paymentFailed);
    expect(t.security.of('payment_amount_too_low').at(-1)).toMatchObject({ orderId: ca.orderId });

    const usd = await charge(a, ca.reference, ca.amount, SUCCESS_CARD, 'USD');
    expect((await verify(a, ca.reference, usd.transaction_id)).statusCode).toBe(400);
    expect(t.security.of('payment_currency_mismatch').at(-1)).toMatchObject({ orderId: ca.orderId });

    // B pays its own order, then A tries to use B's successful transaction for A's order.
    const bPaid = await charge(b, cb.reference, cb.amount, SUCCESS_CARD);
    const r3 = await verify(a, ca.reference, bPaid.transaction_id);
    expect(r3.statusCode).toBe(400);
    expect(t.security.of('payment_reference_mismatch').at(-1)).toMatchObject({ orderId: ca.orderId });

    // A cannot confirm B's order at all.
    const r4 = await verify(a, cb.reference, bPaid.transaction_id);
    expect(r4.statusCode).toBe(403);
    expect(t.security.of('payment_other_company').at(-1)).toMatchObject({ actor: a.id, orderId: cb.orderId });
    expect(
      (
        await inject('POST', '/api/checkout/sandbox/charge', a, {
          reference: cb.reference,
          amount: 1,
          currency: 'NGN',
          ...SUCCESS_CARD,
        })
      ).statusCode,
    ).toBe(404);

    expect(await jobsOf(ca.orderId)).toHaveLength(0);
    expect(await jobsOf(cb.orderId)).toHaveLength(0);
    expect((await inject('GET', '/api/cart', a)).json()[0].products).toHaveLength(2);
    // B's own confirmation still works.
    expect((await verify(b, cb.reference, bPaid.transaction_id)).statusCode).toBe(200);
    expect(await jobsOf(cb.orderId)).toHaveLength(2);
  });

  it('refuses a charge in fractions of a kobo or not positive, naming the amount, and records nothing', async () => {
    const a = await signupAndLogin(t, 'company');
    await fillCart(a);
    const c = await start(a);
    // Recorded rounded, ₦x.004 paid an ₦x order and ₦0.001 was a successful 0-kobo charge.
    for (const [amount, message] of [
      [c.amount + 0.004, 'amount must be in whole kobo (at most 2 decimals)'],
      [0.001, 'amount must be in whole kobo (at most 2 decimals)'],
      [0.005, 'amount must be in whole kobo (at most 2 decimals)'],
      [0, 'amount must be positive'],
      [-c.amount, 'amount must be positive'],
    ] as const) {
      const res = await inject('POST', '/api/checkout/sandbox/charge', a, {
        reference: c.reference,
        amount,
        currency: 'NGN',
        ...SUCCESS_CARD,
      });
      expect([res.statusCode, res.json().message], String(amount)).toEqual([400, message]);
    }
    expect(await pendingOrders(a.id)).toHaveLength(1);
    expect(await jobsOf(c.orderId)).toHaveLength(0);
    // Kobo are fine: ₦0.01 short is a charge the verification refuses as too low.
    const short = await charge(a, c.reference, c.amount - 0.01, SUCCESS_CARD);
    expect((await verify(a, c.reference, short.transaction_id)).statusCode).toBe(400);
    expect(await jobsOf(c.orderId)).toHaveLength(0);
  });

  it('fifty concurrent confirmations of one payment create its jobs once', async () => {
    const a = await signupAndLogin(t, 'company');
    await fillCart(a);
    const c = await start(a);
    const tx = await charge(a, c.reference, c.amount, SUCCESS_CARD);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => verify(a, c.reference, i % 2 ? tx.transaction_id : undefined)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(await jobsOf(c.orderId)).toHaveLength(2);
    const mine = await t.rt.database.db.select().from(orders).where(eq(orders.companyId, a.id));
    expect(mine).toHaveLength(1);
    expect(mine[0].status).toBe('paid');
    const all = await t.rt.database.db.select().from(jobs).where(eq(jobs.companyId, a.id));
    expect(all).toHaveLength(2);
  });

  it('the background job fulfils a paid order nobody confirmed and expires abandoned ones', async () => {
    const a = await signupAndLogin(t, 'company');
    const b = await signupAndLogin(t, 'company');
    await fillCart(a);
    await fillCart(b);
    const ca = await start(a);
    const cb = await start(b);
    await charge(a, ca.reference, ca.amount, SUCCESS_CARD); // the tab closed before verify
    const deps = {
      config: t.config,
      db: t.rt.database.db,
      clock: t.clock,
      logger: { info() {}, warn() {}, error() {} },
    };
    // Too recent: left alone.
    await reconcilePendingOrders(deps);
    expect(await jobsOf(ca.orderId)).toHaveLength(0);
    t.clock.advance(3 * 60_000);
    const first = await reconcilePendingOrders(deps);
    expect(first.fulfilled).toBeGreaterThanOrEqual(1);
    expect(await jobsOf(ca.orderId)).toHaveLength(2);
    expect((await inject('GET', '/api/cart', a)).statusCode).toBe(404);
    expect(await pendingOrders(b.id)).toHaveLength(1);
    t.clock.advance(2 * 3600_000);
    // Sessions last 12 h, so the test shortens the 24 h expiry instead of moving the clock a day.
    const second = await reconcilePendingOrders(deps, { expireAfterMs: 3600_000 });
    expect(second.expired).toBeGreaterThanOrEqual(1);
    expect(await pendingOrders(b.id)).toHaveLength(0);
    expect(await jobsOf(cb.orderId)).toHaveLength(0);
    // B's cart is still there, and a new checkout starts a new pending order.
    const again = await start(b);
    expect(again.reference).not.toBe(cb.reference);
  });

  describe('late payments of expired orders (webhook lost)', () => {
    const HOUR = 3600_000;
    const seen: Array<Record<string, unknown>> = [];
    const deps = () => ({
      config: t.config,
      db: t.rt.database.db,
      clock: t.clock,
      logger: { info: (o: object) => void seen.push(o as Record<string, unknown>), warn() {}, error() {} },
    });
    // Sessions last 12 h, so the tests shorten the 24 h expiry instead of moving the clock a day.
    const pass = () => reconcilePendingOrders(deps(), { expireAfterMs: HOUR, limit: 1000 });
    const orderRow = async (id: string) => (await t.rt.database.db.select().from(orders).where(eq(orders.id, id)))[0];
    /** An order started and left unpaid until the background job expired it. */
    async function expiredOrder(who: Login) {
      await fillCart(who);
      const o = await start(who);
      t.clock.advance(HOUR + 60_000);
      await pass();
      expect((await orderRow(o.orderId)).status).toBe('expired');
      return o;
    }

    it('fulfils a payment that settled around expiry once the job asks again, an hour on', async () => {
      const a = await signupAndLogin(t, 'company');
      const o = await expiredOrder(a);
      // The transfer lands as the order expires; its webhook is lost.
      await charge(a, o.reference, o.amount, SUCCESS_CARD);
      await pass();
      expect(await jobsOf(o.orderId)).toHaveLength(0);
      t.clock.advance(HOUR + 60_000);
      await pass();
      expect((await orderRow(o.orderId)).status).toBe('paid');
      expect(await jobsOf(o.orderId)).toHaveLength(2);
      expect((await inject('GET', '/api/cart', a)).statusCode).toBe(404);
    });

    it('refuses and logs a late payment of the wrong amount for a refund; looks at most once an hour, for a day', async () => {
      const a = await signupAndLogin(t, 'company');
      const o = await expiredOrder(a);
      await charge(a, o.reference, o.amount - 1, SUCCESS_CARD);
      t.clock.advance(HOUR + 60_000);
      await pass();
      const logged = () => seen.filter((e) => e.security === 'payment_amount_too_low' && e.orderId === o.orderId);
      expect(logged()).toHaveLength(1);
      expect((await orderRow(o.orderId)).status).toBe('expired');
      expect(await jobsOf(o.orderId)).toHaveLength(0);
      // Not again within the hour; and no more once the order expired more than a day ago.
      await pass();
      expect(logged()).toHaveLength(1);
      t.clock.advance(25 * HOUR);
      await pass();
      expect(logged()).toHaveLength(1);
    });
  });

  describe('access', () => {
    it('is for companies only', async () => {
      const lawyer = await signupAndLogin(t, 'lawyer');
      expect((await inject('POST', '/api/checkout', null)).statusCode).toBe(401);
      expect((await inject('POST', '/api/checkout', lawyer)).statusCode).toBe(403);
      expect((await inject('POST', '/api/checkout/verify', lawyer, { reference: 'x' })).statusCode).toBe(403);
      expect((await inject('GET', '/api/orders', null)).statusCode).toBe(401);
    });

    it('refuses webhooks when no secret hash is configured', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: { 'content-type': 'application/json', 'verif-hash': '' },
        payload: '{}',
      });
      expect(res.statusCode).toBe(401);
    });
  });
});
