import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobs, ledgerTransactions, orders, sandboxTransactions } from '../../db/schema.js';
import { createLedger } from '../money/ledger.js';
import { reconcilePendingOrders } from './reconciler.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn, SECRET_HASH } from '../../../test/flutterwave-standin.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type T = Awaited<ReturnType<typeof createLoggedTestApp>>;
const quiet = { info() {}, warn() {}, error() {} };

/** A company with two products in its cart and a started checkout. */
function kit(get: () => { t: T; nda: string; tm: string }) {
  const inject = (method: 'GET' | 'POST', url: string, who: Login | null, payload?: Record<string, unknown>) =>
    get().t.app.inject({ method, url, headers: who?.headers ?? {}, payload });
  const ready = async () => {
    const { t, nda, tm } = get();
    const who = await signupAndLogin(t, 'company');
    await inject('POST', '/api/cart', who, { productId: nda, quantity: 2 });
    t.clock.advance(1000);
    await inject('POST', '/api/cart', who, { productId: tm, quantity: 1 });
    const res = await inject('POST', '/api/checkout', who);
    expect(res.statusCode).toBe(200);
    return {
      who,
      ...(res.json().data as { reference: string; amount: number; orderId: string; paymentOptions: string }),
    };
  };
  const db = () => get().t.rt.database.db;
  const jobsOf = (orderId: string) => db().select().from(jobs).where(eq(jobs.orderId, orderId));
  const orderRow = async (orderId: string) => (await db().select().from(orders).where(eq(orders.id, orderId)))[0];
  const paymentsOf = (orderId: string) =>
    db()
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.orderId, orderId), eq(ledgerTransactions.kind, 'payment')));
  const reconcile = () => {
    const { t } = get();
    t.clock.advance(1000);
    return reconcilePendingOrders(
      { config: t.config, db: t.rt.database.db, clock: t.clock, logger: quiet },
      { minAgeMs: 0 },
    );
  };
  const audit = async () => expect(await createLedger({ db: db(), clock: get().t.clock }).audit()).toEqual([]);
  return { inject, ready, jobsOf, orderRow, paymentsOf, reconcile, audit };
}

