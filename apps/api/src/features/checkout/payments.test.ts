import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobs, orders } from '../../db/schema.js';
import { reconcilePendingOrders } from './reconciler.js';
import { flutterwaveProvider } from '../../platform/payments/flutterwave.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import {
  flutterwaveStandIn,
  listenStandIn,
  PUBLIC_KEY,
  SECRET_HASH,
  SECRET_KEY,
} from '../../../test/flutterwave-standin.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('checkout with the Flutterwave provider (local stand-in)', (kind) => {
  const flw = flutterwaveStandIn();
  let t: Awaited<ReturnType<typeof createLoggedTestApp>>;
  let nda: string;
  let tm: string;

  beforeAll(async () => {
    t = await createLoggedTestApp(kind, await listenStandIn(flw, { FLW_SUBACCOUNT_ID: 'RS_STANDIN' }));
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25000);
    tm = await insertProduct(t, 'Trademark Registration', 150000);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });

  const inject = (method: 'GET' | 'POST', url: string, who: Login | null, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload });
  const ready = async () => {
    const who = await signupAndLogin(t, 'company');
    await inject('POST', '/api/cart', who, { productId: nda, quantity: 2, detail: 'Mutual NDA' });
    t.clock.advance(1000);
    await inject('POST', '/api/cart', who, { productId: tm, quantity: 1 });
    const res = await inject('POST', '/api/checkout', who);
    expect(res.statusCode).toBe(200);
    return {
      who,
      ...(res.json().data as { reference: string; amount: number; orderId: string; provider: Record<string, unknown> }),
    };
  };
  const verify = (who: Login, reference: string, transactionId?: number | string) =>
    inject('POST', '/api/checkout/verify', who, { reference, transactionId });
  const jobsOf = (orderId: string) => t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, orderId));
  const orderRow = async (orderId: string) =>
    (await t.rt.database.db.select().from(orders).where(eq(orders.id, orderId)))[0];
  const webhook = (body: unknown, headers: Record<string, string>) => {
    const raw = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', ...headers },
      payload: raw,
    });
  };
  const chargeCompleted = (id: number, txRef: string, amount: number) => ({
    event: 'charge.completed',
    data: {
      id,
      tx_ref: txRef,
      flw_ref: `FLW-MOCK-${id}`,
      amount,
      currency: 'NGN',
      charged_amount: amount,
      status: 'successful',
    },
  });

  it("answers Flutterwave's public settings for the inline checkout", async () => {
    const c = await ready();
    expect(c.provider).toEqual({
      name: 'flutterwave',
      publicKey: PUBLIC_KEY,
      subaccountId: 'RS_STANDIN',
      scriptUrl: 'https://checkout.flutterwave.com/v3.js',
      testMode: true,
    });
    expect(JSON.stringify(c)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(c)).not.toContain(SECRET_HASH);
  });

  it('verifies through GET /v3/transactions/{id}/verify and fulfils', async () => {
    const c = await ready();
    const id = flw.pay(c.reference, c.amount);
    const res = await verify(c.who, c.reference, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.paymentSuccessful);
    expect(flw.calls).toContain(`GET /v3/transactions/${id}/verify`);
    expect(await jobsOf(c.orderId)).toHaveLength(2);
    expect((await orderRow(c.orderId)).providerTransactionId).toBe(String(id));
  });

  it('verifies by reference when the dialog gave no id', async () => {
    const c = await ready();
    flw.pay(c.reference, c.amount, { status: 'failed' });
    flw.pay(c.reference, c.amount);
    const res = await verify(c.who, c.reference);
    expect(res.statusCode).toBe(200);
    expect(flw.calls.some((x) => x.startsWith('GET /v3/transactions/verify_by_reference?tx_ref='))).toBe(true);
  });

  it('refuses a failed payment, a lower amount, another currency, an unknown id and another reference', async () => {
    const c = await ready();
    const other = await ready();
    const cases: Array<[number, string | null]> = [
      [flw.pay(c.reference, c.amount, { status: 'failed' }), null],
      [flw.pay(c.reference, c.amount - 0.01), 'payment_amount_too_low'],
      [flw.pay(c.reference, c.amount, { currency: 'USD' }), 'payment_currency_mismatch'],
      [999999, 'payment_unknown_transaction'],
      [flw.pay(other.reference, other.amount), 'payment_reference_mismatch'],
    ];
    for (const [id, event] of cases) {
      const before = event ? t.security.of(event).length : 0;
      const res = await verify(c.who, c.reference, id);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(messages.paymentFailed);
      if (event) expect(t.security.of(event).length).toBe(before + 1);
    }
    expect(await jobsOf(c.orderId)).toHaveLength(0);
    expect((await orderRow(c.orderId)).status).toBe('pending');
    expect((await inject('GET', '/api/cart', c.who)).json()[0].products).toHaveLength(2);
    // Issue 14: only the exact amount pays an order; a different one is refused and logged, not
    // taken as payment for whatever the order holds by then.
    expect((await verify(c.who, c.reference, flw.pay(c.reference, c.amount + 100))).statusCode).toBe(400);
    expect(t.security.of('payment_amount_mismatch').at(-1)).toMatchObject({ orderId: c.orderId });
    expect((await verify(c.who, c.reference, flw.pay(c.reference, c.amount))).statusCode).toBe(200);
  });

  it('refuses a payment whose charged_amount is below the order, by the browser and the webhook', async () => {
    const c = await ready();
    // Flutterwave's `amount` says the order's, but the customer was charged less (`charged_amount`).
    const id = flw.pay(c.reference, c.amount, { chargedAmount: c.amount - 1000 });
    const before = t.security.of('payment_amount_too_low').length;
    expect((await verify(c.who, c.reference, id)).statusCode).toBe(400);
    expect((await webhook(chargeCompleted(id, c.reference, c.amount), { 'verif-hash': SECRET_HASH })).statusCode).toBe(
      200,
    );
    await vi.waitFor(() => expect(t.security.of('payment_amount_too_low').length).toBe(before + 2));
    expect((await orderRow(c.orderId)).status).toBe('pending');
    expect(await jobsOf(c.orderId)).toHaveLength(0);
    // The customer bearing the fee is charged more than the amount: that pays.
    expect(
      (await verify(c.who, c.reference, flw.pay(c.reference, c.amount, { chargedAmount: c.amount + 350 }))).statusCode,
    ).toBe(200);
  });

  it('answers 503 and keeps the order pending while Flutterwave is unreachable', async () => {
    const c = await ready();
    const id = flw.pay(c.reference, c.amount);
    flw.setDown(true);
    try {
      expect((await verify(c.who, c.reference, id)).statusCode).toBe(503);
      expect((await orderRow(c.orderId)).status).toBe('pending');
    } finally {
      flw.setDown(false);
    }
    expect((await verify(c.who, c.reference, id)).statusCode).toBe(200);
  });

  it('refuses webhooks without the right verif-hash or signature', async () => {
    const c = await ready();
    const id = flw.pay(c.reference, c.amount);
    const body = chargeCompleted(id, c.reference, c.amount);
    const before = t.security.of('webhook_bad_signature').length;
    expect((await webhook(body, {})).statusCode).toBe(401);
    expect((await webhook(body, { 'verif-hash': 'wrong' })).statusCode).toBe(401);
    expect((await webhook(body, { 'flutterwave-signature': 'AAAA' })).statusCode).toBe(401);
    const hmacOfOther = createHmac('sha256', 'not-the-hash').update(JSON.stringify(body)).digest('base64');
    expect((await webhook(body, { 'flutterwave-signature': hmacOfOther })).statusCode).toBe(401);
    expect(t.security.of('webhook_bad_signature').length).toBe(before + 4);
    await new Promise((r) => setTimeout(r, 100));
    expect(await jobsOf(c.orderId)).toHaveLength(0);
  });

  it('a signed webhook fulfils the order (verif-hash and HMAC signature)', async () => {
    const c = await ready();
    const id = flw.pay(c.reference, c.amount);
    const res = await webhook(chargeCompleted(id, c.reference, c.amount), { 'verif-hash': SECRET_HASH });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await jobsOf(c.orderId)).toHaveLength(2), { timeout: 5000 });
    expect((await inject('GET', '/api/cart', c.who)).statusCode).toBe(404);

    const d = await ready();
    const id2 = flw.pay(d.reference, d.amount);
    const raw = JSON.stringify(chargeCompleted(id2, d.reference, d.amount));
    const signature = createHmac('sha256', SECRET_HASH).update(raw).digest('base64');
    const signed = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'flutterwave-signature': signature },
      payload: raw,
    });
    expect(signed.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await jobsOf(d.orderId)).toHaveLength(2), { timeout: 5000 });
  });

  it('never trusts the webhook payload: a forged "successful" for a failed transaction fulfils nothing', async () => {
    const c = await ready();
    const id = flw.pay(c.reference, c.amount, { status: 'failed' });
    const res = await webhook(chargeCompleted(id, c.reference, c.amount), { 'verif-hash': SECRET_HASH });
    expect(res.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(await jobsOf(c.orderId)).toHaveLength(0);
    expect((await orderRow(c.orderId)).status).toBe('pending');
  });

  it('webhook twice and browser confirmations together fulfil once', async () => {
    const c = await ready();
    const id = flw.pay(c.reference, c.amount);
    const body = chargeCompleted(id, c.reference, c.amount);
    const answers = await Promise.all([
      webhook(body, { 'verif-hash': SECRET_HASH }),
      verify(c.who, c.reference, id),
      webhook(body, { 'verif-hash': SECRET_HASH }),
      verify(c.who, c.reference),
      ...Array.from({ length: 10 }, () => verify(c.who, c.reference, id)),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(14).fill(200));
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobsOf(c.orderId)).toHaveLength(2);
    const all = await t.rt.database.db.select().from(jobs).where(eq(jobs.companyId, c.who.id));
    expect(all).toHaveLength(2);
  });

  it('a second payment of a paid order buys nothing more and is logged for a refund, however it arrives', async () => {
    const c = await ready();
    // Two tabs paid the same order: the browser confirms both at once, on the same reference.
    const first = flw.pay(c.reference, c.amount);
    const second = flw.pay(c.reference, c.amount);
    const answers = await Promise.all([verify(c.who, c.reference, first), verify(c.who, c.reference, second)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const paidBy = (await orderRow(c.orderId)).providerTransactionId;
    const other = String(paidBy === String(first) ? second : first);
    // Its webhook and a later confirmation name it too; the paying transaction's own webhook does not.
    await webhook(chargeCompleted(Number(other), c.reference, c.amount), { 'verif-hash': SECRET_HASH });
    await webhook(chargeCompleted(Number(paidBy), c.reference, c.amount), { 'verif-hash': SECRET_HASH });
    expect((await verify(c.who, c.reference, other)).statusCode).toBe(200);
    await vi.waitFor(() =>
      expect(t.security.of('payment_paid_twice').filter((e) => e.orderId === c.orderId)).toHaveLength(3),
    );
    const logged = t.security.of('payment_paid_twice').filter((e) => e.orderId === c.orderId);
    expect(new Set(logged.map((e) => e.via))).toEqual(new Set(['browser', 'webhook']));
    for (const e of logged)
      expect(e).toMatchObject({ transactionId: other, paidBy, reference: c.reference, amount: c.amount * 100 });
    expect(await jobsOf(c.orderId)).toHaveLength(2);
    expect((await orderRow(c.orderId)).providerTransactionId).toBe(paidBy);
  });

  it('the background job fulfils through verify_by_reference when the webhook never came', async () => {
    const c = await ready();
    flw.pay(c.reference, c.amount);
    t.clock.advance(5 * 60_000);
    const result = await reconcilePendingOrders({
      config: t.config,
      db: t.rt.database.db,
      clock: t.clock,
      logger: { info() {}, warn() {}, error() {} },
    });
    expect(result.fulfilled).toBeGreaterThanOrEqual(1);
    expect(await jobsOf(c.orderId)).toHaveLength(2);
  });

  it('the provider answers null for unknown transactions and throws when unreachable', async () => {
    const p = flutterwaveProvider({
      publicKey: PUBLIC_KEY,
      secretKey: SECRET_KEY,
      secretHash: SECRET_HASH,
      apiUrl: 'http://127.0.0.1:9',
    });
    await expect(p.verifyById('1')).rejects.toThrow(/unreachable/);
    const { port } = flw.server.address() as AddressInfo;
    const q = flutterwaveProvider({
      publicKey: PUBLIC_KEY,
      secretKey: SECRET_KEY,
      secretHash: SECRET_HASH,
      apiUrl: `http://127.0.0.1:${port}`,
    });
    expect(await q.verifyById('123')).toBeNull();
    const wrongKey = flutterwaveProvider({
      publicKey: PUBLIC_KEY,
      secretKey: 'nope',
      secretHash: SECRET_HASH,
      apiUrl: `http://127.0.0.1:${port}`,
    });
    await expect(wrongKey.verifyById('123')).rejects.toThrow(/401/);
  });
});
