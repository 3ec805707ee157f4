import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray, like } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import {
  emailOutbox,
  jobs,
  ledgerEntries,
  ledgerTransactions,
  orders,
  products,
  sandboxTransactions,
  subscriptionPayments,
  subscriptions,
} from '../../db/schema.js';
import { collectionFee } from '../../platform/payments/fees.js';
import { sandboxProvider, setSandboxRenewalFailure } from '../../platform/payments/sandbox.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { SUCCESS_CARD, insertProduct } from '../../../test/commerce-helpers.js';
import { uploadDocument } from '../../../test/upload-helpers.js';
import { extractText, getDocumentProxy } from 'unpdf';
import type { createLedger } from '../money/ledger.js';
import { addMonth, type createPlansService, creditValueOf, planDiscountPercent } from './service.js';
import { planServices, reloggingInject, subscribeInSandbox } from './plan-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 86_400_000;

describe('plan months', () => {
  it('renews on the same day next month, the last day when it is shorter', () => {
    expect(addMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonth(new Date('2026-11-25T22:00:00Z')).toISOString()).toBe('2026-12-25T22:00:00.000Z');
    expect(addMonth(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });
  it('shares a month between its credits in whole kobo', () => {
    expect(creditValueOf('bronze')).toBe(1_250_000);
    expect(creditValueOf('silver')).toBe(1_142_857);
    expect(creditValueOf('gold')).toBe(1_200_000);
  });
});

describeEachDb('monthly plans', (kind) => {
  let t: TestApp;
  let admin: Login;
  let lawyer: Login;
  let plans: ReturnType<typeof createPlansService>;
  let ledger: ReturnType<typeof createLedger>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, lawyer] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'lawyer', { verified: true })]);
    ({ plans, ledger } = planServices(t));
  });
  afterAll(() => t.close());
  // Whatever a test did, the books must still balance and hold what the audit checks.
  afterEach(async () => expect(await ledger.audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const inject = reloggingInject(() => t);
  const mine = async (who: Login) => (await inject('GET', '/api/plans/mine', who)).json().data as PlanView;

  const subscribe = (who: Login, tier: 'bronze' | 'silver' | 'gold') => subscribeInSandbox(inject, who, tier);

  const postings = (kindName: string, companyId: string) =>
    db()
      .select({ account: ledgerEntries.account, amount: ledgerEntries.amount, jobId: ledgerEntries.jobId })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(
        and(
          eq(ledgerTransactions.kind, kindName as 'plan_payment'),
          eq(ledgerEntries.account, 'held_for_jobs'),
          eq(ledgerEntries.companyId, companyId),
        ),
      );

  /** The provider-fee postings of these plan payments, in order. */
  const feesOf = (paymentIds: number[]) =>
    db()
      .select({
        paymentId: ledgerTransactions.subscriptionPaymentId,
        account: ledgerEntries.account,
        amount: ledgerEntries.amount,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerTransactions.kind, 'fee'), inArray(ledgerTransactions.subscriptionPaymentId, paymentIds)))
      .orderBy(ledgerTransactions.subscriptionPaymentId, desc(ledgerEntries.amount));

  const moveTo = async (at: Date) => {
    t.clock.advance(at.getTime() - t.clock.now().getTime());
    await plans.tick();
  };

  it('subscribes to Silver: the plan, its credits, the discount and the payment in the ledger, once', async () => {
    const company = await signupAndLogin(t, 'company');
    expect((await inject('POST', '/api/plans/subscribe', null, { tier: 'silver' })).statusCode).toBe(401);
    expect((await inject('POST', '/api/plans/subscribe', company, { tier: 'platinum' })).statusCode).toBe(400);
    const s = await subscribe(company, 'silver');
    expect(s.amount).toBe(80_000);
    expect(s.plan).toMatchObject({
      tier: 'silver',
      status: 'active',
      percentOff: 10,
      credits: { review: 2, draft: 3, opinion: 1, policy: 1 },
      creditsUsed: { review: 0, draft: 0, opinion: 0, policy: 0 },
      cancelAtPeriodEnd: false,
    });
    expect(s.plan.renewsAt).toBe(addMonth(new Date(s.plan.periodStart)).toISOString());
    // The browser and a retry confirm again: one plan, one payment posting.
    await Promise.all(
      [1, 2].map(() =>
        inject('POST', '/api/plans/confirm', company, { reference: s.reference, transactionId: s.transactionId }),
      ),
    );
    const rows = await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id));
    expect(rows).toHaveLength(1);
    const [payment] = await db()
      .select({ id: subscriptionPayments.id })
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.companyId, company.id));
    expect(await feesOf([payment.id])).toEqual([
      { paymentId: payment.id, account: 'provider_fees', amount: collectionFee(8_000_000) },
      { paymentId: payment.id, account: 'provider_cash', amount: -collectionFee(8_000_000) },
    ]);
    expect(await postings('plan_payment', company.id)).toEqual([
      { account: 'held_for_jobs', amount: -creditValueOf('silver') * 7, jobId: null },
    ]);
    expect(await planDiscountPercent(db(), company.id)).toBe(10);
    // One active plan per company.
    expect((await inject('POST', '/api/plans/subscribe', company, { tier: 'gold' })).statusCode).toBe(409);
    const mail = await db().select().from(emailOutbox).where(eq(emailOutbox.to, company.email));
    expect(mail.some((m) => m.subject === 'Your plan is active: Silver plan')).toBe(true);
    expect(mail.find((m) => m.subject.startsWith('Your plan is active'))!.text).toContain('do not carry over');
  });

  it('answers a paid plan confirmed again with a transaction id the provider does not know', async () => {
    const company = await signupAndLogin(t, 'company');
    const s = await subscribe(company, 'bronze');
    const again = await inject('POST', '/api/plans/confirm', company, {
      reference: s.reference,
      transactionId: '987654321',
    });
    expect(again.statusCode).toBe(200);
    expect((again.json().data as PlanView)._id).toBe(s.plan._id);
    expect(await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id))).toHaveLength(1);
  });

  it('refuses a first payment that was not made, and another company confirming it', async () => {
    const company = await signupAndLogin(t, 'company');
    const other = await signupAndLogin(t, 'company');
    const started = await inject('POST', '/api/plans/subscribe', company, { tier: 'bronze' });
    const { reference } = started.json().data as { reference: string };
    expect((await inject('POST', '/api/plans/confirm', company, { reference })).statusCode).toBe(400);
    expect((await inject('POST', '/api/plans/confirm', other, { reference })).statusCode).toBe(403);
    expect((await inject('POST', '/api/plans/confirm', company, { reference: 'PLAN-nope' })).statusCode).toBe(404);
    // Underpaid through the dialog: refused.
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount: 5_000,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
    expect((await inject('POST', '/api/plans/confirm', company, { reference, transactionId })).statusCode).toBe(400);
    expect(await mine(company)).toBeNull();
  });

  it('spends a credit on a ₦0 job in the workspace; its lawyer is paid from the plan', async () => {
    const company = await signupAndLogin(t, 'company');
    await subscribe(company, 'silver');
    expect((await inject('POST', '/api/plans/mine/requests', company, { kind: 'memo' })).statusCode).toBe(400);
    const made = await inject('POST', '/api/plans/mine/requests', company, {
      kind: 'draft',
      detail: 'A supply agreement with our Kano distributor',
    });
    expect(made.statusCode).toBe(201);
    const { jobId, plan } = made.json().data as { jobId: string; plan: PlanView };
    expect(plan.credits.draft).toBe(2);
    expect(plan.creditsUsed.draft).toBe(1);
    expect(plan.jobs).toHaveLength(1);
    expect(plan.jobs[0].kind).toBe('Silver plan: Draft');
    const [job] = await db().select().from(jobs).where(eq(jobs.id, jobId));
    expect(job).toMatchObject({ amount: 0, stage: 'unassigned', subscriptionId: plan._id, companyId: company.id });
    expect(job.detail).toContain('Silver plan credit');
    const [product] = await db().select().from(products).where(eq(products.id, job.productId));
    expect(product.productName).toBe('Draft (Silver plan)');
    expect(product.deletedAt).not.toBeNull();
    // The company sees it in its job list like any other job.
    const list = await inject('GET', '/job-api/company/pendingjobs', company);
    expect(list.body).toContain(jobId);
    // Through the workspace: assigned, completed; the lawyer earns 80 % of the credit's value.
    expect((await inject('POST', '/job-api/assign', admin, { jobId, lawyerId: lawyer.id })).statusCode).toBeLessThan(
      300,
    );
    expect((await inject('POST', `/job-api/jobs/${jobId}/actions/complete`, admin, {})).statusCode).toBeLessThan(300);
    const earned = await db()
      .select({ account: ledgerEntries.account, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerTransactions.kind, 'earning'), eq(ledgerTransactions.jobId, jobId)))
      .orderBy(ledgerEntries.id);
    const value = creditValueOf('silver');
    const commission = Math.round(value * 0.2);
    expect(earned).toEqual([
      { account: 'held_for_jobs', amount: value },
      { account: 'platform_commission', amount: -commission },
      { account: 'lawyer_earnings', amount: -(value - commission) },
    ]);
  });

  it("attaches the company's own document to a plan request, never another company's", async () => {
    const company = await signupAndLogin(t, 'company');
    const other = await signupAndLogin(t, 'company');
    await subscribe(company, 'gold');
    const theirs = await uploadDocument(t.app, other.headers, 'their-brief.pdf');
    const refused = await inject('POST', '/api/plans/mine/requests', company, {
      kind: 'review',
      file: theirs.url,
      fileName: 'their-brief.pdf',
    });
    expect(refused.statusCode).toBe(403);
    expect((await mine(company)).credits.review).toBe(3);
    const own = await uploadDocument(t.app, company.headers, 'our-brief.pdf');
    const made = await inject('POST', '/api/plans/mine/requests', company, {
      kind: 'review',
      file: own.url,
      fileName: 'our-brief.pdf',
    });
    expect(made.statusCode).toBe(201);
    const [job] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.id, (made.json().data as { jobId: string }).jobId));
    expect(job).toMatchObject({ companyFile: own.url, companyFileName: 'our-brief.pdf' });
  });

  it('refuses a credit of a kind that is used up', async () => {
    const company = await signupAndLogin(t, 'company');
    await subscribe(company, 'bronze');
    expect((await inject('POST', '/api/plans/mine/requests', company, { kind: 'policy' })).statusCode).toBe(409);
    expect((await inject('POST', '/api/plans/mine/requests', company, { kind: 'opinion' })).statusCode).toBe(201);
    const again = await inject('POST', '/api/plans/mine/requests', company, { kind: 'opinion' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('No legal opinion credits left this month; they reset at your renewal');
    const none = await signupAndLogin(t, 'company');
    expect((await inject('POST', '/api/plans/mine/requests', none, { kind: 'draft' })).statusCode).toBe(404);
  });

  it('renews at the renewal date: charged once, credits reset without carry-over, unused ones expire', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'silver');
    await inject('POST', '/api/plans/mine/requests', company, { kind: 'review' });
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + 60_000));
    const after = await mine(company);
    expect(after).toMatchObject({
      status: 'active',
      tier: 'silver',
      credits: { review: 2, draft: 3, opinion: 1, policy: 1 },
      creditsUsed: { review: 0, draft: 0, opinion: 0, policy: 0 },
      periodStart: plan.renewsAt,
    });
    expect(after.renewsAt).toBe(addMonth(new Date(plan.renewsAt)).toISOString());
    expect(after.events.map((e) => e.kind)).toEqual(['subscribed', 'credit_used', 'renewed']);
    const paid = await db()
      .select()
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.subscriptionId, plan._id))
      .orderBy(subscriptionPayments.id);
    expect(paid.map((p) => [p.kind, p.status, p.amount])).toEqual([
      ['first', 'paid', 8_000_000],
      ['renewal', 'paid', 8_000_000],
    ]);
    // The six credits left unused in the first month are the platform's now.
    const expired = await postings('plan_expiry', company.id);
    expect(expired).toEqual([{ account: 'held_for_jobs', amount: creditValueOf('silver') * 6, jobId: null }]);
    // The provider's fee on each payment (1.4 %, capped at ₦2,000) leaves the cash it holds for us, once each.
    expect(await feesOf(paid.map((p) => p.id))).toEqual([
      { paymentId: paid[0].id, account: 'provider_fees', amount: collectionFee(8_000_000) },
      { paymentId: paid[0].id, account: 'provider_cash', amount: -collectionFee(8_000_000) },
      { paymentId: paid[1].id, account: 'provider_fees', amount: collectionFee(8_000_000) },
      { paymentId: paid[1].id, account: 'provider_cash', amount: -collectionFee(8_000_000) },
    ]);
    // Ticking again changes nothing.
    await plans.tick();
    expect(
      await db().select().from(subscriptionPayments).where(eq(subscriptionPayments.subscriptionId, plan._id)),
    ).toHaveLength(2);
    expect(await feesOf(paid.map((p) => p.id))).toHaveLength(4);
    const mail = await db().select().from(emailOutbox).where(eq(emailOutbox.to, company.email));
    expect(mail.some((m) => m.subject === 'Your plan renewed: Silver plan')).toBe(true);
  });

  it('a failed renewal gives 3 days of grace with reminders, then the plan lapses', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'silver');
    await setSandboxRenewalFailure(db(), company.email, true);
    const end = new Date(plan.renewsAt).getTime();
    await moveTo(new Date(end + 60_000));
    let now = await mine(company);
    expect(now.status).toBe('grace');
    expect(now.graceUntil).toBe(new Date(end + 3 * DAY).toISOString());
    // Still a plan during the grace: its discount holds.
    expect(await planDiscountPercent(db(), company.id)).toBe(10);
    await moveTo(new Date(end + DAY + 120_000));
    await moveTo(new Date(end + 2 * DAY + 180_000));
    now = await mine(company);
    expect(now.status).toBe('grace');
    expect(now.events.filter((e) => e.kind === 'reminder')).toHaveLength(2);
    await moveTo(new Date(end + 3 * DAY + 240_000));
    now = await mine(company);
    expect(now.status).toBe('lapsed');
    expect(now.events.map((e) => e.kind)).toEqual(['subscribed', 'renewal_failed', 'reminder', 'reminder', 'lapsed']);
    expect(await planDiscountPercent(db(), company.id)).toBe(0);
    expect((await inject('POST', '/api/plans/mine/requests', company, { kind: 'draft' })).statusCode).toBe(404);
    const failed = await db()
      .select()
      .from(subscriptionPayments)
      .where(and(eq(subscriptionPayments.subscriptionId, plan._id), eq(subscriptionPayments.status, 'failed')));
    expect(failed).toHaveLength(3);
    const subjects = (await db().select().from(emailOutbox).where(eq(emailOutbox.to, company.email))).map(
      (m) => m.subject,
    );
    expect(subjects).toContain('Your Silver plan renewal failed');
    expect(subjects.filter((s) => s === 'Reminder: your Silver plan renewal is unpaid')).toHaveLength(2);
    expect(subjects).toContain('Your Silver plan has lapsed');
    // A new plan may start after a lapse.
    expect((await inject('POST', '/api/plans/subscribe', company, { tier: 'bronze' })).statusCode).toBe(200);
  });

  it('a renewal paid during the grace keeps the plan and its renewal day', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'gold');
    await setSandboxRenewalFailure(db(), company.email, true);
    const end = new Date(plan.renewsAt).getTime();
    await moveTo(new Date(end + 60_000));
    expect((await mine(company)).status).toBe('grace');
    await setSandboxRenewalFailure(db(), company.email, false);
    await moveTo(new Date(end + DAY + 120_000));
    const now = await mine(company);
    expect(now.status).toBe('active');
    expect(now.periodStart).toBe(plan.renewsAt);
    expect(now.graceUntil).toBeNull();
  });

  it('upgrades and downgrades at the next renewal, charged at the new price', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'silver');
    expect((await inject('POST', '/api/plans/mine/tier', company, { tier: 'diamond' })).statusCode).toBe(400);
    const up = await inject('POST', '/api/plans/mine/tier', company, { tier: 'gold' });
    expect(up.statusCode).toBe(200);
    expect(up.json().data).toMatchObject({ tier: 'silver', nextTier: 'gold', percentOff: 10 });
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + 60_000));
    let now = await mine(company);
    expect(now).toMatchObject({
      tier: 'gold',
      nextTier: null,
      percentOff: 20,
      credits: { review: 3, draft: 4, opinion: 2, policy: 1 },
    });
    expect((await inject('POST', '/api/plans/mine/tier', company, { tier: 'bronze' })).statusCode).toBe(200);
    await moveTo(new Date(new Date(now.renewsAt).getTime() + 60_000));
    now = await mine(company);
    expect(now).toMatchObject({
      tier: 'bronze',
      percentOff: 0,
      credits: { review: 1, draft: 2, opinion: 1, policy: 0 },
    });
    const paid = await db()
      .select({ amount: subscriptionPayments.amount, tier: subscriptionPayments.tier })
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.subscriptionId, plan._id))
      .orderBy(subscriptionPayments.id);
    expect(paid).toEqual([
      { amount: 8_000_000, tier: 'silver' },
      { amount: 12_000_000, tier: 'gold' },
      { amount: 5_000_000, tier: 'bronze' },
    ]);
    // The charges really were made at those prices on the provider's side.
    const charged = await db()
      .select({ amount: sandboxTransactions.amount })
      .from(sandboxTransactions)
      .where(like(sandboxTransactions.txRef, `SUB-${plan._id}-%`))
      .orderBy(sandboxTransactions.id);
    expect(charged.map((c) => c.amount)).toEqual([12_000_000, 5_000_000]);
  });

  it('cancel keeps the paid month, then the plan ends without another charge', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'silver');
    const cancelled = await inject('POST', '/api/plans/mine/cancel', company);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect((await inject('POST', '/api/plans/mine/cancel', company)).statusCode).toBe(409);
    // The paid month still works.
    expect((await inject('POST', '/api/plans/mine/requests', company, { kind: 'draft' })).statusCode).toBe(201);
    expect(await planDiscountPercent(db(), company.id)).toBe(10);
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + 60_000));
    const now = await mine(company);
    expect(now.status).toBe('ended');
    expect(now.events.map((e) => e.kind)).toEqual(['subscribed', 'cancelled', 'credit_used', 'ended']);
    const charges = await db()
      .select()
      .from(sandboxTransactions)
      .where(like(sandboxTransactions.txRef, `SUB-${plan._id}-%`));
    expect(charges).toHaveLength(0);
    expect(await planDiscountPercent(db(), company.id)).toBe(0);
  });

  it('the plan-ended mail links the plan page, where a new plan starts (decision 2338)', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'bronze');
    expect((await inject('POST', '/api/plans/mine/cancel', company)).statusCode).toBe(200);
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + 60_000));
    const [ended] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, company.email), eq(emailOutbox.subject, 'Your Bronze plan has ended')));
    // /products opens on its Single tab whatever the address says; the plan page offers a new plan.
    expect(ended.text).toContain('Start a new plan: http://localhost:3000/company/plan\n');
    expect(ended.html).toContain('<a href="http://localhost:3000/company/plan"');
    expect(ended.text).not.toContain('Packages tab');
    expect(ended.text).not.toContain('/products');
  });

  it('duplicate renewal webhooks and the scheduler charge and credit once', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'silver');
    const provider = sandboxProvider(db(), t.clock);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    const charged = await provider.chargePlan({
      planId: (await plans.providerPlanFor('silver'))!,
      token: sub.cardToken,
      email: sub.customerEmail,
      amount: 8_000_000,
      reference: `SUB-${sub.id}-2-1`,
    });
    const webhook = { event: 'charge.completed', data: { id: Number(charged.id), tx_ref: charged.txRef } };
    await Promise.all([
      plans.onWebhook(webhook),
      plans.onWebhook(webhook),
      plans.applyRenewal(charged, 'test'),
      plans.onWebhook(webhook),
    ]);
    await plans.tick();
    const paid = await db().select().from(subscriptionPayments).where(eq(subscriptionPayments.subscriptionId, sub.id));
    expect(paid.filter((p) => p.kind === 'renewal')).toHaveLength(1);
    const renewed = await mine(company);
    expect(renewed.credits).toEqual({ review: 2, draft: 3, opinion: 1, policy: 1 });
    expect(renewed.events.filter((e) => e.kind === 'renewed')).toHaveLength(1);
    expect(await postings('plan_payment', company.id)).toHaveLength(2);
  });

  it('takes the plan discount off single products in the cart, payment, order, receipt and ledger', async () => {
    const company = await signupAndLogin(t, 'company');
    const nda = await insertProduct(t, `Non-Disclosure Agreement ${Math.random()}`, 25_000.05);
    expect((await inject('POST', '/api/cart', company, { productId: nda, quantity: 2 })).statusCode).toBe(201);
    const before = (await inject('GET', '/api/cart', company)).json()[0];
    expect(before.bill).toBe(50_000.1);
    expect(before.discount).toBeUndefined();
    await subscribe(company, 'gold');
    // The cached cart follows the new plan at once.
    const cart = (await inject('GET', '/api/cart', company)).json()[0];
    expect(cart.products[0]).toMatchObject({ price: 20_000.04, listPrice: 25_000.05, percentOff: 20 });
    expect(cart.bill).toBe(40_000.08);
    expect(cart.discount).toEqual({ percentOff: 20, saved: 10_000.02 });
    const started = await inject('POST', '/api/checkout', company);
    const { reference, amount, orderId } = started.json().data as {
      reference: string;
      amount: number;
      orderId: string;
    };
    expect(amount).toBe(40_000.08);
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(200);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order.amount).toBe(4_000_008);
    expect(order.lines).toMatchObject([
      { unitPrice: 2_000_004, listPrice: 2_500_005, percentOff: 20, amount: 4_000_008 },
    ]);
    const paid = await db()
      .select({ account: ledgerEntries.account, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerTransactions.kind, 'payment'), eq(ledgerTransactions.orderId, orderId)))
      .orderBy(ledgerEntries.id);
    expect(paid).toEqual([
      { account: 'provider_cash', amount: 4_000_008 },
      { account: 'held_for_jobs', amount: -4_000_008 },
    ]);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    expect(job.amount).toBe(4_000_008);
    const pdf = await inject('GET', `/api/orders/${orderId}/receipt.pdf`, company);
    expect(pdf.statusCode).toBe(200);
    const doc = await getDocumentProxy(new Uint8Array(pdf.rawPayload));
    // The PDF wraps a long item line where it must (the product's name carries a random suffix).
    const text = (await extractText(doc, { mergePages: true })).text.replace(/\s+/g, ' ');
    expect(text).toContain('plan discount: 20% off');
    expect(text).toContain('40,000.08');
  });

  it('shows the admin its subscribers with tier, status, renewal date and credits used', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'gold');
    await inject('POST', '/api/plans/mine/requests', company, { kind: 'review' });
    expect((await inject('GET', '/api/admin/subscribers', company)).statusCode).toBe(403);
    expect((await inject('GET', '/api/admin/subscribers?status=nope', admin)).statusCode).toBe(400);
    const res = await inject('GET', '/api/admin/subscribers?status=active', admin);
    expect(res.statusCode).toBe(200);
    const row = (res.json().data as { _id: string }[]).find((r) => r._id === plan._id);
    expect(row).toMatchObject({
      tier: 'gold',
      status: 'active',
      renewsAt: plan.renewsAt,
      creditsUsed: { review: 1, draft: 0, opinion: 0, policy: 0 },
    });
  });

  it.runIf(kind === 'postgres')('two requests for the last credit open one job', async () => {
    const company = await signupAndLogin(t, 'company');
    await subscribe(company, 'bronze');
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => inject('POST', '/api/plans/mine/requests', company, { kind: 'opinion' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const opened = await db().select().from(jobs).where(eq(jobs.companyId, company.id));
    expect(opened).toHaveLength(1);
    expect((await mine(company)).credits.opinion).toBe(0);
  });

  it.runIf(kind === 'postgres')('two schedulers and webhooks together renew once', async () => {
    const company = await signupAndLogin(t, 'company');
    const { plan } = await subscribe(company, 'silver');
    t.clock.advance(new Date(plan.renewsAt).getTime() - t.clock.now().getTime() + 60_000);
    await Promise.all([plans.tick(), plans.tick(), plans.tick()]);
    const paid = await db()
      .select()
      .from(subscriptionPayments)
      .where(eq(subscriptionPayments.subscriptionId, plan._id));
    expect(paid.filter((p) => p.kind === 'renewal')).toHaveLength(1);
    const charges = await db()
      .select()
      .from(sandboxTransactions)
      .where(like(sandboxTransactions.txRef, `SUB-${plan._id}-%`));
    expect(charges).toHaveLength(1);
  });

  /** Pays a first plan payment in the sandbox dialog, then the tab closes: no confirm, no webhook. */
  async function payAndLeave(who: Login, card = SUCCESS_CARD) {
    const started = await inject('POST', '/api/plans/subscribe', who, { tier: 'bronze' });
    const d = started.json().data as { reference: string; amount: number };
    await inject('POST', '/api/checkout/sandbox/charge', who, {
      reference: d.reference,
      amount: d.amount,
      currency: 'NGN',
      ...card,
    });
    return d.reference;
  }
  const paymentOf = async (reference: string) =>
    (await db().select().from(subscriptionPayments).where(eq(subscriptionPayments.txRef, reference)))[0];

  it('starts a paid plan whose confirm and webhook never came, once, after a short grace', async () => {
    const company = await signupAndLogin(t, 'company');
    const reference = await payAndLeave(company);
    // Inside the grace the browser may still confirm: the pass leaves it alone.
    await plans.reconcileFirstPayments();
    expect((await paymentOf(reference)).status).toBe('pending');
    t.clock.advance(3 * 60_000);
    expect(await plans.reconcileFirstPayments()).toMatchObject({ started: 1 });
    expect(await plans.reconcileFirstPayments()).toMatchObject({ started: 0 });
    const p = await paymentOf(reference);
    expect(p.status).toBe('paid');
    const subs = await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id));
    expect(subs).toHaveLength(1);
    expect(await postings('plan_payment', company.id)).toHaveLength(1);
    expect((await mine(company)).status).toBe('active');
    // A late confirm from the tab finds the plan already started.
    const late = await inject('POST', '/api/plans/confirm', company, { reference });
    expect(late.statusCode).toBe(200);
    expect(await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id))).toHaveLength(1);
  });

  it('closes a first payment the provider calls failed and starts nothing', async () => {
    const company = await signupAndLogin(t, 'company');
    const reference = await payAndLeave(company, { ...SUCCESS_CARD, cardNumber: '5258 5859 2266 6506' });
    t.clock.advance(3 * 60_000);
    expect(await plans.reconcileFirstPayments()).toMatchObject({ started: 0 });
    expect((await paymentOf(reference)).status).toBe('failed');
    expect(await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id))).toHaveLength(0);
    expect(await postings('plan_payment', company.id)).toHaveLength(0);
  });

  it('closes a first payment never paid once a day has passed', async () => {
    const company = await signupAndLogin(t, 'company');
    const started = await inject('POST', '/api/plans/subscribe', company, { tier: 'silver' });
    const { reference } = started.json().data as { reference: string };
    t.clock.advance(3 * 60_000);
    await plans.reconcileFirstPayments();
    expect((await paymentOf(reference)).status).toBe('pending');
    t.clock.advance(DAY);
    await plans.reconcileFirstPayments();
    expect((await paymentOf(reference)).status).toBe('failed');
  });

  it.runIf(kind === 'postgres')('two passes together start a paid plan once', async () => {
    const company = await signupAndLogin(t, 'company');
    const reference = await payAndLeave(company);
    t.clock.advance(3 * 60_000);
    const passes = await Promise.all([
      plans.reconcileFirstPayments(),
      plans.reconcileFirstPayments(),
      plans.reconcileFirstPayments(),
    ]);
    expect(passes.reduce((n, c) => n + c.started, 0)).toBe(1);
    expect((await paymentOf(reference)).status).toBe('paid');
    expect(await db().select().from(subscriptions).where(eq(subscriptions.companyId, company.id))).toHaveLength(1);
    expect(await postings('plan_payment', company.id)).toHaveLength(1);
  });
});
