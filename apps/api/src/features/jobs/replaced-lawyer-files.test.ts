import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/helpers.js';
import { handOverSuite, type Login } from './hand-over-test-kit.js';

// After a hand-over the replaced lawyer still opens the drafts they uploaded themselves (their own work)
// and nothing else of the job: not the page, not the company's documents, not the new lawyer's drafts
// (decision 2319).
describeEachDb('what a replaced lawyer still reads of the job', (kind) => {
  const { ctx, inject, act, login, assign, pay, upload, companyAndLawyers } = handOverSuite(kind);
  const opens = async (who: Login, url: string) =>
    (await ctx.t.app.inject({ method: 'GET', url, headers: who.headers })).statusCode;

  it('opens their own draft only', async () => {
    const [company, first, second] = await companyAndLawyers(2);
    const job = await pay(company);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);
    const draft = await upload(first, 'FIRST-DRAFT');
    expect((await act(first, job.id, 'deliver', { files: [draft] })).statusCode).toBe(200);
    const resolution = await upload(company, 'BOARD-RESOLUTION');
    expect(
      (await act(company, job.id, 'request_changes', { note: 'Add the board resolution.', files: [resolution] }))
        .statusCode,
    ).toBe(200);
    // While assigned, the company's document opens for the first lawyer.
    expect(await opens(first, resolution.url)).toBe(200);

    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, ctx.admin, { verified: false })).statusCode).toBe(
      200,
    );
    expect((await assign(job.id, second.id)).statusCode).toBe(200);
    const secondDraft = await upload(second, 'SECOND-DRAFT');
    expect((await act(second, job.id, 'deliver_again', { files: [secondDraft] })).statusCode).toBe(200);

    const replaced = await login(first.email, first.id);
    expect(await opens(replaced, draft.url)).toBe(200);
    expect(await opens(replaced, resolution.url)).toBe(403);
    expect(await opens(replaced, secondDraft.url)).toBe(403);
    expect(await opens(replaced, `/job-api/jobs/${job.id}`)).toBe(403);
    // The job's parties now: the company and the new lawyer read all three.
    for (const url of [draft.url, resolution.url, secondDraft.url]) {
      expect(await opens(company, url), url).toBe(200);
      expect(await opens(second, url), url).toBe(200);
    }
  });
});
