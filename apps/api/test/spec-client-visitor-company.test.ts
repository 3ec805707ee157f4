import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertJob } from './admin-fixtures.js';
import { insertProduct } from './commerce-helpers.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from './helpers.js';
import { is2xx, specClient, type Data, type Response } from './spec-client-kit.js';
import { pngBytes } from './upload-helpers.js';

/**
 * The visitor-and-company call table played once more by a client written only from that document
 * (decision 2210): the rows and fields the earlier rounds (spec-client, spec-audit, spec-client-loose-inputs,
 * spec-client-lawyer-admin) did not exercise. Each test names the spec line it follows; `response.data`
 * is the JSON body, read only by the spec's names.
 */
describeEachDb('the visitor and company call table, as a spec client sends and reads it', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  const picture = () => new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' });
  const failsWith = (r: Response, status: number, message: string) => {
    expect(r.status, JSON.stringify(r.data)).toBe(status);
    expect(r.data.message).toBe(message);
  };
  /** Section 3, Company: the fields a company profile is read by. */
  const COMPANY_FIELDS = [
    '_id',
    'contactName',
    'phoneNumber',
    'officialEmail',
    'officeAddress',
    'cac',
    'industry',
    'website',
    'yourBio',
    'alternativeEmailAddress',
    'profileImage',
    'createdAt',
  ];
  const sendJson = async (userToken: string, method: 'PATCH', url: string, body: object): Promise<Response> => {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${userToken}`,
      },
      payload: JSON.stringify(body),
    });
    return { status: res.statusCode, data: JSON.parse(res.body) };
  };

  it('GET /api/company/{id} answers `data.company`; its id is the one asked for, with the section 3 fields', async () => {
    // Section 7: "GET /api/company/{id} | data.company (admin view)", written as the login row's "data.user"
    // (which our login answers under `data`). Section 6: "Profile lookups succeed only if the returned id
    // equals the requested id", and "An admin opening a company profile uses the admin company lookup".
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    is2xx(
      await client(company.token).form('PATCH', `/api/updateprofile?_id=${company.id}`, { profileImage: picture() }),
    );

    const viewed = is2xx(await client(admin.token).get(`/api/company/${company.id}`));
    expect(viewed.data.company._id).toBe(company.id);
    for (const field of COMPANY_FIELDS) expect(field in viewed.data.company, field).toBe(true);
    expect(viewed.data.company.companyName ?? viewed.data.company.name).toBe('Ada Ventures Ltd');
    expect(viewed.data.company.profileImage.url).toMatch(/^\/uploads\//);
    // Our web reads `company` at the top (decision 0901): the same profile.
    expect(viewed.company).toEqual(viewed.data.company);

    // The company's own lookup answers the same fields, by the same names.
    const own = is2xx(await client(company.token).get(`/api/userprofile?_id=${company.id}`));
    expect(own._id).toBe(company.id);
    for (const field of COMPANY_FIELDS) expect(own[field], field).toEqual(viewed.data.company[field]);

    // Anyone else is refused; an id that is no company is named as such.
    expect((await client(company.token).get(`/api/company/${company.id}`)).status).toBe(403);
    const lawyer = await signupAndLogin(t, 'lawyer');
    failsWith(await client(admin.token).get(`/api/company/${lawyer.id}`), 404, 'Company not found');
  });

  it('POST /api/cart: the optional detail, file and fileName sent null are not sent', async () => {
    // Section 7: "POST /api/cart | productId, quantity, optional detail, file, fileName". A client that
    // holds no upload (the widget never answered) sends `file: null, fileName: null`; a detail left
    // empty, `detail: null`. Each answered 400 "Details must be text" / "file must be text".
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    const productId = await insertProduct(t, 'Null Fields Product', 12_000);
    const added = is2xx(
      await api.post('/api/cart', { productId, quantity: 1, detail: null, file: null, fileName: null }),
    );
    expect(added.message).toBe('You have successfully added to cart');
    const line = is2xx(await api.get('/api/cart'))[0].products.find((p: Data) => p.productId === productId);
    expect(line).toMatchObject({ productId, quantity: 1, detail: null, file: null, fileName: null, price: 12_000 });

    // The hosted widget's answer (an https address and the original name) is taken as it is.
    const other = await insertProduct(t, 'Hosted File Product', 8_000);
    is2xx(
      await api.post('/api/cart', {
        productId: other,
        quantity: 2,
        detail: 'Our memorandum',
        file: 'https://res.cloudinary.com/legal/raw/upload/v1/memorandum.pdf',
        fileName: 'memorandum.pdf',
      }),
    );
    const [cart] = is2xx(await api.get('/api/cart'));
    expect(cart.products.find((p: Data) => p.productId === other)).toMatchObject({
      file: 'https://res.cloudinary.com/legal/raw/upload/v1/memorandum.pdf',
      fileName: 'memorandum.pdf',
    });
    // Section 3: "Total is the sum of quantity times price".
    expect(cart.bill).toBe(cart.products.reduce((sum: number, p: Data) => sum + p.quantity * p.price, 0));

    // A value that is there is still checked.
    failsWith(await api.post('/api/cart', { productId, quantity: 1, file: 5 }), 400, 'file must be text');
    failsWith(await api.post('/api/cart', { productId, quantity: 1, detail: 7 }), 400, 'Details must be text');
  });

  it('PUT /job-api/company/editjobdetails/{jobId}: file and fileName sent null keep the document sent before', async () => {
    // Section 7: "PUT /job-api/company/editjobdetails/{jobId} | detail, file, fileName"; screen 13's
    // Give more details has an "optional upload". The admin's Add details row takes the same nulls.
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    const api = client(company.token);
    is2xx(
      await api.put(`/job-api/company/editjobdetails/${job.id}`, {
        detail: 'First brief',
        file: 'https://res.cloudinary.com/legal/raw/upload/v1/brief.pdf',
        fileName: 'brief.pdf',
      }),
    );
    const edited = is2xx(
      await api.put(`/job-api/company/editjobdetails/${job.id}`, {
        detail: 'More details',
        file: null,
        fileName: null,
      }),
    );
    expect(edited.message).toBe('Edited successfully');
    const seen = is2xx(await api.get('/job-api/company/pendingjobs')).find((j: Data) => j._id === job.id);
    expect(seen).toMatchObject({
      companyDetail: 'More details',
      companyFile: 'https://res.cloudinary.com/legal/raw/upload/v1/brief.pdf',
      companyFileName: 'brief.pdf',
    });
    // An empty Send is still the spec's alert, null or not.
    failsWith(
      await api.put(`/job-api/company/editjobdetails/${job.id}`, { detail: null }),
      400,
      'Kindly add/edit details',
    );

    const byAdmin = is2xx(
      await client(admin.token).put(`/job-api/editjobdetails/${job.id}`, {
        detail: 'Filed',
        file: null,
        fileName: null,
      }),
    );
    expect(byAdmin.message).toBe('Edited successfully');
  });

  it('POST /api/company/signup: the optional CAC number sent null is none', async () => {
    // Section 2, screen 2: "CAC registration number (optional)"; section 5: every field except
    // cacNumber, firmName and lawFirmAddress must be filled. A form that keeps an untouched optional
    // field as null sends it so; that answered 400 "CAC registration number must be text".
    const email = uniqueEmail('null-cac');
    const signup = await client().post('/api/company/signup', {
      companyName: 'Null Cac Ltd',
      contactName: 'Ada Obi',
      phoneNumber: '08012345678',
      officialEmail: email,
      officeAddress: '12 Marina, Lagos',
      cacNumber: null,
      industry: 'Fintech',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(is2xx(signup)).toMatchObject({ status: 'success', message: 'You have successfully created an account' });
    is2xx(await client().post('/api/confirm-email', { token: linkToken((await lastMailTo(t, email))!.text) }));
    const login = is2xx(await client().post('/api/login', { officialEmail: email, password: PASSWORD }));
    const profile = is2xx(await client(login.token).get(`/api/userprofile?_id=${login.data.user._id}`));
    expect(profile).toMatchObject({ companyName: 'Null Cac Ltd', cac: null });

    // The lawyer's optional fields, named as section 5 names them.
    const lawyer = await client().post('/api/lawyer/signup', {
      name: 'Chidi Okeke',
      officialEmail: uniqueEmail('null-firm'),
      phoneNumber: '08087654321',
      areasOfPractise: ['Technology'],
      scn: 'SCN765432',
      cacNumber: null,
      firmName: null,
      lawFirmAddress: null,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(is2xx(lawyer).status).toBe('success');
    // A required field sent null is still named with the spec's text.
    failsWith(
      await client().post('/api/company/signup', {
        companyName: 'Null Industry Ltd',
        contactName: 'Ada Obi',
        phoneNumber: '08012345678',
        officialEmail: uniqueEmail('null-industry'),
        officeAddress: '12 Marina, Lagos',
        industry: null,
        password: PASSWORD,
        passwordConfirm: PASSWORD,
      }),
      400,
      'Please enter your industry',
    );
  });

  it('PATCH /api/updateprofile: the company form sent with JSON headers saves its text fields', async () => {
    // Section 7: "All calls go to one backend base address, with JSON headers"; "PATCH /api/updateprofile
    // | multipart profileImage, officialEmail, website, yourBio, phoneNumber, alternativeEmailAddress,
    // officeAddress". Under a JSON Content-Type axios sends a FormData as JSON (the picture, a File,
    // becomes `{}`); that answered 415 and saved nothing.
    const company = await signupAndLogin(t, 'company');
    const url = `/api/updateprofile?_id=${company.id}`;
    const saved = is2xx(
      await sendJson(company.token, 'PATCH', url, {
        profileImage: {},
        officialEmail: company.email,
        website: 'https://ada.ng',
        yourBio: 'We build payment rails.',
        phoneNumber: '08031234567',
        alternativeEmailAddress: 'hello@ada.ng',
        officeAddress: '3 Broad Street, Lagos',
      }),
    );
    expect(saved.message).toBe('Profile Updated Successfully');
    expect(saved.company).toMatchObject({
      _id: company.id,
      officialEmail: company.email,
      website: 'https://ada.ng',
      yourBio: 'We build payment rails.',
      phoneNumber: '08031234567',
      alternativeEmailAddress: 'hello@ada.ng',
      officeAddress: '3 Broad Street, Lagos',
      profileImage: null,
    });
    const read = is2xx(await client(company.token).get(`/api/userprofile?_id=${company.id}`));
    expect(read.yourBio).toBe('We build payment rails.');

    // The spec's texts and rules hold as for the multipart form; null is not sent.
    failsWith(
      await sendJson(company.token, 'PATCH', url, { phoneNumber: '0803123456' }),
      400,
      'Please enter a valid 11-digit phone number',
    );
    const kept = is2xx(await sendJson(company.token, 'PATCH', url, { website: null, yourBio: 'Rails.' }));
    expect(kept.company).toMatchObject({ website: 'https://ada.ng', yourBio: 'Rails.' });
    failsWith(await sendJson(company.token, 'PATCH', url, { yourBio: { text: 'x' } }), 400, 'yourBio must be text');
    const other = await signupAndLogin(t, 'company');
    failsWith(
      await sendJson(company.token, 'PATCH', `/api/updateprofile?_id=${other.id}`, { yourBio: 'Not mine' }),
      403,
      'You do not have permission to view these profile details.',
    );

    // A lawyer's repeated field comes as a list.
    const lawyer = await signupAndLogin(t, 'lawyer');
    const lawyerSaved = is2xx(
      await sendJson(lawyer.token, 'PATCH', `/api/updateprofile?_id=${lawyer.id}`, {
        areasOfPractise: ['Technology', 'Intellectual Property'],
        yearOfCall: 2015,
      }),
    );
    expect(lawyerSaved.lawyer).toMatchObject({
      areasOfPractise: ['Technology', 'Intellectual Property'],
      yearOfCall: '2015',
    });
  });

  it('the bearer token kept in storage goes on every call: a stale one does not stop the public calls', async () => {
    // Section 7: "with JSON headers and the bearer token from local storage when present". A token the
    // server no longer honours (logged out elsewhere, expired) stays stored until the next login.
    const company = await signupAndLogin(t, 'company');
    const productId = await insertProduct(t, 'Stale Token Product', 5_000);
    is2xx(await client(company.token).post('/api/logout'));
    for (const stale of [company.token, 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2lnbmF0dXJl']) {
      const api = client(stale);
      expect(Array.isArray(is2xx(await api.get('/product-api/products')).products)).toBe(true);
      expect(is2xx(await api.get(`/product-api/product/${productId}`))._id).toBe(productId);
      expect(Array.isArray(is2xx(await api.get('/ratings-api/rating')))).toBe(true);
      expect(is2xx(await api.post('/api/forgot-password', { officialEmail: company.email })).message).toBe(
        'Password reset email sent',
      );
      expect(is2xx(await api.post('/api/resendconfirmemail', { officialEmail: company.email })).message).toBe(
        'Confirmation email sent successfully',
      );
      const login = is2xx(await api.post('/api/login', { officialEmail: company.email, password: PASSWORD }));
      expect(login.data.user).toMatchObject({ _id: company.id, userType: 'company' });
      // Signed-in calls answer 401 with a message the generic handler shows (section 8).
      const refused = await api.get('/api/cart');
      expect(refused.status).toBe(401);
      expect(typeof refused.data.message).toBe('string');
    }
  });

  it('password reset as the table sends it: userType passed on as read, resetToken read by the route’s name', async () => {
    // Section 7: forgot-password answers userType (left out on purpose, decision 0001), so the client
    // passes on what it read (`undefined`) or nothing; "/new-password/{resetToken}/{userEmail}" names the
    // token the code step answers. The code step needs the address too (decision 0002): without it the
    // 400 names the field with the spec's text.
    const company = await signupAndLogin(t, 'company');
    const api = client();
    const forgot = is2xx(await api.post('/api/forgot-password', { officialEmail: company.email }));
    expect(forgot).toMatchObject({ status: 'success', message: 'Password reset email sent' });
    const code = sixDigits((await lastMailTo(t, company.email))!.text)!;
    failsWith(await api.post('/api/confirm-reset-token', { token: code }), 400, 'Please enter your email address');
    const confirmed = is2xx(await api.post('/api/confirm-reset-token', { token: code, officialEmail: company.email }));
    expect(confirmed.message).toBe('OTP Confirmed!');
    const query = `userType=${forgot.userType}&userEmail=${company.email}&token=${confirmed.resetToken}`;
    const reset = is2xx(
      await api.patch(`/api/reset-password?${query}`, { password: 'New1!Password', passwordConfirm: 'New1!Password' }),
    );
    expect(reset.message).toBe('Password Reset Successfully');
    expect(
      is2xx(await api.post('/api/login', { officialEmail: company.email, password: 'New1!Password' })).message,
    ).toBe('Welcome back');
  });

  it('cart and jobs: the empty states, the line cap and the reserved item sent as it was stored', async () => {
    // Screen 11: "empty text Your cart is empty"; section 4: "An empty or absent cart response counts as
    // not found". Section 3's local reserved item (productId, productPrice, productName, productImage,
    // quantity, detail) is what a company posts after reserving; the price is the catalogue's.
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    failsWith(await api.get('/api/cart'), 404, 'Your cart is empty');
    const productId = await insertProduct(t, 'Reserved Product', 30_000);
    is2xx(
      await api.post('/api/cart', {
        productId,
        productPrice: 1,
        productName: 'Cheaper',
        productImage: 'https://example.ng/x.png',
        quantity: '3',
        detail: 'From my reservation',
      }),
    );
    const [cart] = is2xx(await api.get('/api/cart'));
    expect(cart.products).toEqual([
      expect.objectContaining({ productId, quantity: 3, price: 30_000, productName: 'Reserved Product' }),
    ]);
    expect(cart.bill).toBe(90_000);
    // Section 9: quantity 1 to 10; a line past 10 answers a status the generic handler shows (409).
    const past = await api.post('/api/cart', { productId, quantity: 8 });
    expect(past.status).toBe(409);
    expect(typeof past.data.message).toBe('string');
    // Removing what is not in the cart answers as removing does (the page has already dropped it).
    const absent = await insertProduct(t, 'Never Added', 1_000);
    expect(is2xx(await api.del(`/api/cart/${absent}`)).message).toBe('Product removed from the cart');
    expect(is2xx(await api.post('/api/clear-cart')).message).toBe('Cart cleared successfully');
    failsWith(await api.get('/api/cart'), 404, 'Your cart is empty');

    // Screen 13: each job shows product name and amount; status is one of the three the spec names.
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    await insertJob(t, company.id, { productId, status: 'pending', lawyerId: lawyer.id });
    const [job] = is2xx(await api.get('/job-api/company/pendingjobs'));
    expect(job.productId.productName).toBe('Reserved Product');
    expect(typeof job.amount).toBe('number');
    expect(['unassigned', 'pending', 'completed']).toContain(job.status);
  });
});
