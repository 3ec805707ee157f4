import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  PayoutDifference,
  PlanView,
  ReconciliationDifference,
  ReconciliationResponse,
} from '@legalmarket/contracts';
import { jobs, ledgerTransactions, payouts, refunds, subscriptionPayments } from '../../db/schema.js';
import { flutterwaveProvider } from '../../platform/payments/flutterwave.js';
import { createPaymentProvider } from '../../platform/payments/index.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { SUCCESS_CARD, insertProduct } from '../../../test/commerce-helpers.js';
import {
  flutterwaveStandIn,
  listenStandIn,
  PUBLIC_KEY,
  SECRET_HASH,
  SECRET_KEY,
} from '../../../test/flutterwave-standin.js';
import { createLedger } from './ledger.js';
import { createPayouts } from './payouts.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** Today as a Lagos day, the period every test asks about (the stand-in dates its records now). */
const lagosToday = (d: Date) => new Date(d.getTime() + 3600_000).toISOString().slice(0, 10);

function kit(get: () => { t: TestApp; admin: Login; nda: string }) {
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Login | null, payload?: Record<string, unknown>) =>
    get().t.app.inject({ method, url, headers: who?.headers ?? {}, payload });
  const order = async () => {
    const company = await signupAndLogin(get().t, 'company');
    await inject('POST', '/api/cart', company, { productId: get().nda, quantity: 1 });
    const data = (await inject('POST', '/api/checkout', company)).json().data as {
      reference: string;
      amount: number;
      orderId: string;
    };
    return { company, ...data };
  };
  const jobOf = async (orderId: string) =>
    (await get().t.rt.database.db.select().from(jobs).where(eq(jobs.orderId, orderId)))[0];
  const cancel = (jobId: string) =>
    inject('POST', `/job-api/jobs/${jobId}/actions/cancel`, get().admin, { note: 'Cancelled for the test.' });
  const reconcile = async (query = `from=${lagosToday(get().t.clock.now())}&to=${lagosToday(get().t.clock.now())}`) => {
    const res = await inject('GET', `/api/admin/reconciliation?${query}`, get().admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReconciliationResponse;
  };
  return { inject, order, jobOf, cancel, reconcile };
}

