import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/db/client.js';
import { insertJob } from './admin-fixtures.js';
import { createTestApp, databases, signupAndLogin, type TestApp } from './helpers.js';

/**
 * The reads of a signed-in user's first visit (issue 15's cold rows) are prepared statements, so that
 * PostgreSQL plans each once per connection. It keeps a generic plan only when it judges it no dearer
 * than planning again; a status list or a LIMIT sent as parameters made it plan the company's open jobs
 * and the lawyer's Best fit page on every request at the bench's size (0.5-1.9 ms each, as long as running
 * them); at a test's size it settles either way, so the statements' parameters are checked too. One
 * connection, so the statements' counters are those of the connection that ran them; cached responses off.
 */
describe.runIf(databases.includes('postgres'))('prepared reads are planned once [postgres]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres', { DATABASE_POOL_SIZE: '1', ANSWER_CACHE_MB: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a company's cart and lists and a lawyer's first Best fit page keep one generic plan", async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    for (const status of ['unassigned', 'pending', 'completed'] as const)
      await insertJob(t, company.id, { status, ...(status === 'unassigned' ? {} : { lawyerId: lawyer.id }) });
    const reads = [
      { url: '/api/cart', headers: company.headers },
      { url: '/job-api/company/pendingjobs', headers: company.headers },
      { url: '/job-api/company/completedjobs', headers: company.headers },
      { url: '/job-api/jobs?sort=bestfit&page=1&limit=20', headers: lawyer.headers },
    ];
    // PostgreSQL tries five custom plans before it settles on a generic one.
    for (let i = 0; i < 8; i++)
      for (const r of reads)
        expect([200, 404]).toContain((await t.app.inject({ url: r.url, headers: r.headers })).statusCode);
    const plans = rowsOf<{ name: string; generic_plans: string; parameter_types: string[] }>(
      await t.rt.database.db.execute(
        sql`select name, generic_plans::text, parameter_types::text[] from pg_prepared_statements where name in ('cart_lines', 'company_pending_jobs', 'company_completed_jobs', 'open_jobs_bestfit_files_20')`,
      ),
    );
    const byName = Object.fromEntries(plans.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual([
      'cart_lines',
      'company_completed_jobs',
      'company_pending_jobs',
      'open_jobs_bestfit_files_20',
    ]);
    for (const p of plans)
      expect({ name: p.name, generic: Number(p.generic_plans) }).toEqual({ name: p.name, generic: 3 });
    // What made the difference at the bench's size (100,000 jobs): the company's statuses are written in,
    // not parameters, and the Best fit walks' bound too (the two bigints left are the page's limit and offset).
    expect(byName.company_pending_jobs.parameter_types).toEqual(['timestamp with time zone', 'uuid']);
    expect(byName.company_completed_jobs.parameter_types).toEqual(['timestamp with time zone', 'uuid']);
    expect(byName.open_jobs_bestfit_files_20.parameter_types.filter((type) => type === 'bigint')).toHaveLength(2);
  });

  it("the bell's unread count is one generic plan", async () => {
    const company = await signupAndLogin(t, 'company');
    for (let i = 0; i < 8; i++)
      expect((await t.app.inject({ url: '/api/notifications/unread', headers: company.headers })).json()).toEqual({
        unread: 0,
      });
    const plans = rowsOf<{ generic_plans: string }>(
      await t.rt.database.db.execute(
        sql`select generic_plans::text from pg_prepared_statements where name = 'notifications_unread'`,
      ),
    );
    expect(plans.map((p) => Number(p.generic_plans))).toEqual([3]);
  });
});
