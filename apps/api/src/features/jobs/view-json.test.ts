import { randomUUID } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs, orders, products, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { findJobViews, jobViewsJsonQuery } from './view.js';

/**
 * The job lists are built as JSON by the database (jobViewsJsonQuery); toJobView is the reference shape.
 * Every field must come out the same: ids, naira with kobo fractions, ISO timestamps, nulls, the
 * assigned lawyer, `late`, a company without a company name, and the order of the page.
 */
describeEachDb('job views built by the database', (kind) => {
  let t: TestApp;
  let companyId: string;
  let lawyerId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    companyId = company.id;
    lawyerId = lawyer.id;
    const db = t.rt.database.db;
    const [product] = await db
      .insert(products)
      .values({
        productName: 'Share “Agreement” — ₦ \\ "quoted"',
        // ₦12,345.67 and ₦0.1: fractions that a decimal rendering would write differently.
        productPrice: 1_234_567,
        productDescription: 'Line one\nLine two\ttabbed </script>',
        productImage: '/uploads/p.png',
      })
      .returning();
    const [cheap] = await db
      .insert(products)
      .values({ productName: 'Cheap', productPrice: 10, productDescription: 'd', productImage: '/uploads/c.png' })
      .returning();
    const [order] = await db
      .insert(orders)
      .values({
        companyId,
        txRef: `tx-${randomUUID()}`,
        amount: 1_234_577,
        status: 'paid',
        provider: 'sandbox',
        title: 'Products',
        lines: [],
        paidAt: t.clock.now(),
      })
      .returning();
    const now = Date.now();
    const rows: Array<Partial<typeof jobs.$inferInsert>> = [
      // Open, due long ago: late.
      { productId: product.id, amount: 1_234_567, dueAt: new Date(now - 86_400_000 * 3) },
      // Assigned and being worked on, with every brief field and files, due later.
      {
        productId: cheap.id,
        amount: 10,
        quantity: 3,
        stage: 'in_progress',
        assignedTo: lawyerId,
        assignedAt: new Date(now - 5_000),
        detail: 'Brief with "quotes" and émoji 🙂',
        companyDetail: 'More',
        companyFile: 'abc.pdf',
        companyFileName: 'contract final.pdf',
        lawyerRequestedDetail: 'Need the CAC form',
        adminDetail: 'Admin note',
        adminFile: 'def.pdf',
        adminFileName: 'notes.pdf',
        dueAt: new Date(now + 86_400_000 * 5 + 123),
      },
      // Completed long ago: not late, with completedAt.
      {
        productId: product.id,
        amount: 1,
        stage: 'completed',
        assignedTo: lawyerId,
        completedAt: new Date(now - 86_400_000 + 789),
        dueAt: new Date(now - 86_400_000 * 10),
      },
    ];
    for (const [i, values] of rows.entries()) {
      const at = new Date(now - (rows.length - i) * 60_000 + 456);
      const [row] = await db
        .insert(jobs)
        .values({
          orderId: order.id,
          lineNo: i + 1,
          companyId,
          quantity: 1,
          detail: null,
          createdAt: at,
          updatedAt: at,
          ...values,
        } as typeof jobs.$inferInsert)
        .returning({ id: jobs.id });
      ids.push(row.id);
    }
  });
  afterAll(() => t.close());

  const both = async (where = inArray(jobs.id, ids), opts: Parameters<typeof findJobViews>[2] = {}) => {
    const db = t.rt.database.db;
    const now = new Date();
    return {
      expected: await findJobViews(db, where, opts),
      actual: JSON.parse(
        (await jobViewsJsonQuery(db, where, opts).execute({ now: now.toISOString() }))[0].json,
      ) as unknown,
    };
  };

  it('answers exactly what toJobView answers, in the same order', async () => {
    const { expected, actual } = await both();
    expect(expected).toHaveLength(3);
    expect(actual).toEqual(expected);
    // Same keys in every job, not only the same values where present.
    expect((actual as object[]).map((j) => Object.keys(j).sort())).toEqual(expected.map((j) => Object.keys(j).sort()));
  });

  it('writes timestamps with microseconds as JavaScript does (milliseconds, cut not rounded)', async () => {
    await t.rt.database.db
      .update(jobs)
      .set({ updatedAt: sql`'2026-11-26T01:02:03.456789Z'::timestamptz` })
      .where(eq(jobs.id, ids[0]));
    const { expected, actual } = await both(eq(jobs.id, ids[0]));
    expect(expected[0].updatedAt).toBe('2026-11-26T01:02:03.456Z');
    expect(actual).toEqual(expected);
  });

  it('keeps the order and the page it is given', async () => {
    const opts = { order: [asc(jobs.amount)], limit: 2, offset: 1 };
    const { expected, actual } = await both(inArray(jobs.id, ids), opts);
    expect(expected.map((j) => j.amount)).toEqual([0.1, 12345.67]);
    expect(actual).toEqual(expected);
  });

  it('falls back to the person’s name when a company has no company name, and answers [] for none', async () => {
    await t.rt.database.db.update(users).set({ companyName: null }).where(eq(users.id, companyId));
    const { expected, actual } = await both();
    expect(expected[0].companyId.companyName).not.toBe('');
    expect(actual).toEqual(expected);
    const none = await both(eq(jobs.id, randomUUID()));
    expect(none.actual).toEqual([]);
    expect(none.expected).toEqual([]);
  });
});
