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
 * The rows of the spec's call tables that spec-client.test.ts does not play, by a client written only
 * from the two spec documents: field names and nesting, types, status codes, the exact texts of the
 * spec's messages and empty-list answers. `response.data` is the JSON body.
 */
describeEachDb('spec audit: the remaining rows of the call tables', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  /** Confirms a signed-up address through its e-mailed link and logs in. */
  async function confirmAndLogin(email: string) {
    is2xx(await client().post('/api/confirm-email', { token: linkToken((await lastMailTo(t, email))!.text) }));
    const login = is2xx(await client().post('/api/login', { officialEmail: email, password: PASSWORD }));
    return { id: login.data.user._id as string, token: login.token as string };
  }
  /** The spec's generic handler shows `response.data.message`. */
  const failsWith = (r: Response, status: number, message: string) => {
    expect(r.status, JSON.stringify(r.data)).toBe(status);
    expect(r.data.message).toBe(message);
  };

  it('login and the e-mail forms: the spec’s texts for empty fields and an unconfirmed address', async () => {
    const api = client();
    failsWith(
      await api.post('/api/login', { officialEmail: '', password: PASSWORD }),
      400,
      'Please enter your email address',
    );
    failsWith(await api.post('/api/login', { password: PASSWORD }), 400, 'Please enter your email address');
    failsWith(
      await api.post('/api/login', { officialEmail: 'a@example.ng', password: '' }),
      400,
      'Please enter your password',
    );
    failsWith(await api.post('/api/login', { officialEmail: 'a@example.ng' }), 400, 'Please enter your password');
    failsWith(await api.post('/api/forgot-password', { officialEmail: '' }), 400, 'Please enter your email address');
    failsWith(await api.post('/api/resendconfirmemail', { officialEmail: '' }), 400, 'Please enter your email address');

    const email = uniqueEmail('unconfirmed');
    const signup = await api.post('/api/company/signup', {
      companyName: 'Unconfirmed Ltd',
      contactName: 'Ada Obi',
      phoneNumber: '08012345678',
      officialEmail: email,
      officeAddress: '12 Marina, Lagos',
      industry: 'Fintech',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(is2xx(signup)).toMatchObject({ status: 'success', message: 'You have successfully created an account' });
    failsWith(
      await api.post('/api/login', { officialEmail: email, password: PASSWORD }),
      403,
      'Please confirm your email address to log in.',
    );
    expect(is2xx(await api.post('/api/resendconfirmemail', { officialEmail: email })).message).toBe(
      'Confirmation email sent successfully',
    );
  });

  it('company sign-up: the spec’s field texts', async () => {
    const api = client();
    const body = {
      companyName: 'Rules Ltd',
      contactName: 'Ada Obi',
      phoneNumber: '08012345678',
      officialEmail: uniqueEmail('rules'),
      officeAddress: '12 Marina, Lagos',
      industry: 'Fintech',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    };
    failsWith(
      await api.post('/api/company/signup', { ...body, phoneNumber: '0801234567' }),
      400,
      'Please enter a valid 11-digit phone number',
    );
    failsWith(
      await api.post('/api/company/signup', { ...body, password: 'weakpass', passwordConfirm: 'weakpass' }),
      400,
      'Password must have at least 8 characters with one uppercase, one lowercase, one number, and one special character',
    );
    failsWith(
      await api.post('/api/company/signup', { ...body, passwordConfirm: 'Other1!Pass' }),
      400,
      'Passwords do not match',
    );
    const noIndustry = await api.post('/api/company/signup', { ...body, industry: '' });
    expect(noIndustry.status).toBe(400);
    expect(noIndustry.data.message).toMatch(/^Please enter your /);
    // "every field ... must be filled; missing gives Please enter your {label}": the phone number too.
    for (const phoneNumber of ['', '   ', undefined])
      failsWith(
        await api.post('/api/company/signup', { ...body, phoneNumber }),
        400,
        'Please enter your contact phone number',
      );
    const lawyerNoPhone = await api.post('/api/lawyer/signup', {
      name: 'Chidi Okeke',
      officialEmail: uniqueEmail('no-phone'),
      phoneNumber: '',
      areasOfPractise: ['Technology'],
      scn: 'SCN765432',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    failsWith(lawyerNoPhone, 400, 'Please enter your phone number');
  });

  it('password reset: code, then PATCH /api/reset-password with the spec’s query and body', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client();
    expect(is2xx(await api.post('/api/forgot-password', { officialEmail: company.email })).message).toBe(
      'Password reset email sent',
    );
    const code = sixDigits((await lastMailTo(t, company.email))!.text)!;
    const confirmed = is2xx(await api.post('/api/confirm-reset-token', { token: code, officialEmail: company.email }));
    expect(confirmed.message).toBe('OTP Confirmed!');
    const q = `userType=company&userEmail=${encodeURIComponent(company.email)}&token=${confirmed.resetToken}`;
    failsWith(
      await api.patch(`/api/reset-password?${q}`, { password: '', passwordConfirm: '' }),
      400,
      'Please enter your password',
    );
    failsWith(
      await api.patch(`/api/reset-password?${q}`, { password: 'weakpass', passwordConfirm: 'weakpass' }),
      400,
      'Password must contain at least 8 characters with at least one number, one lowercase letter, one uppercase letter, and one special character.',
    );
    failsWith(
      await api.patch(`/api/reset-password?${q}`, { password: 'New1!Password', passwordConfirm: 'New1!Passwor' }),
      400,
      'Passwords do not match',
    );
    const reset = is2xx(
      await api.patch(`/api/reset-password?${q}`, { password: 'New1!Password', passwordConfirm: 'New1!Password' }),
    );
    expect(reset).toMatchObject({ status: 'success', message: 'Password Reset Successfully' });
    const login = is2xx(await api.post('/api/login', { officialEmail: company.email, password: 'New1!Password' }));
    expect(login.status).toBe('success');
    expect(typeof login.token).toBe('string');
    expect(login.data.user).toMatchObject({ _id: company.id, userType: 'company' });
    expect(login.message).toBe('Welcome back');
  });

  it('cart: add, read (products and bill as numbers), remove, clear; an empty cart is not found', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    const a = await insertProduct(t, 'Audit Cart A', 12_500);
    const b = await insertProduct(t, 'Audit Cart B', 40_000);
    const empty = await api.get('/api/cart');
    expect(empty.status).toBe(404);

    const added = is2xx(await api.post('/api/cart', { productId: a, quantity: 2, detail: 'For our Lagos office' }));
    expect(added.message).toBe('You have successfully added to cart');
    is2xx(await api.post('/api/cart', { productId: b, quantity: 1 }));
    failsWith(
      await api.post('/api/cart', { productId: b, quantity: 11 }),
      400,
      'Quantity must be a number from 1 to 10',
    );

    const cart = is2xx(await api.get('/api/cart'));
    expect(Array.isArray(cart)).toBe(true);
    const { products, bill } = cart[0];
    expect(products).toHaveLength(2);
    const lineA = products.find((p: Data) => p.productId === a);
    expect(lineA).toMatchObject({
      productId: a,
      quantity: 2,
      detail: 'For our Lagos office',
      price: 12_500,
      productName: 'Audit Cart A',
    });
    expect(typeof lineA.productImage).toBe('string');
    expect('file' in lineA && 'fileName' in lineA).toBe(true);
    expect(bill).toBe(2 * 12_500 + 40_000);

    expect(is2xx(await api.del(`/api/cart/${a}`)).message).toBe('Product removed from the cart');
    const after = is2xx(await api.get('/api/cart'));
    expect(after[0].products.map((p: Data) => p.productId)).toEqual([b]);
    expect(after[0].bill).toBe(40_000);

    expect(is2xx(await api.post('/api/clear-cart')).message).toBe('Cart cleared successfully');
    expect((await api.get('/api/cart')).status).toBe(404);
    // Checkout with nothing to pay: the spec's client shows the server's message.
    expect((await api.post('/api/checkout')).status).toBe(404);
  });

  it('company jobs: arrays (empty when none), the spec’s job fields, and give more details', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    expect(is2xx(await api.get('/job-api/company/pendingjobs'))).toEqual([]);
    expect(is2xx(await api.get('/job-api/company/completedjobs'))).toEqual([]);

    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const pending = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    const done = await insertJob(t, company.id, { status: 'completed', lawyerId: lawyer.id });
    const open = await insertJob(t, company.id, { status: 'unassigned' });

    const pendingList = is2xx(await api.get('/job-api/company/pendingjobs'));
    expect(pendingList.map((j: Data) => j._id).sort()).toEqual([pending.id, open.id].sort());
    const job = pendingList.find((j: Data) => j._id === pending.id);
    expect(job.status).toBe('pending');
    expect(typeof job.productId.productName).toBe('string');
    expect(typeof job.productId.productPrice).toBe('number');
    expect(typeof job.productId.productDescription).toBe('string');
    for (const k of [
      'companyDetail',
      'companyFile',
      'companyFileName',
      'lawyerRequestedDetail',
      'adminDetail',
      'adminFile',
      'adminFileName',
    ])
      expect(k in job, k).toBe(true);
    expect(typeof job.updatedAt).toBe('string');
    expect(is2xx(await api.get('/job-api/company/completedjobs')).map((j: Data) => j._id)).toEqual([done.id]);

    failsWith(
      await api.put(`/job-api/company/editjobdetails/${pending.id}`, { detail: '' }),
      400,
      'Kindly add/edit details',
    );
    const edited = is2xx(
      await api.put(`/job-api/company/editjobdetails/${pending.id}`, { detail: 'Class 9 and 42, please.' }),
    );
    expect(edited.message).toBe('Edited successfully');
    const again = is2xx(await api.get('/job-api/company/pendingjobs')).find((j: Data) => j._id === pending.id);
    expect(again.companyDetail).toBe('Class 9 and 42, please.');
  });

  it('reviews: create and delete answer the spec’s texts', async () => {
    const company = await signupAndLogin(t, 'company');
    const productId = await insertProduct(t, 'Audit Review Product', 9_000);
    const api = client(company.token);
    const created = is2xx(
      await api.post('/api/rating', { review: 'Clear.', status: 4, reviewTitle: 'Good', productId }),
    );
    expect(created.message).toBe('Review Submitted Successfully');
    expect(typeof created._id).toBe('string');
    const edited = is2xx(
      await api.patch(`/api/rating/${created._id}`, { review: 'Clear!', status: 5, reviewTitle: 'Good', productId }),
    );
    expect(edited.message).toBe('Review Updated Successfully');
    expect(is2xx(await api.del(`/api/rating/${created._id}`)).message).toBe('Review deleted successfully');
    const list = is2xx(await client().get('/ratings-api/rating'));
    expect(list.find((r: Data) => r._id === created._id)).toBeUndefined();
  });

  it('products: admin create, update and delete by multipart with the spec’s texts', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const api = client(admin.token);
    const image = new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' });
    const created = await api.form('POST', '/api/create', {
      productName: 'Audit Product',
      productPrice: '15000',
      productDescription: 'An audited product.',
      productImage: image,
    });
    const c = is2xx(created);
    expect(c.message).toBe('New Product Created');
    const id = c.data.product._id;
    expect(c.data.product.productPrice).toBe(15_000);

    const updated = is2xx(
      await api.form('PUT', `/api/update/${id}`, {
        productName: 'Audit Product 2',
        productPrice: '16000',
        productDescription: 'Still audited.',
      }),
    );
    expect(updated.message).toBe('Product Updated');
    const one = is2xx(await client().get(`/product-api/product/${id}`));
    expect(one).toMatchObject({
      _id: id,
      productName: 'Audit Product 2',
      productPrice: 16_000,
      productDescription: 'Still audited.',
    });
    expect(typeof one.productImage).toBe('string');

    expect(is2xx(await api.del(`/api/delete/${id}`)).message).toBe('Product deleted successfully');
    expect((await client().get(`/product-api/product/${id}`)).status).toBe(404);
  });

  it('profile: the spec’s update text, and another id gets the permission text', async () => {
    const company = await signupAndLogin(t, 'company');
    const other = await signupAndLogin(t, 'company');
    const api = client(company.token);
    const saved = is2xx(await api.form('PATCH', `/api/updateprofile?_id=${company.id}`, { website: 'https://ada.ng' }));
    expect(saved.message).toBe('Profile Updated Successfully');
    expect(saved.company.website).toBe('https://ada.ng');
    failsWith(
      await api.get(`/api/userprofile?_id=${other.id}`),
      403,
      'You do not have permission to view these profile details.',
    );
  });

  it('lawyer jobs: available list, one job, apply (unverified refused with the spec’s text), request details', async () => {
    const company = await signupAndLogin(t, 'company');
    const unverified = await signupAndLogin(t, 'lawyer');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const lapi = client(lawyer.token);
    expect(is2xx(await lapi.get('/job-api/lawyer/pendingjobs'))).toEqual([]);
    expect(is2xx(await lapi.get('/job-api/lawyer/completedjobs'))).toEqual([]);

    const open = await insertJob(t, company.id, { status: 'unassigned' });
    const list = is2xx(await lapi.get('/job-api/jobs'));
    expect(Array.isArray(list)).toBe(true);
    for (const j of list) {
      expect(j.status).toBe('unassigned');
      expect(j.assignedTo).toEqual([]);
    }
    expect(list.map((j: Data) => j._id)).toContain(open.id);

    const one = is2xx(await lapi.get(`/job-api/job/${open.id}?lawyerId=${lawyer.id}`));
    expect(one._id).toBe(open.id);
    expect(typeof one.productId.productName).toBe('string');
    expect(typeof one.amount).toBe('number');

    failsWith(
      await client(unverified.token).post(`/job-api/applyforjob/${open.id}`, { lawyerId: unverified.id }),
      403,
      'Unverified lawyers cannot apply for a job. Kindly contact the provider for further enquiry on verification process',
    );
    expect(is2xx(await lapi.post(`/job-api/applyforjob/${open.id}`, { lawyerId: lawyer.id })).message).toBe(
      'Job applied successfully',
    );

    const mine = await insertJob(t, company.id, { status: 'pending', lawyerId: lawyer.id });
    const pending = is2xx(await lapi.get('/job-api/lawyer/pendingjobs'));
    expect(pending.map((j: Data) => j._id)).toEqual([mine.id]);
    expect(pending[0].assignedTo[0]._id).toBe(lawyer.id);
    failsWith(
      await lapi.post(`/job-api/requestmorejobdetails/${mine.id}`, { detail: '' }),
      400,
      'Kindly request details',
    );
    expect(
      is2xx(await lapi.post(`/job-api/requestmorejobdetails/${mine.id}`, { detail: 'Which classes?' })).message,
    ).toBe('Request sent successfully');
    const seen = is2xx(await client(company.token).get('/job-api/company/pendingjobs')).find(
      (j: Data) => j._id === mine.id,
    );
    expect(seen.lawyerRequestedDetail).toBe('Which classes?');
  });

  it('admin: verify, assign, add details and complete answer the spec’s texts; empty lists', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const api = client(admin.token);

    const verified = is2xx(await api.patch(`/api/verifylawyer/${lawyer.id}`, { verified: true }));
    expect(verified.message).toBe('Verification Successful');
    const unverifiedList = is2xx(await api.get('/api/unverifiedlawyers'));
    expect(unverifiedList.lawyers.map((l: Data) => l._id)).not.toContain(lawyer.id);
    const profile = is2xx(await api.get(`/api/lawyer/${lawyer.id}`)).lawyer;
    expect(profile.verified).toBe(true);
    expect(Array.isArray(profile.areasOfPractise)).toBe(true);

    const job = await insertJob(t, company.id, { status: 'unassigned', appliedBy: [lawyer.id] });
    const unassigned = is2xx(await api.get('/job-api/unassign')).find((j: Data) => j._id === job.id);
    expect(unassigned.appliedLawer.map((l: Data) => l._id)).toEqual([lawyer.id]);
    expect(unassigned.assignedTo).toEqual([]);

    // No lawyer selected: the spec's alert text (sections 5 and 8), not a schema message.
    for (const lawyerId of [undefined, '', '  '])
      failsWith(
        await api.post('/job-api/assign', { jobId: job.id, lawyerId }),
        400,
        'Please select a lawyer to assign the job.',
      );
    failsWith(
      await api.post('/job-api/assign', { jobId: job.id, lawyerId: 'not-an-id' }),
      400,
      'lawyerId must be a valid id',
    );
    const assigned = is2xx(await api.post('/job-api/assign', { jobId: job.id, lawyerId: lawyer.id }));
    expect(assigned.message).toBe('Job assigned successfully');
    const pending = is2xx(await api.get('/job-api/pendingjobs')).find((j: Data) => j._id === job.id);
    expect(pending.status).toBe('pending');
    expect(pending.assignedTo[0].name).toBe('Chidi Okeke');

    const details = is2xx(await api.put(`/job-api/editjobdetails/${job.id}`, { detail: 'Filed on Monday.' }));
    expect(details.message).toBe('Edited successfully');

    const completed = is2xx(await api.put(`/job-api/completejob/${job.id}`));
    expect(completed.message).toBe('Job completed successfully');
    expect(is2xx(await api.get('/job-api/pendingjobs')).map((j: Data) => j._id)).not.toContain(job.id);
    expect(is2xx(await api.get('/job-api/completedjobs')).map((j: Data) => j._id)).toContain(job.id);
  });

  it('admin add details: an empty detail answers the spec’s text, as the company’s own route does', async () => {
    // lawyer-and-admin spec, sections 5 and 8: an empty Send gives 'Kindly add/edit details'. The
    // company's PUT /job-api/company/editjobdetails answers that text; the admin route answered another.
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const job = await insertJob(t, company.id, { status: 'unassigned' });
    const api = client(admin.token);
    failsWith(await api.put(`/job-api/editjobdetails/${job.id}`, { detail: '' }), 400, 'Kindly add/edit details');
    failsWith(await api.put(`/job-api/editjobdetails/${job.id}`, { detail: '   ' }), 400, 'Kindly add/edit details');
    failsWith(await api.put(`/job-api/editjobdetails/${job.id}`, {}), 400, 'Kindly add/edit details');
  });

  it('sign-up keeps the optional fields under the names the spec gives them (cacNumber, firmName)', async () => {
    // Spec (company document, section 5): "every field except cacNumber, firmName and lawFirmAddress must
    // be filled". A client using those names got 201 while the CAC number and firm name were dropped.
    const api = client();
    const companyEmail = uniqueEmail('cac-company');
    is2xx(
      await api.post('/api/company/signup', {
        companyName: 'Cac Number Ltd',
        contactName: 'Ada Obi',
        phoneNumber: '08012345678',
        officialEmail: companyEmail,
        officeAddress: '12 Marina, Lagos',
        industry: 'Fintech',
        cacNumber: 'RC765432',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
      }),
    );
    const lawyerEmail = uniqueEmail('cac-lawyer');
    is2xx(
      await api.post('/api/lawyer/signup', {
        name: 'Chidi Okeke',
        officialEmail: lawyerEmail,
        phoneNumber: '08087654321',
        areasOfPractise: ['Technology'],
        scn: 'SCN765432',
        cacNumber: 'BN112233',
        firmName: 'Okeke & Partners',
        lawFirmAddress: '3 Broad Street, Lagos',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
      }),
    );
    const company = await confirmAndLogin(companyEmail);
    expect(is2xx(await client(company.token).get(`/api/userprofile?_id=${company.id}`)).cac).toBe('RC765432');
    const lawyer = await confirmAndLogin(lawyerEmail);
    const profile = is2xx(await client(lawyer.token).get(`/api/userprofile?_id=${lawyer.id}`));
    expect(profile).toMatchObject({
      cac: 'BN112233',
      lawFirmName: 'Okeke & Partners',
      lawFirmAddress: '3 Broad Street, Lagos',
    });
  });

  it('lawyer payment details: the spec’s texts, OTP as joined digits, mismatched id refused', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    const details = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'GTBank' };
    failsWith(
      await api.post(`/api/add-payment-details?_id=${crypto.randomUUID()}`, details),
      403,
      'Payment addition is unsuccessful.',
    );
    const added = is2xx(await api.post('/api/add-payment-details', details));
    expect(added.message).toMatch(/^You have successfully added payment details/);
    expect(is2xx(await api.post('/api/send-otp')).message).toBe('OTP sent successfully');
    const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    expect(is2xx(await api.post('/api/confirm-otp', { OTP: otp })).message).toBe('OTP confirmed');
    const edited = is2xx(await api.patch('/api/edit-payment-details', { ...details, bank: 'Access Bank' }));
    expect(edited.message).toMatch(/^You have successfully updated your payment details/);
  });
});
