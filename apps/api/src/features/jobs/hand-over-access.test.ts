import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/helpers.js';
import { handOverSuite, type Login } from './hand-over-test-kit.js';

// After a hand-over (decisions 2310, 2316) the replaced lawyer reads the job no more: not its page, its
// timeline, its read mark, nor the company's documents, by a new link or by one taken before. A lawyer who
// only applied never did. The new lawyer reads what the thread holds.
describeEachDb("the replaced lawyer and an applicant, after a job's hand-over", (kind) => {
  const { ctx, inject, act, login, assign, pay, upload, companyAndLawyers } = handOverSuite(kind);
  const keyOf = (url: string) => url.split('/').pop()!;
  const link = (who: Login, url: string) => inject('GET', `/api/files/${keyOf(url)}/link`, who);

  it('opens nothing of the job for the replaced lawyer or an applicant; the new lawyer reads it all', async () => {
    const [company, first, second, applicant] = await companyAndLawyers(3);
    const job = await pay(company);
    expect((await inject('POST', `/job-api/applyforjob/${job.id}`, applicant)).statusCode).toBe(200);
    expect((await assign(job.id, first.id)).statusCode).toBe(200);

    const brief = await upload(company, 'BRIEF');
    const edited = await ctx.t.app.inject({
      method: 'PUT',
      url: `/job-api/company/editjobdetails/${job.id}`,
      headers: company.headers,
      payload: { detail: 'The board minutes.', file: brief.url, fileName: brief.name },
    });
    expect(edited.statusCode).toBe(200);
    const minutes = await upload(company, 'MINUTES');
    expect((await act(company, job.id, 'message', { note: 'Attached.', files: [minutes] })).statusCode).toBe(200);
    const draft = await upload(first, 'DRAFT');
    expect((await act(first, job.id, 'deliver', { files: [draft] })).statusCode).toBe(200);
    expect((await act(company, job.id, 'request_changes', { note: 'Add the resolution.' })).statusCode).toBe(200);
    for (const url of [brief.url, minutes.url]) expect((await link(first, url)).statusCode, url).toBe(200);
    const taken = (await link(first, minutes.url)).json().data.url as string;

    expect((await inject('PATCH', `/api/verifylawyer/${first.id}`, ctx.admin, { verified: false })).statusCode).toBe(
      200,
    );
    const replaced = await login(first.email, first.id);
    // Withdrawn but still assigned: reads the company's documents (decision 2310).
    for (const url of [brief.url, minutes.url]) expect((await link(replaced, url)).statusCode, url).toBe(200);
    expect((await assign(job.id, second.id)).statusCode).toBe(200);

    for (const who of [replaced, applicant]) {
      const name = who === replaced ? 'replaced' : 'applicant';
      for (const url of [brief.url, minutes.url, draft.url].filter((u) => who !== replaced || u !== draft.url))
        expect((await link(who, url)).statusCode, `${name} ${url}`).toBe(403);
      for (const path of [`/job-api/jobs/${job.id}`, `/job-api/jobs/${job.id}/events?after=0`])
        expect((await inject('GET', path, who)).statusCode, `${name} ${path}`).toBe(403);
      expect((await inject('GET', `/job-api/job/${job.id}`, who)).statusCode, name).toBe(404);
      const read = await inject('POST', `/job-api/jobs/${job.id}/read`, who, { lastEventId: '1' });
      expect(read.statusCode, name).toBe(403);
      const minutesAgain = await ctx.t.app.inject({ method: 'GET', url: minutes.url, headers: who.headers });
      expect(minutesAgain.statusCode, name).toBe(403);
    }
    // A link the replaced lawyer took while assigned opens no more.
    expect((await ctx.t.app.inject({ method: 'GET', url: taken })).statusCode).toBe(403);
    expect((await inject('GET', '/job-api/lawyer/pendingjobs', replaced)).json()).toEqual([]);

    for (const url of [brief.url, minutes.url, draft.url]) expect((await link(second, url)).statusCode, url).toBe(200);
  });
});
