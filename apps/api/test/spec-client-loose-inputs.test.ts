import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLEARABLE_PROFILE_FIELDS } from '@legalmarket/contracts';
import { insertJob } from './admin-fixtures.js';
import { insertProduct } from './commerce-helpers.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { is2xx, specClient, type Data, type Response } from './spec-client-kit.js';
import { pngBytes } from './upload-helpers.js';

/**
 * What a client written only from the spec sends where the spec leaves the input loose (decision 2110):
 * JSON headers on every call, also those without a payload; a body left out; an optional file sent
 * empty; the available-jobs tab by its label; a price past what the catalogue takes.
 */
describeEachDb('a spec client’s loose inputs', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  /** "All calls go to one backend base address, with JSON headers": Content-Type set, body or not. */
  const jsonHeaders = async (
    userToken: string | undefined,
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
  ): Promise<Response> => {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(userToken ? { authorization: `Bearer ${userToken}` } : {}),
      },
    });
    return { status: res.statusCode, data: res.body ? JSON.parse(res.body) : undefined };
  };
  const failsWith = (r: Response, status: number, message: string) => {
    expect(r.status, JSON.stringify(r.data)).toBe(status);
    expect(r.data.message).toBe(message);
  };

  it('the calls without a payload answer as the spec says when sent with JSON headers and no body', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const productId = await insertProduct(t, 'Loose Input Product', 20_000);
    const api = client(company.token);

    is2xx(await api.post('/api/cart', { productId, quantity: 1 }));
    expect(is2xx(await jsonHeaders(company.token, 'DELETE', `/api/cart/${productId}`)).message).toBe(
      'Product removed from the cart',
    );
    is2xx(await api.post('/api/cart', { productId, quantity: 2 }));
    const checkout = is2xx(await jsonHeaders(company.token, 'POST', '/api/checkout'));
    expect(checkout.message).toBe('Checkout successful!');
    expect(checkout.data.amount).toBe(40_000);
    expect(is2xx(await jsonHeaders(company.token, 'POST', '/api/clear-cart')).message).toBe(
      'Cart cleared successfully',
    );

    const review = is2xx(
      await api.post('/api/rating', { review: 'Clear.', status: 4, reviewTitle: 'Good', productId }),
    );
    expect(is2xx(await jsonHeaders(company.token, 'DELETE', `/api/rating/${review._id}`)).message).toBe(
      'Review deleted successfully',
    );

    is2xx(
      await client(lawyer.token).post('/api/add-payment-details', {
        accountNumber: '0123456789',
        accountName: 'Chidi Okeke',
        bank: 'GTBank',
      }),
    );
    expect(is2xx(await jsonHeaders(lawyer.token, 'POST', '/api/send-otp')).message).toBe('OTP sent successfully');

    const job = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    expect(is2xx(await jsonHeaders(admin.token, 'PUT', `/job-api/completejob/${job.id}`)).message).toBe(
      'Job completed successfully',
    );
    const created = is2xx(
      await client(admin.token).form('POST', '/api/create', {
        productName: 'Loose Input Deleted',
        productPrice: '15000',
        productDescription: 'Soon gone.',
        productImage: new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' }),
      }),
    );
    expect(is2xx(await jsonHeaders(admin.token, 'DELETE', `/api/delete/${created.data.product._id}`)).message).toBe(
      'Product deleted successfully',
    );

    expect(is2xx(await jsonHeaders(company.token, 'POST', '/api/logout')).status).toBe('success');
    expect((await api.get('/api/cart')).status).toBe(401);
  });

  it('a body left out answers the missing field’s own message, with or without JSON headers', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    const cases: Array<[string | undefined, 'POST' | 'PUT', string, string]> = [
      [undefined, 'POST', '/api/login', 'Please enter your email address'],
      [undefined, 'POST', '/api/forgot-password', 'Please enter your email address'],
      [undefined, 'POST', '/api/resendconfirmemail', 'Please enter your email address'],
      [lawyer.token, 'POST', `/job-api/requestmorejobdetails/${job.id}`, 'Kindly request details'],
      [company.token, 'PUT', `/job-api/company/editjobdetails/${job.id}`, 'Kindly add/edit details'],
      [admin.token, 'PUT', `/job-api/editjobdetails/${job.id}`, 'Kindly add/edit details'],
    ];
    for (const [token, method, url, message] of cases) {
      failsWith(await jsonHeaders(token, method, url), 400, message);
      const api = client(token);
      failsWith(method === 'POST' ? await api.post(url) : await api.put(url), 400, message);
    }
  });

  it('an optional file sent empty is no file: cart, company details, admin details', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const productId = await insertProduct(t, 'Loose Input Cart', 12_500);
    const api = client(company.token);

    const added = is2xx(
      await api.post('/api/cart', { productId, quantity: 1, detail: 'For Lagos', file: '', fileName: '' }),
    );
    expect(added.message).toBe('You have successfully added to cart');
    const line = is2xx(await api.get('/api/cart'))[0].products.find((p: Data) => p.productId === productId);
    expect(line).toMatchObject({ detail: 'For Lagos', file: null, fileName: null });

    const job = await insertJob(t, company.id, { status: 'unassigned' });
    is2xx(
      await api.put(`/job-api/company/editjobdetails/${job.id}`, {
        detail: 'First brief',
        file: 'https://files.example.ng/brief.pdf',
        fileName: 'brief.pdf',
      }),
    );
    const edited = is2xx(
      await api.put(`/job-api/company/editjobdetails/${job.id}`, { detail: 'Second brief', file: '', fileName: '' }),
    );
    expect(edited.message).toBe('Edited successfully');
    const seen = is2xx(await api.get('/job-api/company/pendingjobs')).find((j: Data) => j._id === job.id);
    // No upload this time: the document sent before stays.
    expect(seen).toMatchObject({
      companyDetail: 'Second brief',
      companyFile: 'https://files.example.ng/brief.pdf',
      companyFileName: 'brief.pdf',
    });

    const byAdmin = is2xx(
      await client(admin.token).put(`/job-api/editjobdetails/${job.id}`, { detail: 'Filed', file: '  ', fileName: '' }),
    );
    expect(byAdmin.message).toBe('Edited successfully');
    failsWith(
      await api.post('/api/cart', { productId, quantity: 1, file: 'javascript:alert(1)' }),
      400,
      'file must be a URL answered by /api/uploads',
    );
  });

  it('available jobs take the tab labels Best fit and Recent jobs for `sort`', async () => {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const base = t.clock.now().getTime();
    for (let i = 0; i < 3; i++) await insertJob(t, company.id, { createdAt: new Date(base - (3 - i) * 60_000) });
    const api = client(lawyer.token);
    const ids = (r: Response) => is2xx(r).map((j: Data) => j._id);
    const bestFit = ids(await api.get('/job-api/jobs?sort=bestfit'));
    const recent = ids(await api.get('/job-api/jobs?sort=recent'));
    expect(recent).not.toEqual(bestFit);
    expect(ids(await api.get('/job-api/jobs?sort=Best%20fit'))).toEqual(bestFit);
    expect(ids(await api.get('/job-api/jobs?sort=Recent%20jobs'))).toEqual(recent);
    expect(ids(await api.get('/job-api/jobs?sort=recent-jobs'))).toEqual(recent);
    failsWith(await api.get('/job-api/jobs?sort=cheapest'), 400, 'sort must be bestfit or recent');
  });

  it('a product price past the catalogue’s bound names the price', async () => {
    const admin = await signupAndLogin(t, 'admin');
    for (const productPrice of ['99999999999999999999', '9'.repeat(400)])
      failsWith(
        await client(admin.token).form('POST', '/api/create', {
          productName: 'Too Dear',
          productPrice,
          productDescription: 'Costs more than the catalogue takes.',
          productImage: new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' }),
        }),
        400,
        'Product price must be at most 100000000',
      );
  });

  it('PATCH /api/updateprofile: the OpenAPI description says what an emptied field does, as the route does it', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    is2xx(
      await api.patchForm(`/api/updateprofile?_id=${company.id}`, { website: 'https://ada.ng', yourBio: 'Rails.' }),
    );
    const cleared = is2xx(
      await api.patchForm(`/api/updateprofile?_id=${company.id}`, { website: '', yourBio: '', officeAddress: '' }),
    );
    expect(cleared.company).toMatchObject({ website: null, yourBio: null, officeAddress: '12 Marina, Lagos' });

    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const description: string = doc.paths['/api/updateprofile'].patch.description;
    expect(description).not.toMatch(/Only non-empty fields are applied/);
    expect(description).toMatch(/sent empty clears it/);
    for (const field of CLEARABLE_PROFILE_FIELDS) expect(description).toContain(field);
    const jobs: string = doc.paths['/job-api/jobs'].get.description;
    expect(jobs).toContain('`Best fit` and `Recent jobs`');
  });
});
