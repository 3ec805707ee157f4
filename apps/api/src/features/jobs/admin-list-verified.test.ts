import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob } from '../../../test/admin-fixtures.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Listed = { _id: string; assignedTo: Array<{ _id: string; verified?: boolean }> };

/** Decision 2333: the admin jobs lists say which assigned lawyer lost verification. */
describeEachDb('the admin jobs lists and the lawyer’s verification', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let kept: Login;
  let withdrawn: Login;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company, kept, withdrawn] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
  });
  afterAll(() => t.close());

  const get = async (url: string) =>
    (await t.app.inject({ method: 'GET', url, headers: admin.headers })).json() as Listed[] | { jobs: Listed[] };
  const lawyerOf = (list: Listed[] | { jobs: Listed[] }, jobId: string) =>
    (Array.isArray(list) ? list : list.jobs).find((j) => j._id === jobId)?.assignedTo[0];

  it('marks the jobs whose lawyer lost verification, paged or not, and follows a change at once', async () => {
    const a = await insertJob(t, company.id, { status: 'pending', lawyerId: kept.id });
    const b = await insertJob(t, company.id, { status: 'pending', lawyerId: withdrawn.id });
    for (const url of ['/job-api/pendingjobs?limit=100', '/job-api/pendingjobs?page=1&limit=50']) {
      expect(lawyerOf(await get(url), a.id)).toMatchObject({ _id: kept.id, verified: true });
      expect(lawyerOf(await get(url), b.id)).toMatchObject({ _id: withdrawn.id, verified: true });
    }
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/verifylawyer/${withdrawn.id}`,
      headers: admin.headers,
      payload: { verified: false },
    });
    expect(patched.statusCode).toBe(200);
    for (const url of ['/job-api/pendingjobs?limit=100', '/job-api/pendingjobs?page=1&limit=50']) {
      expect(lawyerOf(await get(url), a.id)).toMatchObject({ verified: true });
      expect(lawyerOf(await get(url), b.id)).toMatchObject({ verified: false });
    }
    // The admin's one-job answer says the same.
    const one = await t.app.inject({ method: 'GET', url: `/job-api/admin/job/${b.id}`, headers: admin.headers });
    expect(one.json().data.job.assignedTo[0].verified).toBe(false);
  });

  it('tells no one else: the company and the lawyer read their jobs without it', async () => {
    const job = await insertJob(t, company.id, { status: 'pending', lawyerId: kept.id });
    const companyList = await t.app.inject({
      method: 'GET',
      url: '/job-api/company/pendingjobs',
      headers: company.headers,
    });
    const mine = (companyList.json() as Listed[]).find((j) => j._id === job.id);
    expect(mine?.assignedTo[0]).toBeDefined();
    expect(mine?.assignedTo[0]).not.toHaveProperty('verified');
  });
});
