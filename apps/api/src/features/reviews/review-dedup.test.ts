import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { reviews } from '../../db/schema.js';
import { insertProduct } from '../../../test/admin-fixtures.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';

const MIGRATION = fileURLToPath(new URL('../../db/migrations/0016_lawyer_reviews.sql', import.meta.url));

/** The statements of migration 0016 that make one review per company and product. */
const dedupStatements = () =>
  readFileSync(MIGRATION, 'utf8')
    .split('--> statement-breakpoint')
    .filter((s) => /DELETE FROM "reviews"|"reviews_company_product_uq"/.test(s));

describeEachDb('migration 0016 on duplicate product reviews', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it("keeps each company's newest review of a product and then refuses a second one", async () => {
    const db = t.rt.database.db;
    const [a, b] = await Promise.all([signupAndLogin(t, 'company'), signupAndLogin(t, 'company')]);
    const p = (await insertProduct(t, 'NDA')).id;
    const q = (await insertProduct(t, 'Trademark')).id;
    // The database as it was before 0016: one company posted three reviews of one product.
    await db.execute(sql`drop index reviews_company_product_uq`);
    const at = (hours: number) => new Date(Date.UTC(2026, 10, 1, hours));
    const row = (companyId: string, productId: string, title: string, stars: number, hours: number) => ({
      companyId,
      productId,
      reviewTitle: title,
      review: title,
      status: stars,
      date: at(hours),
      createdAt: at(hours),
      updatedAt: at(hours),
    });
    await db
      .insert(reviews)
      .values([
        row(a.id, p, 'first', 5, 1),
        row(a.id, p, 'third', 1, 3),
        row(a.id, p, 'second', 5, 2),
        row(a.id, q, 'other product', 4, 1),
        row(b.id, p, 'other company', 3, 1),
      ]);
    for (const statement of dedupStatements()) await db.execute(sql.raw(statement));
    const left = await db.select({ title: reviews.reviewTitle }).from(reviews).orderBy(asc(reviews.reviewTitle));
    expect(left.map((r) => r.title)).toEqual(['other company', 'other product', 'third']);
    await expect(db.insert(reviews).values(row(a.id, p, 'fourth', 5, 4))).rejects.toThrow();
  });
});
