import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ledgerEntries, users } from '../../db/schema.js';
import { describeEachDb } from '../../../test/helpers.js';
import { handOverSuite } from './hand-over-test-kit.js';

// An admin's Mark as Completed pays the job's present lawyer. After a hand-over at changes_requested that
// lawyer may have delivered nothing (the drafts are the replaced lawyer's): the admin's job answer says
// whom the completion pays, how much, and whether they delivered, so the confirmation can (decision 2322).
describeEachDb("the admin's Mark as Completed after a hand-over", (kind) => {
  const { ctx, db, inject, act, assign, pay, upload, companyAndLawyers } = handOverSuite(kind);
  const payOnComplete = async (jobId: string) =>
    (await inject('GET', `/job-api/admin/job/${jobId}`, ctx.admin)).json().data.job.payOnComplete as unknown;

  it('names the lawyer it pays and the amount, says whether they delivered, and pays exactly that', async () => {
    const [company, first, second] = await companyAndLawyers(2);
    await db().update(users).set({ name: 'Ada First' }).where(eq(users.id, first.id));
    await db().update(users).set({ name: 'Bola Second' }).where(eq(users.id, second.id));
    const job = await pay(company);
    expect(await payOnComplete(job.id)).toBeUndefined(); // nobody to pay yet
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    expect(await payOnComplete(job.id)).toEqual({
      lawyerId: first.id,
      name: 'Ada First',
      amount: 40_000,
      delivered: false,
    });
    expect((await act(first, job.id, 'deliver', { files: [await upload(first, 'DRAFT')] })).statusCode).toBe(200);
    expect(await payOnComplete(job.id)).toMatchObject({ lawyerId: first.id, delivered: true });
    expect((await act(company, job.id, 'request_changes', { note: 'Add the board resolution.' })).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, ctx.admin, { verified: false })).statusCode).toBe(
      200,
    );
    expect((await assign(job.id, second.id)).statusCode).toBe(200);

    // Handed over: the completion would pay the new lawyer, who has delivered nothing on the job.
    expect(await payOnComplete(job.id)).toEqual({
      lawyerId: second.id,
      name: 'Bola Second',
      amount: 40_000,
      delivered: false,
    });
    expect(
      (await ctx.t.app.inject({ method: 'PUT', url: `/job-api/completejob/${job.id}`, headers: ctx.admin.headers }))
        .statusCode,
    ).toBe(200);
    const earned = await db()
      .select({ lawyerId: ledgerEntries.lawyerId, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.jobId, job.id), eq(ledgerEntries.account, 'lawyer_earnings')));
    // The answer told the truth: that lawyer, that amount (kobo, a credit to the lawyer).
    expect(earned).toEqual([{ lawyerId: second.id, amount: -4_000_000 }]);
    // A finished job has nothing left to pay.
    expect(await payOnComplete(job.id)).toBeUndefined();
  });
});
