import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { RefundView } from '@legalmarket/contracts';
import { auditLog, jobs, ledgerEntries, ledgerTransactions, refunds, sandboxRefunds } from '../../db/schema.js';
import { describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { SUCCESS_CARD, createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import { flutterwaveStandIn, listenStandIn, SECRET_HASH } from '../../../test/flutterwave-standin.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { createPaymentProvider } from '../../platform/payments/index.js';
import { createLedger } from './ledger.js';
import { createRefunds } from './refunds.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** Shared steps of both suites: a paid, assigned job and the admin's cancel. */
function steps(get: () => { t: TestApp; admin: Login; lawyer: Login }) {
  const inject = (method: 'GET' | 'POST', url: string, who: Login | null, payload?: unknown) =>
    get().t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });
  const cancel = (jobId: string, body: Record<string, unknown> = {}, who = get().admin) =>
    inject('POST', `/job-api/jobs/${jobId}/actions/cancel`, who, { note: 'The company closed the deal.', ...body });
  const postings = (jobId: string) =>
    get()
      .t.rt.database.db.select({
        kind: ledgerTransactions.kind,
        account: ledgerEntries.account,
        amount: ledgerEntries.amount,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(eq(ledgerEntries.jobId, jobId))
      .orderBy(ledgerEntries.id);
  const refundOf = async (jobId: string) =>
    (await get().t.rt.database.db.select().from(refunds).where(eq(refunds.jobId, jobId)))[0];
  return { inject, cancel, postings, refundOf };
}

describeEachDb('refunds through the sandbox provider', (kind) => {
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let nda: string;
  const s = steps(() => ({ t, admin, lawyer }));

  beforeAll(async () => {
    t = await createLoggedTestApp(kind);
    [admin, lawyer] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'lawyer', { verified: true })]);
    nda = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  async function paidJob(assigned = true, productId = nda) {
    const company = await signupAndLogin(t, 'company');
    await s.inject('POST', '/api/cart', company, { productId, quantity: 1 });
    const { reference, amount } = (await s.inject('POST', '/api/checkout', company)).json().data;
    const charged = await s.inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = charged.json().data.transaction_id;
    expect((await s.inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(
      200,
    );
    const [job] = await t.rt.database.db.select().from(jobs).where(eq(jobs.companyId, company.id));
    if (assigned)
      expect(
        (await s.inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode,
      ).toBe(200);
    return { company, job, transactionId: Number(transactionId) };
  }

  it('cancelling refunds everything held by default, once, and tells the company', async () => {
    const { company, job, transactionId } = await paidJob();
    const res = await s.cancel(job.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().job).toMatchObject({ status: 'cancelled' });
    const refund = await s.refundOf(job.id);
    expect(refund).toMatchObject({ status: 'completed', amount: 2_500_000, reason: 'The company closed the deal.' });
    expect(await s.postings(job.id)).toEqual([
      { kind: 'payment', account: 'held_for_jobs', amount: -2_500_000 },
      { kind: 'cancellation', account: 'held_for_jobs', amount: 2_500_000 },
      { kind: 'cancellation', account: 'refunds_due', amount: -2_500_000 },
      { kind: 'refund', account: 'refunds_due', amount: 2_500_000 },
    ]);
    const provider = await t.rt.database.db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.transactionId, transactionId));
    expect(provider.map((r) => r.amount)).toEqual([2_500_000]);
    const mails = await mailsTo(t, company.email);
    expect(mails.map((m) => m.subject)).toContain('Your refund of ₦25,000 is on its way');
    const list = (await s.inject('GET', '/api/admin/refunds', admin)).json().refunds as RefundView[];
    expect(list.find((r) => r.jobId === job.id)).toMatchObject({ status: 'completed', amount: 25_000 });
    // Cancelling again is refused by the lifecycle and refunds nothing more.
    expect((await s.cancel(job.id)).statusCode).toBe(409);
    expect(await t.rt.database.db.select().from(refunds).where(eq(refunds.jobId, job.id))).toHaveLength(1);
  });

  it('a partial refund: the company gets what the admin names, the platform keeps the rest', async () => {
    const { job } = await paidJob();
    expect((await s.cancel(job.id, { refund: 10_000.5 })).statusCode).toBe(200);
    expect(await s.postings(job.id)).toEqual([
      { kind: 'payment', account: 'held_for_jobs', amount: -2_500_000 },
      { kind: 'cancellation', account: 'held_for_jobs', amount: 2_500_000 },
      { kind: 'cancellation', account: 'refunds_due', amount: -1_000_050 },
      { kind: 'cancellation', account: 'platform_commission', amount: -1_499_950 },
      { kind: 'refund', account: 'refunds_due', amount: 1_000_050 },
    ]);
    expect(await s.refundOf(job.id)).toMatchObject({ status: 'completed', amount: 1_000_050 });
    // The admin's cancellation is in the audit log with what was held and what went back.
    const audit = await t.rt.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.targetId, job.id));
    expect(audit.filter((a) => a.action === 'job.cancel')).toEqual([
      {
        action: 'job.cancel',
        actorId: admin.id,
        details: { heldKobo: 2_500_000, refundKobo: 1_000_050, reason: 'The company closed the deal.' },
      },
    ]);
  });

  it('no refund (0) cancels and keeps the money; an open job cancels too', async () => {
    const { job } = await paidJob(false);
    expect((await s.cancel(job.id, { refund: 0 })).statusCode).toBe(200);
    expect(await s.refundOf(job.id)).toBeUndefined();
    const rows = await s.postings(job.id);
    expect(rows.at(-1)).toEqual({ kind: 'cancellation', account: 'platform_commission', amount: -2_500_000 });
  });

  it('names the amount held to the kobo when a refund is above it', async () => {
    const odd = await insertProduct(t, 'Share Purchase Agreement', 12_345.67);
    const { job } = await paidJob(true, odd);
    const above = await s.cancel(job.id, { refund: 12_346 });
    expect(above.statusCode).toBe(400);
    // Rounded to ₦12,346 the message would name an amount it then refuses.
    expect(above.json().message).toBe('The refund cannot be more than the ₦12,345.67 held for this job');
    expect((await s.cancel(job.id, { refund: 12_345.67 })).statusCode).toBe(200);
  });

  it('refuses a refund in fractions of a kobo rather than refunding another amount', async () => {
    const { job } = await paidJob();
    // ₦0.004 was cancelled with nothing refunded, and ₦100.005 refunded a sum nobody asked for.
    for (const refund of [0.004, 100.005, 24_999.999]) {
      const odd = await s.cancel(job.id, { refund });
      expect(odd.statusCode, String(refund)).toBe(400);
      expect(odd.json().message).toBe('refund must be in whole kobo (at most 2 decimals)');
    }
    const [open] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(open.stage).toBe('in_progress');
    expect(await s.refundOf(job.id)).toBeUndefined();
    expect((await s.cancel(job.id, { refund: 100.01 })).statusCode).toBe(200);
    expect(await s.refundOf(job.id)).toMatchObject({ amount: 10_001, status: 'completed' });
  });

  // Above ₦134,217,728 a naira amount times 100 is off its whole kobo by more than the old 1e-6 tolerance:
  // ₦310,786,835.84 was refused as "not in whole kobo".
  it('reads a large refund given in whole kobo as that sum, not as a fraction of a kobo', async () => {
    const { job } = await paidJob();
    for (const refund of [310_786_835.84, 149_773_283.55, 538_662_172.05]) {
      const above = await s.cancel(job.id, { refund });
      expect([above.statusCode, above.json().message], String(refund)).toEqual([
        400,
        'The refund cannot be more than the ₦25,000 held for this job',
      ]);
    }
  });

  it('refuses a refund above what is held, a negative one, a refund on another action, and non-admins', async () => {
    const { company, job } = await paidJob();
    const above = await s.cancel(job.id, { refund: 25_000.01 });
    expect(above.statusCode).toBe(400);
    expect(above.json().message).toBe('The refund cannot be more than the ₦25,000 held for this job');
    const negative = await s.cancel(job.id, { refund: -1 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toMatch(/refund cannot be negative/);
    const onMessage = await s.inject('POST', `/job-api/jobs/${job.id}/actions/message`, admin, {
      note: 'Hello',
      refund: 5,
    });
    expect(onMessage.statusCode).toBe(400);
    expect(onMessage.json().message).toBe('Only a cancellation takes a refund');
    expect((await s.cancel(job.id, {}, company)).statusCode).toBe(403);
    expect((await s.cancel(job.id, {}, lawyer)).statusCode).toBe(403);
    // Nothing of it happened: the job is open and nothing was released.
    const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row.stage).toBe('in_progress');
    expect(await s.postings(job.id)).toHaveLength(1);
    expect(await s.refundOf(job.id)).toBeUndefined();
  });

  it('twenty concurrent cancellations refund once', async () => {
    const { job, transactionId } = await paidJob();
    const codes = (await Promise.all(Array.from({ length: 20 }, () => s.cancel(job.id)))).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c !== 200 && c !== 409)).toEqual([]);
    expect(
      await t.rt.database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.transactionId, transactionId)),
    ).toHaveLength(1);
    const kinds = (await s.postings(job.id)).map((p) => p.kind);
    expect(kinds.filter((k) => k === 'refund')).toHaveLength(1);
    const audit = await t.rt.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, job.id), eq(auditLog.action, 'job.cancel')));
    expect(audit).toHaveLength(1);
  });
});

