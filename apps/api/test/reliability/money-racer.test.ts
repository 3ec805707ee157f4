import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { jobEvents, jobs, ledgerEntries, ledgerTransactions, payouts, refunds } from '../../src/db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { insertProduct } from '../commerce-helpers.js';
import { secondInstance } from '../second-instance.js';
import { createLedger } from '../../src/features/money/ledger.js';
import { handOverKit, type Login } from '../../src/features/jobs/hand-over-test-kit.js';

type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
type App = TestApp['app'];

/**
 * A job's endings and a lawyer's withdrawals raced across two instances on one database: the company,
 * the lawyer, two admins and both instances' clocks at the same moment. Whatever wins, the lawyer is
 * credited once (to the lawyer the job is with when it completes) or not at all, the company is refunded
 * once, and the ledger audits clean. Races show on the PostgreSQL server; PGlite runs them in turn.
 */
describeEachDb('money racer: job endings and withdrawals on two instances', (kind) => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let admin: Login;
  let product: string;
  const ROUNDS = kind === 'postgres' ? 6 : 1;

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    other = await secondInstance(t, kind);
    admin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Loan Agreement', 30_000);
    const held = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/money-settings',
      headers: admin.headers,
      payload: { commissionPercent: 20, holdDays: 0 },
    });
    expect(held.statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const { db, act, assign, pay, upload } = handOverKit(() => ({ t, admin, product }));
  const on = (app: App, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, who: Login | null, payload?: object) =>
    app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
  const actOn = (app: App, who: Login, id: string, action: string, body: object = {}) =>
    on(app, 'POST', `/job-api/jobs/${id}/actions/${action}`, who, body);
  const only = (all: Res[], allowed: number[]) =>
    expect(
      all.filter((r) => !allowed.includes(r.statusCode)).map((r) => `${r.statusCode} ${r.body}`),
      'unexpected answers',
    ).toEqual([]);

  /** The job's money as posted: earnings (with the lawyer credited), cancellations and refunds. */
  async function moneyOf(jobId: string) {
    const posted = await db()
      .select({ kind: ledgerTransactions.kind, lawyerId: ledgerEntries.lawyerId, account: ledgerEntries.account })
      .from(ledgerTransactions)
      .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
      .where(and(eq(ledgerTransactions.jobId, jobId), inArray(ledgerTransactions.kind, ['earning', 'cancellation'])));
    const earned = posted.filter((p) => p.kind === 'earning' && p.account === 'lawyer_earnings');
    const cancelled = posted.filter((p) => p.kind === 'cancellation' && p.account === 'held_for_jobs');
    const refunded = await db().select().from(refunds).where(eq(refunds.jobId, jobId));
    const [job] = await db().select().from(jobs).where(eq(jobs.id, jobId));
    return { job, earned, cancelled, refunded };
  }

  /** One ending and nothing else: earned once by the lawyer holding the job, or cancelled and refunded once. */
  async function endedOnce(jobId: string, refundNaira: number) {
    const { job, earned, cancelled, refunded } = await moneyOf(jobId);
    if (job.stage === 'completed') {
      expect(earned.map((e) => e.lawyerId)).toEqual([job.assignedTo]);
      expect(cancelled).toEqual([]);
      expect(refunded).toEqual([]);
    } else if (job.stage === 'cancelled') {
      expect(earned).toEqual([]);
      expect(cancelled).toHaveLength(1);
      expect(refunded.map((r) => r.amount)).toEqual([refundNaira * 100]);
    } else {
      expect(earned).toEqual([]);
      expect(cancelled).toEqual([]);
      expect(refunded).toEqual([]);
    }
    return job;
  }

  it('accept, auto-accept on both instances, spec and page completion, cancel with a refund, deliver again', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const stages: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const job = await pay(company);
      expect((await assign(job.id, lawyer.id)).statusCode).toBe(200);
      expect((await act(lawyer, job.id, 'deliver', { files: [await upload(lawyer, `D${round}`)] })).statusCode).toBe(
        200,
      );
      const again = await upload(lawyer, `E${round}`);
      const sends = [
        () => actOn(t.app, company, job.id, 'accept'),
        () => on(other.app, 'POST', '/dev/scheduler/tick', admin, { days: 15 }),
        () => actOn(other.app, admin, job.id, 'cancel', { refund: 12_345.67, note: 'Refund agreed' }),
        () => on(t.app, 'POST', '/dev/scheduler/tick', admin, { days: 15 }),
        () => on(other.app, 'PUT', `/job-api/completejob/${job.id}`, admin, {}),
        () => actOn(other.app, lawyer, job.id, 'deliver_again', { files: [again] }),
        () => actOn(t.app, admin, job.id, 'complete'),
        () => actOn(other.app, company, job.id, 'accept'),
      ];
      // Each round sends them starting from another one, so each gets to go first; every other round
      // without the company's acceptances and the page's completion, which otherwise beat the cancel.
      const racing = round % 2 ? sends.filter((_, i) => ![0, 6, 7].includes(i)) : sends;
      const all = await Promise.all(racing.map((_, i) => racing[(i + round) % racing.length]()));
      only(all, [200, 409]);
      stages.push((await endedOnce(job.id, 12_345.67)).stage);
    }
    // Whichever won, the job ended: the clock's acceptance at the latest.
    expect(stages.every((s) => s === 'completed' || s === 'cancelled')).toBe(true);
  });

  it('a job passed on from a lawyer who lost verification, raced with acceptance, completion and cancel', async () => {
    const company = await signupAndLogin(t, 'company');
    for (let round = 0; round < ROUNDS; round++) {
      const first = await signupAndLogin(t, 'lawyer', { verified: true });
      const second = await signupAndLogin(t, 'lawyer', { verified: true });
      const job = await pay(company);
      expect((await assign(job.id, first.id)).statusCode).toBe(200);
      expect((await act(first, job.id, 'deliver', { files: [await upload(first, `F${round}`)] })).statusCode).toBe(200);
      // Changes asked for: the job is at work again, so it can be passed on (a delivered one cannot).
      expect((await act(company, job.id, 'request_changes', { note: 'Add the schedule' })).statusCode).toBe(200);
      expect((await on(t.app, 'PATCH', `/api/verifylawyer/${first.id}`, admin, { verified: false })).statusCode).toBe(
        200,
      );
      const sends = [
        () => on(other.app, 'POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: second.id }),
        () => on(other.app, 'PUT', `/job-api/completejob/${job.id}`, admin, {}),
        () => on(t.app, 'POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: second.id }),
        () => on(other.app, 'POST', '/dev/scheduler/tick', admin, { days: 15 }),
        () => actOn(other.app, admin, job.id, 'cancel', { note: 'Company withdrew' }),
        () => actOn(t.app, admin, job.id, 'complete'),
      ];
      const all = await Promise.all(sends.map((_, i) => sends[(i + round) % sends.length]()));
      only(all, [200, 409]);
      const { job: after, earned, cancelled, refunded } = await moneyOf(job.id);
      if (after.stage === 'completed') expect(earned.map((e) => e.lawyerId)).toEqual([after.assignedTo]);
      else if (after.stage === 'cancelled') {
        expect(cancelled).toHaveLength(1);
        expect(refunded.map((r) => r.amount)).toEqual([3_000_000]);
      }
      // One hand-over at most, whoever sent it.
      const handedOver = await db()
        .select()
        .from(jobEvents)
        .where(and(eq(jobEvents.jobId, job.id), eq(jobEvents.action, 'assign')));
      expect(handedOver.length).toBeLessThanOrEqual(2);
    }
  });

  it('withdrawals on both instances, approvals and a rejection: never more paid out than earned', async () => {
    const company = await signupAndLogin(t, 'company');
    const admin2 = await signupAndLogin(t, 'admin');
    for (let round = 0; round < ROUNDS; round++) {
      const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
      const details = await on(t.app, 'POST', '/api/add-payment-details', lawyer, {
        accountNumber: '0123456789',
        accountName: 'Ada Lawyer',
        bank: 'Zenith Bank',
      });
      expect(details.statusCode, details.body).toBeLessThan(300);
      const job = await pay(company);
      expect((await assign(job.id, lawyer.id)).statusCode).toBe(200);
      expect((await act(lawyer, job.id, 'deliver', { files: [await upload(lawyer, `W${round}`)] })).statusCode).toBe(
        200,
      );
      expect((await act(company, job.id, 'accept')).statusCode).toBe(200);
      // ₦24,000 earned (₦30,000 less 20 %): two of ₦15,000 and one of ₦9,000 at once.
      const asked = await Promise.all([
        on(t.app, 'POST', '/api/lawyer/payouts', lawyer, { amount: 15_000 }),
        on(other.app, 'POST', '/api/lawyer/payouts', lawyer, { amount: 15_000 }),
        on(other.app, 'POST', '/api/lawyer/payouts', lawyer, { amount: 9_000 }),
      ]);
      only(asked, [200, 201, 400, 409, 422]);
      const ids = asked.filter((r) => r.statusCode < 300).map((r) => r.json().payout._id as string);
      const decided = await Promise.all(
        ids.flatMap((id, i) => [
          on(t.app, 'POST', `/api/admin/payouts/${id}/approve`, admin, {}),
          on(other.app, 'POST', `/api/admin/payouts/${id}/approve`, admin2, {}),
          ...(i === 0 ? [on(other.app, 'POST', `/api/admin/payouts/${id}/reject`, admin2, { reason: 'Check' })] : []),
        ]),
      );
      only(decided, [200, 409]);
      const rows = await db().select().from(payouts).where(eq(payouts.lawyerId, lawyer.id));
      const out = rows
        .filter((p) => p.status !== 'rejected' && p.status !== 'failed')
        .reduce((s, p) => s + p.amount, 0);
      expect(out).toBeLessThanOrEqual(2_400_000);
    }
  });
});