describeEachDb('reconciliation with Flutterwave (local stand-in)', (kind) => {
  let t: TestApp;
  // Dated on the app's clock, as the ledger is: on the real time its records fell on the next Lagos day
  // whenever the run crossed midnight (23:00 UTC), and the report asked for the clock's day.
  const flw = flutterwaveStandIn({ now: () => t.clock.now() });
  let admin: Login;
  let nda: string;
  const k = kit(() => ({ t, admin, nda }));

  beforeAll(async () => {
    t = await createTestApp(kind, await listenStandIn(flw));
    admin = await signupAndLogin(t, 'admin');
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  /** An order paid through the stand-in and verified by the server. */
  const paid = async (paymentType = 'card') => {
    const o = await k.order();
    const id = flw.pay(o.reference, o.amount, { paymentType });
    const res = await k.inject('POST', '/api/checkout/verify', o.company, {
      reference: o.reference,
      transactionId: id,
    });
    expect(res.statusCode).toBe(200);
    return { ...o, id };
  };
  const clean: string[] = [];

  it('finds nothing to report when the ledger and Flutterwave agree', async () => {
    const a = await paid('bank_transfer');
    const b = await paid('card');
    const job = await k.jobOf(b.orderId);
    expect((await k.cancel(job.id)).statusCode).toBe(200);
    clean.push(a.reference, b.reference);
    const r = await k.reconcile();
    expect(r.differences).toEqual([]);
    expect(r.provider).toBe('flutterwave');
    expect(r.ledger).toEqual({ payments: 2, refunds: 1, paid: 50_000, fees: 700, refunded: 25_000 });
    expect(r.atProvider).toEqual(r.ledger);
    expect(flw.calls.some((c) => c.startsWith('GET /v3/transactions?from='))).toBe(true);
    expect(flw.calls.some((c) => c.startsWith('GET /v3/refunds?from='))).toBe(true);
  });

  it('lists each kind of difference, with its reference, both amounts and links', async () => {
    // The provider received a transfer the ledger does not have: it was short, so it paid no order.
    const short = await k.order();
    const shortId = flw.pay(short.reference, short.amount - 1000, { paymentType: 'bank_transfer' });
    expect(
      (await k.inject('POST', '/api/checkout/verify', short.company, { reference: short.reference })).statusCode,
    ).toBe(400);
    // Payments the ledger has, then changed or lost at the provider.
    const lost = await paid();
    flw.txs.delete(lost.id);
    const more = await paid();
    flw.txs.get(more.id)!.amount = more.amount + 500;
    // Same amount, but Flutterwave kept another fee than the ledger posted: the net settled differs.
    const feeChanged = await paid();
    flw.txs.get(feeChanged.id)!.app_fee = 400;
    const failed = await paid();
    flw.txs.get(failed.id)!.status = 'failed';
    const dollars = await paid();
    flw.txs.get(dollars.id)!.currency = 'USD';
    // Refunds: one the provider reports for another amount, one it lost, one our ledger never made.
    const refunded = await paid();
    expect((await k.cancel((await k.jobOf(refunded.orderId)).id)).statusCode).toBe(200);
    const [ours] = await t.rt.database.db.select().from(refunds).where(eq(refunds.orderId, refunded.orderId));
    flw.refunds.get(Number(ours.providerRefundId))!.amount_refunded = 20_000;
    const vanished = await paid();
    expect((await k.cancel((await k.jobOf(vanished.orderId)).id)).statusCode).toBe(200);
    const [gone] = await t.rt.database.db.select().from(refunds).where(eq(refunds.orderId, vanished.orderId));
    flw.refunds.delete(Number(gone.providerRefundId));
    const outside = await paid();
    const direct = flutterwaveProvider({
      publicKey: PUBLIC_KEY,
      secretKey: SECRET_KEY,
      secretHash: SECRET_HASH,
      apiUrl: t.config.FLW_API_URL,
    });
    const stray = await direct.refund(String(outside.id), 5_000_00, 'Refunded from the dashboard');

    const r = await k.reconcile();
    const by = (kind: string, subject: string, reference: string) =>
      r.differences.find((d) => d.kind === kind && d.subject === subject && d.reference === reference);
    const expectOne = (d: ReconciliationDifference | undefined, fields: Partial<ReconciliationDifference>) =>
      expect(d).toMatchObject(fields);
    expectOne(by('missing_in_ledger', 'payment', short.reference), {
      providerId: String(shortId),
      ledgerAmount: null,
      // Net of Flutterwave's 1.4 % fee (₦336), as it settles.
      providerAmount: 23_664,
      paymentType: 'bank_transfer',
      orderId: short.orderId,
    });
    expectOne(by('missing_at_provider', 'payment', lost.reference), {
      providerId: String(lost.id),
      ledgerAmount: 24_650,
      providerAmount: null,
      orderId: lost.orderId,
      jobId: (await k.jobOf(lost.orderId)).id,
    });
    expectOne(by('amount_differs', 'payment', more.reference), { ledgerAmount: 24_650, providerAmount: 25_150 });
    expectOne(by('amount_differs', 'payment', feeChanged.reference), { ledgerAmount: 24_650, providerAmount: 24_600 });
    expectOne(by('status_differs', 'payment', failed.reference), { providerStatus: 'failed' });
    expectOne(by('currency_differs', 'payment', dollars.reference), { providerCurrency: 'USD' });
    expectOne(by('amount_differs', 'refund', refunded.reference), {
      ledgerAmount: 25_000,
      providerAmount: 20_000,
      orderId: refunded.orderId,
      jobId: (await k.jobOf(refunded.orderId)).id,
    });
    expectOne(by('missing_at_provider', 'refund', vanished.reference), {
      providerId: gone.providerRefundId,
      ledgerAmount: 25_000,
    });
    expectOne(by('missing_in_ledger', 'refund', outside.reference), {
      providerId: stray.id,
      providerAmount: 5_000,
      orderId: outside.orderId,
    });
    expect(r.differences).toHaveLength(9);
    for (const ref of clean) expect(r.differences.map((d) => d.reference)).not.toContain(ref);
  });

  it('looks only at the period asked for, and says so when Flutterwave is down', async () => {
    const past = await k.reconcile('from=2020-01-01&to=2020-01-07');
    expect(past).toMatchObject({ from: '2020-01-01', to: '2020-01-07', differences: [] });
    expect(past.ledger.payments).toBe(0);
    flw.setDown(true);
    try {
      const res = await k.inject('GET', '/api/admin/reconciliation', admin);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('Flutterwave could not be reached; try again in a minute');
    } finally {
      flw.setDown(false);
    }
  });

  it('refuses a bad period with a 400 naming it', async () => {
    for (const [query, words] of [
      ['from=2026-13-01', /dates are YYYY-MM-DD/],
      ['from=2026-02-01&to=2026-01-01', /from must not be after to/],
      ['from=2026-01-01&to=2026-06-01', /at most 92 days/],
      ['to=1999-12-31', /2000-01-01/],
    ] as const) {
      const res = await k.inject('GET', `/api/admin/reconciliation?${query}`, admin);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toMatch(words);
    }
  });

  it('matches plan payments, first and renewal, and lists a plan charge the ledger lacks', async () => {
    // The earlier tests' differences stay at the stand-in: this one must add none but the lost charge.
    const before = await k.reconcile();
    const company = await signupAndLogin(t, 'company');
    const started = await k.inject('POST', '/api/plans/subscribe', company, { tier: 'silver' });
    const d = started.json().data as { reference: string; amount: number; paymentPlan: string };
    const firstId = flw.pay(d.reference, d.amount, { email: company.email, paymentPlan: Number(d.paymentPlan) });
    const confirmed = await k.inject('POST', '/api/plans/confirm', company, {
      reference: d.reference,
      transactionId: String(firstId),
    });
    expect(confirmed.statusCode).toBe(200);
    const plan = confirmed.json().data as PlanView;
    // The renewal Flutterwave charged on the payment plan, applied by its signed webhook.
    const renewal = `SUB-${plan._id}-2-1`;
    const renewalId = flw.pay(renewal, 80_000, { email: company.email, paymentPlan: Number(d.paymentPlan) });
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'verif-hash': SECRET_HASH, 'content-type': 'application/json' },
      payload: JSON.stringify({
        event: 'charge.completed',
        data: { id: renewalId, tx_ref: renewal, status: 'successful' },
      }),
    });
    expect(hook.statusCode).toBe(200);
    const renewed = async () =>
      (await t.rt.database.db.select().from(subscriptionPayments).where(eq(subscriptionPayments.txRef, renewal)))
        .length === 1;
    for (let i = 0; i < 100 && !(await renewed()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await renewed()).toBe(true);

    const agreed = await k.reconcile();
    expect(agreed.differences).toEqual(before.differences);
    expect(agreed.ledger.payments).toBe(before.ledger.payments + 2);
    expect(agreed.atProvider.payments).toBe(before.atProvider.payments + 2);
    expect(agreed.ledger.paid - before.ledger.paid).toBe(agreed.atProvider.paid - before.atProvider.paid);

    // Another company paid its first month, but neither its tab nor the webhook told us.
    const other = await signupAndLogin(t, 'company');
    const lost = (await k.inject('POST', '/api/plans/subscribe', other, { tier: 'bronze' })).json().data as {
      reference: string;
      amount: number;
    };
    const lostId = flw.pay(lost.reference, lost.amount, { email: other.email });
    const r = await k.reconcile();
    expect(r.differences).toHaveLength(before.differences.length + 1);
    expect(r.differences.find((x) => x.reference === lost.reference)).toMatchObject({
      kind: 'missing_in_ledger',
      subject: 'payment',
      providerId: String(lostId),
      ledgerAmount: null,
      orderId: null,
    });
  });

  it('a payment whose customer bore the fee posts no fee and agrees with what Flutterwave settles', async () => {
    const before = await k.reconcile();
    // "Make customers pay the transaction fees": ₦25,000 charged ₦25,350, all ₦25,000 settled to us.
    flw.setFeeBearer('customer');
    try {
      const o = await paid();
      expect(flw.txs.get(o.id)).toMatchObject({ amount: 25_000, charged_amount: 25_350, app_fee: 350 });
      const fees = await t.rt.database.db
        .select({ id: ledgerTransactions.id })
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.kind, 'fee'), eq(ledgerTransactions.orderId, o.orderId)));
      expect(fees).toEqual([]);
      // A transfer that paid no order is listed at what reaches us: its amount, the fee being the customer's.
      const short = await k.order();
      const shortId = flw.pay(short.reference, short.amount - 1000, { paymentType: 'bank_transfer' });
      expect(
        (await k.inject('POST', '/api/checkout/verify', short.company, { reference: short.reference })).statusCode,
      ).toBe(400);

      const r = await k.reconcile();
      expect(r.differences).toHaveLength(before.differences.length + 1);
      expect(r.differences).toEqual(expect.arrayContaining(before.differences));
      expect(r.differences.find((d) => d.reference === short.reference)).toMatchObject({
        kind: 'missing_in_ledger',
        providerId: String(shortId),
        providerAmount: 24_000,
      });
      expect(r.ledger.paid - before.ledger.paid).toBe(25_000);
      expect(r.ledger.fees).toBe(before.ledger.fees);
      expect(r.atProvider.fees).toBe(before.atProvider.fees);
    } finally {
      flw.setFeeBearer('merchant');
    }
  });
});