describeEachDb('refunds through Flutterwave (local stand-in): pending, webhooks, refusals, outages', (kind) => {
  const flw = flutterwaveStandIn();
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let tm: string;
  const s = steps(() => ({ t, admin, lawyer }));

  beforeAll(async () => {
    t = await createLoggedTestApp(kind, await listenStandIn(flw));
    [admin, lawyer] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'lawyer', { verified: true })]);
    tm = await insertProduct(t, 'Trademark Registration', 150_000);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => flw.server.close(r));
  });
  afterEach(async () => {
    flw.setRefundMode('completed');
    flw.setDown(false);
    expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]);
  });

  async function paidJob() {
    const company = await signupAndLogin(t, 'company');
    await s.inject('POST', '/api/cart', company, { productId: tm, quantity: 1 });
    const { reference, amount } = (await s.inject('POST', '/api/checkout', company)).json().data;
    const id = flw.pay(reference, amount);
    expect((await s.inject('POST', '/api/checkout/verify', company, { reference, transactionId: id })).statusCode).toBe(
      200,
    );
    const [job] = await t.rt.database.db.select().from(jobs).where(eq(jobs.companyId, company.id));
    return { company, job, transactionId: id };
  }
  const webhook = (body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'verif-hash': SECRET_HASH },
      payload: JSON.stringify(body),
    });
  async function until(check: () => Promise<boolean>) {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  }

  it('a pending refund completes once through fifty duplicate webhooks', async () => {
    const { company, job, transactionId } = await paidJob();
    flw.setRefundMode('pending');
    expect((await s.cancel(job.id)).statusCode).toBe(200);
    const pending = await s.refundOf(job.id);
    expect(pending).toMatchObject({ status: 'pending', amount: 15_000_000 });
    expect(pending.providerRefundId).toBeTruthy();
    expect((await s.postings(job.id)).map((p) => p.kind)).not.toContain('refund');

    const refund = flw.completeRefund(Number(pending.providerRefundId))!;
    expect(refund.tx_id).toBe(transactionId);
    const body = { event: 'refund.completed', data: { id: refund.id, status: 'completed', AmountRefunded: 150_000 } };
    const answers = await Promise.all(Array.from({ length: 50 }, () => webhook(body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    await until(async () => (await s.refundOf(job.id)).status === 'completed');
    await new Promise((r) => setTimeout(r, 200));
    expect(await s.refundOf(job.id)).toMatchObject({ status: 'completed' });
    const refundsPosted = (await s.postings(job.id)).filter((p) => p.kind === 'refund');
    expect(refundsPosted).toEqual([{ kind: 'refund', account: 'refunds_due', amount: 15_000_000 }]);
    const mails = (await mailsTo(t, company.email)).filter((m) => m.subject.startsWith('Your refund'));
    expect(mails).toHaveLength(1);
  });

  it('never trusts the webhook: a refund the provider does not know, or still pending, completes nothing', async () => {
    const { job } = await paidJob();
    flw.setRefundMode('pending');
    expect((await s.cancel(job.id)).statusCode).toBe(200);
    const pending = await s.refundOf(job.id);
    // Forged: says completed, but the provider still has it pending; and an id it never issued.
    await webhook({ event: 'refund.completed', data: { id: Number(pending.providerRefundId), status: 'completed' } });
    await webhook({ event: 'refund.completed', data: { id: 99_999_999, status: 'completed' } });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ event: 'refund.completed', data: { id: Number(pending.providerRefundId) } }),
    });
    expect(unsigned.statusCode).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(await s.refundOf(job.id)).toMatchObject({ status: 'pending' });
    expect((await s.postings(job.id)).map((p) => p.kind)).not.toContain('refund');
  });

  it('a refund whose webhook was lost is settled by the admin’s retry, which asks the provider, once', async () => {
    const { company, job } = await paidJob();
    flw.setRefundMode('pending');
    expect((await s.cancel(job.id)).statusCode).toBe(200);
    const pending = await s.refundOf(job.id);
    const retry = () => s.inject('POST', `/api/admin/refunds/${pending.id}/retry`, admin);
    // Still processing at the provider: nothing to settle, nothing sent again.
    const early = await retry();
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('The provider is still processing this refund');
    // The provider completes it and its webhook never arrives.
    flw.completeRefund(Number(pending.providerRefundId));
    // Two admins at once: both are told it completed; it is settled, posted and mailed once. Both ask the
    // provider before either settles (the stand-in answers the two lookups together): a retry that came
    // after the other had settled would be told 409 "already completed", as the last one below is.
    flw.meetRefundLookups(2);
    const answers = await Promise.all([retry(), retry()]);
    expect(answers.map((a) => [a.statusCode, a.json().refund?.status])).toEqual([
      [200, 'completed'],
      [200, 'completed'],
    ]);
    expect(await s.refundOf(job.id)).toMatchObject({ status: 'completed', providerRefundId: pending.providerRefundId });
    expect((await s.postings(job.id)).filter((p) => p.kind === 'refund')).toEqual([
      { kind: 'refund', account: 'refunds_due', amount: 15_000_000 },
    ]);
    const mails = (await mailsTo(t, company.email)).filter((m) => m.subject.startsWith('Your refund'));
    expect(mails).toHaveLength(1);
    expect((await retry()).json().message).toBe('This refund is already completed');
  });

  it('a webhook that matches two waiting refunds of one payment settles neither', async () => {
    // Two jobs of one order, the same price, cancelled together; their refund calls' answers were lost.
    const company = await signupAndLogin(t, 'company');
    const twin = await insertProduct(t, 'Trademark Search', 150_000);
    for (const productId of [tm, twin]) await s.inject('POST', '/api/cart', company, { productId, quantity: 1 });
    const { reference, amount } = (await s.inject('POST', '/api/checkout', company)).json().data;
    const transactionId = flw.pay(reference, amount);
    await s.inject('POST', '/api/checkout/verify', company, { reference, transactionId });
    const both = await t.rt.database.db.select().from(jobs).where(eq(jobs.companyId, company.id));
    expect(both).toHaveLength(2);
    flw.setRefundMode('pending');
    for (const job of both) expect((await s.cancel(job.id)).statusCode).toBe(200);
    const [first] = await Promise.all(both.map((j) => s.refundOf(j.id)));
    await t.rt.database.db
      .update(refunds)
      .set({ providerRefundId: null })
      .where(
        inArray(
          refunds.jobId,
          both.map((j) => j.id),
        ),
      );
    const done = flw.completeRefund(Number(first.providerRefundId))!;
    const res = await webhook({ event: 'refund.completed', data: { id: done.id, status: 'completed' } });
    expect(res.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    for (const job of both) expect(await s.refundOf(job.id)).toMatchObject({ status: 'pending' });
    for (const job of both) expect((await s.postings(job.id)).map((p) => p.kind)).not.toContain('refund');
  });

  it('a refund made but never answered is found, not sent again, when the admin retries', async () => {
    // Two jobs of one ₦300,000 payment: a second refund of the first job's ₦150,000 would go through.
    const company = await signupAndLogin(t, 'company');
    const other = await insertProduct(t, 'Trademark Opposition', 150_000);
    for (const productId of [tm, other]) await s.inject('POST', '/api/cart', company, { productId, quantity: 1 });
    const { reference, amount } = (await s.inject('POST', '/api/checkout', company)).json().data;
    const transactionId = flw.pay(reference, amount);
    await s.inject('POST', '/api/checkout/verify', company, { reference, transactionId });
    const [job] = await t.rt.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.companyId, company.id))
      .orderBy(jobs.lineNo)
      .limit(1);
    // Flutterwave makes the refund, but its answer (and its webhook) never arrive.
    flw.setRefundMode('lose');
    expect((await s.cancel(job.id)).statusCode).toBe(200);
    const waiting = await s.refundOf(job.id);
    expect(waiting).toMatchObject({ status: 'pending', providerRefundId: null });
    const made = [...flw.refunds.values()].filter((r) => r.tx_id === transactionId);
    expect(made).toHaveLength(1);
    made[0].created_at = t.clock.now().toISOString();
    flw.setRefundMode('completed');
    t.clock.advance(61_000);
    const retried = await s.inject('POST', `/api/admin/refunds/${waiting.id}/retry`, admin);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().refund).toMatchObject({ status: 'completed', amount: 150_000 });
    // One refund at the provider, the one settled here.
    expect([...flw.refunds.values()].filter((r) => r.tx_id === transactionId)).toHaveLength(1);
    expect(await s.refundOf(job.id)).toMatchObject({ status: 'completed', providerRefundId: String(made[0].id) });
    expect((await s.postings(job.id)).filter((p) => p.kind === 'refund')).toEqual([
      { kind: 'refund', account: 'refunds_due', amount: 15_000_000 },
    ]);
  });

  /** Two jobs of one payment at the same price: the first job's refund refused, so an admin may retry it. */
  async function refusedBesideTwin() {
    const company = await signupAndLogin(t, 'company');
    const twin = await insertProduct(t, 'Trademark Watch', 150_000);
    for (const productId of [tm, twin]) await s.inject('POST', '/api/cart', company, { productId, quantity: 1 });
    const { reference, amount } = (await s.inject('POST', '/api/checkout', company)).json().data;
    const transactionId = flw.pay(reference, amount);
    await s.inject('POST', '/api/checkout/verify', company, { reference, transactionId });
    const [a, b] = await t.rt.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.companyId, company.id))
      .orderBy(jobs.lineNo);
    flw.setRefundMode('refuse');
    expect((await s.cancel(a.id)).statusCode).toBe(200);
    expect(await s.refundOf(a.id)).toMatchObject({ status: 'failed' });
    flw.setRefundMode('completed');
    const made = () => [...flw.refunds.values()].filter((r) => r.tx_id === transactionId && r.status !== 'failed');
    expect(made()).toEqual([]);
    return { a, b, made };
  }
  const refundsPosted = async (jobId: string) => (await s.postings(jobId)).filter((p) => p.kind === 'refund');

  it('a retry never takes a refund of the same payment and amount whose answer is on its way: 409, then both settle', async () => {
    const { a, b, made } = await refusedBesideTwin();
    const failedA = await s.refundOf(a.id);
    const retryA = () => s.inject('POST', `/api/admin/refunds/${failedA.id}/retry`, admin);
    // B's refund is made at the provider; its answer is still on the way when the admin retries A.
    const release = flw.holdRefundResponses();
    // Started now (an inject runs when awaited), answered once the provider's answer arrives.
    const cancelB = (async () => s.cancel(b.id))();
    await until(async () => made().length === 1);
    // Listed on the app's day (the stand-in's clock is the wall's).
    made()[0].created_at = t.clock.now().toISOString();
    expect(made()).toHaveLength(1);
    const early = await retryA();
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(
      'Another refund of this payment for the same amount is being sent; try again in a minute',
    );
    release();
    expect((await cancelB).statusCode).toBe(200);
    expect(await s.refundOf(b.id)).toMatchObject({ status: 'completed', providerRefundId: String(made()[0].id) });
    // A minute on, A is sent on its own: two refunds at the provider, two posted.
    t.clock.advance(61_000);
    const retried = await retryA();
    expect(retried.statusCode).toBe(200);
    expect(retried.json().refund).toMatchObject({ status: 'completed', amount: 150_000 });
    expect(made()).toHaveLength(2);
    expect((await s.refundOf(a.id)).providerRefundId).toBe(String(made()[1].id));
    for (const job of [a, b])
      expect(await refundsPosted(job.id)).toEqual([{ kind: 'refund', account: 'refunds_due', amount: 15_000_000 }]);
  });

  it('an answer later than a minute, its refund taken by a retry, leaves its own refund waiting, never a 500', async () => {
    const { a, b, made } = await refusedBesideTwin();
    const failedA = await s.refundOf(a.id);
    const release = flw.holdRefundResponses();
    const cancelB = (async () => s.cancel(b.id))();
    await until(async () => made().length === 1);
    // Listed on the app's day (the stand-in's clock is the wall's).
    made()[0].created_at = t.clock.now().toISOString();
    // More than a minute without B's answer: A's retry finds B's refund unclaimed and takes it.
    t.clock.advance(61_000);
    const retried = await s.inject('POST', `/api/admin/refunds/${failedA.id}/retry`, admin);
    expect(retried.statusCode).toBe(200);
    release();
    expect((await cancelB).statusCode).toBe(200);
    // B's answer names a refund A holds: B waits, nothing is posted twice for one provider refund.
    const waitingB = await s.refundOf(b.id);
    expect(waitingB).toMatchObject({ status: 'pending', providerRefundId: null });
    expect(await refundsPosted(b.id)).toEqual([]);
    // Its retry finds no unclaimed refund and sends one: two refunds at the provider, two posted.
    t.clock.advance(61_000);
    const again = await s.inject('POST', `/api/admin/refunds/${waitingB.id}/retry`, admin);
    expect(again.statusCode).toBe(200);
    expect(again.json().refund).toMatchObject({ status: 'completed' });
    expect(made()).toHaveLength(2);
    for (const job of [a, b])
      expect(await refundsPosted(job.id)).toEqual([{ kind: 'refund', account: 'refunds_due', amount: 15_000_000 }]);
  });

  it.runIf(kind === 'postgres')(
    'two settlements naming one provider refund at once: one holds it, the other waits, nothing fails',
    async () => {
      const db = t.rt.database.db;
      const provider = createPaymentProvider(t.config, db, t.clock);
      const ledger = createLedger({ db, clock: t.clock });
      const service = createRefunds({ db, clock: t.clock, config: t.config, mailWritten: () => {}, provider, ledger });
      for (let round = 0; round < 5; round++) {
        const { a, b, made } = await refusedBesideTwin();
        // B's refund is made and its answer lost; A's retry and B's late answer then name it together.
        flw.setRefundMode('lose');
        expect((await s.cancel(b.id)).statusCode).toBe(200);
        flw.setRefundMode('completed');
        const x = (await provider.fetchRefund(String(made()[0].id)))!;
        const [ra, rb] = await Promise.all([s.refundOf(a.id), s.refundOf(b.id)]);
        await db.update(refunds).set({ status: 'pending' }).where(eq(refunds.id, ra.id));
        const answers = await Promise.all([service.settle(ra.id, x), service.settle(rb.id, x)]);
        expect(answers.sort()).toEqual([true, 'taken'].sort());
        const rows = await Promise.all([s.refundOf(a.id), s.refundOf(b.id)]);
        expect(rows.map((r) => r.status).sort()).toEqual(['completed', 'pending']);
        expect(rows.filter((r) => r.providerRefundId === x.id)).toHaveLength(1);
        const posted = [...(await refundsPosted(a.id)), ...(await refundsPosted(b.id))];
        expect(posted).toHaveLength(1);
        // The one left waiting is sent on its own: the books end with two refunds, two posted.
        t.clock.advance(61_000);
        const waiting = rows.find((r) => r.status === 'pending')!;
        expect((await s.inject('POST', `/api/admin/refunds/${waiting.id}/retry`, admin)).statusCode).toBe(200);
        expect(made()).toHaveLength(2);
      }
    },
  );

  it('a refund the provider refuses fails with the money still due; a retry sends it again', async () => {
    const { job } = await paidJob();
    flw.setRefundMode('refuse');
    expect((await s.cancel(job.id)).statusCode).toBe(200);
    const failed = await s.refundOf(job.id);
    expect(failed).toMatchObject({ status: 'failed', failure: 'Flutterwave refused the refund' });
    const balances = (await s.inject('GET', '/api/admin/ledger', admin)).json().balances;
    expect(balances.refundsDue).toBeGreaterThanOrEqual(150_000);

    flw.setRefundMode('completed');
    const retried = await s.inject('POST', `/api/admin/refunds/${failed.id}/retry`, admin);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().refund).toMatchObject({ status: 'completed', amount: 150_000 });
    expect((await s.inject('POST', `/api/admin/refunds/${failed.id}/retry`, admin)).statusCode).toBe(409);
  });

  it('while the provider is down the refund waits; a retry within a minute is refused, after it sends once', async () => {
    const { job, transactionId } = await paidJob();
    flw.setDown(true);
    expect((await s.cancel(job.id)).statusCode).toBe(200);
    const waiting = await s.refundOf(job.id);
    expect(waiting).toMatchObject({ status: 'pending', providerRefundId: null });
    flw.setDown(false);
    const early = await s.inject('POST', `/api/admin/refunds/${waiting.id}/retry`, admin);
    expect(early.statusCode).toBe(409);
    t.clock.advance(61_000);
    const tries = await Promise.all(
      [1, 2, 3].map(() => s.inject('POST', `/api/admin/refunds/${waiting.id}/retry`, admin)),
    );
    expect(tries.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect([...flw.refunds.values()].filter((r) => r.tx_id === transactionId)).toHaveLength(1);
    expect(await s.refundOf(job.id)).toMatchObject({ status: 'completed' });
    const posted = await t.rt.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.refundId, waiting.id), eq(ledgerTransactions.kind, 'refund')));
    expect(posted[0].n).toBe(1);
  });
});
