import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs, orders, refunds } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertProduct } from '../../../test/admin-fixtures.js';
import { TIED_INSERT_ORDER, tiedId } from '../../../test/tied-ids.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('refund lists: refunds of the same instant come back newest id first', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let productId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company] = await Promise.all([signupAndLogin(t, 'admin'), signupAndLogin(t, 'company')]);
    productId = (await insertProduct(t)).id;
  });
  afterAll(() => t.close());

  /** Three refunds opened and settled at one instant, each of its own paid order and job. */
  async function tiedRefunds(group: number, status: 'pending' | 'completed') {
    const db = t.rt.database.db;
    const at = t.clock.now();
    for (const n of TIED_INSERT_ORDER) {
      const [order] = await db
        .insert(orders)
        .values({
          companyId: company.id,
          txRef: `tx-${group}-${n}`,
          amount: 5_000_000,
          status: 'paid',
          provider: 'sandbox',
          title: 'Legal services',
          lines: [],
        })
        .returning();
      const [job] = await db
        .insert(jobs)
        .values({
          orderId: order.id,
          lineNo: 1,
          companyId: company.id,
          productId,
          status: 'cancelled',
          stage: 'cancelled',
          quantity: 1,
          amount: 5_000_000,
        })
        .returning();
      await db.insert(refunds).values({
        id: tiedId(group, n),
        jobId: job.id,
        orderId: order.id,
        amount: 5_000_000,
        status,
        provider: 'sandbox',
        createdAt: at,
        settledAt: status === 'completed' ? at : null,
      });
    }
    return [tiedId(group, 3), tiedId(group, 2), tiedId(group, 1)];
  }

  const idsIn = (list: Array<{ _id: string }>, ids: string[]) =>
    list.map((r) => r._id).filter((id) => ids.includes(id));

  it("GET /api/admin/refunds: the admin's list breaks a tie on createdAt by id", async () => {
    const expected = await tiedRefunds(1, 'pending');
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/refunds', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      expect(idsIn(res.json().refunds, expected)).toEqual(expected);
    }
  });

  it("GET /api/refunds: the company's completed refunds break a tie on settledAt by id", async () => {
    const expected = await tiedRefunds(2, 'completed');
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/refunds', headers: company.headers });
      expect(res.statusCode).toBe(200);
      expect(idsIn(res.json().refunds, expected)).toEqual(expected);
    }
  });
});
