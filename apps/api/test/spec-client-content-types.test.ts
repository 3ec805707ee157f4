import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertJob } from './admin-fixtures.js';
import { insertProduct } from './commerce-helpers.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';

/**
 * The spec's bodiless rows (logout, clear-cart, checkout, completejob) as clients send them: with JSON
 * headers and no body, with no content type at all, and as a form library sends them, a form-encoded
 * request with nothing in it. Decision 2289.
 */
describeEachDb("the spec's bodiless rows under each content type a client sends", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const FORM = 'application/x-www-form-urlencoded';
  const call = (method: 'POST' | 'PUT', url: string, token: string | undefined, contentType?: string, payload = '') =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      ...(contentType ? { payload } : {}),
    });

  it('takes an empty form-encoded body as no body, as it takes an empty JSON one', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const productId = await insertProduct(t, 'Content Type Product', 10_000);
    const add = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/cart',
        headers: { authorization: `Bearer ${company.token}` },
        payload: { productId, quantity: 1 },
      });

    for (const type of ['application/json; charset=utf-8', undefined, FORM]) {
      expect((await add()).statusCode).toBe(201);
      const cleared = await call('POST', '/api/clear-cart', company.token, type);
      expect(cleared.statusCode, `${type}: ${cleared.body}`).toBe(200);
      expect(cleared.json()).toEqual({ status: 'success', message: 'Cart cleared successfully' });

      expect((await add()).statusCode).toBe(201);
      const checkout = await call('POST', '/api/checkout', company.token, type);
      expect(checkout.statusCode, `${type}: ${checkout.body}`).toBe(200);
      expect(checkout.json()).toMatchObject({ status: 'success', message: 'Checkout successful!' });

      const job = await insertJob(t, company.id, { productId, status: 'pending', lawyerId: lawyer.id });
      const completed = await call('PUT', `/job-api/completejob/${job.id}`, admin.token, type);
      expect(completed.statusCode, `${type}: ${completed.body}`).toBe(200);
      expect(completed.json()).toMatchObject({ status: 'success', message: 'Job completed successfully' });

      // The logout ends the session it was sent with.
      const session = await signupAndLogin(t, 'company');
      const out = await call('POST', '/api/logout', session.token, type);
      expect(out.statusCode, `${type}: ${out.body}`).toBe(200);
      expect((await call('POST', '/api/clear-cart', session.token)).statusCode, type).toBe(401);
    }

    // A form with fields is still refused: these rows read JSON or nothing.
    const withFields = await call('POST', '/api/clear-cart', company.token, FORM, 'all=true');
    expect(withFields.statusCode).toBe(415);
    expect(withFields.json().status).toBe('fail');
  });
});
