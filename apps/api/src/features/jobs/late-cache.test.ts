import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob } from '../../../test/admin-fixtures.js';

describeEachDb('late in cached lists', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('a job turns late in the lists when its due time passes, with nothing written', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const admin = await signupAndLogin(t, 'admin');
    const job = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    const due = new Date(t.clock.now().getTime() + 3600_000);
    await t.rt.database.db.update(jobs).set({ dueAt: due }).where(eq(jobs.id, job.id));
    // A newer job due in a week: newest first lists it first until the older one is late.
    t.clock.advance(1000);
    const newer = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    await t.rt.database.db
      .update(jobs)
      .set({ dueAt: new Date(t.clock.now().getTime() + 7 * 86_400_000) })
      .where(eq(jobs.id, newer.id));
    const adminOrder = async () =>
      ((await read('/job-api/pendingjobs?page=1&limit=50', admin)).jobs as Array<{ _id: string }>)
        .map((j) => j._id)
        .filter((id) => id === job.id || id === newer.id);
    const read = async (url: string, who: typeof company) =>
      (await t.app.inject({ method: 'GET', url, headers: who.headers })).json();
    const lists: Array<[string, typeof company]> = [
      ['/job-api/company/pendingjobs', company],
      ['/job-api/lawyer/pendingjobs?page=1&limit=50', lawyer],
      ['/job-api/pendingjobs?page=1&limit=50', admin],
    ];
    const pick = (body: unknown) => {
      const list = (Array.isArray(body) ? body : ((body as { jobs?: unknown[] }).jobs ?? [])) as Array<{
        _id: string;
        late: boolean;
      }>;
      return list.find((j) => j._id === job.id);
    };
    for (const [url, who] of lists) {
      expect(pick(await read(url, who)), url).toMatchObject({ late: false });
      expect(pick(await read(url, who)), url).toMatchObject({ late: false });
    }
    expect(await adminOrder()).toEqual([newer.id, job.id]);
    const page = await read(`/job-api/jobs/${job.id}`, company);
    expect(page.job.late).toBe(false);
    t.clock.advance(2 * 3600_000);
    for (const [url, who] of lists) expect(pick(await read(url, who)), url).toMatchObject({ late: true });
    expect((await read(`/job-api/jobs/${job.id}`, company)).job.late).toBe(true);
    // Late jobs first for the admin (issue 16), by the same clock.
    expect(await adminOrder()).toEqual([job.id, newer.id]);
  });
});
