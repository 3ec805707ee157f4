import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs, orders, products, users } from '../../db/schema.js';
import {
  createTestApp,
  describeEachDb,
  lawyerBody,
  signupAndLogin,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** Decision 2011: Best fit puts jobs in the lawyer's areas of practice first, then longest waiting first. */
describeEachDb("lawyer jobs: Best fit by the lawyer's areas of practice", (kind) => {
  let t: TestApp;
  let company: Login;
  let lawyer: Login;
  /** Open jobs by name, created a minute apart in this order. */
  const job: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    company = await signupAndLogin(t, 'company');
    // Signed up with Technology and Tax Practise (test/helpers.ts).
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const db = t.rt.database.db;
    const product = async (area: string | null) =>
      (
        await db
          .insert(products)
          .values({
            productName: `Product ${area ?? 'without area'}`,
            productPrice: 1_000_000,
            productDescription: 'A product.',
            productImage: '/uploads/p.png',
            area,
          })
          .returning()
      )[0].id;
    const none = await product(null);
    const tech = await product('Technology');
    const sea = await product('Maritime');
    const [order] = await db
      .insert(orders)
      .values({
        companyId: company.id,
        txRef: `tx-${randomUUID()}`,
        amount: 4_000_000,
        status: 'paid',
        provider: 'sandbox',
        title: 'Products',
        lines: [],
        paidAt: t.clock.now(),
      })
      .returning();
    const plan: Array<[string, string]> = [
      ['none-1', none],
      ['sea', sea],
      ['tech', tech],
      ['none-2', none],
    ];
    for (const [i, [name, productId]] of plan.entries()) {
      const at = new Date(t.clock.now().getTime() + i * 60_000);
      const [row] = await db
        .insert(jobs)
        .values({
          orderId: order.id,
          lineNo: i + 1,
          companyId: company.id,
          productId,
          quantity: 1,
          amount: 1_000_000,
          detail: 'Detail',
          createdAt: at,
          updatedAt: at,
        })
        .returning({ id: jobs.id });
      job[name] = row.id;
    }
  });
  afterAll(() => t.close());

  const order = async (url = '/job-api/jobs') => {
    const res = await t.app.inject({ method: 'GET', url, headers: lawyer.headers });
    expect(res.statusCode, res.body).toBe(200);
    const names = Object.fromEntries(Object.entries(job).map(([name, id]) => [id, name]));
    return (res.json() as Array<{ _id: string }>).map((j) => names[j._id]);
  };
  const areas = (list: string[]) =>
    t.rt.database.db.update(users).set({ areasOfPractise: list }).where(eq(users.id, lawyer.id));

  it("puts jobs in the lawyer's areas first, then the longest waiting; Recent stays newest first", async () => {
    expect(await order()).toEqual(['tech', 'none-1', 'sea', 'none-2']);
    expect(await order('/job-api/jobs?sort=bestfit')).toEqual(['tech', 'none-1', 'sea', 'none-2']);
    expect(await order('/job-api/jobs?sort=recent')).toEqual(['none-2', 'tech', 'sea', 'none-1']);
  });

  it('pages the same order without overlap', async () => {
    const pages = [...(await order('/job-api/jobs?limit=3&page=1')), ...(await order('/job-api/jobs?limit=3&page=2'))];
    expect(pages).toEqual(['tech', 'none-1', 'sea', 'none-2']);
  });

  it("follows a change of the lawyer's areas on the next request", async () => {
    await areas(['Maritime']);
    expect(await order()).toEqual(['sea', 'none-1', 'tech', 'none-2']);
    await areas(['Maritime', 'Technology']);
    expect(await order()).toEqual(['sea', 'tech', 'none-1', 'none-2']);
    await areas([]);
    expect(await order()).toEqual(['none-1', 'sea', 'tech', 'none-2']);
  });

  it("takes the areas we sell at sign-up (the spec's seven too) and refuses others", async () => {
    const signup = (areasOfPractise: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/lawyer/signup',
        payload: { ...lawyerBody(uniqueEmail('areas')), areasOfPractise },
      });
    const ok = await signup(['Intellectual Property', 'Data Protection and Privacy', 'Maritime']);
    expect(ok.statusCode, ok.body).toBe(201);
    const bad = await signup(['Cooking']);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/areas of practice/i);
  });
});
