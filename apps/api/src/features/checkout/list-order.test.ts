import { afterAll, beforeAll, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { TIED_INSERT_ORDER, tiedId } from '../../../test/tied-ids.js';

describeEachDb('company orders: orders of the same instant come back newest id first', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('GET /api/orders breaks a tie on createdAt by id', async () => {
    const company = await signupAndLogin(t, 'company');
    const at = t.clock.now();
    for (const n of TIED_INSERT_ORDER)
      await t.rt.database.db.insert(orders).values({
        id: tiedId(1, n),
        companyId: company.id,
        txRef: `tx-tied-${n}`,
        amount: 5_000_000,
        status: 'paid',
        provider: 'sandbox',
        title: 'Legal services',
        lines: [],
        createdAt: at,
        paidAt: at,
      });
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/orders', headers: company.headers });
      expect(res.statusCode).toBe(200);
      expect((res.json().data as Array<{ _id: string }>).map((o) => o._id)).toEqual([
        tiedId(1, 3),
        tiedId(1, 2),
        tiedId(1, 1),
      ]);
    }
  });
});
