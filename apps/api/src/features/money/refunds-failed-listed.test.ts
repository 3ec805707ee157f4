import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { refunds } from '../../db/schema.js';
import { rowsOf } from '../../db/client.js';
import { ADMIN_LIST_WHERE } from './refunds.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

// The admin's refunds list stops at its 200 newest; a failed refund (money still due, only an admin's
// Retry sends it) must not fall off it behind newer settled ones.
describeEachDb('GET /api/admin/refunds keeps every failed refund in view', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'company')]);
  });
  afterAll(() => t.close());

  it('lists an old failed refund behind 200 newer completed ones, in its place by date', async () => {
    const db = t.rt.database.db;
    const start = t.clock.now().getTime() - 300 * 60_000;
    const row = (i: number, status: 'failed' | 'completed') => ({
      companyId: company.id,
      reference: `plan-pay-${status}-${i}`,
      providerTransactionId: `ptx-${status}-${i}`,
      amount: 1_000_000,
      status,
      provider: 'sandbox',
      failure: status === 'failed' ? 'Given up: refused for three days' : null,
      createdAt: new Date(start + i * 60_000),
      settledAt: status === 'completed' ? new Date(start + i * 60_000) : null,
    });
    const [failed] = await db.insert(refunds).values(row(0, 'failed')).returning();
    await db.insert(refunds).values(Array.from({ length: 200 }, (_, i) => row(i + 1, 'completed')));

    const res = await t.app.inject({ method: 'GET', url: '/api/admin/refunds', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const list = res.json().refunds as Array<{ _id: string; status: string; createdAt: string }>;
    expect(list.filter((r) => r.status === 'failed').map((r) => r._id)).toEqual([failed.id]);
    // Still newest first: the old failed refund comes last.
    expect(list.at(-1)?._id).toBe(failed.id);
    expect(list.length).toBe(201);
  });

  it('reads the failed ones and the newest as a union, not by testing every row of the table', async () => {
    const db = t.rt.database.db;
    const plan = rowsOf<Record<string, string>>(
      await db.execute(sql`explain ${db.select({ id: refunds.id }).from(refunds).where(ADMIN_LIST_WHERE)}`),
    )
      .map((r) => Object.values(r)[0])
      .join('\n');
    // `status = 'failed' OR id IN (...)` can only be a filter run on each row (a SubPlan over a full scan).
    expect(plan).not.toMatch(/SubPlan/);
    expect(plan).toMatch(/Append|Unique|HashAggregate/);
  });
});
