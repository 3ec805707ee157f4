import { beforeAll, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../db/schema.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { createPaymentProvider, type PaymentProvider } from '../../platform/payments/index.js';
import { reconcilePendingOrders } from '../checkout/reconciler.js';
import { latch, moneyTestKit, type MoneyTestApp } from './money-test-kit.js';

const HOUR = 3600_000;
const quiet = { info() {}, warn() {}, error() {} };

/**
 * Outside testers' attacks on the refunds of money a payment paid for nothing (decisions 2250, 2251)
 * meeting the older refunds: a refund never sent twice, a paying transaction never refunded as a stray,
 * and never more refunded of a payment than it paid.
 */
describeEachDb('refund attacks', (kind) => {
  const kit = moneyTestKit(kind, { products: true, ledgerAudit: true });
  const { flw, db, inject, again, add, start, verify, reconcile, orderOf, strays, madeAtProvider } = kit;
  const { paymentWebhook, refundWebhook, resendRacingRetry, refundsDue } = kit;
  let t: MoneyTestApp;
  let nda: string;
  let tm: string;
  beforeAll(() => {
    ({ t, nda, tm } = kit.suite);
  });

  const realProvider = () => createPaymentProvider(t.config, db(), t.clock);

  /**
   * A company that bought the NDA in a replaced order A and then paid B (the NDA and a trademark,
   * ₦175,000): B's ₦25,000 for the NDA comes back as a partial refund of B's payment, which the provider
   * would take twice (two ₦25,000 refunds fit in ₦175,000).
   */
  async function boughtTwice() {
    const who = await signupAndLogin(t, 'company');
    await add(who, nda);
    const a = await start(who);
    await add(who, tm);
    const b = await start(who);
    t.clock.advance(1000);
    expect((await verify(a, flw.pay(a.reference, a.amount))).statusCode).toBe(200);
    t.clock.advance(1000);
    const paidB = flw.pay(b.reference, b.amount);
    expect((await verify(b, paidB)).statusCode).toBe(200);
    return { who, a, b, paidB };
  }

  it('the background job and an admin retrying a refused refund at the same moment send it once', async () => {
    flw.setRefundMode('refuse');
    const { b, paidB } = await boughtTwice();
    const [failed] = await strays(b.orderId);
    expect(failed).toMatchObject({ status: 'failed', amount: 2_500_000 });
    flw.setRefundMode('completed');
    t.clock.advance(HOUR + 60_000);
    // The admin's retry (POST /api/admin/refunds/:id/retry) reaches the provider slowly, pressed right
    // after the background job has claimed the refused refund.
    const answer = await resendRacingRetry(failed.id);
    // One refund at the provider (without the claim marking it pending: two of ₦25,000).
    expect(madeAtProvider(paidB).map((r) => r.amount_refunded)).toEqual([25_000]);
    // The retry was told the refund is being sent (409), and sent nothing.
    expect(answer).toMatchObject({ statusCode: 409 });
    expect((await strays(b.orderId)).map((r) => r.status)).toEqual(['completed']);
    t.clock.advance(2 * HOUR);
    await reconcile();
    expect(madeAtProvider(paidB)).toHaveLength(1);
    expect(await refundsDue()).toBe(0);
  });

  it('the payment that paid an order is never refunded as late by a caller that read the order unpaid', async () => {
    const who = await signupAndLogin(t, 'company');
    await add(who, nda, 2);
    const o = await start(who);
    // A minute before the order closes, the company pays; Flutterwave's answer gives no time.
    t.clock.advance(48 * HOUR - 60_000);
    const late = { ...o, who: await again(o.who) };
    const paid = flw.pay(o.reference, o.amount, { createdAt: null });
    // The background job reads the order unpaid and asks the provider, whose answer is slow.
    const real = realProvider();
    const asked = latch();
    const slowResponse = latch();
    const provider: PaymentProvider = {
      ...real,
      async verifyByReference(ref) {
        if (ref === o.reference) {
          asked.open();
          await slowResponse.opened;
        }
        return real.verifyByReference(ref);
      },
    };
    const pass = reconcilePendingOrders(
      { config: t.config, db: db(), clock: t.clock, logger: quiet, provider },
      { minAgeMs: 0 },
    );
    await asked.opened;
    // Meanwhile the browser verifies the payment, in time: the order is paid and its jobs open.
    expect((await verify(late, paid)).statusCode).toBe(200);
    expect(await orderOf(o.orderId)).toMatchObject({ status: 'paid', providerTransactionId: String(paid) });
    // The job's answer arrives after the order closed.
    t.clock.advance(2 * 60_000);
    slowResponse.open();
    await pass;
    await vi.waitFor(async () => expect(madeAtProvider(paid)).toEqual([]));
    expect(await strays(o.orderId)).toEqual([]);
    expect(await db().select().from(jobs).where(eq(jobs.orderId, o.orderId))).toHaveLength(1);
    expect(await refundsDue()).toBe(0);
  });

  it('never more refunded of a payment than it paid: lines bought twice, then every job cancelled', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { b, paidB } = await boughtTwice();
    await vi.waitFor(async () => expect((await strays(b.orderId))[0]?.status).toBe('completed'));
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, b.orderId));
    const cancel = (body: Record<string, unknown>) =>
      inject('POST', `/job-api/jobs/${job.id}/actions/cancel`, admin, { note: 'Closed.', ...body });
    // More than the trademark's job holds: refused; everything held, twice at once: refunded once.
    expect((await cancel({ refund: 150_001 })).statusCode).toBe(400);
    const answers = await Promise.all([cancel({ key: 'cancel-one' }), cancel({ key: 'cancel-one' })]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await cancel({})).statusCode).toBe(409);
    // Sent again under its key asking for another refund: 422, nothing more.
    expect((await cancel({ key: 'cancel-one', refund: 1 })).statusCode).toBe(422);
    expect(madeAtProvider(paidB).map((r) => r.amount_refunded)).toEqual([25_000, 150_000]);
    // The provider's webhooks for both, replayed, and the background job: nothing more.
    await Promise.all(madeAtProvider(paidB).flatMap((r) => [refundWebhook(r.id), refundWebhook(r.id)]));
    t.clock.advance(2 * HOUR);
    await reconcile();
    expect(madeAtProvider(paidB)).toHaveLength(2);
    expect(await refundsDue()).toBe(0);
  });

  it('rounds of the background job, admin retries and refund webhooks racing: each refund sent once', async () => {
    for (let round = 0; round < 3; round++) {
      const admin = await signupAndLogin(t, 'admin');
      flw.setRefundMode('refuse');
      const { b, paidB } = await boughtTwice();
      const [failed] = await strays(b.orderId);
      flw.setRefundMode('completed');
      t.clock.advance(HOUR + 60_000);
      const pass = reconcile;
      const retry = () => inject('POST', `/api/admin/refunds/${failed.id}/retry`, admin);
      const answers = await Promise.all([pass(), retry(), pass(), retry()]);
      expect(answers.filter((a) => 'statusCode' in a && a.statusCode >= 500)).toEqual([]);
      await Promise.all(madeAtProvider(paidB).map((r) => refundWebhook(r.id)));
      t.clock.advance(2 * HOUR);
      await pass();
      expect(madeAtProvider(paidB).map((r) => r.amount_refunded)).toEqual([25_000]);
      expect((await strays(b.orderId)).map((r) => r.status)).toEqual(['completed']);
    }
    expect(await refundsDue()).toBe(0);
  });

  it('an answer lost, then the background job, admin retries and the refund webhook at once: one refund', async () => {
    for (let round = 0; round < 3; round++) {
      const admin = await signupAndLogin(t, 'admin');
      flw.setRefundMode('lose');
      const { b, paidB } = await boughtTwice();
      const [lost] = await strays(b.orderId);
      expect(lost).toMatchObject({ status: 'pending', providerRefundId: null });
      expect(madeAtProvider(paidB)).toHaveLength(1);
      flw.setRefundMode('completed');
      t.clock.advance(2 * 60_000);
      const pass = reconcile;
      const retry = () => inject('POST', `/api/admin/refunds/${lost.id}/retry`, admin);
      const made = madeAtProvider(paidB)[0].id;
      const answers = await Promise.all([pass(), retry(), refundWebhook(made), pass(), retry(), refundWebhook(made)]);
      expect(answers.filter((a) => 'statusCode' in a && a.statusCode >= 500)).toEqual([]);
      t.clock.advance(2 * HOUR);
      await pass();
      expect(madeAtProvider(paidB).map((r) => r.amount_refunded)).toEqual([25_000]);
      expect(await strays(b.orderId)).toEqual([
        expect.objectContaining({ status: 'completed', providerRefundId: String(made) }),
      ]);
    }
    expect(await refundsDue()).toBe(0);
  });

  it('two payments of one order racing through verify and webhook: the loser refunded, the payer never', async () => {
    const admin = await signupAndLogin(t, 'admin');
    for (let round = 0; round < 3; round++) {
      const who = await signupAndLogin(t, 'company');
      await add(who, nda, 2);
      const o = await start(who);
      const one = flw.pay(o.reference, o.amount);
      const two = flw.pay(o.reference, o.amount);
      const answers = await Promise.all([
        verify(o, one),
        paymentWebhook(two, o.reference, o.amount),
        verify(o, two),
        paymentWebhook(one, o.reference, o.amount),
        verify(o),
      ]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const { providerTransactionId: payer } = await orderOf(o.orderId);
      const loser = payer === String(one) ? two : one;
      await vi.waitFor(async () => expect((await strays(o.orderId))[0]?.status).toBe('completed'));
      expect(await strays(o.orderId)).toEqual([expect.objectContaining({ providerTransactionId: String(loser) })]);
      // The payer's whole amount is still there for its job's cancel, and no more.
      const [job] = await db().select().from(jobs).where(eq(jobs.orderId, o.orderId));
      const cancel = await inject('POST', `/job-api/jobs/${job.id}/actions/cancel`, admin, { note: 'Closed.' });
      expect(cancel.statusCode).toBe(200);
      expect(madeAtProvider(payer!).map((r) => r.amount_refunded)).toEqual([o.amount]);
      expect(madeAtProvider(loser).map((r) => r.amount_refunded)).toEqual([o.amount]);
    }
    expect(await refundsDue()).toBe(0);
  });
});
