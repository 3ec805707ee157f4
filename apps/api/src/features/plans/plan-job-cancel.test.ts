import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { PLAN_CREDIT_KINDS, planMessages, type PlanView } from '@legalmarket/contracts';
import { auditLog, jobs, ledgerEntries, ledgerTransactions, refunds } from '../../db/schema.js';
import { setSandboxRenewalFailure } from '../../platform/payments/sandbox.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import type { createLedger } from '../money/ledger.js';
import { type createPlansService, creditValueOf } from './service.js';
import { planServices, reloggingInject, subscribeInSandbox } from './plan-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 86_400_000;
const BRONZE = creditValueOf('bronze');

/**
 * An admin cancels a job a plan credit opened (decision 1900): no money goes back through the provider
 * (the job cost ₦0); the credit goes back to the plan while its month lasts, else its value expires.
 */
describeEachDb('cancelling a plan job', (kind) => {
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
  afterEach(async () => expect(await ledger.audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const inject = reloggingInject(() => t);
  const mine = async (who: Login) => (await inject('GET', '/api/plans/mine', who)).json().data as PlanView;
  const cancel = (jobId: string, body: Record<string, unknown> = {}) =>
    inject('POST', `/job-api/jobs/${jobId}/actions/cancel`, admin, { note: 'Asked for by mistake.', ...body });
  const request = async (who: Login, credit: string) =>
    inject('POST', '/api/plans/mine/requests', who, { kind: credit, detail: 'A supply agreement' });
  const moveTo = async (at: Date) => {
    t.clock.advance(at.getTime() - t.clock.now().getTime());
    await plans.tick();
  };

  const subscribe = async (who: Login) => (await subscribeInSandbox(inject, who, 'bronze')).plan;

  /** A Bronze plan (1 review, 2 drafts, 1 opinion) and a job opened with one of its credits. */
  async function planJob(credit = 'review') {
    const company = await signupAndLogin(t, 'company');
    const plan = await subscribe(company);
    const made = await request(company, credit);
    expect(made.statusCode).toBe(201);
    return { company, plan, jobId: (made.json().data as { jobId: string }).jobId };
  }

  /** The ledger postings of a job, in order. */
  const postings = (jobId: string) =>
    db()
      .select({ kind: ledgerTransactions.kind, account: ledgerEntries.account, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(eq(ledgerEntries.jobId, jobId))
      .orderBy(ledgerEntries.id);
  /** What the plan's payments still hold for credits not spent (held against the company, no job). */
  async function planPool(companyId: string) {
    const [r] = await db()
      .select({ kobo: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.account, 'held_for_jobs'),
          eq(ledgerEntries.companyId, companyId),
          isNull(ledgerEntries.jobId),
        ),
      );
    return Number(r.kobo);
  }
  const creditsLeft = (plan: PlanView) => PLAN_CREDIT_KINDS.reduce((s, k) => s + plan.credits[k], 0);
  const kinds = async (jobId: string) =>
    (
      await db()
        .select({ kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.jobId, jobId))
        .orderBy(ledgerTransactions.id)
    ).map((r) => r.kind);

  it('the audit names a plan whose credits and held money part: a credit back without its value', async () => {
    const { company } = await planJob('review');
    // The review credit given back while its value stays with the job's cancellation (or never came
    // back): the company could open a job the plan holds nothing for.
    const rolledBack = await db()
      .transaction(async (tx) => {
        await tx.execute(
          sql`update subscriptions set credits = jsonb_set(credits, '{review}', '1') where company_id = ${company.id}`,
        );
        expect(await ledger.audit(tx)).toEqual([
          `plans of company ${company.id} hold ${3 * BRONZE} kobo for credits worth ${4 * BRONZE} kobo`,
        ]);
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    expect(rolledBack).toBe('rolled back');
  });

  it('with the default refund: 200, the credit is back and its value held for the plan again', async () => {
    const { company, jobId } = await planJob('review');
    expect((await mine(company)).credits.review).toBe(0);
    const res = await cancel(jobId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ job: { status: 'cancelled' }, planCredit: true });
    const plan = await mine(company);
    expect(plan.credits).toEqual({ review: 1, draft: 2, opinion: 1, policy: 0 });
    expect(plan.creditsUsed).toEqual({ review: 0, draft: 0, opinion: 0, policy: 0 });
    expect(plan.events.at(-1)).toMatchObject({
      kind: 'job_cancelled',
      note: 'Agreement review job cancelled; its credit is back',
    });
    // The credit's value left the job for the plan's pool; the cancellation moved nothing more.
    expect(await postings(jobId)).toEqual([
      { kind: 'plan_credit', account: 'held_for_jobs', amount: -BRONZE },
      { kind: 'plan_credit_return', account: 'held_for_jobs', amount: BRONZE },
    ]);
    expect(await kinds(jobId)).toEqual(['plan_credit', 'plan_credit_return', 'cancellation']);
    expect(await planPool(company.id)).toBe(creditsLeft(plan) * BRONZE);
    expect(await db().select().from(refunds).where(eq(refunds.jobId, jobId))).toEqual([]);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'job.cancel'), eq(auditLog.targetId, jobId)));
    expect(audit.details).toMatchObject({ heldKobo: BRONZE, refundKobo: 0, planCredit: 'returned' });
    // Cancelled once: again is refused and gives nothing more back.
    expect((await cancel(jobId)).statusCode).toBe(409);
    expect((await mine(company)).credits.review).toBe(1);
    // The credit opens a new job.
    expect((await request(company, 'review')).statusCode).toBe(201);
    expect(await planPool(company.id)).toBe(3 * BRONZE);
  });

  it('with a refund of 0 typed in, once a lawyer works on it: the same, the credit is back', async () => {
    const { company, jobId } = await planJob('opinion');
    expect((await inject('POST', '/job-api/assign', admin, { jobId, lawyerId: lawyer.id })).statusCode).toBe(200);
    expect((await cancel(jobId, { refund: 0 })).statusCode).toBe(200);
    const plan = await mine(company);
    expect(plan.credits.opinion).toBe(1);
    expect(plan.creditsUsed.opinion).toBe(0);
    expect(await planPool(company.id)).toBe(4 * BRONZE);
  });

  it('a refund of money on a plan job answers 400 and changes nothing', async () => {
    const { company, jobId } = await planJob('draft');
    const res = await cancel(jobId, { refund: 125 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(planMessages.jobRefundRefused);
    const [job] = await db().select().from(jobs).where(eq(jobs.id, jobId));
    expect(job.stage).toBe('unassigned');
    expect((await mine(company)).credits.draft).toBe(1);
    expect(await kinds(jobId)).toEqual(['plan_credit']);
  });

  it('in the grace after a failed renewal: the month is still the job’s, the credit is back', async () => {
    const { company, plan, jobId } = await planJob('draft');
    await setSandboxRenewalFailure(db(), company.email, true);
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + 60_000));
    expect((await mine(company)).status).toBe('grace');
    expect((await cancel(jobId)).statusCode).toBe(200);
    const now = await mine(company);
    expect(now.credits.draft).toBe(2);
    expect(await planPool(company.id)).toBe(4 * BRONZE);
    // The renewal paid in the grace expires the month's unused credits, the returned one with them.
    await setSandboxRenewalFailure(db(), company.email, false);
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + DAY + 120_000));
    const renewed = await mine(company);
    expect(renewed.status).toBe('active');
    expect(await planPool(company.id)).toBe(creditsLeft(renewed) * BRONZE);
  });

  it('after the month renewed: no credit back, its value expires to the platform', async () => {
    const { company, plan, jobId } = await planJob('draft');
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + 60_000));
    const renewed = await mine(company);
    expect(renewed.periodStart).toBe(plan.renewsAt);
    expect(renewed.credits.draft).toBe(2);
    const res = await cancel(jobId);
    expect(res.statusCode).toBe(200);
    const after = await mine(company);
    expect(after.credits).toEqual(renewed.credits);
    expect(after.creditsUsed).toEqual(renewed.creditsUsed);
    expect(after.events.at(-1)).toMatchObject({
      kind: 'job_cancelled',
      note: 'Draft job cancelled after its month; the credit had expired',
    });
    expect(await postings(jobId)).toEqual([
      { kind: 'plan_credit', account: 'held_for_jobs', amount: -BRONZE },
      { kind: 'cancellation', account: 'held_for_jobs', amount: BRONZE },
      { kind: 'cancellation', account: 'platform_commission', amount: -BRONZE },
    ]);
    expect(await planPool(company.id)).toBe(creditsLeft(after) * BRONZE);
  });

  it('after the plan ended: no credit back, its value expires', async () => {
    const { company, plan, jobId } = await planJob('review');
    expect((await inject('POST', '/api/plans/mine/cancel', company)).statusCode).toBe(200);
    await moveTo(new Date(new Date(plan.renewsAt).getTime() + 60_000));
    expect((await mine(company)).status).toBe('ended');
    expect((await cancel(jobId)).statusCode).toBe(200);
    expect((await mine(company)).credits).toEqual({ review: 0, draft: 0, opinion: 0, policy: 0 });
    expect(await kinds(jobId)).toEqual(['plan_credit', 'cancellation']);
    expect(await planPool(company.id)).toBe(0);
  });

  it.runIf(kind === 'postgres')(
    'a cancel racing the scheduler ending or renewing the plan: the books stay exact',
    async () => {
      for (let round = 0; round < 4; round++) {
        const ending = round % 2 === 0;
        const { company, plan, jobId } = await planJob('review');
        if (ending) expect((await inject('POST', '/api/plans/mine/cancel', company)).statusCode).toBe(200);
        // The month is over and nobody has looked yet: the admin's cancel and two scheduler passes meet.
        t.clock.advance(new Date(plan.renewsAt).getTime() + 60_000 - t.clock.now().getTime());
        const [answer] = await Promise.all([cancel(jobId), plans.tick(), plans.tick()]);
        expect(answer.statusCode, answer.body).toBe(200);
        const after = await mine(company);
        expect(after.status).toBe(ending ? 'ended' : 'active');
        // Back before the month closed (then expired with it), or after it (expired with the cancellation).
        expect([
          ['plan_credit', 'plan_credit_return', 'cancellation'],
          ['plan_credit', 'cancellation'],
        ]).toContainEqual(await kinds(jobId));
        // A new month's credits are all there: the returned one never carries over into it.
        expect(after.credits).toEqual(ending ? { review: 0, draft: 0, opinion: 0, policy: 0 } : plan.credits);
        expect(await planPool(company.id)).toBe(creditsLeft(after) * BRONZE);
        expect(await ledger.audit()).toEqual([]);
      }
    },
  );

  it.runIf(kind === 'postgres')('a cancel racing credit requests: the counts and the books stay exact', async () => {
    for (let round = 0; round < 4; round++) {
      // Bronze has 2 drafts: one spent on the job cancelled below, one left for the racing requests.
      const { company, jobId } = await planJob('draft');
      const answers = await Promise.all([
        request(company, 'draft'),
        cancel(jobId),
        request(company, 'draft'),
        request(company, 'draft'),
      ]);
      expect(answers[1].statusCode).toBe(200);
      expect(answers.map((a) => a.statusCode).filter((c) => ![200, 201, 409].includes(c))).toEqual([]);
      const open = await db()
        .select()
        .from(jobs)
        .where(and(eq(jobs.companyId, company.id), sql`${jobs.stage} <> 'cancelled'`));
      const plan = await mine(company);
      // Each draft credit is either left or spent on one open job: none lost, none made twice.
      expect(open).toHaveLength(answers.filter((a) => a.statusCode === 201).length);
      expect(plan.credits.draft + open.length).toBe(2);
      expect(plan.creditsUsed.draft).toBe(open.length);
      expect(await planPool(company.id)).toBe(creditsLeft(plan) * BRONZE);
      expect(await ledger.audit()).toEqual([]);
    }
  });
});
