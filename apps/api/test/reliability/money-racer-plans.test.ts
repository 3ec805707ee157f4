import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import type { PlanView } from '@legalmarket/contracts';
import { refunds, sandboxTransactions, subscriptionPayments, subscriptions } from '../../src/db/schema.js';
import { sandboxProvider } from '../../src/platform/payments/sandbox.js';
import type { AuthUser } from '../../src/platform/auth.js';
import { PASSWORD, describeEachDb, signupAndLogin } from '../helpers.js';
import { SUCCESS_CARD, createLoggedTestApp } from '../commerce-helpers.js';
import { secondInstance } from '../second-instance.js';
import { createLedger } from '../../src/features/money/ledger.js';
import { createRefunds } from '../../src/features/money/refunds.js';
import { createJobLifecycle } from '../../src/features/jobs/lifecycle-service.js';
import { createPlansService } from '../../src/features/plans/service.js';
import type { Db } from '../../src/db/client.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * A plan's month end raced across two instances: both instances' schedulers, the company cancelling and
 * changing tier, an admin cancelling the plan's job (its credit coming back), a new credit request, and
 * the renewal's webhook delivered again to both. Whatever wins, a month is paid once or not at all, a
 * charge that paid no month is refunded once, and the ledger audits clean (credits held match the live
 * plans' worth).
 */
describeEachDb('money racer: a plan month end on two instances', (kind) => {
  let t: Awaited<ReturnType<typeof createLoggedTestApp>>;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let admin: Login;
  const ROUNDS = kind === 'postgres' ? 5 : 1;
  const quiet = () => {};

  /** The plans service as an instance's scheduler and webhook build it, on that instance's pool. */
  const plansOn = (db: Db) => {
    const deps = { db, clock: t.clock, config: t.config, mailWritten: quiet, securityLog: quiet };
    const ledger = createLedger(deps);
    const provider = sandboxProvider(db, t.clock);
    const refundsService = createRefunds({ ...deps, provider, ledger });
    const lifecycle = createJobLifecycle(deps, { ledger, refunds: refundsService });
    return createPlansService(deps, { provider, ledger, lifecycle, refunds: refundsService });
  };
  let here: ReturnType<typeof plansOn>;
  let there: ReturnType<typeof plansOn>;

  beforeAll(async () => {
    t = await createLoggedTestApp(kind);
    t.clock.advance(Date.now() - t.clock.now().getTime());
    other = await secondInstance(t, kind);
    admin = await signupAndLogin(t, 'admin');
    here = plansOn(t.rt.database.db);
    there = plansOn(other.db?.db ?? t.rt.database.db);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const db = () => t.rt.database.db;
  /** A request; a session the moved clock expired is renewed by logging in again. */
  async function inject(app: typeof t.app, url: string, who: Login, payload?: unknown) {
    const send = () => app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
    const res = await send();
    if (res.statusCode !== 401) return res;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    who.headers.authorization = `Bearer ${(login.json() as { token: string }).token}`;
    return send();
  }
  async function subscribe(who: Login) {
    const started = await inject(t.app, '/api/plans/subscribe', who, { tier: 'silver' });
    expect(started.statusCode, started.body).toBe(200);
    const d = started.json().data as { reference: string; amount: number };
    const charged = await inject(t.app, '/api/checkout/sandbox/charge', who, {
      reference: d.reference,
      amount: d.amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = (charged.json().data as { transaction_id: string }).transaction_id;
    const res = await inject(t.app, '/api/plans/confirm', who, { reference: d.reference, transactionId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as PlanView;
  }
  const settledAll = <T>(p: Promise<T>) =>
    p.then(
      (v) => ({ ok: true as const, v }),
      (e: unknown) => ({ ok: false as const, e }),
    );

  it('schedulers, cancel, tier change, a plan job cancelled and a credit asked for, all at the renewal', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const company = await signupAndLogin(t, 'company');
      const plan = await subscribe(company);
      const made = await inject(t.app, '/api/plans/mine/requests', company, { kind: 'draft', detail: 'A lease' });
      expect(made.statusCode, made.body).toBe(201);
      const jobId = (made.json().data as { jobId: string }).jobId;
      t.clock.advance(Date.parse(plan.renewsAt) - t.clock.now().getTime() + 60_000 + round);
      const me = { id: company.id } as AuthUser;
      const answers = await Promise.all([
        settledAll(here.tick()),
        inject(other.app, `/job-api/jobs/${jobId}/actions/cancel`, admin, { note: 'Not needed' }),
        settledAll(there.tick()),
        ...(round % 2
          ? [settledAll(here.cancel(me))]
          : [inject(t.app, '/api/plans/mine/tier', company, { tier: 'gold' })]),
        inject(other.app, '/api/plans/mine/requests', company, { kind: 'draft', detail: 'Another lease' }),
      ]);
      for (const a of answers)
        if ('statusCode' in a) expect(a.statusCode, a.body).toBeLessThan(500);
        else if (!a.ok) expect(String(a.e)).not.toMatch(/deadlock|could not serialize|duplicate key/i);

      // Every charge of the month delivered again to both instances, then both schedulers once more.
      const charges = await db()
        .select()
        .from(sandboxTransactions)
        .where(like(sandboxTransactions.txRef, `SUB-${plan._id}-%`));
      await Promise.all(
        charges.flatMap((c) =>
          [here, there].map((p) =>
            settledAll(p.onWebhook({ event: 'charge.completed', data: { id: String(c.id), tx_ref: c.txRef } })),
          ),
        ),
      );
      await Promise.all([settledAll(here.tick()), settledAll(there.tick())]);

      const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan._id));
      const paid = await db()
        .select()
        .from(subscriptionPayments)
        .where(and(eq(subscriptionPayments.subscriptionId, plan._id), eq(subscriptionPayments.status, 'paid')));
      const successful = charges.filter((c) => c.status === 'successful');
      // One charge at most for the month, and it paid the month or is refunded, never both, never neither.
      expect(successful.length).toBeLessThanOrEqual(1);
      const back = await db().select().from(refunds).where(eq(refunds.companyId, company.id));
      for (const c of successful) {
        const paidIt = paid.some((p) => p.providerTransactionId === String(c.id));
        const refunded = back.filter((r) => r.providerTransactionId === String(c.id));
        expect(Number(paidIt) + refunded.length, `charge ${c.txRef}`).toBe(1);
      }
      expect(paid.filter((p) => p.kind === 'renewal').length).toBe(sub.period - 1);
    }
  });
});
