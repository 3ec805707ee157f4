import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs, orders, refunds } from '../../src/db/schema.js';
import { describeEachDb, signupAndLogin } from '../helpers.js';
import { secondInstance } from '../second-instance.js';
import { reconcilePendingOrders } from '../../src/features/checkout/reconciler.js';
import { moneyTestKit, signedWebhookTo, type MoneyTestApp } from '../../src/features/money/money-test-kit.js';

const quiet = { info() {}, warn() {}, error() {} };

/**
 * A company's money through Flutterwave raced across two instances: an order paid in two tabs, its cart
 * changed and the new order paid too, the browser, the webhooks and both instances' background jobs at
 * once, then both jobs cancelled with a refund while the webhooks and passes come again. Whatever wins,
 * every naira paid is held for a job or refunded, once, and no payment is refunded beyond what it paid.
 */
describeEachDb('money racer: payments, refunds and background passes on two instances', (kind) => {
  const kit = moneyTestKit(kind, { products: true, ledgerAudit: true });
  const { flw, db, add, start, verify, madeAtProvider } = kit;
  let t: MoneyTestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  const ROUNDS = kind === 'postgres' ? 5 : 1;

  beforeAll(async () => {
    t = kit.suite.t;
    other = await secondInstance(t, kind);
  });
  afterAll(() => other?.close());

  /** A signed `charge.completed` for `id`, delivered to the other instance. */
  const webhookThere = (id: number, txRef: string, amount: number) => {
    const raw = JSON.stringify({
      event: 'charge.completed',
      data: { id, tx_ref: txRef, amount, currency: 'NGN', charged_amount: amount, status: 'successful' },
    });
    return signedWebhookTo(other.app, raw);
  };
  const refundHookThere = (id: number) => {
    const raw = JSON.stringify({ event: 'refund.completed', data: { id } });
    return signedWebhookTo(other.app, raw);
  };
  /** One background pass (orders of any age, then refunds due) on this instance's pool or the other's. */
  const pass = (there: boolean) =>
    reconcilePendingOrders(
      { config: t.config, db: there && other.db ? other.db.db : db(), clock: t.clock, logger: quiet },
      { minAgeMs: 0 },
    );

  it('two tabs, a changed cart, cancels with refunds: each naira held for a job or refunded once', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { nda, tm } = kit.suite;
    for (let round = 0; round < ROUNDS; round++) {
      const who = await signupAndLogin(t, 'company');
      await add(who, nda);
      const a = await start(who);
      await add(who, tm);
      const b = await start(who);
      // A paid in two tabs (₦25,000 twice), B (₦175,000) once: ₦225,000 in, ₦175,000 of work bought once.
      const one = flw.pay(a.reference, a.amount);
      const two = flw.pay(a.reference, a.amount);
      const three = flw.pay(b.reference, b.amount);
      t.clock.advance(1000);
      const first = await Promise.all([
        verify(a, one),
        webhookThere(two, a.reference, a.amount),
        verify(b, three),
        pass(true),
        webhookThere(three, b.reference, b.amount),
        verify(a, two),
        pass(false),
        webhookThere(one, a.reference, a.amount),
        verify(a),
      ]);
      expect(
        first.filter((r) => 'statusCode' in r && r.statusCode !== 200).map((r) => 'statusCode' in r && r.body),
      ).toEqual([]);
      const mine = await db().select().from(orders).where(eq(orders.companyId, who.id));
      expect(mine.map((o) => o.status).sort()).toEqual(['paid', 'paid']);
      const made = await db().select().from(jobs).where(eq(jobs.companyId, who.id));
      // The NDA was in both carts: bought once, whichever order paid first.
      expect(made.map((j) => j.productId).sort()).toEqual([nda, tm].sort());

      // Both jobs cancelled (part of the trademark's refunded), on both instances, while the webhooks
      // come again and both background jobs run.
      t.clock.advance(1000);
      const cancel = (app: typeof t.app, id: string, refund?: number) =>
        app.inject({
          method: 'POST',
          url: `/job-api/jobs/${id}/actions/cancel`,
          headers: admin.headers,
          payload: { note: 'Withdrawn', ...(refund === undefined ? {} : { refund }) },
        });
      const [ndaJob, tmJob] = [made.find((j) => j.productId === nda)!, made.find((j) => j.productId === tm)!];
      const second = await Promise.all([
        cancel(other.app, tmJob.id, 100_000.5),
        webhookThere(two, a.reference, a.amount),
        cancel(t.app, ndaJob.id),
        pass(true),
        cancel(t.app, tmJob.id, 100_000.5),
        webhookThere(one, a.reference, a.amount),
        pass(false),
        cancel(other.app, ndaJob.id),
      ]);
      expect(
        second.filter((r) => 'statusCode' in r && r.statusCode >= 500).map((r) => 'statusCode' in r && r.body),
      ).toEqual([]);
      // Refund webhooks for everything the provider made, twice, on both instances.
      const all = [one, two, three].flatMap((tx) => madeAtProvider(tx).map((r) => r.id));
      await Promise.all(all.flatMap((id) => [refundHookThere(id), kit.refundWebhook(id)]));
      t.clock.advance(2 * 3600_000);
      await Promise.all([pass(true), pass(false)]);

      // What came back: each refund row once at the provider, none beyond its payment.
      const ours = (
        await Promise.all(mine.map((o) => db().select().from(refunds).where(eq(refunds.orderId, o.id))))
      ).flat();
      await vi.waitFor(async () => {
        const now = await db().select().from(refunds).where(eq(refunds.orderId, ours[0].orderId!));
        expect(now.every((r) => r.status === 'completed')).toBe(true);
      });
      const settled = (
        await Promise.all(mine.map((o) => db().select().from(refunds).where(eq(refunds.orderId, o.id))))
      ).flat();
      expect(settled.map((r) => r.status)).toEqual(settled.map(() => 'completed'));
      for (const tx of [one, two, three]) {
        const atProvider = madeAtProvider(tx);
        const paid = tx === three ? 175_000 : 25_000;
        expect(atProvider.reduce((s, r) => s + r.amount_refunded, 0)).toBeLessThanOrEqual(paid);
        // One provider refund for each of ours of this payment, never two.
        const rows = settled.filter(
          (r) =>
            (r.providerTransactionId ?? mine.find((o) => o.id === r.orderId)?.providerTransactionId) === String(tx),
        );
        expect(atProvider.map((r) => String(r.id)).sort()).toEqual(rows.map((r) => r.providerRefundId).sort());
      }
      // ₦225,000 in; ₦25,000 (the NDA's second tab or its second order) + ₦25,000 (the NDA's cancel) +
      // ₦100,000.50 (the trademark's cancel) + the ₦25,000 the second NDA line held: all back but ₦49,999.50.
      const back = settled.reduce((s, r) => s + r.amount, 0);
      expect(back).toBe(22_500_000 - 4_999_950);
    }
  });
});
