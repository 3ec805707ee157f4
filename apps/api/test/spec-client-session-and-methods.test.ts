import { afterAll, beforeAll, expect, it } from 'vitest';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { insertJob } from './admin-fixtures.js';
import { insertProduct } from './commerce-helpers.js';
import { createTestApp, describeEachDb, PASSWORD, signupAndLogin, type TestApp } from './helpers.js';
import { is2xx, specClient, type Data } from './spec-client-kit.js';

/**
 * Another pass over both call tables by a client written from the spec alone, and by one generated
 * from the served OpenAPI document: what the login answer carries, what OPTIONS and HEAD answer on a
 * table path, and which request bodies the document says may be left out. Decisions 2303, 2304, 2305.
 */
describeEachDb('spec client: the session user, OPTIONS and HEAD, optional bodies', (kind) => {
  let t: TestApp;
  let doc: Data;
  beforeAll(async () => {
    t = await createTestApp(kind);
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  });
  afterAll(() => t.close());

  it('POST /api/login: data.user is the spec’s user session, officialEmail included, for every role', async () => {
    // Spec section 3: "User session: _id, userType (admin, company, lawyer), officialEmail."
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const declared = doc.paths['/api/login'].post.responses['200'].content['application/json'].schema;
    for (const role of ['company', 'lawyer', 'admin'] as const) {
      const account = await signupAndLogin(t, role);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: account.email, password: PASSWORD },
      });
      const login = is2xx({ status: res.statusCode, data: res.json() });
      expect(login.data.user, role).toEqual({ _id: account.id, userType: role, officialEmail: account.email });
      expect(ajv.validate(declared, login) ? [] : ajv.errors, role).toEqual([]);
    }
    // The generated client's type names it as always there.
    const success = declared.anyOf.find((s: Data) => s.required.includes('token'));
    expect(success.properties.data.properties.user.required).toContain('officialEmail');
  });

  it('OPTIONS on a table path answers 204 with the methods it takes; HEAD answers as GET without a body', async () => {
    const company = await signupAndLogin(t, 'company');
    const productId = await insertProduct(t, 'Options Product', 9_000);
    const rows: Array<[string, string]> = [
      ['/api/login', 'POST'],
      ['/product-api/products', 'GET, HEAD'],
      [`/api/rating/${productId}`, 'DELETE, PATCH'],
      ['/api/cart/', 'GET, HEAD, POST'],
      [`/api/updateprofile?_id=${company.id}`, 'PATCH'],
    ];
    for (const [url, allow] of rows) {
      const res = await t.app.inject({ method: 'OPTIONS', url });
      expect([res.statusCode, res.headers.allow, res.body], url).toEqual([204, allow, '']);
    }
    // An address that no route has is still "Not found"; another method is still 405.
    const none = await t.app.inject({ method: 'OPTIONS', url: '/api/no-such-call' });
    expect([none.statusCode, none.json().message]).toEqual([404, 'Not found']);
    const put = await t.app.inject({ method: 'PUT', url: '/api/login' });
    expect([put.statusCode, put.headers.allow]).toEqual([405, 'POST']);

    // HEAD on the table's GET rows: the GET's status and headers, no body.
    const auth = { authorization: `Bearer ${company.token}` };
    for (const [url, headers] of [
      ['/product-api/products', {}],
      [`/product-api/product/${productId}`, {}],
      [`/api/userprofile?_id=${company.id}`, auth],
      ['/api/cart', auth],
      ['/job-api/company/pendingjobs', auth],
      ['/ratings-api/rating', {}],
    ] as Array<[string, Record<string, string>]>) {
      const get = await t.app.inject({ method: 'GET', url, headers });
      const head = await t.app.inject({ method: 'HEAD', url, headers });
      expect([head.statusCode, head.headers['content-type'], head.headers['content-length'], head.body], url).toEqual([
        get.statusCode,
        get.headers['content-type'],
        get.headers['content-length'],
        '',
      ]);
    }
  });

  it('the document says which bodies may be left out, and the generated client leaves them out', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const productId = await insertProduct(t, 'Optional Body Product', 9_000);
    const op = (method: string, path: string) => doc.paths[path][method];

    // "Complete job | PUT /job-api/completejob/{id} | none": no request body at all.
    expect(op('put', '/job-api/completejob/{id}').requestBody).toBeUndefined();
    // "Apply for job | lawyerId": the lawyer's own id, optional (decision 2150), so the body is optional.
    expect(op('post', '/job-api/applyforjob/{id}').requestBody.required).toBe(false);
    // A body with a required field stays required, and the flag used on the way is not left in the document.
    expect(op('post', '/api/login').requestBody.required).toBe(true);
    expect(op('post', '/job-api/assign').requestBody.required).toBe(true);
    expect(JSON.stringify(doc)).not.toContain('x-optional-body');

    // Sent as the document allows: nothing at all.
    const open = await insertJob(t, company.id, { productId });
    const applied = await t.app.inject({
      method: 'POST',
      url: `/job-api/applyforjob/${open.id}`,
      headers: { authorization: `Bearer ${lawyer.token}` },
    });
    expect([applied.statusCode, applied.json().message]).toEqual([200, 'Job applied successfully']);
    const pending = await insertJob(t, company.id, { productId, status: 'pending', lawyerId: lawyer.id });
    const completed = await specClient(t.app, admin.token).put(`/job-api/completejob/${pending.id}`);
    expect(is2xx(completed).message).toBe('Job completed successfully');
  });
  it('the table’s paths joined to a base address that ends in a slash: `//api/login` is `/api/login`', async () => {
    // Both tables write `POST api/resendconfirmemail` beside `/api/...` rows: a base address ending in `/`
    // reaches the former, and joined as text it gives the latter a doubled slash.
    const company = await signupAndLogin(t, 'company');
    const api = specClient(t.app);
    const login = is2xx(await api.post('//api/login', { officialEmail: company.email, password: PASSWORD }));
    expect(login.data.user._id).toBe(company.id);
    expect(is2xx(await api.get('//product-api/products')).products).toEqual(expect.any(Array));
    expect(is2xx(await api.post('//api/resendconfirmemail', { officialEmail: company.email })).message).toBe(
      'Confirmation email sent successfully',
    );
    const profile = is2xx(await specClient(t.app, login.token).get(`//api/userprofile?_id=${company.id}`));
    expect(profile._id).toBe(company.id);
    // A doubled slash inside the path too: the cart route, whose empty state is the spec's 404.
    const cart = await specClient(t.app, login.token).get('/api//cart/');
    expect([cart.status, cart.data.message]).toEqual([404, 'Your cart is empty']);

    // The API's answers and headers, not the web app's: another method is 405, an unknown path a JSON 404.
    const put = await t.app.inject({ method: 'PUT', url: '//api/login' });
    expect([put.statusCode, put.headers.allow]).toEqual([405, 'POST']);
    const none = await t.app.inject({ method: 'GET', url: '//api/no-such-call' });
    expect([none.statusCode, none.json().message]).toEqual([404, 'Not found']);
    const single = await t.app.inject({ method: 'GET', url: '/product-api/products' });
    const doubled = await t.app.inject({ method: 'GET', url: '//product-api/products' });
    expect(doubled.headers['content-security-policy']).toBe(single.headers['content-security-policy']);
  });
  it('the stored userId sent as a client stored it, in JSON quotes: profile, job page, apply, payment details', async () => {
    // Section 3 keeps userId in browser storage beside userToken; a quoted token is read (2234), and a
    // client that stored both with JSON.stringify sends the id the same way.
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const quoted = (id: string) => encodeURIComponent(JSON.stringify(id));
    const own = specClient(t.app, company.token);
    expect(is2xx(await own.get(`/api/userprofile?_id=${quoted(company.id)}`))._id).toBe(company.id);
    const saved = is2xx(await own.patchForm(`/api/updateprofile?_id=${quoted(company.id)}`, { yourBio: 'Quoted.' }));
    expect(saved.company.yourBio).toBe('Quoted.');

    const productId = await insertProduct(t, 'Quoted Id Product', 9_000);
    const job = await insertJob(t, company.id, { productId });
    const api = specClient(t.app, lawyer.token);
    expect(is2xx(await api.get(`/job-api/job/${job.id}?lawyerId=${quoted(lawyer.id)}`))._id).toBe(job.id);
    const applied = await api.post(`/job-api/applyforjob/${job.id}`, { lawyerId: JSON.stringify(lawyer.id) });
    expect(is2xx(applied).message).toBe('Job applied successfully');
    const added = await api.post(`/api/add-payment-details?_id=${quoted(lawyer.id)}`, {
      accountNumber: '0123456789',
      accountName: 'Chidi Okeke',
      bank: 'GTBank',
    });
    expect(is2xx(added).lawyer._id).toBe(lawyer.id);

    // Still the caller's own id only, and still an id: another one quoted is refused as before.
    const other = await own.get(`/api/userprofile?_id=${quoted(lawyer.id)}`);
    expect([other.status, other.data.message]).toEqual([
      403,
      'You do not have permission to view these profile details.',
    ]);
    const notAnId = await own.get(`/api/userprofile?_id=${quoted('12345')}`);
    expect(notAnId.status).toBe(400);
    const someoneElse = await api.get(`/job-api/job/${job.id}?lawyerId=${quoted(company.id)}`);
    expect(someoneElse.status).toBe(403);
  });
});
