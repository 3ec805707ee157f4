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
});
