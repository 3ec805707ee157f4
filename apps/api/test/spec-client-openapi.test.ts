import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, type TestApp } from './helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

/**
 * A client generated from the OpenAPI document the API serves (GET /api/docs/json) instead of written
 * by hand from the spec: it sends what each operation declares and reads what each answer declares.
 * Decision 2288.
 */
describeEachDb('a client generated from the served OpenAPI document', (kind) => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createTestApp(kind);
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  });
  afterAll(() => t.close());

  const operation = (method: string, path: string) => {
    const op = doc.paths[path]?.[method.toLowerCase()];
    expect(op, `${method} ${path} is in the document`).toBeDefined();
    return op;
  };
  const ZERO = '00000000-0000-0000-0000-000000000000';

  it("names the bearer token on every spec row that needs one, so the generated client sends it", async () => {
    // The rows of both call tables that answer 401 without a session.
    const rows: Array<[string, string, string, object?]> = [
      ['GET', '/api/userprofile', `/api/userprofile?_id=${ZERO}`],
      ['PATCH', '/api/updateprofile', `/api/updateprofile?_id=${ZERO}`],
      ['POST', '/api/cart', '/api/cart', { productId: ZERO, quantity: 1 }],
      ['GET', '/api/cart', '/api/cart'],
      ['DELETE', '/api/cart/{productId}', `/api/cart/${ZERO}`],
      ['POST', '/api/clear-cart', '/api/clear-cart'],
      ['POST', '/api/checkout', '/api/checkout'],
      ['GET', '/job-api/company/pendingjobs', '/job-api/company/pendingjobs'],
      ['GET', '/job-api/company/completedjobs', '/job-api/company/completedjobs'],
      ['PUT', '/job-api/company/editjobdetails/{jobId}', `/job-api/company/editjobdetails/${ZERO}`, { detail: 'More.' }],
      ['GET', '/api/company/{id}', `/api/company/${ZERO}`],
      ['POST', '/api/rating', '/api/rating', { review: 'Clear.', status: 5, reviewTitle: 'Good', productId: ZERO }],
      ['GET', '/job-api/unassign', '/job-api/unassign'],
      ['GET', '/api/lawyer/{id}', `/api/lawyer/${ZERO}`],
      ['GET', '/api/get-payment-details', '/api/get-payment-details'],
    ];
    for (const [method, path, url, payload] of rows) {
      const res = await t.app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(401);
      expect(operation(method, path).security, `${method} ${path}`).toContainEqual({ bearer: [] });
    }
    // The logout reads the token when one is sent (it ends that session) and answers 200 without one.
    const logout = operation('POST', '/api/logout');
    expect(logout.security).toContainEqual({ bearer: [] });
    expect(logout.security).toContainEqual({});
    // A public row names no scheme.
    expect(operation('GET', '/product-api/products').security).toBeUndefined();
  });
});
