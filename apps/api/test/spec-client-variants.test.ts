import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { insertUsers } from './admin-fixtures.js';
import { insertProduct } from './commerce-helpers.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from './helpers.js';
import { is2xx, specClient, type Data, type Response } from './spec-client-kit.js';

/** The next one-time code mailed, when a test needs to know it ahead (null: a random one). */
const codes = vi.hoisted(() => ({ next: null as string | null }));
vi.mock('../src/platform/tokens.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/platform/tokens.js')>();
  return { ...real, randomCode: () => codes.next ?? real.randomCode() };
});

/**
 * Both call tables played once more by a client written only from the spec (decision 2234), with the
 * variants such a client sends where the spec leaves the form of a value open: the lawyer-and-admin
 * table's `data.` answers read as the login's `data.user` is, a flag sent as the text "true", the bearer
 * token as a client keeps it, a list in one form value, and a trailing slash. `response.data` is the
 * JSON body, read only by the spec's names.
 */
describeEachDb('spec client variants of both call tables', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  const failsWith = (r: Response, status: number, message: string) => {
    expect(r.status, JSON.stringify(r.data)).toBe(status);
    expect(r.data.message).toBe(message);
  };
  const withAuthorization = async (authorization: string, method: 'GET' | 'POST', url: string): Promise<Response> => {
    const res = await t.app.inject({ method, url, headers: { accept: 'application/json', authorization } });
    return { status: res.statusCode, data: JSON.parse(res.body) };
  };

  it('GET /api/verifiedlawyers, /api/unverifiedlawyers, /api/companys, /api/lawyer/{id}: the `data.` answers', async () => {
    // lawyer-and-admin 7: "Verified lawyers | ... | data.lawyers", "Unverified lawyers | data.lawyers",
    // "Companies | data.company list", "Lawyer by id | data.lawyer", written as the same table writes
    // "Company by id | data.company" and the login's "data.user": both under `data` in the body.
    const admin = await signupAndLogin(t, 'admin');
    await insertUsers(t, 'company', 6);
    await insertUsers(t, 'lawyer', 6, { verified: true });
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const api = client(admin.token);

    const verified = is2xx(await api.get('/api/verifiedlawyers'));
    expect(verified.data.lawyers.length).toBeGreaterThanOrEqual(6);
    for (const l of verified.data.lawyers) expect(l.verified).toBe(true);
    const unverified = is2xx(await api.get('/api/unverifiedlawyers'));
    expect(unverified.data.lawyers.map((l: Data) => l._id)).toContain(lawyer.id);
    // Section 2, assign job: each row shows image, name, SCN number and creation date.
    const row = unverified.data.lawyers.find((l: Data) => l._id === lawyer.id);
    for (const field of ['profileImage', 'name', 'scn', 'createdAt']) expect(field in row, field).toBe(true);
    const companies = is2xx(await api.get('/api/companys'));
    expect(companies.data.company.map((c: Data) => c._id)).toContain(company.id);
    // Our web reads the keys at the top (decision 0901): the same items.
    expect(verified.lawyers).toEqual(verified.data.lawyers);
    expect(companies.company).toEqual(companies.data.company);
    // The admin pages' paged form, too.
    const page = is2xx(await api.get('/api/companys?page=2&limit=5'));
    expect(page.data.company).toEqual(page.company);
    expect(page.data.company).toHaveLength(Math.min(5, companies.company.length - 5));

    const one = is2xx(await api.get(`/api/lawyer/${lawyer.id}`));
    // Section 6: "Profile lookups succeed only if the returned id matches the requested id".
    expect(one.data.lawyer._id).toBe(lawyer.id);
    expect(one.data.lawyer.verified).toBe(false);
    expect(one.lawyer).toEqual(one.data.lawyer);
    failsWith(await api.get(`/api/lawyer/${company.id}`), 404, 'Lawyer not found');
  });

  it('PATCH /api/verifylawyer/{id}: `verified` sent as the text "true" verifies', async () => {
    // lawyer-and-admin 7: "Verify lawyer | ... | verified true". A client that keeps the flag as form
    // text sends "true"; that answered 400 "verified must be true or false".
    const admin = await signupAndLogin(t, 'admin');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const api = client(admin.token);
    const verified = is2xx(await api.patch(`/api/verifylawyer/${lawyer.id}`, { verified: 'true' }));
    expect(verified.message).toBe('Verification Successful');
    expect(is2xx(await api.get(`/api/lawyer/${lawyer.id}`)).lawyer.verified).toBe(true);
    // The lawyer is removed from the unverified list (section 4).
    const unverified = is2xx(await api.get('/api/unverifiedlawyers'));
    expect(unverified.lawyers.map((l: Data) => l._id)).not.toContain(lawyer.id);
    is2xx(await api.patch(`/api/verifylawyer/${lawyer.id}`, { verified: 'false' }));
    expect(is2xx(await api.get(`/api/lawyer/${lawyer.id}`)).lawyer.verified).toBe(false);
    // Anything else is still refused with a message naming the field.
    for (const v of ['yes', 1, null, {}])
      failsWith(
        await api.patch(`/api/verifylawyer/${lawyer.id}`, { verified: v }),
        400,
        'verified must be true or false',
      );
  });

  it('the bearer token as a client keeps it: any case of the scheme, quotes around the token', async () => {
    // Both documents, section 7: "the bearer token from local storage when present". The scheme is
    // case-insensitive (RFC 7235); a client that stored the token with JSON.stringify sends it quoted.
    // Each answered 401, so every signed-in call failed.
    const company = await signupAndLogin(t, 'company');
    for (const authorization of [
      `bearer ${company.token}`,
      `BEARER ${company.token}`,
      `Bearer "${company.token}"`,
      ` Bearer  ${company.token} `,
    ]) {
      const profile = await withAuthorization(authorization, 'GET', `/api/userprofile?_id=${company.id}`);
      expect(profile.status, authorization).toBe(200);
      expect(profile.data._id).toBe(company.id);
    }
    // What holds no token is still "not logged in", with a message the generic handler shows.
    for (const authorization of [
      'Bearer null',
      'Bearer undefined',
      'Bearer ""',
      'Bearer',
      company.token,
      `Basic ${company.token}`,
    ])
      failsWith(
        await withAuthorization(authorization, 'GET', `/api/userprofile?_id=${company.id}`),
        401,
        'Please log in to continue.',
      );
    // Logout with the lower-case scheme ends the session.
    expect((await withAuthorization(`bearer ${company.token}`, 'POST', '/api/logout')).status).toBe(200);
    expect((await client(company.token).get(`/api/userprofile?_id=${company.id}`)).status).toBe(401);
  });

  it('PATCH /api/updateprofile: areasOfPractise as one value holding the list', async () => {
    // lawyer-and-admin 7: "Profile update | multipart; areasOfPractise repeated". A client that appends
    // the list in one call (`formData.append('areasOfPractise', list)`) sends "Maritime,Sports"; one that
    // serialises it sends '["Maritime","Sports"]'. Both answered 400 "... is not in the expertise list".
    const lawyer = await signupAndLogin(t, 'lawyer');
    const api = client(lawyer.token);
    const url = `/api/updateprofile?_id=${lawyer.id}`;
    const joined = is2xx(await api.patchForm(url, { areasOfPractise: 'Maritime,Sports' }));
    expect(joined.message).toBe('Profile Updated Successfully');
    expect(joined.lawyer.areasOfPractise).toEqual(['Maritime', 'Sports']);
    const json = is2xx(await api.patchForm(url, { areasOfPractise: '["Aviation and Space","Tax Practise"]' }));
    expect(json.lawyer.areasOfPractise).toEqual(['Aviation and Space', 'Tax Practise']);
    const sent = is2xx(await api.patch(url, { areasOfPractise: 'Technology, Entertainment' }));
    expect(sent.lawyer.areasOfPractise).toEqual(['Technology', 'Entertainment']);
    expect(is2xx(await api.get(url.replace('updateprofile', 'userprofile'))).areasOfPractise).toEqual([
      'Technology',
      'Entertainment',
    ]);
    // An area outside the list is still named.
    failsWith(
      await api.patchForm(url, { areasOfPractise: 'Maritime,Cooking' }),
      400,
      'Areas of practice: Cooking is not in the expertise list',
    );
  });

  it('a trailing slash on a table path reaches the same route', async () => {
    // "All calls go to one backend base address": a client that joins the base and the path with a
    // slash of its own, or keeps one at the end, answered 404 "Not found" on every row.
    const company = await signupAndLogin(t, 'company');
    const productId = await insertProduct(t, 'Trailing Slash Product', 7_500);
    const api = client(company.token);
    expect(is2xx(await client().get('/product-api/products/')).products.map((p: Data) => p._id)).toContain(productId);
    expect(is2xx(await client().get(`/product-api/product/${productId}/`))._id).toBe(productId);
    expect(Array.isArray(is2xx(await client().get('/ratings-api/rating/')))).toBe(true);
    const login = is2xx(await client().post('/api/login/', { officialEmail: company.email, password: PASSWORD }));
    expect(login.data.user._id).toBe(company.id);
    is2xx(await api.post('/api/cart/', { productId, quantity: 2 }));
    const [cart] = is2xx(await api.get('/api/cart/'));
    expect(cart.bill).toBe(15_000);
    expect(is2xx(await api.get(`/api/userprofile/?_id=${company.id}`))._id).toBe(company.id);
    expect(is2xx(await api.get('/job-api/company/pendingjobs/'))).toEqual([]);
    expect(is2xx(await api.del(`/api/cart/${productId}/`)).message).toBe('Product removed from the cart');
    // A path that is no route is still a 404 with a message.
    failsWith(await api.get('/api/no-such-row/'), 404, 'Not found');
  });

  it('the one-time codes sent as the joined digits made a number', async () => {
    // Visitor-and-company 5: "OTP: six digits ... sent as the joined digits"; lawyer-and-admin 7: "Confirm
    // code | POST /api/confirm-otp | OTP as joined digits". A client that makes the joined digits a number
    // sends 12345 for the code 012345. Both answered 400 "Please enter the 6-digit code".
    const company = await signupAndLogin(t, 'company');
    const api = client();
    codes.next = '012345';
    is2xx(await api.post('/api/forgot-password', { officialEmail: company.email }));
    expect(sixDigits((await lastMailTo(t, company.email))!.text)).toBe('012345');
    const confirmed = is2xx(
      await api.post('/api/confirm-reset-token', { token: Number('012345'), officialEmail: company.email }),
    );
    expect(confirmed.message).toBe('OTP Confirmed!');

    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const lapi = client(lawyer.token);
    is2xx(
      await lapi.post('/api/add-payment-details', {
        accountNumber: '0123456789',
        accountName: 'Chidi Okeke',
        bank: 'GTBank',
      }),
    );
    codes.next = '004321';
    is2xx(await lapi.post('/api/send-otp'));
    codes.next = null;
    // A wrong code as a number is the wrong code; what is no code still names the field.
    failsWith(
      await lapi.post('/api/confirm-otp', { OTP: 4322 }),
      400,
      'The code is incorrect or has expired. Please request a new one.',
    );
    for (const OTP of [1_000_000, 12.5, -4321])
      failsWith(await lapi.post('/api/confirm-otp', { OTP }), 400, 'Please enter the 6-digit code');
    expect(is2xx(await lapi.post('/api/confirm-otp', { OTP: Number('004321') })).message).toBe('OTP confirmed');
  });

  it('PATCH /api/reset-password: an address with `+` put in the query without encoding', async () => {
    // Visitor-and-company 7: "PATCH /api/reset-password?userType=&userEmail=&token=", built from the route
    // /new-password/{resetToken}/{userEmail}. Left unencoded, the `+` of ada+legal@... arrives as a space
    // and answered 400 "Please enter a valid email address".
    const company = await signupAndLogin(t, 'company', { email: uniqueEmail('ada+legal') });
    const api = client();
    is2xx(await api.post('/api/forgot-password', { officialEmail: company.email }));
    const code = sixDigits((await lastMailTo(t, company.email))!.text)!;
    const { resetToken } = is2xx(
      await api.post('/api/confirm-reset-token', { token: code, officialEmail: company.email }),
    );
    const reset = is2xx(
      await api.patch(`/api/reset-password?userType=company&userEmail=${company.email}&token=${resetToken}`, {
        password: 'New1!Password',
        passwordConfirm: 'New1!Password',
      }),
    );
    expect(reset.message).toBe('Password Reset Successfully');
    expect(
      is2xx(await api.post('/api/login', { officialEmail: company.email, password: 'New1!Password' })).data.user._id,
    ).toBe(company.id);
  });

  it('a body that is no JSON object answers what to send', async () => {
    // Both documents, section 8: the generic handler "shows the server's response message". A body sent
    // as text/plain (fetch without the JSON header) or as a list answered zod's "Invalid input: expected
    // object, received string", which names nothing the client can fix.
    const company = await signupAndLogin(t, 'company');
    const login = JSON.stringify({ officialEmail: company.email, password: PASSWORD });
    for (const [contentType, payload] of [
      ['text/plain;charset=UTF-8', login],
      ['application/json', '[]'],
      ['application/json', '"officialEmail"'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().message).toBe('Send the request body as a JSON object, with Content-Type: application/json');
    }
  });

  it('sign-up: a phone number sent as a JSON number answers the phone rule', async () => {
    // Visitor-and-company 5: "Phone number: digits only, ... exactly 11 to submit: Please enter a valid
    // 11-digit phone number". A form that keeps the number as a number sends 8012345678 (its leading 0
    // gone); that answered "Please enter your contact phone number", as if the field were empty.
    const body = {
      companyName: 'Number Phone Ltd',
      contactName: 'Ada Obi',
      officialEmail: uniqueEmail('number-phone'),
      officeAddress: '12 Marina, Lagos',
      industry: 'Fintech',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    };
    for (const phoneNumber of [8012345678, 2348012345678])
      failsWith(
        await client().post('/api/company/signup', { ...body, phoneNumber }),
        400,
        'Please enter a valid 11-digit phone number',
      );
    // Left out or empty, the field is still the one to fill.
    for (const phoneNumber of [undefined, null, ''])
      failsWith(
        await client().post('/api/company/signup', { ...body, phoneNumber }),
        400,
        'Please enter your contact phone number',
      );
  });

  it('a form sent to a JSON row answers what to send', async () => {
    // Both documents, section 7: every row but the product and profile forms takes JSON. A client that
    // posts a FormData (the cart row's "file" makes it look like an upload) or an urlencoded form got
    // 415 "Unsupported content type", naming nothing it could change.
    const company = await signupAndLogin(t, 'company');
    const productId = await insertProduct(t, 'Form To Json Product', 9_000);
    const fd = new FormData();
    fd.append('productId', productId);
    fd.append('quantity', '1');
    const encoded = new Request('http://spec.client/', { method: 'POST', body: fd });
    const cart = await t.app.inject({
      method: 'POST',
      url: '/api/cart',
      headers: { authorization: `Bearer ${company.token}`, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(cart.statusCode).toBe(415);
    expect(cart.json().message).toBe('Send the request body as a JSON object, with Content-Type: application/json');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `officialEmail=${encodeURIComponent(company.email)}&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(login.statusCode).toBe(415);
    expect(login.json().message).toBe('Send the request body as a JSON object, with Content-Type: application/json');
  });

  it('sign-up: the confirmation under the screen’s name, and the lawyer’s areas in one text', async () => {
    // Visitor-and-company 2: "password and confirm password (required)"; section 3 names no field for the
    // confirmation ("Sign-up fields also include password and confirmation"), so a client names it after
    // the label: `confirmPassword`. That answered 400 "Please confirm your password" to a form that had.
    const body = {
      companyName: 'Confirm Name Ltd',
      contactName: 'Ada Obi',
      phoneNumber: '08012345678',
      officeAddress: '12 Marina, Lagos',
      industry: 'Fintech',
      password: PASSWORD,
    };
    const signed = is2xx(
      await client().post('/api/company/signup', {
        ...body,
        officialEmail: uniqueEmail('confirm-name'),
        confirmPassword: PASSWORD,
      }),
    );
    expect(signed).toMatchObject({ status: 'success', message: 'You have successfully created an account' });
    failsWith(
      await client().post('/api/company/signup', {
        ...body,
        officialEmail: uniqueEmail('confirm-name'),
        confirmPassword: 'Other1!Pass',
      }),
      400,
      'Passwords do not match',
    );
    // The lawyer's areasOfPractise (section 3: "list of text") sent as one text, as the profile form's is.
    for (const areasOfPractise of ['Technology', 'Maritime,Sports', '["Tax Practise"]']) {
      const lawyer = await client().post('/api/lawyer/signup', {
        name: 'Chidi Okeke',
        officialEmail: uniqueEmail('areas-text'),
        phoneNumber: '08087654321',
        areasOfPractise,
        scn: 'SCN765432',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(is2xx(lawyer).status, areasOfPractise).toBe('success');
    }
    failsWith(
      await client().post('/api/lawyer/signup', {
        name: 'Chidi Okeke',
        officialEmail: uniqueEmail('areas-text'),
        phoneNumber: '08087654321',
        areasOfPractise: 'Cooking',
        scn: 'SCN765432',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
      }),
      400,
      'Please choose your areas of practice from the expertise list',
    );
  });
});
