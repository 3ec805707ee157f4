import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  jobs,
  ledgerTransactions,
  orders,
  sandboxSubscriptions,
  subscriptionPayments,
  subscriptions,
  users,
} from '../../db/schema.js';
import { sandboxProvider } from '../../platform/payments/sandbox.js';
import { PASSWORD, describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { createLoggedTestApp, insertProduct } from '../../../test/commerce-helpers.js';
import type { createLedger } from '../money/ledger.js';
import { createReconciliation } from '../money/reconciliation.js';
import { createCheckoutService } from '../checkout/service.js';
import type { createPlansService } from '../plans/service.js';
import { planServices, reloggingInject, sandboxCharge, startPlanInSandbox } from '../plans/plan-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type T = Awaited<ReturnType<typeof createLoggedTestApp>>;
const DAY = 86_400_000;

/**
 * Money in flight when a company erases its account (decision 2170): a payment still completing blocks
 * the deletion, and one that arrives after it buys nothing (no plan, no jobs), logged for a refund.
 */
describeEachDb('account erasure and payments in flight', (kind) => {
  let t: T;
  let product: string;
  let ledger: ReturnType<typeof createLedger>;
  let plans: ReturnType<typeof createPlansService>;
  let checkout: ReturnType<typeof createCheckoutService>;

  beforeAll(async () => {
    t = await createLoggedTestApp(kind);
    product = await insertProduct(t, 'Trademark Registration', 50_000);
    const securityLog = (event: string, fields: Record<string, unknown>) =>
      t.security.events.push({ security: event, ...fields });
    const { deps, provider, lifecycle, refunds, ...built } = planServices(t, { securityLog });
    ({ plans, ledger } = built);
    checkout = createCheckoutService({ ...deps, provider, lifecycle, ledger, refunds, mailConfig: t.config });
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await ledger.audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const inject = reloggingInject(() => t);
  const del = (who: Login) => inject('POST', '/api/account/delete', who, { password: PASSWORD });

  /** A first plan payment charged in the sandbox dialog, never confirmed (the tab closed). */
  async function planPaidAndLeft(company: Login) {
    const { reference, transactionId } = await startPlanInSandbox(inject, company, 'silver');
    return { reference, transactionId };
  }

  /** An order charged in the sandbox dialog, never confirmed, whose webhook is late. */
  async function orderPaidAndLeft(company: Login) {
    expect((await inject('POST', '/api/cart', company, { productId: product, quantity: 1 })).statusCode).toBeLessThan(
      300,
    );
    const started = await inject('POST', '/api/checkout', company);
    expect(started.statusCode).toBe(200);
    const d = started.json().data as { reference: string; amount: number; orderId: string };
    return { ...d, transactionId: await sandboxCharge(inject, company, d) };
  }

  const planOf = async (reference: string) =>
    (await db().select().from(subscriptionPayments).where(eq(subscriptionPayments.txRef, reference)))[0];
  const subsOf = (companyId: string) => db().select().from(subscriptions).where(eq(subscriptions.companyId, companyId));
  const orderRow = async (orderId: string) => (await db().select().from(orders).where(eq(orders.id, orderId)))[0];
  const jobsOf = (orderId: string) => db().select().from(jobs).where(eq(jobs.orderId, orderId));
  const postedFor = (orderId: string) =>
    db()
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.orderId, orderId), eq(ledgerTransactions.kind, 'payment')));
  /** The payment stays on the reconciliation report for the admin's refund. */
  const onReport = async (reference: string) =>
    (
      await createReconciliation({ db: db(), clock: t.clock, provider: sandboxProvider(db(), t.clock) }).run({})
    ).differences.filter((d) => d.reference === reference && d.kind === 'missing_in_ledger');
  const loggedFor = (reference: string) =>
    t.security.of('payment_for_deleted_account').filter((e) => e.reference === reference);

  it('a first plan payment still completing blocks the deletion, named, and changes nothing', async () => {
    const company = await signupAndLogin(t, 'company');
    const started = await inject('POST', '/api/plans/subscribe', company, { tier: 'silver' });
    const { reference } = started.json().data as { reference: string };
    const check = await inject('GET', '/api/account/deletion', company);
    expect(check.json().data).toMatchObject({ canDelete: false, blockers: [{ kind: 'payment_in_progress' }] });
    const refused = await del(company);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`Silver plan you started on`);
    expect(refused.json().message).toContain(reference);
    const [row] = await db().select().from(users).where(eq(users.id, company.id));
    expect(row.deletedAt).toBeNull();
  });

  it('a plan payment that arrives after the erasure starts no plan: closed, logged, its card unsubscribed', async () => {
    const company = await signupAndLogin(t, 'company');
    const { reference, transactionId } = await planPaidAndLeft(company);
    // A day later the payment no longer blocks (an unpaid one would be closed by now).
    t.clock.advance(DAY + 60_000);
    expect((await del(company)).statusCode).toBe(200);
    // The lost webhook's retry, then the background pass.
    await plans.onWebhook({ data: { id: transactionId, tx_ref: reference } });
    expect(await plans.reconcileFirstPayments()).toMatchObject({ started: 0 });
    expect(await subsOf(company.id)).toEqual([]);
    const p = await planOf(reference);
    expect(p.status).toBe('failed');
    expect(p.subscriptionId).toBeNull();
    expect(loggedFor(reference)[0]).toMatchObject({ transactionId, companyId: company.id });
    expect(await onReport(reference)).toHaveLength(1);
    // The charge subscribed the card at the provider: cancelled, so it is never charged again.
    const cardSubs = await db()
      .select()
      .from(sandboxSubscriptions)
      .where(eq(sandboxSubscriptions.customerEmail, company.email));
    expect(cardSubs.length).toBeGreaterThan(0);
    expect(cardSubs.every((s) => s.status !== 'active')).toBe(true);
  });

  it('an order paid more than a day after it was started, once the company is erased, opens no jobs', async () => {
    const company = await signupAndLogin(t, 'company');
    const o = await orderPaidAndLeft(company);
    t.clock.advance(DAY + 60_000);
    expect((await del(company)).statusCode).toBe(200);
    const outcome = await checkout.onWebhook({ data: { id: o.transactionId, tx_ref: o.reference } });
    expect(outcome.result).toBe('refused');
    expect(await jobsOf(o.orderId)).toEqual([]);
    expect((await orderRow(o.orderId)).status).not.toBe('paid');
    expect(await postedFor(o.orderId)).toEqual([]);
    expect(loggedFor(o.reference)[0]).toMatchObject({ transactionId: o.transactionId, orderId: o.orderId });
    expect(await onReport(o.reference)).toHaveLength(1);
    // The background job finds the same answer: still nothing opened.
    t.clock.advance(3 * 60_000);
    await checkout.reconcile();
    expect(await jobsOf(o.orderId)).toEqual([]);
    expect((await orderRow(o.orderId)).status).not.toBe('paid');
  });

  describe('races (run on the PostgreSQL server when TEST_DATABASE_URL is set)', () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    /**
     * How long a deletion takes here (the password check, then its transaction): the payment is sent
     * at steps across it, so some rounds land before, some inside and some after the erasure.
     */
    async function deletionMs() {
      const company = await signupAndLogin(t, 'company');
      const began = performance.now();
      expect((await del(company)).statusCode).toBe(200);
      return performance.now() - began;
    }
    /**
     * Round `round` of 12 sends the payment from 3 steps before the deletion starts to 8 after (a step is
     * a quarter of the deletion measured), so both orders still occur when a neighbouring suite's load
     * slows one side: sent with the deletion or after it only, a payment slowed by half a deletion lost
     * every round.
     */
    const race = <D, P>(round: number, step: number, deletion: () => Promise<D>, payment: () => Promise<P>) => {
      const at = (round - 3) * step;
      return Promise.all([sleep(Math.max(0, -at)).then(deletion), sleep(Math.max(0, at)).then(payment)]);
    };

    it('erasure racing a late order payment: jobs for a live company, or nothing for an erased one', async () => {
      const step = (await deletionMs()) / 4;
      const seen = new Set<number>();
      for (let round = 0; round < 12; round++) {
        const company = await signupAndLogin(t, 'company');
        const o = await orderPaidAndLeft(company);
        t.clock.advance(DAY + 60_000);
        // Logged in again before the race, so the deletion is not slowed by a new session.
        await inject('GET', '/api/account/deletion', company);
        const [deletion, paid] = await race(
          round,
          step,
          () => del(company),
          () => checkout.onWebhook({ data: { id: o.transactionId, tx_ref: o.reference } }),
        );
        seen.add(deletion.statusCode);
        const [row] = await db().select().from(users).where(eq(users.id, company.id));
        const opened = await jobsOf(o.orderId);
        if (deletion.statusCode === 200) {
          expect(row.deletedAt).not.toBeNull();
          expect(paid.result).toBe('refused');
          expect(opened).toEqual([]);
          expect(await postedFor(o.orderId)).toEqual([]);
        } else {
          expect(deletion.statusCode).toBe(409);
          expect(deletion.json().message).toContain('open job');
          expect(paid.result).toBe('paid');
          expect(row.deletedAt).toBeNull();
          expect(opened).toHaveLength(1);
        }
      }
      // Both orders happened: the payment first (deletion refused) and the erasure first.
      expect([...seen].sort()).toEqual([200, 409]);
    });

    it('erasure racing a late plan payment: a plan for a live company, or none for an erased one', async () => {
      const step = (await deletionMs()) / 4;
      const seen = new Set<number>();
      for (let round = 0; round < 12; round++) {
        const company = await signupAndLogin(t, 'company');
        const { reference, transactionId } = await planPaidAndLeft(company);
        t.clock.advance(DAY + 60_000);
        await inject('GET', '/api/account/deletion', company);
        const [deletion] = await race(
          round,
          step,
          () => del(company),
          () => plans.onWebhook({ data: { id: transactionId, tx_ref: reference } }),
        );
        seen.add(deletion.statusCode);
        const [row] = await db().select().from(users).where(eq(users.id, company.id));
        const subs = await subsOf(company.id);
        if (deletion.statusCode === 200) {
          expect(row.deletedAt).not.toBeNull();
          expect(subs).toEqual([]);
          expect((await planOf(reference)).status).toBe('failed');
        } else {
          expect(deletion.statusCode).toBe(409);
          expect(deletion.json().message).toContain('plan renews on');
          expect(row.deletedAt).toBeNull();
          expect(subs).toHaveLength(1);
        }
      }
      expect([...seen].sort()).toEqual([200, 409]);
    });
  });
});
