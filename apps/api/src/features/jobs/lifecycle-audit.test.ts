import { afterAll, beforeAll, expect, it } from 'vitest';
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
