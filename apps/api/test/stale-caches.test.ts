import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { jobs } from '../src/db/schema.js';
import { insertJob } from './admin-fixtures.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { secondInstance } from './second-instance.js';
import { pdfBytes } from './upload-helpers.js';

/**
 * Cached answers an outside tester could catch stale (docs/architecture.md "Caching"): a second app
 * stands for another instance behind the load balancer (on PostgreSQL its own pool on the same schema;
 * PGlite cannot be opened twice, so there it shares the database, as performance.test.ts does).
 */
describeEachDb('stale caches', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let closeOther: () => Promise<void>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ app: other, close: closeOther } = await secondInstance(t, kind));
  });
  afterAll(async () => {
    await closeOther();
    await t.close();
  });

  const dueIn = (id: string, ms: number) =>
    t.rt.database.db
      .update(jobs)
      .set({ dueAt: new Date(t.clock.now().getTime() + ms) })
      .where(eq(jobs.id, id));

  it("an admin's late-first page changes when a job on another page turns late, with nothing written", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const admin = await signupAndLogin(t, 'admin');
    // Older, due in an hour: on page 2 (newest first) until it is late, then first (late first).
    const older = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    await dueIn(older.id, 3600_000);
    t.clock.advance(1000);
    const newer = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    await dueIn(newer.id, 7 * 86_400_000);
    const firstOfPage1 = async (app: FastifyInstance) => {
      const res = await app.inject({ url: '/job-api/pendingjobs?page=1&limit=1', headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().jobs as Array<{ _id: string; late: boolean }>)[0];
    };
    for (const app of [t.app, other, t.app, other]) expect((await firstOfPage1(app))._id).toBe(newer.id);
    t.clock.advance(2 * 3600_000);
    for (const app of [t.app, other]) expect(await firstOfPage1(app)).toMatchObject({ _id: older.id, late: true });
  });

  it("one user's answers are never kept by a shared cache, on either instance (Cache-Control)", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const admin = await signupAndLogin(t, 'admin');
    const job = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    const personal: Array<[string, { headers: Record<string, string> }]> = [
      ['/api/cart', company],
      ['/job-api/company/pendingjobs', company],
      ['/job-api/company/completedjobs', company],
      [`/api/userprofile?_id=${company.id}`, company],
      [`/job-api/jobs/${job.id}`, company],
      [`/job-api/jobs/${job.id}`, lawyer],
      [`/api/userprofile?_id=${lawyer.id}`, lawyer],
      ['/job-api/pendingjobs', admin],
      ['/job-api/pendingjobs?page=1&limit=5', admin],
      [`/job-api/admin/job/${job.id}`, admin],
    ];
    for (const app of [t.app, other, t.app])
      for (const [url, who] of personal) {
        const res = await app.inject({ url, headers: who.headers });
        expect(res.statusCode === 200 || res.statusCode === 404, `${url} ${res.body}`).toBe(true);
        expect(res.headers['cache-control'], url).toMatch(/\bno-store\b/);
      }
  });

  it('a replaced Remuneration Order is never served from a copy kept before the change', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const put = async (body: Buffer) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/remuneration-order',
        headers: { ...admin.headers, 'content-type': 'application/pdf' },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await put(pdfBytes('first order'));
    const first = await other.inject({ url: '/api/remuneration-order' });
    expect(first.statusCode).toBe(200);
    await put(pdfBytes('second order'));
    // A browser or proxy holding the first answer must ask again before showing it (no max-age).
    const policy = String(first.headers['cache-control']);
    expect(policy).toMatch(/\bno-cache\b|\bno-store\b|\bmax-age=0\b/);
    const second = await other.inject({ url: '/api/remuneration-order' });
    expect(second.rawPayload.equals(pdfBytes('second order'))).toBe(true);
  });
});
