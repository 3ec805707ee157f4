import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobApplications } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertUsers } from '../../../test/admin-fixtures.js';
import { TIED_INSERT_ORDER } from '../../../test/tied-ids.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb("a job's applicants: applications of the same instant come back by lawyer id", (kind) => {
  let t: TestApp;
  let admin: Login;
  let jobId: string;
  let expected: string[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    expected = (await insertUsers(t, 'lawyer', 3, { verified: true })).map((u) => u.id).sort();
    jobId = (await insertJob(t, company.id)).id;
    const at = t.clock.now();
    for (const n of TIED_INSERT_ORDER)
      await t.rt.database.db.insert(jobApplications).values({ jobId, lawyerId: expected[n - 1], createdAt: at });
  });
  afterAll(() => t.close());

  const applicants = (job: { appliedLawer: Array<{ _id: string }> }) => job.appliedLawer.map((l) => l._id);

  it('GET /job-api/admin/job/:id names them oldest application first, then by lawyer id', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/job-api/admin/job/${jobId}`, headers: admin.headers });
      expect(res.statusCode).toBe(200);
      expect(applicants(res.json().data.job)).toEqual(expected);
    }
  });

  it('GET /job-api/unassign?page=1 (built as JSON by the database) names them in the same order', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/job-api/unassign?page=1', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      const job = (res.json().jobs as Array<{ _id: string; appliedLawer: Array<{ _id: string }> }>).find(
        (j) => j._id === jobId,
      );
      expect(applicants(job!)).toEqual(expected);
    }
  });
});
