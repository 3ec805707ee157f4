import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { auditLog, jobs, users } from '../../db/schema.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct } from '../../../test/admin-fixtures.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** Two admins, and lists read while others write: what the audit log and the totals must still say. */
describeEachDb('admin lists, settings and filters under concurrent admins', (kind) => {
  let t: TestApp;
  let admin: Login;
  let admin2: Login;
  let company: Login;
  let lawyer: Login;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, admin2, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
  });
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, who: Login, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: who.headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const entries = (action: string) =>
    t.rt.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);

  it('answers 400 naming the date for impossible or out-of-range audit-log and payments filters', async () => {
    for (const url of ['/api/admin/audit-log', '/api/admin/payments']) {
      for (const [query, message] of [
        ['from=0000-01-01', 'from must be between 2000-01-01 and 2100-12-31'],
        ['to=2025-02-30', 'to must be a real date'],
        ['from=2025-13-01', 'from must be a real date'],
        ['page=1000000000', 'page is too large'],
      ]) {
        const res = await inject('GET', `${url}?${query}`, admin);
        expect(res.statusCode, `${url}?${query}`).toBe(400);
        expect(res.json().message).toContain(message);
      }
      expect((await inject('GET', `${url}?from=2024-02-29&to=2024-02-29`, admin)).statusCode).toBe(200);
    }
  });

  it('two admins changing the money settings at once: each audit entry names what it replaced; a repeat records nothing', async () => {
    const start = (await inject('GET', '/api/admin/money-settings', admin)).json().settings;
    const before = (await entries('money_settings.update')).length;
    for (let round = 0; round < 5; round++) {
      const codes = await Promise.all([
        inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 11 + round, holdDays: 3 }),
        inject('PUT', '/api/admin/money-settings', admin2, { commissionPercent: 31 + round, holdDays: 4 }),
      ]);
      expect(codes.map((r) => r.statusCode)).toEqual([200, 200]);
    }
    const chain = (await entries('money_settings.update'))
      .slice(before)
      .map((e) => e.details as Record<string, unknown>);
    expect(chain).toHaveLength(10);
    expect(chain[0].before).toEqual(start);
    for (let i = 1; i < chain.length; i++) expect(chain[i].before).toEqual(chain[i - 1].after);

    const now = (await inject('GET', '/api/admin/money-settings', admin)).json().settings;
    const again = await inject('PUT', '/api/admin/money-settings', admin, now);
    expect(again.statusCode).toBe(200);
    expect(again.json().settings).toEqual(now);
    expect(await entries('money_settings.update')).toHaveLength(before + 10);
  });

  it('a holiday sent again as it stands records nothing; a rename records once', async () => {
    const before = (await entries('holiday.save')).length;
    const day = { date: '2033-06-13', name: 'Democracy Day' };
    const saves = await Promise.all([1, 2, 3].map(() => inject('POST', '/api/admin/holidays', admin, day)));
    expect(saves.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await entries('holiday.save')).toHaveLength(before + 1);
    expect((await inject('POST', '/api/admin/holidays', admin2, { ...day, name: 'June 12' })).statusCode).toBe(200);
    const after = await entries('holiday.save');
    expect(after).toHaveLength(before + 2);
    expect(after.at(-1)!.details).toEqual({ date: day.date, name: 'June 12' });
  });

  it('the settlement account saved by two admins at once: the second entry names the first as its before', async () => {
    const before = (await entries('settlement.update')).length;
    const [a, b] = await Promise.all([
      inject('PUT', '/api/admin/settlement-account', admin, {
        accountNumber: '0123456789',
        accountName: 'LegalMarket Ltd',
        bank: 'Access Bank',
      }),
      inject('PUT', '/api/admin/settlement-account', admin2, {
        accountNumber: '9876543210',
        accountName: 'LegalMarket Ltd',
        bank: 'Access Bank',
      }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const chain = (await entries('settlement.update')).slice(before).map((e) => e.details as Record<string, unknown>);
    expect(chain).toHaveLength(2);
    expect(chain[1].before).toEqual(chain[0].after);
  });

  // A job list's rows and its total must come from the same moment. The server lets another session
  // commit between two reads; PGlite has one connection, so there the reads cannot be split.
  it.runIf(kind === 'postgres')(
    'an admin job list never answers a total that disagrees with its rows, even when a job moves between reads',
    async () => {
      const product = await insertProduct(t, 'Consistency Product');
      for (let i = 0; i < 3; i++) await insertJob(t, company.id, { productId: product.id });
      // A limit of its own each time: an answer kept by the response cache would not read at all.
      let limit = 100;
      const read = async () => {
        const res = await inject('GET', `/job-api/unassign?page=1&limit=${limit--}`, admin);
        return res.json() as { total: number; jobs: Array<{ _id: string }> };
      };
      const start = await read();
      expect(start.total).toBe(start.jobs.length);
      const moving = start.jobs[0]._id;

      // Another session takes the counters' table and, holding it, assigns a job; the list begins meanwhile.
      const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await other.connect();
      const schema = (await t.rt.database.db.execute(`select current_schema() as s`)) as unknown as {
        rows: Array<{ s: string }>;
      };
      await other.query(`set search_path = ${schema.rows[0].s}`);
      await other.query('begin');
      await other.query('lock table job_counts in access exclusive mode');
      const listing = read();
      await new Promise((r) => setTimeout(r, 300));
      await other.query(`update jobs set status = 'pending', assigned_to = $1, assigned_at = now() where id = $2`, [
        lawyer.id,
        moving,
      ]);
      await other.query('commit');
      await other.end();
      const during = await listing;
      expect(during.total).toBe(during.jobs.length);
      // The list can only tell the state before or after, never half of each.
      expect(during.jobs.some((j) => j._id === moving)).toBe(during.total === start.total);
      const [row] = await t.rt.database.db.select().from(jobs).where(eq(jobs.id, moving));
      expect(row.status).toBe('pending');
    },
  );

  it.runIf(kind === 'postgres')('lawyer lists keep total and rows together while admins verify', async () => {
    const fresh = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => signupAndLogin(t, 'lawyer')));
    let disagreeing = 0;
    const reads: Promise<void>[] = [];
    const verifies = fresh.map((l, i) =>
      inject('PATCH', `/api/verifylawyer/${l.id}`, i % 2 ? admin : admin2, { verified: true }),
    );
    for (let i = 0; i < 40; i++)
      for (const url of ['/api/unverifiedlawyers', '/api/verifiedlawyers'])
        reads.push(
          inject('GET', `${url}?limit=5000`, admin).then((r) => {
            const b = r.json() as { total: number; lawyers: unknown[] };
            if (b.total !== b.lawyers.length) disagreeing++;
          }),
        );
    await Promise.all([...verifies, ...reads]);
    expect(disagreeing).toBe(0);
    const verified = await t.rt.database.db.select().from(users).where(eq(users.verified, true));
    expect(verified.length).toBeGreaterThanOrEqual(fresh.length + 1);
  });
  it('refuses to verify, refuse or assign a lawyer who deleted the account', async () => {
    const gone = await signupAndLogin(t, 'lawyer', { verified: true });
    const deleted = await inject('POST', '/api/account/delete', gone, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const verify = await inject('PATCH', `/api/verifylawyer/${gone.id}`, admin, { verified: true });
    expect(verify.statusCode).toBe(404);
    const refuse = await inject('POST', `/api/rejectlawyer/${gone.id}`, admin, {
      reason: 'Your SCN could not be found.',
    });
    expect(refuse.statusCode).toBe(404);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, gone.id));
    expect(row.verified).toBe(false);
    // Verified before the erasure or not, "Deleted user" cannot be given a job.
    await t.rt.database.db.update(users).set({ verified: true }).where(eq(users.id, gone.id));
    const job = await insertJob(t, company.id, { productId: (await insertProduct(t, 'Erased Lawyer Job')).id });
    const assign = await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: gone.id });
    expect(assign.statusCode).toBe(409);
    expect((await t.rt.database.db.select().from(jobs).where(eq(jobs.id, job.id)))[0].assignedTo).toBeNull();
  });
});