describeEachDb('reconciliation with the sandbox provider', (kind) => {
  let t: TestApp;
  let admin: Login;
  let nda: string;
  const k = kit(() => ({ t, admin, nda }));

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const charge = (o: Awaited<ReturnType<typeof k.order>>, body: Record<string, unknown>) =>
    k.inject('POST', '/api/checkout/sandbox/charge', o.company, {
      reference: o.reference,
      amount: o.amount,
      currency: 'NGN',
      ...body,
    });

  it('a card payment, a bank transfer and a refund agree; a short transfer is listed', async () => {
    const card = await k.order();
    await charge(card, SUCCESS_CARD);
    const transfer = await k.order();
    await charge(transfer, { paymentType: 'banktransfer' });
    for (const o of [card, transfer])
      expect((await k.inject('POST', '/api/checkout/verify', o.company, { reference: o.reference })).statusCode).toBe(
        200,
      );
    expect((await k.cancel((await k.jobOf(card.orderId)).id)).statusCode).toBe(200);
    const agreed = await k.reconcile();
    expect(agreed.differences).toEqual([]);
    expect(agreed.ledger).toEqual({ payments: 2, refunds: 1, paid: 50_000, fees: 700, refunded: 25_000 });
    expect(agreed.atProvider).toEqual(agreed.ledger);

    const short = await k.order();
    await charge(short, { paymentType: 'banktransfer', amount: short.amount - 0.5 });
    expect(
      (await k.inject('POST', '/api/checkout/verify', short.company, { reference: short.reference })).statusCode,
    ).toBe(400);
    const r = await k.reconcile();
    expect(r.provider).toBe('sandbox');
    expect(r.differences).toEqual([
      expect.objectContaining({
        kind: 'missing_in_ledger',
        subject: 'payment',
        reference: short.reference,
        // ₦24,999.50 less the sandbox's 1.4 % fee (₦349.99).
        providerAmount: 24_649.51,
        paymentType: 'bank_transfer',
        orderId: short.orderId,
      }),
    ]);
  });

  it('a payout paid through the sandbox agrees with its transfer', async () => {
    expect(
      (await k.inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 20, holdDays: 0 })).statusCode,
    ).toBe(200);
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const details = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' };
    expect((await k.inject('POST', '/api/add-payment-details', lawyer, details)).statusCode).toBe(201);
    const o = await k.order();
    await charge(o, SUCCESS_CARD);
    expect((await k.inject('POST', '/api/checkout/verify', o.company, { reference: o.reference })).statusCode).toBe(
      200,
    );
    const job = await k.jobOf(o.orderId);
    expect((await k.inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    expect((await k.inject('POST', `/job-api/jobs/${job.id}/actions/complete`, admin, {})).statusCode).toBe(200);
    const requested = await k.inject('POST', '/api/lawyer/payouts', lawyer, { amount: 10_000 });
    const id = requested.json().payout._id as string;
    const approved = await k.inject('POST', `/api/admin/payouts/${id}/approve`, admin, {});
    expect(approved.json().payout.status).toBe('paid');
    const r = await k.reconcile();
    expect(r.payouts).toEqual({
      ledger: { payouts: 1, paidOut: 10_000, fees: 26.88 },
      atProvider: { payouts: 1, paidOut: 10_000, fees: 26.88 },
      differences: [],
    });
  });
});

