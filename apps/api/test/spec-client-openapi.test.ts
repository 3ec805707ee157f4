import { afterAll, beforeAll, expect, it } from 'vitest';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { insertJob } from './admin-fixtures.js';
import { insertProduct } from './commerce-helpers.js';
import { createTestApp, describeEachDb, signupAndLogin, type TestApp } from './helpers.js';
import { pngBytes } from './upload-helpers.js';

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

  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  /**
   * Reads an answer as the generated client does: by the schema the operation declares for its status
   * (or its `default`), which the body must match. Answers the body.
   */
  const readAs = (method: string, path: string, res: LightMyRequestResponse) => {
    const declared = operation(method, path).responses;
    const answer = declared[String(res.statusCode)] ?? declared.default;
    const where = `${method} ${path} ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(answer, `${where}: status declared (${Object.keys(declared)})`).toBeDefined();
    const schema = answer.content?.['application/json']?.schema;
    expect(schema, `${where}: JSON schema declared`).toBeDefined();
    const body: unknown = res.json();
    expect(ajv.validate(schema, body) ? [] : ajv.errors, where).toEqual([]);
    return body;
  };

  it('names the bearer token on every spec row that needs one, so the generated client sends it', async () => {
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
      [
        'PUT',
        '/job-api/company/editjobdetails/{jobId}',
        `/job-api/company/editjobdetails/${ZERO}`,
        { detail: 'More.' },
      ],
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

  it("declares the error answer, so the spec rows' refusals are read with their message", async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const productId = await insertProduct(t, 'OpenAPI Error Product', 10_000);
    const completed = await insertJob(t, company.id, { productId, status: 'completed', lawyerId: lawyer.id });
    const call = (method: string, url: string, token?: string, payload?: object) =>
      t.app.inject({
        method: method as 'GET',
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload ? { payload } : {}),
      });
    const refusals: Array<[string, string, LightMyRequestResponse, number, string]> = [
      // "An empty or absent cart response counts as not found."
      ['GET', '/api/cart', await call('GET', '/api/cart', company.token), 404, 'Your cart is empty'],
      ['POST', '/api/login', await call('POST', '/api/login', undefined, {}), 400, 'Please enter your email address'],
      [
        'POST',
        '/api/login',
        await call('POST', '/api/login', undefined, { officialEmail: company.email, password: 'Wr0ng!Pass' }),
        401,
        'Incorrect email or password',
      ],
      [
        'GET',
        '/api/userprofile',
        await call('GET', `/api/userprofile?_id=${ZERO}`, company.token),
        403,
        'You do not have permission to view these profile details.',
      ],
      [
        'POST',
        '/job-api/applyforjob/{id}',
        await call('POST', `/job-api/applyforjob/${completed.id}`, lawyer.token, { lawyerId: lawyer.id }),
        403,
        'Unverified lawyers cannot apply for a job. Kindly contact the provider for further enquiry on verification process',
      ],
      [
        'POST',
        '/job-api/requestmorejobdetails/{id}',
        await call('POST', `/job-api/requestmorejobdetails/${completed.id}`, lawyer.token, {}),
        400,
        'Kindly request details',
      ],
      [
        'PUT',
        '/job-api/editjobdetails/{id}',
        await call('PUT', `/job-api/editjobdetails/${completed.id}`, admin.token, {}),
        400,
        'Kindly add/edit details',
      ],
      [
        'POST',
        '/job-api/assign',
        await call('POST', '/job-api/assign', admin.token, { jobId: completed.id }),
        400,
        'Please select a lawyer to assign the job.',
      ],
      [
        'PUT',
        '/job-api/completejob/{id}',
        await call('PUT', `/job-api/completejob/${completed.id}`, admin.token),
        409,
        'This job is already completed.',
      ],
      ['GET', '/api/lawyer/{id}', await call('GET', `/api/lawyer/${ZERO}`, admin.token), 404, 'Lawyer not found'],
      [
        'GET',
        '/product-api/product/{id}',
        await call('GET', `/product-api/product/${ZERO}`),
        404,
        'This product does not exist or has been removed',
      ],
      [
        'POST',
        '/api/resendconfirmemail',
        await call('POST', '/api/resendconfirmemail', undefined, {}),
        400,
        'Please enter your email address',
      ],
      ['GET', '/job-api/unassign', await call('GET', '/job-api/unassign'), 401, 'Please log in to continue.'],
    ];
    for (const [method, path, res, status, message] of refusals) {
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(status);
      expect(readAs(method, path, res)).toMatchObject({ status: 'fail', message });
    }
    const fieldRefusal = readAs('POST', '/api/rating', await call('POST', '/api/rating', company.token, {}));
    expect(fieldRefusal).toMatchObject({
      status: 'fail',
      issues: expect.arrayContaining([{ path: 'reviewTitle', message: 'Please enter a review title' }]),
    });

    // Every operation that declares a JSON answer declares the error one too.
    const without = Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => Object.values(op.responses).some((r: Doc) => r.content?.['application/json']))
        .filter(([, op]) => !op.responses.default?.content?.['application/json'])
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(without).toEqual([]);
  });

  it("reads the spec's product and job answers by their declared schemas, a product without an area included", async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    // The spec's four-field product: no area of law, so `area` is null.
    const productId = await insertProduct(t, 'OpenAPI Plain Product', 12_000);
    await insertJob(t, company.id, { productId });
    const get = (url: string, token?: string) =>
      t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

    const one = readAs('GET', '/product-api/product/{id}', await get(`/product-api/product/${productId}`)) as Doc;
    expect(one).toMatchObject({ _id: productId, productPrice: 12_000, area: null });
    const list = readAs('GET', '/product-api/products', await get('/product-api/products')) as Doc;
    expect(list.products.map((p: Doc) => p._id)).toContain(productId);
    const jobs = readAs('GET', '/job-api/unassign', await get('/job-api/unassign', admin.token)) as Doc;
    expect(jobs.map((j: Doc) => j.productId._id)).toContain(productId);
    readAs('GET', '/job-api/company/pendingjobs', await get('/job-api/company/pendingjobs', company.token));
  });

  it("sends the spec's multipart rows as their declared forms, and reads the saved object back", async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    /** The request body the operation declares: its multipart form's fields and the required ones. */
    const declaredForm = (method: string, path: string) => {
      const body = operation(method, path).requestBody;
      expect(body?.content, `${method} ${path} declares its form`).toHaveProperty(['multipart/form-data']);
      const schema = body.content['multipart/form-data'].schema;
      return { properties: schema.properties as Record<string, Doc>, required: (schema.required ?? []) as string[] };
    };
    /** A form with the given values, each checked against what the operation declares. */
    const send = async (
      method: string,
      path: string,
      url: string,
      token: string,
      values: Record<string, string | Buffer>,
    ) => {
      const { properties, required } = declaredForm(method, path);
      const fd = new FormData();
      for (const [name, value] of Object.entries(values)) {
        expect(properties, `${method} ${path} declares ${name}`).toHaveProperty([name]);
        if (Buffer.isBuffer(value)) {
          expect(properties[name].format, `${name} is a file`).toBe('binary');
          fd.append(name, new Blob([new Uint8Array(value)], { type: 'image/png' }), 'picture.png');
        } else fd.append(name, value);
      }
      for (const name of required) expect(Object.keys(values), `${method} ${path} requires ${name}`).toContain(name);
      const encoded = new Request('http://generated.client/', { method, body: fd });
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')! },
        payload: Buffer.from(await encoded.arrayBuffer()),
      });
      return readAs(method, path, res) as Doc;
    };

    // The spec's rows: "multipart productName, productPrice, productDescription, productImage".
    expect(declaredForm('POST', '/api/create').required.sort()).toEqual([
      'productDescription',
      'productImage',
      'productName',
      'productPrice',
    ]);
    const created = await send('POST', '/api/create', '/api/create', admin.token, {
      productName: 'Generated Client Product',
      productPrice: '15000',
      productDescription: 'Made by a generated client.',
      productImage: pngBytes(),
    });
    expect(created.product).toMatchObject({ productName: 'Generated Client Product', productPrice: 15_000 });
    const id = created.product._id as string;
    // "PUT /api/update/{id} | same multipart": the picture may be left out.
    expect(declaredForm('PUT', '/api/update/{id}').required).not.toContain('productImage');
    const updated = await send('PUT', '/api/update/{id}', `/api/update/${id}`, admin.token, {
      productName: 'Generated Client Product, Revised',
      productPrice: '16000',
      productDescription: 'Revised by a generated client.',
    });
    expect(updated.product).toMatchObject({
      _id: id,
      productName: 'Generated Client Product, Revised',
      productPrice: 16_000,
    });

    // "PATCH /api/updateprofile?_id={id} | multipart profileImage, officialEmail, website, yourBio,
    // phoneNumber, alternativeEmailAddress, officeAddress"; the lawyer's adds areasOfPractise repeated.
    const profileFields = Object.keys(declaredForm('PATCH', '/api/updateprofile').properties);
    for (const field of [
      'profileImage',
      'officialEmail',
      'website',
      'yourBio',
      'phoneNumber',
      'alternativeEmailAddress',
      'officeAddress',
      'scn',
      'yearOfCall',
      'areasOfPractise',
    ])
      expect(profileFields).toContain(field);
    const saved = await send('PATCH', '/api/updateprofile', `/api/updateprofile?_id=${company.id}`, company.token, {
      yourBio: 'Written by a generated client.',
      website: 'https://generated.example.ng',
      profileImage: pngBytes(),
    });
    expect(saved.company).toMatchObject({
      _id: company.id,
      yourBio: 'Written by a generated client.',
      website: 'https://generated.example.ng',
    });
    expect(saved.company.profileImage.url).toMatch(/^\/uploads\//);
  });
});
