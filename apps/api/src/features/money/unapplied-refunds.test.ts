import { beforeAll, expect, it, vi } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { RefundView } from '@legalmarket/contracts';
import { ledgerEntries, ledgerTransactions, users } from '../../db/schema.js';
import { describeEachDb, otherConnection, signupAndLogin } from '../../../test/helpers.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { reconcilePendingOrders } from '../checkout/reconciler.js';
import { UNAPPLIED_REASONS } from '../checkout/service.js';
import { createPaymentProvider } from '../../platform/payments/index.js';
import { moneyTestKit, type MoneyTestApp } from './money-test-kit.js';

const HOUR = 3600_000;

/**
 * Decision 2250: money a payment paid for nothing (the order already paid, the order closed two days,
 * lines another order bought) goes back to the company by itself, exactly once, posted in the ledger,
 * mailed with a credit note and listed for the admin and the company; the provider unreachable or
 * refusing leaves it to the background job, never lost and never sent twice.
 */
describeEachDb('refunds of money a payment paid for nothing', (kind) => {
  const kit = moneyTestKit(kind, { products: true, ledgerAudit: true });
  const { flw, db, inject, again, add, start, verify, paymentWebhook: webhook, reconcile } = kit;
  const { orderOf, strays, madeAtProvider, postingsOf, refundsDue } = kit;
  let t: MoneyTestApp;
  let nda: string;
  let tm: string;
  beforeAll(() => {
    ({ t, nda, tm } = kit.suite);
  });

  const ready = async () => {
    const who = await signupAndLogin(t, 'company');
    await add(who, nda, 2);
    return start(who);
  };

  /** A paid order, and a second successful payment of its reference made in another tab. */
  async function paidTwice() {
    const o = await ready();
    const first = flw.pay(o.reference, o.amount);
    expect((await verify(o, first)).statusCode).toBe(200);
    t.clock.advance(1000);
    const second = flw.pay(o.reference, o.amount);
    return { o, first, second };
  }

  it('a second payment of a paid order is refunded whole, once, however it arrives', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { o, first, second } = await paidTwice();
    const answers = await Promise.all([
      verify(o, second),
      verify(o, second),
      webhook(second, o.reference, o.amount),
      webhook(second, o.reference, o.amount),
      webhook(first, o.reference, o.amount),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await vi.waitFor(async () => expect((await strays(o.orderId))[0]?.status).toBe('completed'));
    const [refund] = await strays(o.orderId);
    expect(await strays(o.orderId)).toHaveLength(1);
    expect(refund).toMatchObject({
      amount: o.amount * 100,
      providerTransactionId: String(second),
      reason: UNAPPLIED_REASONS.paidTwice,
    });
    expect(madeAtProvider(second).map((r) => r.amount_refunded)).toEqual([o.amount]);
    expect(madeAtProvider(first)).toEqual([]);
    // Posted in (the payment paid no order) and out, and nothing is left due.
    expect(await postingsOf(refund.id)).toEqual([
      { kind: 'unapplied', account: 'provider_cash', amount: 5_000_000 },
      { kind: 'unapplied', account: 'refunds_due', amount: -5_000_000 },
      { kind: 'refund', account: 'refunds_due', amount: 5_000_000 },
      { kind: 'refund', account: 'provider_cash', amount: -5_000_000 },
    ]);
    expect(await orderOf(o.orderId)).toMatchObject({ status: 'paid', providerTransactionId: String(first) });
    // The company is told, with its credit note, and sees the refund; so does the admin.
    const mail = (await mailsTo(t, o.who.email)).find((m) => m.subject === 'Your refund of ₦50,000 is on its way');
    expect(mail?.text ?? JSON.stringify(mail)).toContain(UNAPPLIED_REASONS.paidTwice);
    expect(JSON.stringify(mail)).toContain(`credit-note-CN-${o.reference}-T${second}.pdf`);
    const mine = (await inject('GET', '/api/refunds', o.who)).json().refunds;
    expect(mine).toEqual([expect.objectContaining({ _id: refund.id, orderId: o.orderId, amount: 50_000 })]);
    const note = await inject('GET', `/api/refunds/${refund.id}/credit-note.pdf`, o.who);
    expect(note.statusCode).toBe(200);
    const list = (await inject('GET', '/api/admin/refunds', admin)).json().refunds as RefundView[];
    expect(list.find((r) => r._id === refund.id)).toMatchObject({
      jobId: null,
      orderId: o.orderId,
      status: 'completed',
      amount: 50_000,
    });
    // The reconciliation finds the second payment in the ledger, and its refund.
    const day = new Date(t.clock.now().getTime() + HOUR).toISOString().slice(0, 10);
    const rec = await inject('GET', `/api/admin/reconciliation?from=${day}&to=${day}`, admin);
    expect(rec.statusCode).toBe(200);
    const named = (rec.json().differences as { providerId: string | null; reference: string }[]).filter(
      (d) => d.reference === o.reference,
    );
    expect(named).toEqual([]);
  });

  it('a second payment the provider says charged below its amount is left to an admin, never refunded whole', async () => {
    const o = await ready();
    const first = flw.pay(o.reference, o.amount);
    expect((await verify(o, first)).statusCode).toBe(200);
    t.clock.advance(1000);
    // ₦50,000 paid, ₦40,000 charged: a refund of the amount would give back ₦10,000 never taken.
    const short = flw.pay(o.reference, o.amount, { chargedAmount: o.amount - 10_000 });
    const answers = await Promise.all([verify(o, short), verify(o, short)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await strays(o.orderId)).toEqual([]);
    expect(madeAtProvider(short)).toEqual([]);
    expect(await refundsDue()).toBe(0);
    // Still logged as paid twice, for the admin.
    const logged = t.security.of('payment_paid_twice').filter((e) => String(e.transactionId) === String(short));
    expect(logged.length).toBeGreaterThan(0);
  });

  it('a second payment for an account erased since opens no refund: it stays logged for an admin', async () => {
    const { o, second } = await paidTwice();
    await db().update(users).set({ deletedAt: t.clock.now() }).where(eq(users.id, o.who.id));
    expect((await webhook(second, o.reference, o.amount)).statusCode).toBe(200);
    const logged = () => t.security.of('payment_paid_twice').filter((e) => String(e.transactionId) === String(second));
    await vi.waitFor(() => expect(logged()).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(await strays(o.orderId)).toEqual([]);
    expect(madeAtProvider(second)).toEqual([]);
  });

  it.runIf(kind === 'postgres')(
    'a second payment found outside the order lock waits for the company lock an erasure holds',
    async () => {
      const { o, second } = await paidTwice();
      // Another transaction holds the company's lock, as a running erasure does from its blockers to its commit.
      const other = await otherConnection(t);
      let answer: ReturnType<typeof verify> | undefined;
      try {
        await other.query('begin');
        await other.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`lm-company:${o.who.id}`]);
        answer = verify(o, second);
        await new Promise((r) => setTimeout(r, 400));
        // Nothing is opened under the erasure's feet: it would erase the account with a refund owed.
        expect(await strays(o.orderId)).toEqual([]);
        await other.query('commit');
      } finally {
        await other.end();
      }
      // Let go without erasing: the refund is opened and sent, once.
      expect((await answer!).statusCode).toBe(200);
      await vi.waitFor(async () => expect((await strays(o.orderId))[0]?.status).toBe('completed'));
      expect(madeAtProvider(second).map((r) => r.amount_refunded)).toEqual([o.amount]);
    },
  );

  it('a payment made after its order closed is refunded whole, once, by verify, webhook and the background job', async () => {
    const o = await ready();
    t.clock.advance(48 * HOUR + 60_000);
    const who = await again(o.who);
    const late = flw.pay(o.reference, o.amount);
    const answers = await Promise.all([
      verify({ ...o, who }, late),
      verify({ ...o, who }),
      webhook(late, o.reference, o.amount),
      reconcile(),
    ]);
    expect(answers[0]).toMatchObject({ statusCode: 400 });
    await reconcile();
    await vi.waitFor(async () => expect((await strays(o.orderId))[0]?.status).toBe('completed'));
    expect(await strays(o.orderId)).toEqual([
      expect.objectContaining({
        amount: o.amount * 100,
        providerTransactionId: String(late),
        reason: UNAPPLIED_REASONS.closed,
      }),
    ]);
    expect(madeAtProvider(late).map((r) => r.amount_refunded)).toEqual([o.amount]);
    expect((await orderOf(o.orderId)).status).not.toBe('paid');
    expect(await refundsDue()).toBe(0);
  });

  it('lines another order already bought: exactly their amount comes back, from what the order held', async () => {
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
    await vi.waitFor(async () => expect((await strays(b.orderId))[0]?.status).toBe('completed'));
    const [refund] = await strays(b.orderId);
    expect(refund).toMatchObject({
      amount: 25_000 * 100,
      providerTransactionId: String(paidB),
      reason: UNAPPLIED_REASONS.boughtTwice,
    });
    expect(await strays(a.orderId)).toEqual([]);
    expect(madeAtProvider(paidB).map((r) => r.amount_refunded)).toEqual([25_000]);
    expect(await postingsOf(refund.id)).toEqual([
      { kind: 'unapplied', account: 'held_for_jobs', amount: 2_500_000 },
      { kind: 'unapplied', account: 'refunds_due', amount: -2_500_000 },
      { kind: 'refund', account: 'refunds_due', amount: 2_500_000 },
      { kind: 'refund', account: 'provider_cash', amount: -2_500_000 },
    ]);
    // Nothing is left held against B beyond its jobs: what it held for the NDA went back.
    const [held] = await db()
      .select({ kobo: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(
        and(
          eq(ledgerTransactions.orderId, b.orderId),
          eq(ledgerTransactions.kind, 'payment'),
          eq(ledgerEntries.account, 'held_for_jobs'),
          isNull(ledgerEntries.jobId),
        ),
      );
    expect(held.kobo).toBe(-2_500_000);
    // Verified again, and by its webhook: nothing more.
    expect((await verify(b, paidB)).statusCode).toBe(200);
    await webhook(paidB, b.reference, b.amount);
    await reconcile();
    expect(await strays(b.orderId)).toHaveLength(1);
    expect(madeAtProvider(paidB)).toHaveLength(1);
  });

  it('the provider unreachable: the refund stays pending and the background job sends it once, a minute on', async () => {
    const { o, second } = await paidTwice();
    flw.setRefundMode('unavailable');
    expect((await verify(o, second)).statusCode).toBe(200);
    const [pending] = await strays(o.orderId);
    expect(pending).toMatchObject({ status: 'pending', providerRefundId: null, amount: o.amount * 100 });
    expect(await refundsDue()).toBe(o.amount);
    // Money still owed to the company holds its erasure back, as a cancelled job's refund does.
    const deletion = await inject('GET', '/api/account/deletion', o.who);
    expect(deletion.json().data.blockers).toContainEqual(
      expect.objectContaining({ kind: 'pending_refund', message: expect.stringContaining('₦50,000') }),
    );
    // Still down a minute on: tried, left pending.
    t.clock.advance(2 * 60_000);
    await reconcile();
    expect((await strays(o.orderId))[0]).toMatchObject({ status: 'pending', providerRefundId: null });
    flw.setRefundMode('completed');
    // Within the minute after that try: not sent again yet.
    await reconcile();
    expect(madeAtProvider(second)).toEqual([]);
    t.clock.advance(2 * 60_000);
    const passes = await Promise.all([reconcile(), reconcile(), reconcile()]);
    expect(passes.reduce((s, p) => s + p.refundsSent, 0)).toBe(1);
    expect((await strays(o.orderId))[0]).toMatchObject({ status: 'completed' });
    t.clock.advance(2 * 60_000);
    await reconcile();
    expect(madeAtProvider(second).map((r) => r.amount_refunded)).toEqual([o.amount]);
    expect(await refundsDue()).toBe(0);
  });

  it('a pass that fails on an order still sends the refunds due, then fails as before', async () => {
    flw.setRefundMode('unavailable');
    const { o, second } = await paidTwice();
    expect((await verify(o, second)).statusCode).toBe(200);
    expect((await strays(o.orderId))[0]).toMatchObject({ status: 'pending', providerRefundId: null });
    flw.setRefundMode('completed');
    // An order left pending whose lookup throws: a fault, not an outage, so the orders' step fails.
    await ready();
    t.clock.advance(61_000);
    const real = createPaymentProvider(t.config, db(), t.clock);
    const provider = { ...real, verifyByReference: () => Promise.reject(new Error('an answer that cannot be read')) };
    const pass = reconcilePendingOrders(
      { config: t.config, db: db(), clock: t.clock, provider, logger: { info() {}, warn() {}, error() {} } },
      { minAgeMs: 0 },
    );
    await expect(pass).rejects.toThrow('an answer that cannot be read');
    expect((await strays(o.orderId))[0].status).toBe('completed');
    expect(madeAtProvider(second).map((r) => r.amount_refunded)).toEqual([o.amount]);
  });

  it('an answer lost on the way back: the background job takes the refund the provider made, never a second', async () => {
    const { o, second } = await paidTwice();
    flw.setRefundMode('lose');
    expect((await verify(o, second)).statusCode).toBe(200);
    expect((await strays(o.orderId))[0]).toMatchObject({ status: 'pending', providerRefundId: null });
    flw.setRefundMode('completed');
    t.clock.advance(2 * 60_000);
    await reconcile();
    expect((await strays(o.orderId))[0]).toMatchObject({ status: 'completed' });
    expect(madeAtProvider(second)).toHaveLength(1);
  });

  it('refused by the provider: failed and listed for the admin, then tried again by the background job an hour on', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { o, second } = await paidTwice();
    flw.setRefundMode('refuse');
    expect((await verify(o, second)).statusCode).toBe(200);
    const [failed] = await strays(o.orderId);
    expect(failed).toMatchObject({ status: 'failed', amount: o.amount * 100 });
    const list = (await inject('GET', '/api/admin/refunds', admin)).json().refunds as RefundView[];
    expect(list.find((r) => r._id === failed.id)).toMatchObject({ status: 'failed', jobId: null });
    expect(await refundsDue()).toBe(o.amount);
    flw.setRefundMode('completed');
    t.clock.advance(30 * 60_000);
    await reconcile();
    expect((await strays(o.orderId))[0].status).toBe('failed');
    t.clock.advance(31 * 60_000);
    await reconcile();
    expect((await strays(o.orderId))[0].status).toBe('completed');
    expect(madeAtProvider(second).map((r) => r.amount_refunded)).toEqual([o.amount]);
    expect(await refundsDue()).toBe(0);
  });

  it('verify, webhook and the background job racing for payments that paid nothing: one refund each, a clean ledger', async () => {
    const twice = await paidTwice();
    const late = await ready();
    t.clock.advance(48 * HOUR + 60_000);
    const who = await again(late.who);
    const whoTwice = await again(twice.o.who);
    const lateId = flw.pay(late.reference, late.amount);
    const o = { ...twice.o, who: whoTwice };
    await Promise.all([
      ...Array.from({ length: 4 }, () => verify(o, twice.second)),
      ...Array.from({ length: 3 }, () => webhook(twice.second, o.reference, o.amount)),
      ...Array.from({ length: 4 }, () => verify({ ...late, who }, lateId)),
      ...Array.from({ length: 3 }, () => webhook(lateId, late.reference, late.amount)),
      reconcile(),
      reconcile(),
    ]);
    await vi.waitFor(async () => {
      expect((await strays(o.orderId)).map((r) => r.status)).toEqual(['completed']);
      expect((await strays(late.orderId)).map((r) => r.status)).toEqual(['completed']);
    });
    t.clock.advance(2 * 60_000);
    await reconcile();
    expect(madeAtProvider(twice.second).map((r) => r.amount_refunded)).toEqual([o.amount]);
    expect(madeAtProvider(lateId).map((r) => r.amount_refunded)).toEqual([late.amount]);
    expect(await refundsDue()).toBe(0);
  });
});
