import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { jobs, refunds } from '../../src/db/schema.js';
import { describeEachDb, signupAndLogin } from '../helpers.js';
import { reconcilePendingOrders } from '../../src/features/checkout/reconciler.js';
import { secondInstance } from '../second-instance.js';
import { moneyTestKit, signedWebhookTo, type MoneyTestApp } from '../../src/features/money/money-test-kit.js';

const HOUR = 3600_000;

/**
 * One paid order of two jobs, on two instances at once: both jobs cancelled by two admins (one in
 * part, one twice), a second charge of the same reference arriving by webhook on both instances and
 * by the browser, the refunds' webhooks and both instances' background passes. Whatever wins, each
 * job is refunded once and at most what it held, the second charge comes back whole once, the
 * provider never refunds more of a payment than it took, and the ledger audits clean.
 */
describeEachDb('money racer: refunds of one payment on two instances', (kind) => {
  const kit = moneyTestKit(kind, { products: true, ledgerAudit: true });
  const { flw, db, add, again, start, verify, reconcile, orderOf, madeAtProvider, refundsDue } = kit;
  let t: MoneyTestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let nda: string;
  let tm: string;
  const ROUNDS = kind === 'postgres' ? 8 : 1;

  beforeAll(async () => {
    ({ t, nda, tm } = kit.suite);
    other = await secondInstance(t, kind);
  });
  afterAll(async () => {
    await other?.close();
  });

  const cancelOn = (app: MoneyTestApp['app'], who: { headers: Record<string, string> }, jobId: string, body = {}) =>
    app.inject({
      method: 'POST',
      url: `/job-api/jobs/${jobId}/actions/cancel`,
      headers: who.headers,
      payload: { note: 'The company closed the deal.', ...body },
    });
  const chargeHook = (app: MoneyTestApp['app'], id: number, txRef: string, amount: number) =>
    signedWebhookTo(
      app,
      JSON.stringify({
        event: 'charge.completed',
        data: { id, tx_ref: txRef, amount, currency: 'NGN', charged_amount: amount, status: 'successful' },
      }),
    );
  const refundHook = (app: MoneyTestApp['app'], id: number) =>
    signedWebhookTo(app, JSON.stringify({ event: 'refund.completed', data: { id } }));

  it('two admins cancelling both jobs, a second charge and every settlement path at once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const admin1 = await signupAndLogin(t, 'admin');
      const admin2 = await signupAndLogin(t, 'admin');
      const who = await signupAndLogin(t, 'company');
      await add(who, nda);
      await add(who, tm);
      const o = await start(who);
      const first = flw.pay(o.reference, o.amount);
      expect((await verify(o, first)).statusCode).toBe(200);
      const mine = await db().select().from(jobs).where(eq(jobs.orderId, o.orderId));
      const ndaJob = mine.find((j) => j.productId === nda)!;
      const tmJob = mine.find((j) => j.productId === tm)!;
      // The dialog took the card twice: a second successful charge under the same reference.
      const second = flw.pay(o.reference, o.amount);
      const sends = [
        () => cancelOn(t.app, admin1, ndaJob.id),
        () => cancelOn(other.app, admin2, ndaJob.id),
        () => cancelOn(other.app, admin2, tmJob.id, { refund: 100_000 }),
        () => chargeHook(t.app, second, o.reference, o.amount),
        () => chargeHook(other.app, second, o.reference, o.amount),
        () => verify(o, second),
        () => reconcile(),
      ];
      const all = await Promise.all(sends.map((_, i) => sends[(i + round) % sends.length]()));
      for (const r of all)
        if (r && typeof r === 'object' && 'statusCode' in r)
          expect([200, 409], `${r.statusCode} ${r.body}`).toContain(r.statusCode);
      // The provider's webhooks for every refund made, on both instances, with two passes of the job.
      await vi.waitFor(() => expect(madeAtProvider(second)).toHaveLength(1));
      const made = [...madeAtProvider(first), ...madeAtProvider(second)];
      t.clock.advance(2 * HOUR);
      await Promise.all([
        ...made.flatMap((r) => [refundHook(t.app, r.id), refundHook(other.app, r.id)]),
        reconcile(),
        reconcile(),
      ]);
      const rows = await db()
        .select()
        .from(refunds)
        .where(inArray(refunds.orderId, [o.orderId]));
      const ofJob = (id: string) => rows.filter((r) => r.jobId === id).map((r) => r.amount);
      expect(ofJob(ndaJob.id), `round ${round}`).toEqual([2_500_000]);
      expect(ofJob(tmJob.id), `round ${round}`).toEqual([10_000_000]);
      expect(rows.filter((r) => r.providerTransactionId === String(second)).map((r) => r.amount)).toEqual([17_500_000]);
      await vi.waitFor(async () =>
        expect((await db().select().from(refunds).where(eq(refunds.orderId, o.orderId))).map((r) => r.status)).toEqual([
          'completed',
          'completed',
          'completed',
        ]),
      );
      // At the provider: each refund made once, never more than a payment took.
      expect(
        madeAtProvider(first)
          .map((r) => r.amount_refunded)
          .sort((a, b) => a - b),
      ).toEqual([25_000, 100_000]);
      expect(madeAtProvider(second).map((r) => r.amount_refunded)).toEqual([175_000]);
      expect(await refundsDue()).toBe(0);
    }
  });

  it('a payment refunded as late on one instance never pays its order on another whose clock is behind', async () => {
    const quiet = { info() {}, warn() {}, error() {} };
    for (let round = 0; round < ROUNDS; round++) {
      const who = await signupAndLogin(t, 'company');
      await add(who, nda);
      const o = await start(who);
      const closesAt = (await orderOf(o.orderId)).createdAt.getTime() + 48 * HOUR;
      // Paid half a second after the order closed, by Flutterwave's clock.
      t.clock.advance(closesAt + 500 - t.clock.now().getTime());
      const paid = flw.pay(o.reference, o.amount);
      t.clock.advance(500);
      // This instance's clock has passed the close: the payment is refunded whole.
      const late = await verify({ ...o, who: await again(who) }, paid);
      expect(late.statusCode).toBe(400);
      await vi.waitFor(() => expect(madeAtProvider(paid).map((r) => r.amount_refunded)).toEqual([25_000]));
      // Another instance's background job, its clock two seconds behind (still before the close),
      // asks about the same order and gets the same payment.
      const behind = { now: () => new Date(t.clock.now().getTime() - 2000) };
      await reconcilePendingOrders({ config: t.config, db: db(), clock: behind, logger: quiet }, { minAgeMs: 0 });
      // Refunded, so it paid nothing: no jobs, the order unpaid, one refund.
      expect(await db().select().from(jobs).where(eq(jobs.orderId, o.orderId)), `round ${round}`).toEqual([]);
      expect((await orderOf(o.orderId)).status).not.toBe('paid');
      const back = await db()
        .select()
        .from(refunds)
        .where(and(eq(refunds.providerTransactionId, String(paid)), isNull(refunds.jobId)));
      expect(back.map((r) => r.amount)).toEqual([2_500_000]);
      expect(await refundsDue()).toBe(0);
    }
  });
});
