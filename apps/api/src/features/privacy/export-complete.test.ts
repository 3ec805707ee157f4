import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { refunds, subscriptionEvents, subscriptionPayments } from '../../db/schema.js';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { insertPlan } from '../../../test/commerce-helpers.js';
import { handOverSuite, type Login } from '../jobs/hand-over-test-kit.js';

// The archive of NDPA s. 34 holds everything about the person (decision 2030): what they paid and were
// refunded, and what they wrote on a job that is no longer theirs, with nothing of the other party's.
describeEachDb('the data export is complete', (kind) => {
  const { ctx, inject, act, login, assign, pay, upload, companyAndLawyers } = handOverSuite(kind);
  const db = () => ctx.t.rt.database.db;

  async function archive(who: Login) {
    const res = await inject('GET', '/api/account/export', who);
    expect(res.statusCode).toBe(200);
    const zip = unzipSync(new Uint8Array(res.rawPayload));
    return {
      names: Object.keys(zip),
      json: (name: string) => (zip[name] ? JSON.parse(strFromU8(zip[name])) : undefined),
      all: Object.values(zip)
        .map((bytes) => strFromU8(bytes))
        .join('\n'),
    };
  }

  it("holds a company's monthly plans, their payments and its refunds, without the card's token", async () => {
    const [company] = await companyAndLawyers(0);
    const job = await pay(company);
    expect((await act(ctx.admin, job.id, 'cancel', { note: 'The company asked to stop.' })).statusCode).toBe(200);
    const [refund] = await db().select().from(refunds).where(eq(refunds.jobId, job.id));
    expect(refund).toBeTruthy();

    const now = ctx.t.clock.now();
    const plan = await insertPlan(ctx.t, company, {
      status: 'ended',
      periodStart: new Date(now.getTime() - 30 * 86_400_000),
      periodEnd: now,
    });
    await db()
      .insert(subscriptionPayments)
      .values({
        subscriptionId: plan.id,
        companyId: company.id,
        tier: 'silver',
        kind: 'first',
        txRef: `plan-first-${company.id}`,
        amount: 8_000_000,
        status: 'paid',
        provider: 'sandbox',
        providerPlanId: 'sandbox-plan-silver',
        paidAt: plan.periodStart,
      });

    const mine = await archive(company);
    const plans = mine.json('plans.json');
    expect(plans?.plans).toEqual([expect.objectContaining({ id: plan.id, tier: 'silver', status: 'ended' })]);
    expect(plans?.payments).toEqual([
      expect.objectContaining({ txRef: `plan-first-${company.id}`, amount: 8_000_000, status: 'paid' }),
    ]);
    expect(mine.json('refunds.json')).toEqual([
      expect.objectContaining({ id: refund.id, jobId: job.id, amount: refund.amount }),
    ]);
    // The provider's token charges the card: it is no data about the person and must not travel in a zip.
    expect(mine.all).not.toContain('CARD-TOKEN-OF-THE-COMPANY');
    // Who asked for the refund is an admin's id, not the company's data.
    expect(mine.all).not.toContain(ctx.admin.id);

    // Another company's archive holds none of it.
    const other = await signupAndLogin(ctx.t, 'company');
    const theirs = await archive(other);
    expect(theirs.json('plans.json')).toEqual({ plans: [], payments: [] });
    expect(theirs.json('refunds.json')).toEqual([]);
    expect(theirs.all).not.toContain(plan.id);
  });

  // A plan's timeline and its notes (renewed, lapsed, a note an admin wrote) were left out of the archive.
  it("holds the timeline of the company's plans with their notes, and nothing of another's", async () => {
    const [company] = await companyAndLawyers(0);
    const other = await signupAndLogin(ctx.t, 'company');
    const plan = await insertPlan(ctx.t, company, { status: 'ended' });
    const theirPlan = await insertPlan(ctx.t, other, { status: 'ended' });
    await db()
      .insert(subscriptionEvents)
      .values([
        { subscriptionId: plan.id, kind: 'ended', note: 'PLAN-ENDED-NOTE-OF-THE-COMPANY' },
        { subscriptionId: theirPlan.id, kind: 'ended', note: 'PLAN-NOTE-OF-ANOTHER-COMPANY' },
      ]);
    const mine = await archive(company);
    expect(mine.json('plan-events.json')).toEqual([
      expect.objectContaining({ subscriptionId: plan.id, kind: 'ended', note: 'PLAN-ENDED-NOTE-OF-THE-COMPANY' }),
    ]);
    expect(mine.all).not.toContain('PLAN-NOTE-OF-ANOTHER-COMPANY');
  });

  it('holds what a replaced lawyer wrote on a job handed over, and nothing else of that job', async () => {
    const [company, first, second] = await companyAndLawyers(2);
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    const brief = await upload(company, 'COMPANY-BRIEF');
    expect(
      (await act(company, job.id, 'message', { note: 'COMPANY-NOTE our brief is attached', files: [brief] }))
        .statusCode,
    ).toBe(200);
    expect((await act(first, job.id, 'message', { note: 'FIRST-LAWYER-NOTE I will start today' })).statusCode).toBe(
      200,
    );
    const draft = await upload(first, 'FIRST-DRAFT');
    expect((await act(first, job.id, 'message', { note: 'FIRST-LAWYER-DRAFT', files: [draft] })).statusCode).toBe(200);

    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, ctx.admin, { verified: false })).statusCode).toBe(
      200,
    );
    expect((await assign(job.id, second.id)).statusCode).toBe(200);
    expect((await act(second, job.id, 'message', { note: 'SECOND-LAWYER-NOTE taking over' })).statusCode).toBe(200);

    const replaced = await archive(await login(first.email, first.id));
    const actions = replaced.json('job-actions.json') as Array<{ jobId: string; note: string | null }> | undefined;
    expect(actions?.filter((a) => a.jobId === job.id).map((a) => a.note)).toEqual([
      'FIRST-LAWYER-NOTE I will start today',
      'FIRST-LAWYER-DRAFT',
    ]);
    expect(replaced.all).toContain(draft.url);
    // The job is the company's and the new lawyer's now (decision 2319): none of their words or files.
    for (const foreign of ['COMPANY-NOTE', brief.url, 'COMPANY-BRIEF', 'SECOND-LAWYER-NOTE', company.email])
      expect(replaced.all, foreign).not.toContain(foreign);
    expect(replaced.json('jobs.json')).toEqual([]);

    // An admin's archive holds the messages it wrote on jobs (it is party to none).
    expect((await act(ctx.admin, job.id, 'message', { note: 'ADMIN-NOTE checking in' })).statusCode).toBe(200);
    const adminArchive = await archive(ctx.admin);
    const adminActions = adminArchive.json('job-actions.json') as Array<{ note: string | null }> | undefined;
    expect(adminActions?.map((a) => a.note)).toContain('ADMIN-NOTE checking in');
    expect(adminArchive.all).not.toContain('SECOND-LAWYER-NOTE');
  });
});