describeEachDb('payouts in the reconciliation with Flutterwave (local stand-in)', (kind) => {
  let t: TestApp;
  const flw = flutterwaveStandIn({ now: () => t.clock.now() });
  let admin: Login;
  let nda: string;
  const k = kit(() => ({ t, admin, nda }));
  const db = () => t.rt.database.db;
  /** Flutterwave as the app reaches it, for transfers made outside the app (from the dashboard). */
  const direct = () =>
    flutterwaveProvider({
      publicKey: PUBLIC_KEY,
      secretKey: SECRET_KEY,
      secretHash: SECRET_HASH,
      apiUrl: t.config.FLW_API_URL,
    });
  const payoutService = () =>
    createPayouts({
      db: db(),
      clock: t.clock,
      config: t.config,
      mailWritten: () => {},
      securityLog: () => {},
      provider: createPaymentProvider(t.config, db()),
      ledger: createLedger({ db: db(), clock: t.clock }),
      sleep: async () => {},
    });

  beforeAll(async () => {
    t = await createTestApp(kind, await listenStandIn(flw));
    admin = await signupAndLogin(t, 'admin');
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
    const settings = await k.inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 20, holdDays: 0 });
    expect(settings.statusCode, settings.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });
  afterEach(async () => expect(await createLedger({ db: db(), clock: t.clock }).audit()).toEqual([]));

  /** A verified lawyer with checked details and ₦20,000 available (a ₦25,000 job less 20 %). */
  async function earner() {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const details = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' };
    expect((await k.inject('POST', '/api/add-payment-details', lawyer, details)).statusCode).toBe(201);
    const o = await k.order();
    const id = flw.pay(o.reference, o.amount);
    const verified = await k.inject('POST', '/api/checkout/verify', o.company, {
      reference: o.reference,
      transactionId: id,
    });
    expect(verified.statusCode).toBe(200);
    const job = await k.jobOf(o.orderId);
    expect((await k.inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    expect((await k.inject('POST', `/job-api/jobs/${job.id}/actions/complete`, admin, {})).statusCode).toBe(200);
    return lawyer;
  }
  const request = async (lawyer: Login, amount: number) => {
    const res = await k.inject('POST', '/api/lawyer/payouts', lawyer, { amount });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().payout._id as string;
  };
  const transferOf = (reference: string) => [...flw.transfers.values()].find((x) => x.reference === reference)!;
  /** Requested, approved (sent as a NEW transfer) and, when told, finished by Flutterwave and settled. */
  async function payout(lawyer: Login, amount: number, end?: 'SUCCESSFUL' | 'FAILED') {
    const id = await request(lawyer, amount);
    expect((await k.inject('POST', `/api/admin/payouts/${id}/approve`, admin, {})).statusCode).toBe(200);
    const tr = transferOf(id);
    if (end) {
      flw.completeTransfer(tr.id, end);
      const found = await createPaymentProvider(t.config, db()).fetchTransfer(String(tr.id));
      expect(await payoutService().settle(id, found!)).toBe(true);
    }
    const [row] = await db().select().from(payouts).where(eq(payouts.id, id));
    expect(row.status).toBe(end === 'SUCCESSFUL' ? 'paid' : end === 'FAILED' ? 'failed' : 'sending');
    return { id, tr };
  }

  it('a paid and a failed payout agree with their transfers; the totals match', async () => {
    const lawyer = await earner();
    await payout(lawyer, 12_345.67, 'SUCCESSFUL');
    await payout(lawyer, 5_000, 'FAILED');
    const r = await k.reconcile();
    expect(r.differences).toEqual([]);
    expect(r.payouts.differences).toEqual([]);
    // ₦12,345.67 paid; its NIP fee is ₦26.88. The failed one moved nothing.
    expect(r.payouts.ledger).toEqual({ payouts: 1, paidOut: 12_345.67, fees: 26.88 });
    expect(r.payouts.atProvider).toEqual(r.payouts.ledger);
    expect(flw.calls).toContain('GET /v3/transfers?page=1');
  });

  it('lists each kind of payout difference, with the reference, both amounts and the lawyer', async () => {
    const before = await k.reconcile();
    const one = await earner();
    const two = await earner();
    const three = await earner();
    // Paid in the ledger, then lost, changed or sent back at Flutterwave (no webhook told us).
    const lost = await payout(one, 5_000, 'SUCCESSFUL');
    flw.transfers.delete(lost.tr.id);
    const more = await payout(one, 5_000, 'SUCCESSFUL');
    more.tr.amount += 500;
    const dollars = await payout(one, 5_000, 'SUCCESSFUL');
    (dollars.tr as { currency: string }).currency = 'USD';
    const reversed = await payout(two, 5_000, 'SUCCESSFUL');
    flw.reverseTransfer(reversed.tr.id, 'REVERSED');
    // Failed in the ledger (the money back with the lawyer), but the transfer went through after all.
    const paidAfterAll = await payout(two, 5_000, 'FAILED');
    paidAfterAll.tr.status = 'SUCCESSFUL';
    // Still sending, and the transfer is for another amount: settling refuses it, so it would stay sending.
    const sending = await payout(three, 5_000);
    sending.tr.amount = 5_000.01;
    // Sending and agreeing: in flight, not a difference.
    await payout(three, 5_000);
    // Transfers no posted payout names: one from the dashboard, one naming a request an admin rejected,
    // and a failed one, which moved nothing.
    const dashboard = await direct().transfer({
      reference: 'dashboard-supplier-0042',
      amount: 7_500_00,
      bankCode: '057',
      accountNumber: '0123456781',
      narration: 'Paid from the dashboard',
    });
    flw.completeTransfer(Number(dashboard.id), 'SUCCESSFUL');
    const rejectedId = await request(three, 5_000);
    const rejected = await k.inject('POST', `/api/admin/payouts/${rejectedId}/reject`, admin, {
      reason: 'Wrong account',
    });
    expect(rejected.statusCode).toBe(200);
    const stray = await direct().transfer({
      reference: rejectedId,
      amount: 5_000_00,
      bankCode: '057',
      accountNumber: '0123456789',
      narration: 'Sent by hand',
    });
    const failed = await direct().transfer({
      reference: 'dashboard-failed-0043',
      amount: 1_000_00,
      bankCode: '057',
      accountNumber: '0123456781',
      narration: 'Paid from the dashboard',
    });
    flw.completeTransfer(Number(failed.id), 'FAILED');

    const r = await k.reconcile();
    expect(r.differences).toEqual(before.differences);
    const by = (kind: string, reference: string) =>
      r.payouts.differences.find((d) => d.kind === kind && d.reference === reference);
    const expectOne = (d: PayoutDifference | undefined, fields: Partial<PayoutDifference>) =>
      expect(d).toMatchObject(fields);
    expectOne(by('missing_at_provider', lost.id), {
      providerId: String(lost.tr.id),
      ledgerAmount: 5_000,
      providerAmount: null,
      ledgerStatus: 'paid',
      payoutId: lost.id,
      lawyerId: one.id,
    });
    expectOne(by('amount_differs', more.id), { ledgerAmount: 5_000, providerAmount: 5_500, ledgerStatus: 'paid' });
    expectOne(by('currency_differs', dollars.id), { providerCurrency: 'USD', ledgerStatus: 'paid' });
    expectOne(by('status_differs', reversed.id), {
      providerStatus: 'reversed',
      ledgerStatus: 'paid',
      ledgerAmount: 5_000,
      providerAmount: 5_000,
      lawyerId: two.id,
    });
    expectOne(by('status_differs', paidAfterAll.id), { providerStatus: 'successful', ledgerStatus: 'failed' });
    expectOne(by('amount_differs', sending.id), {
      ledgerAmount: 5_000,
      providerAmount: 5_000.01,
      ledgerStatus: 'sending',
      providerStatus: 'new',
    });
    expectOne(by('missing_in_ledger', 'dashboard-supplier-0042'), {
      providerId: dashboard.id,
      ledgerAmount: null,
      providerAmount: 7_500,
      providerCurrency: 'NGN',
      providerStatus: 'successful',
      ledgerStatus: null,
      payoutId: null,
    });
    expectOne(by('missing_in_ledger', rejectedId), {
      providerId: stray.id,
      providerAmount: 5_000,
      providerStatus: 'new',
      ledgerStatus: 'rejected',
      payoutId: rejectedId,
      lawyerId: three.id,
    });
    expect(r.payouts.differences).toHaveLength(before.payouts.differences.length + 8);
    // Paid in the ledger: lost, more, dollars, reversed (₦20,000); successful at Flutterwave: more,
    // dollars, the one failed in the ledger and the dashboard's (₦23,000).
    expect(r.payouts.ledger.payouts - before.payouts.ledger.payouts).toBe(4);
    expect(r.payouts.ledger.paidOut - before.payouts.ledger.paidOut).toBe(20_000);
    expect(r.payouts.atProvider.payouts - before.payouts.atProvider.payouts).toBe(4);
    expect(r.payouts.atProvider.paidOut - before.payouts.atProvider.paidOut).toBe(23_000);
  });

  it('reads the transfers newest first until a page holds only older ones', async () => {
    const recent = flw.transfers.size;
    // 25 dashboard transfers made days before the period, listed after every recent one.
    const old = new Date(t.clock.now().getTime() - 5 * 86_400_000).toISOString();
    for (let i = 0; i < 25; i++) {
      const tr = await direct().transfer({
        reference: `old-${i}`,
        amount: 1_000_00,
        bankCode: '057',
        accountNumber: '0123456781',
        narration: 'Paid from the dashboard',
      });
      flw.completeTransfer(Number(tr.id), 'SUCCESSFUL')!.created_at = old;
    }
    // Ten a page: the first page holding only older transfers is the last one read.
    const last = Math.ceil(recent / 10) + 1;
    expect(last).toBeLessThan(Math.ceil(flw.transfers.size / 10));
    const before = flw.calls.length;
    const r = await k.reconcile();
    const asked = flw.calls.slice(before).filter((c) => c.startsWith('GET /v3/transfers?'));
    expect(asked).toEqual(Array.from({ length: last }, (_, i) => `GET /v3/transfers?page=${i + 1}`));
    // Those read are outside the period, so none is a transfer without a payout.
    expect(r.payouts.differences.filter((d) => d.reference.startsWith('old-'))).toEqual([]);
  });
});
