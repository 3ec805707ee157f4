import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { jobEvents, jobs } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct, mailsTo } from '../../../test/admin-fixtures.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** An outside tester's findings on the job workspace (issue 16), each kept as a test. */
describeEachDb('job workspace: refusals and notifications an audit found', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
    productId = (await insertProduct(t, 'Loan Agreement Review')).id;
  });
  afterAll(() => t.close());

  const act = (id: string, action: string, who: Login, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: `/job-api/jobs/${id}/actions/${action}`, headers: who.headers, payload });
  async function assignedJob() {
    const job = await insertJob(t, company.id, { productId });
    const res = await t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: admin.headers,
      payload: { jobId: job.id, lawyerId: lawyer.id },
    });
    expect(res.statusCode).toBe(200);
    return job.id;
  }
  const row = async (id: string) => (await t.rt.database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
  const eventCount = async (id: string) =>
    (await t.rt.database.db.select().from(jobEvents).where(eq(jobEvents.jobId, id))).length;

  it('refuses details given or added from the job page without any text, keeping the ones there', async () => {
    const id = await assignedJob();
    expect((await act(id, 'give_details', company, { note: 'Two lenders, one borrower.' })).statusCode).toBe(200);
    expect((await act(id, 'add_details', admin, { note: 'Governing law: Lagos State.' })).statusCode).toBe(200);
    const events = await eventCount(id);
    for (const [action, who] of [
      ['give_details', company],
      ['add_details', admin],
    ] as const)
      for (const payload of [{}, { note: '  \n ' }]) {
        const res = await act(id, action, who, payload);
        expect(res.statusCode, `${action} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json().message).toBe(messages.kindlyAddDetails);
      }
    expect(await row(id)).toMatchObject({
      companyDetail: 'Two lenders, one borrower.',
      adminDetail: 'Governing law: Lagos State.',
    });
    expect(await eventCount(id)).toBe(events);
  });

  it("answers an oversized note and too many documents in the thread's own words", async () => {
    const id = await assignedJob();
    const long = await act(id, 'message', company, { note: 'x'.repeat(5001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(messages.messageTooLong);
    const many = await act(id, 'message', company, {
      note: 'six files',
      files: Array.from({ length: 6 }, (_, i) => ({ url: `/api/files/k${i}`, name: `${i}.pdf` })),
    });
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toBe('Please attach at most 5 documents');
    // The limit counts the note as it is kept: blanks around it are not part of it.
    const padded = await act(id, 'message', company, { note: `${'y'.repeat(5000)}\n\n  ` });
    expect(padded.statusCode, padded.body).toBe(200);
  });

  it('tells the lawyer by e-mail too when an admin marks the job completed on the spec route', async () => {
    const id = await assignedJob();
    const before = (await mailsTo(t, lawyer.email)).length;
    const res = await t.app.inject({ method: 'PUT', url: `/job-api/completejob/${id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const lawyerMails = (await mailsTo(t, lawyer.email)).slice(before);
    expect(lawyerMails.map((m) => m.subject)).toEqual(['Loan Agreement Review was marked completed']);
    expect(lawyerMails[0]!.text).toContain(`/jobs/${id}`);
    // The company keeps the spec's own e-mail, once.
    const companyMails = (await mailsTo(t, company.email)).filter((m) => m.subject.includes('completed'));
    expect(companyMails.map((m) => m.subject)).toEqual(['Your job is completed: Loan Agreement Review']);
  });
});