describeEachDb('bank transfer in the sandbox', (kind) => {
  let t: T;
  let nda: string;
  let tm: string;
  const k = kit(() => ({ t, nda, tm }));

  beforeAll(async () => {
    t = await createLoggedTestApp(kind);
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
    tm = await insertProduct(t, 'Trademark Registration', 150_000);
  });
  afterAll(() => t.close());
  afterEach(() => k.audit());

  const account = (who: Login, reference: string) =>
    k.inject('POST', '/api/checkout/sandbox/virtual-account', who, { reference });
  const transfer = (who: Login, reference: string, amount: number, currency = 'NGN') =>
    k.inject('POST', '/api/checkout/sandbox/charge', who, { reference, amount, currency, paymentType: 'banktransfer' });

  it('offers bank transfer next to card, mobile money and USSD', async () => {
    const c = await k.ready();
    expect(c.paymentOptions).toBe('card,mobilemoney,ussd,banktransfer');
  });

  it('shows a temporary account for the exact amount, the same number each time, for an hour', async () => {
    const c = await k.ready();
    const first = await account(c.who, c.reference);
    expect(first.statusCode).toBe(200);
    const a = first.json().data;
    expect(a).toMatchObject({
      bankName: 'WEMA Bank (test)',
      amount: 200_000,
      currency: 'NGN',
      reference: c.reference,
    });
    expect(a.accountNumber).toMatch(/^\d{10}$/);
    expect(Date.parse(a.expiresAt) - t.clock.now().getTime()).toBe(3600_000);
    expect((await account(c.who, c.reference)).json().data.accountNumber).toBe(a.accountNumber);
    const other = await k.ready();
    expect((await account(other.who, other.reference)).json().data.accountNumber).not.toBe(a.accountNumber);
    // Another company's order is not found; nothing is created by asking.
    expect((await account(other.who, c.reference)).statusCode).toBe(404);
    expect((await account(c.who, 'LM-0-nope')).statusCode).toBe(404);
    expect(
      await t.rt.database.db.select().from(sandboxTransactions).where(eq(sandboxTransactions.txRef, c.reference)),
    ).toEqual([]);
  });

  it('"I have sent the money" pays the order once through the server-side verification', async () => {
    const c = await k.ready();
    const sent = await transfer(c.who, c.reference, c.amount);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({ status: 'successful', processor_response: 'Transfer received' });
    const [row] = await t.rt.database.db
      .select()
      .from(sandboxTransactions)
      .where(eq(sandboxTransactions.txRef, c.reference));
    expect(row.paymentType).toBe('bank_transfer');
    // Nothing is paid until the server verified it.
    expect((await k.orderRow(c.orderId)).status).toBe('pending');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        k.inject('POST', '/api/checkout/verify', c.who, {
          reference: c.reference,
          ...(i % 2 ? { transactionId: sent.json().data.transaction_id } : {}),
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(answers[0].json().message).toBe(messages.paymentSuccessful);
    expect(await k.jobsOf(c.orderId)).toHaveLength(2);
    expect(await k.paymentsOf(c.orderId)).toHaveLength(1);
    expect(await k.orderRow(c.orderId)).toMatchObject({ status: 'paid', paymentMethod: 'bank_transfer' });
    expect((await account(c.who, c.reference)).statusCode).toBe(409);
  });

  it('the background job pays a transfer whose tab was closed before confirming', async () => {
    const c = await k.ready();
    expect((await transfer(c.who, c.reference, c.amount)).statusCode).toBe(200);
    const counts = await k.reconcile();
    expect(counts.fulfilled).toBeGreaterThanOrEqual(1);
    expect(await k.orderRow(c.orderId)).toMatchObject({ status: 'paid', paymentMethod: 'bank_transfer' });
    expect(await k.jobsOf(c.orderId)).toHaveLength(2);
    expect(await k.paymentsOf(c.orderId)).toHaveLength(1);
  });

  it('an underpaid or foreign-currency transfer does not pay the order, and is logged', async () => {
    const c = await k.ready();
    const before = {
      low: t.security.of('payment_amount_too_low').length,
      fx: t.security.of('payment_currency_mismatch').length,
    };
    expect((await transfer(c.who, c.reference, c.amount - 0.01)).json().data.status).toBe('successful');
    const low = await k.inject('POST', '/api/checkout/verify', c.who, { reference: c.reference });
    expect(low.statusCode).toBe(400);
    expect(low.json().message).toBe(messages.paymentFailed);
    expect(t.security.of('payment_amount_too_low').length).toBe(before.low + 1);

    const d = await k.ready();
    const usd = await transfer(d.who, d.reference, d.amount, 'USD');
    const wrong = await k.inject('POST', '/api/checkout/verify', d.who, {
      reference: d.reference,
      transactionId: usd.json().data.transaction_id,
    });
    expect(wrong.statusCode).toBe(400);
    expect(t.security.of('payment_currency_mismatch').length).toBe(before.fx + 1);

    await k.reconcile();
    for (const o of [c, d]) {
      expect((await k.orderRow(o.orderId)).status).toBe('pending');
      expect(await k.jobsOf(o.orderId)).toHaveLength(0);
      expect(await k.paymentsOf(o.orderId)).toHaveLength(0);
    }
  });

  it('refuses a bad virtual-account request with a clear 400', async () => {
    const c = await k.ready();
    for (const payload of [{}, { reference: '' }, { reference: 'x'.repeat(101) }, { reference: 42 }]) {
      const res = await k.inject('POST', '/api/checkout/sandbox/virtual-account', c.who, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/reference/);
    }
  });
});

describeEachDb('bank transfer through Flutterwave (local stand-in)', (kind) => {
  const flw = flutterwaveStandIn();
  let t: T;
  let nda: string;
  let tm: string;
  const k = kit(() => ({ t, nda, tm }));

  beforeAll(async () => {
    t = await createLoggedTestApp(kind, await listenStandIn(flw));
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
    tm = await insertProduct(t, 'Trademark Registration', 150_000);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });
  afterEach(() => k.audit());

  const webhook = (id: number, txRef: string, amount: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'verif-hash': SECRET_HASH },
      payload: JSON.stringify({
        event: 'charge.completed',
        data: { id, tx_ref: txRef, amount, currency: 'NGN', status: 'successful', payment_type: 'bank_transfer' },
      }),
    });

  it('asks the inline checkout for bank transfer too', async () => {
    expect((await k.ready()).paymentOptions.split(',')).toContain('banktransfer');
  });

  it('verify, webhook and the background job together pay a transfer once', async () => {
    const c = await k.ready();
    const id = flw.pay(c.reference, c.amount, { paymentType: 'bank_transfer' });
    const answers = await Promise.all([
      webhook(id, c.reference, c.amount),
      k.inject('POST', '/api/checkout/verify', c.who, { reference: c.reference, transactionId: id }),
      k.reconcile(),
      webhook(id, c.reference, c.amount),
      k.inject('POST', '/api/checkout/verify', c.who, { reference: c.reference }),
      k.reconcile(),
      ...Array.from({ length: 6 }, () =>
        k.inject('POST', '/api/checkout/verify', c.who, { reference: c.reference, transactionId: id }),
      ),
    ]);
    for (const a of answers) if ('statusCode' in a) expect(a.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await k.jobsOf(c.orderId)).toHaveLength(2), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await k.jobsOf(c.orderId)).toHaveLength(2);
    expect(await k.paymentsOf(c.orderId)).toHaveLength(1);
    expect(await k.orderRow(c.orderId)).toMatchObject({
      status: 'paid',
      providerTransactionId: String(id),
      paymentMethod: 'bank_transfer',
    });
  });

  it('an underpaid or foreign-currency transfer pays nothing by webhook, verify or background job', async () => {
    const c = await k.ready();
    const d = await k.ready();
    const low = flw.pay(c.reference, c.amount - 100, { paymentType: 'bank_transfer' });
    const usd = flw.pay(d.reference, d.amount, { paymentType: 'bank_transfer', currency: 'USD' });
    expect((await webhook(low, c.reference, c.amount)).statusCode).toBe(200);
    expect((await webhook(usd, d.reference, d.amount)).statusCode).toBe(200);
    expect(
      (await k.inject('POST', '/api/checkout/verify', c.who, { reference: c.reference, transactionId: low }))
        .statusCode,
    ).toBe(400);
    expect(
      (await k.inject('POST', '/api/checkout/verify', d.who, { reference: d.reference, transactionId: usd }))
        .statusCode,
    ).toBe(400);
    await k.reconcile();
    await new Promise((r) => setTimeout(r, 200));
    for (const o of [c, d]) {
      expect((await k.orderRow(o.orderId)).status).toBe('pending');
      expect(await k.jobsOf(o.orderId)).toHaveLength(0);
      expect(await k.paymentsOf(o.orderId)).toHaveLength(0);
    }
  });

  it('has no sandbox routes', async () => {
    const c = await k.ready();
    expect(
      (await k.inject('POST', '/api/checkout/sandbox/virtual-account', c.who, { reference: c.reference })).statusCode,
    ).toBe(404);
  });
});
