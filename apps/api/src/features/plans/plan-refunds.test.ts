import { beforeAll, expect, it, vi } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { formatNaira, type RefundView } from '@legalmarket/contracts';
import { refunds } from '../../db/schema.js';
import { PASSWORD, describeEachDb, otherConnection, signupAndLogin } from '../../../test/helpers.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { moneyTestKit, type MoneyTestApp } from '../money/money-test-kit.js';
import {
  flutterwaveWebhook,
  planServices,
  reloggingInject,
  standInProvider,
  subscribeOnFlutterwave,
} from './plan-test-kit.js';
import type { createPlansService } from './service.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const HOUR = 3600_000;

/**
 * Decision 2262: money a monthly plan's payment took for nothing (a second payment of a paid plan, a
 * renewal charge that paid no month, a first payment of the wrong amount) goes back by itself, exactly
 * once per provider transaction, posted in the ledger, mailed with a credit note, listed for the admin
 * and the company and matched by the reconciliation; the provider unreachable leaves it to the
 * background job.
 */
describeEachDb('refunds of plan payments that paid nothing', (kind) => {
  const kit = moneyTestKit(kind, { ledgerAudit: true });
  const { flw, db, reconcile: job, madeAtProvider, postingsOf } = kit;
  let t: MoneyTestApp;
  let plans: ReturnType<typeof createPlansService>;

  beforeAll(() => {
    t = kit.suite.t;
    // Another instance's scheduler; the app's own services answer the requests and webhooks.
    ({ plans } = planServices(t, { provider: standInProvider(kit.suite.config) }));
  });

  /** Sessions last 12 hours: one the moved clock expired signs in again. */
  const inject = reloggingInject(() => t);
  const confirm = (who: Login, reference: string, id: number) =>
    inject('POST', '/api/plans/confirm', who, { reference, transactionId: String(id) });
  const webhook = (id: number) => flutterwaveWebhook(t, flw.txs.get(id)!);
  /** The refunds with no job of one provider transaction. */
  const refundsOf = (id: number) =>
    db()
      .select()
      .from(refunds)
      .where(and(eq(refunds.providerTransactionId, String(id)), isNull(refunds.jobId)));
  /** The reconciliation's differences naming a provider transaction or a payment reference, today (Lagos). */
  const differencesOf = async (id: number, reference: string) => {
    const admin = await signupAndLogin(t, 'admin');
    const day = new Date(t.clock.now().getTime() + HOUR).toISOString().slice(0, 10);
    const rec = await inject('GET', `/api/admin/reconciliation?from=${day}&to=${day}`, admin);
    expect(rec.statusCode).toBe(200);
    return (rec.json().differences as { providerId: string | null; kind: string; reference: string }[]).filter(
      (d) => d.providerId === String(id) || d.reference === reference,
    );
  };
  const started = async (who: Login, tier: 'bronze' | 'silver' | 'gold') => {
    const res = await inject('POST', '/api/plans/subscribe', who, { tier });
    expect(res.statusCode).toBe(200);
    return res.json().data as { reference: string; amount: number; paymentPlan: string };
  };
  /** Refunded once, whole, completed: its postings in and out. */
  async function refundedOnce(id: number, naira: number) {
    await vi.waitFor(async () => expect((await refundsOf(id))[0]?.status).toBe('completed'));
    const rows = await refundsOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ orderId: null, amount: naira * 100 });
    expect(madeAtProvider(id).map((r) => r.amount_refunded)).toEqual([naira]);
    expect(await postingsOf(rows[0].id)).toEqual([
      { kind: 'unapplied', account: 'provider_cash', amount: naira * 100 },
      { kind: 'unapplied', account: 'refunds_due', amount: -naira * 100 },
      { kind: 'refund', account: 'refunds_due', amount: naira * 100 },
      { kind: 'refund', account: 'provider_cash', amount: -naira * 100 },
    ]);
    // The payment is in the ledger (unapplied) and so is its refund: the reconciliation matches both.
    expect(await differencesOf(id, rows[0].reference!)).toEqual([]);
    return rows[0];
  }

  it('a second payment of a paid plan is refunded whole, once, however it arrives', async () => {
    const company = await signupAndLogin(t, 'company');
    const { reference, amount, paymentPlan } = await subscribeOnFlutterwave(t, flw, company, 'silver');
    t.clock.advance(60_000);
    // The other tab pays the same reference again.
    const second = flw.pay(reference, amount, { email: company.email, paymentPlan: Number(paymentPlan) });
    const answers = await Promise.all([
      confirm(company, reference, second),
      confirm(company, reference, second),
      webhook(second),
      webhook(second),
      plans.reconcileFirstPayments(),
      job(),
    ]);
    expect(answers.slice(0, 4).map((r) => (r as { statusCode: number }).statusCode)).toEqual([409, 409, 200, 200]);
    const refund = await refundedOnce(second, amount);
    expect(refund).toMatchObject({ companyId: company.id, reference, reason: 'A second payment of your monthly plan' });
    // The company is told, with its credit note, and sees the refund; so does the admin.
    const mail = (await mailsTo(t, company.email)).find((m) => m.subject === 'Your refund of ₦80,000 is on its way');
    expect(JSON.stringify(mail)).toContain('A second payment of your monthly plan');
    expect(JSON.stringify(mail)).toContain(`credit-note-CN-${reference}-T${second}.pdf`);
    const mine = (await inject('GET', '/api/refunds', company)).json().refunds;
    expect(mine).toEqual([
      expect.objectContaining({ _id: refund.id, orderId: null, reference, productName: 'Monthly plan payment' }),
    ]);
    const note = await inject('GET', `/api/refunds/${refund.id}/credit-note.pdf`, company);
    expect(note.statusCode).toBe(200);
    const stranger = await signupAndLogin(t, 'company');
    expect((await inject('GET', `/api/refunds/${refund.id}/credit-note.pdf`, stranger)).statusCode).toBe(404);
    const admin = await signupAndLogin(t, 'admin');
    const list = (await inject('GET', '/api/admin/refunds', admin)).json().refunds as RefundView[];
    expect(list.find((r) => r._id === refund.id)).toMatchObject({
      jobId: null,
      orderId: null,
      reference,
      status: 'completed',
      amount: 80_000,
    });
    // Nothing more on another pass.
    t.clock.advance(2 * HOUR);
    await Promise.all([job(), job(), webhook(second)]);
    expect(await refundsOf(second)).toHaveLength(1);
    expect(madeAtProvider(second)).toHaveLength(1);
  });

  it('a payment of another window while a plan is live is refunded once and never starts a plan later', async () => {
    const company = await signupAndLogin(t, 'company');
    const other = await started(company, 'gold');
    await subscribeOnFlutterwave(t, flw, company, 'bronze');
    const paid = flw.pay(other.reference, other.amount, { email: company.email });
    const answers = await Promise.all([
      confirm(company, other.reference, paid),
      webhook(paid),
      confirm(company, other.reference, paid),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([409, 200, 409]);
    await refundedOnce(paid, other.amount);
    // The background pass asks about the window again: the payment given back starts nothing.
    t.clock.advance(3 * 60_000);
    await plans.reconcileFirstPayments();
    expect(await refundsOf(paid)).toHaveLength(1);
    // Nor once the live plan has ended: that window's confirm is refused, no plan starts.
    expect((await inject('POST', '/api/plans/mine/cancel', company)).statusCode).toBe(200);
    t.clock.advance(32 * 24 * HOUR);
    await plans.tick();
    const again = await confirm(company, other.reference, paid);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This payment was refunded, so it starts no plan: subscribe again to start one');
    expect((await inject('GET', '/api/plans/mine', company)).json().data).toMatchObject({ status: 'ended' });
    expect(await refundsOf(paid)).toHaveLength(1);
  });

  it('a renewal charge that pays no month is refunded whole, once, by webhooks and the background job', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribeOnFlutterwave(t, flw, company, 'silver');
    // The full price under the reference of the month after next, mid-month: it pays no month.
    const stray = flw.pay(`SUB-${plan._id}-3-1`, 80_000, { email: company.email });
    const answers = await Promise.all([webhook(stray), webhook(stray), webhook(stray), job()]);
    expect(answers.slice(0, 3).map((r) => (r as { statusCode: number }).statusCode)).toEqual([200, 200, 200]);
    const refund = await refundedOnce(stray, 80_000);
    expect(refund).toMatchObject({ companyId: company.id, reference: `SUB-${plan._id}-3-1` });
    const mine = (await inject('GET', '/api/refunds', company)).json().refunds as { _id: string }[];
    expect(mine.map((r) => r._id)).toEqual([refund.id]);
  });

  it('a first payment of the wrong amount is refunded whole, once; one in another currency stays logged', async () => {
    const company = await signupAndLogin(t, 'company');
    const d = await started(company, 'bronze');
    const short = flw.pay(d.reference, d.amount - 1000, { email: company.email });
    t.clock.advance(3 * 60_000);
    const answers = await Promise.all([
      confirm(company, d.reference, short),
      webhook(short),
      confirm(company, d.reference, short),
      plans.reconcileFirstPayments(),
    ]);
    expect([answers[0], answers[2]].map((r) => (r as { statusCode: number }).statusCode)).toEqual([400, 400]);
    await refundedOnce(short, d.amount - 1000);
    const dollars = flw.pay(d.reference, d.amount, { email: company.email, currency: 'USD' });
    expect((await confirm(company, d.reference, dollars)).statusCode).toBe(400);
    expect(await refundsOf(dollars)).toEqual([]);
    // Nor one the provider says it charged less than its amount: no refund the provider would refuse.
    const odd = flw.pay(d.reference, d.amount + 500, { email: company.email, chargedAmount: d.amount - 2000 });
    expect((await confirm(company, d.reference, odd)).statusCode).toBe(400);
    expect(await refundsOf(odd)).toEqual([]);
    // The right payment still starts the plan.
    const right = flw.pay(d.reference, d.amount, { email: company.email });
    expect((await confirm(company, d.reference, right)).statusCode).toBe(200);
    expect(await refundsOf(right)).toEqual([]);
  });

  it('the provider unreachable leaves the refund pending; the background job sends it once', async () => {
    const company = await signupAndLogin(t, 'company');
    const { reference, amount } = await subscribeOnFlutterwave(t, flw, company, 'silver');
    flw.setRefundMode('unavailable');
    const second = flw.pay(reference, amount, { email: company.email });
    expect((await confirm(company, reference, second)).statusCode).toBe(409);
    const [pending] = await refundsOf(second);
    expect(pending).toMatchObject({ status: 'pending', providerRefundId: null, amount: amount * 100 });
    expect(madeAtProvider(second)).toEqual([]);
    // Still unreachable a minute on: left for the next pass.
    t.clock.advance(61_000);
    await job();
    expect((await refundsOf(second))[0].status).toBe('pending');
    flw.setRefundMode('completed');
    t.clock.advance(61_000);
    await Promise.all([job(), job(), job()]);
    await refundedOnce(second, amount);
  });
  it('a plan payment’s refund not yet made blocks the account’s deletion, named as the refunds list names it', async () => {
    const company = await signupAndLogin(t, 'company');
    const d = await started(company, 'bronze');
    const short = flw.pay(d.reference, d.amount - 1000, { email: company.email });
    // A day on, the window no longer blocks the deletion as a payment still completing.
    t.clock.advance(25 * HOUR);
    flw.setRefundMode('unavailable');
    expect((await confirm(company, d.reference, short)).statusCode).toBe(400);
    expect((await refundsOf(short))[0]).toMatchObject({ status: 'pending', orderId: null, companyId: company.id });
    const owed = `A refund of ${formatNaira(d.amount - 1000)} for Monthly plan payment has not reached you yet.`;
    const check = await inject('GET', '/api/account/deletion', company);
    expect(check.json().data).toMatchObject({
      canDelete: false,
      blockers: [{ kind: 'pending_refund', message: owed }],
    });
    const refused = await inject('POST', '/api/account/delete', company, { password: PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(owed);
    // Made a minute on by the background job: nothing stands in the way any more.
    flw.setRefundMode('completed');
    t.clock.advance(61_000);
    await job();
    await refundedOnce(short, d.amount - 1000);
    expect((await inject('GET', '/api/account/deletion', company)).json().data).toMatchObject({ canDelete: true });
  });
  it('a renewal the scheduler charged that the provider took at the wrong amount is refunded whole, once', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan, amount } = await subscribeOnFlutterwave(t, flw, company, 'silver');
    // A scheduler whose charge the provider takes, and reports, ₦1,000 short of the price.
    const real = standInProvider(kit.suite.config);
    const { plans: scheduler } = planServices(t, {
      provider: { ...real, chargePlan: (r) => real.chargePlan({ ...r, amount: r.amount - 100_000 }) },
    });
    t.clock.advance(31 * 24 * HOUR);
    await scheduler.tick();
    const charged = [...flw.txs.values()].find((x) => x.tx_ref.startsWith(`SUB-${plan._id}-`))!;
    expect(charged).toMatchObject({ status: 'successful', amount: amount - 1000 });
    // It paid no month: the plan is in its grace, and the money goes back.
    expect((await inject('GET', '/api/plans/mine', company)).json().data).toMatchObject({ status: 'grace' });
    const refund = await refundedOnce(charged.id, amount - 1000);
    expect(refund).toMatchObject({ companyId: company.id, reference: charged.tx_ref });
    // Its webhook arriving late opens nothing more.
    expect((await webhook(charged.id)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await refundsOf(charged.id)).toHaveLength(1);
  });

  it.runIf(kind === 'postgres')(
    'a wrong-amount refund waits for the company lock an erasure holds, and opens none for the account it erased',
    async () => {
      const company = await signupAndLogin(t, 'company');
      const d = await started(company, 'bronze');
      const short = flw.pay(d.reference, d.amount - 1000, { email: company.email });
      t.clock.advance(25 * HOUR);
      // A running erasure: the company's lock from its blockers to its commit, the account erased in it.
      const other = await otherConnection(t);
      let answer: Promise<unknown> | undefined;
      try {
        await other.query('begin');
        await other.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`lm-company:${company.id}`]);
        answer = plans.onWebhook({ data: { id: short, tx_ref: d.reference } });
        await new Promise((r) => setTimeout(r, 400));
        expect(await refundsOf(short)).toEqual([]);
        await other.query('update users set deleted_at = now() where id = $1', [company.id]);
        await other.query('commit');
      } finally {
        await other.end();
      }
      await answer;
      // The erasure found nothing owed: no refund follows it (the payment stays logged for an admin).
      expect(await refundsOf(short)).toEqual([]);
      expect(madeAtProvider(short)).toEqual([]);
    },
  );
});
