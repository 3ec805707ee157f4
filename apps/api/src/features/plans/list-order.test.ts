import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs, orders, subscriptions } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertProduct } from '../../../test/admin-fixtures.js';
import { TIED_INSERT_ORDER, tiedId } from '../../../test/tied-ids.js';

const CREDITS = { review: 1, draft: 1, opinion: 1, policy: 1 };

describeEachDb('plan lists: rows of the same instant come back newest id first', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const subscription = (companyId: string, status: 'active' | 'ended', at: Date, id?: string) => ({
    ...(id ? { id } : {}),
    companyId,
    tier: 'bronze' as const,
    status,
    provider: 'sandbox',
    customerEmail: 'plan@example.ng',
    periodStart: at,
    periodEnd: new Date(at.getTime() + 30 * 86_400_000),
    credits: CREDITS,
    creditsUsed: CREDITS,
    creditValue: 1_000_000,
    createdAt: at,
  });

  it("GET /api/plans/mine: the plan's jobs break a tie on createdAt by id", async () => {
    const db = t.rt.database.db;
    const company = await signupAndLogin(t, 'company');
    const productId = (await insertProduct(t)).id;
    const at = t.clock.now();
    const [sub] = await db
      .insert(subscriptions)
      .values(subscription(company.id, 'active', at))
      .returning();
    for (const n of TIED_INSERT_ORDER) {
      const [order] = await db
        .insert(orders)
        .values({
          companyId: company.id,
          txRef: `plan-tied-${n}`,
          amount: 0,
          status: 'paid',
          provider: 'sandbox',
          title: `Plan job ${n}`,
          lines: [],
        })
        .returning();
      await db.insert(jobs).values({
        id: tiedId(1, n),
        orderId: order.id,
        lineNo: 1,
        companyId: company.id,
        productId,
        subscriptionId: sub.id,
        quantity: 1,
        amount: 1_000_000,
        createdAt: at,
      });
    }
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/plans/mine', headers: company.headers });
      expect(res.statusCode).toBe(200);
      expect((res.json().data.jobs as Array<{ _id: string }>).map((j) => j._id)).toEqual([
        tiedId(1, 3),
        tiedId(1, 2),
        tiedId(1, 1),
      ]);
    }
  });

  it('GET /api/admin/subscribers breaks a tie on createdAt by id', async () => {
    const [admin, company] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'company')]);
    const at = t.clock.now();
    for (const n of TIED_INSERT_ORDER)
      await t.rt.database.db.insert(subscriptions).values(subscription(company.id, 'ended', at, tiedId(2, n)));
    const expected = [tiedId(2, 3), tiedId(2, 2), tiedId(2, 1)];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/subscribers', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      const ids = (res.json().data as Array<{ _id: string }>).map((s) => s._id);
      expect(ids.filter((id) => expected.includes(id))).toEqual(expected);
    }
  });
});
