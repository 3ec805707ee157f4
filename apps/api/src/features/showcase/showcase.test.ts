import { afterAll, beforeAll, expect, it } from 'vitest';
import { showcaseResponse } from '@legalmarket/contracts';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { insertJob, insertProduct } from '../../../test/admin-fixtures.js';

describeEachDb('GET /api/showcase', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const showcase = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/showcase' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    return showcaseResponse.parse(res.json());
  };

  it('counts only verified lawyers and only completed jobs, and features the first three products', async () => {
    expect(await showcase()).toMatchObject({ verifiedLawyers: 0, jobsCompleted: 0, products: [] });

    const verified = await signupAndLogin(t, 'lawyer', { verified: true });
    await signupAndLogin(t, 'lawyer', { verified: true });
    await signupAndLogin(t, 'lawyer'); // not verified yet: not counted
    const company = await signupAndLogin(t, 'company');
    await insertJob(t, company.id, { status: 'completed', lawyerId: verified.id });
    await insertJob(t, company.id, { status: 'pending', lawyerId: verified.id });
    await insertJob(t, company.id);
    for (const name of ['Board resolution', 'NDA review', 'Offer letter', 'Trademark search'])
      await insertProduct(t, name);

    const body = await showcase();
    expect(body.verifiedLawyers).toBe(2);
    expect(body.jobsCompleted).toBe(1);
    expect(body.products).toHaveLength(3);
    // The catalogue's own order and shape: the same first three products GET /product-api/products lists.
    const list = (await t.app.inject({ method: 'GET', url: '/product-api/products' })).json() as {
      products: unknown[];
    };
    expect(body.products).toEqual(list.products.slice(0, 3));
  });
});
