import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertJob } from './admin-fixtures.js';
import { createTestApp, describeEachDb, lastMailTo, signupAndLogin, sixDigits, type TestApp } from './helpers.js';
import { is2xx, specClient, type Data, type Response } from './spec-client-kit.js';
import { pngBytes } from './upload-helpers.js';

/**
 * The lawyer-and-admin call table played once more by a client written only from the spec (decision
 * 2150): what the earlier rounds (spec-client, spec-audit, spec-client-loose-inputs) did not cover.
 * Each test names the spec line it follows. `response.data` is the JSON body.
 */
describeEachDb('the lawyer and admin call table, as a spec client sends and reads it', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);
  const picture = () => new Blob([new Uint8Array(pngBytes(8, 8))], { type: 'image/png' });
  /** The spec's generic handler shows `response.data.message`. */
  const failsWith = (r: Response, status: number, message: string) => {
    expect(r.status, JSON.stringify(r.data)).toBe(status);
    expect(r.data.message).toBe(message);
  };

  it('POST /api/create answers the created product as `product`; PUT /api/update/{id} too', async () => {
    // lawyer-and-admin 7: "Create product | POST /api/create | multipart ... | product"; visitor-and-company
    // 7: "returns created product". Read as the profile update's `lawyer` is (decision 0901): at the top.
    const admin = await signupAndLogin(t, 'admin');
    const api = client(admin.token);
    const created = is2xx(
      await api.form('POST', '/api/create', {
        productName: 'Shapes Product',
        productPrice: '15000',
        productDescription: 'A product the spec client reads.',
        productImage: picture(),
      }),
    );
    expect(created.message).toBe('New Product Created');
    expect(created.product).toMatchObject({
      productName: 'Shapes Product',
      productPrice: 15_000,
      productDescription: 'A product the spec client reads.',
    });
    expect(typeof created.product._id).toBe('string');
    expect(typeof created.product.productImage).toBe('string');
    // Our web app reads `data.product`: kept.
    expect(created.data.product).toEqual(created.product);

    const updated = is2xx(
      await api.form('PUT', `/api/update/${created.product._id}`, {
        productName: 'Shapes Product 2',
        productPrice: '16000',
        productDescription: 'Still read.',
      }),
    );
    expect(updated.message).toBe('Product Updated');
    expect(updated.product).toMatchObject({ _id: created.product._id, productName: 'Shapes Product 2' });
    expect(updated.product.productPrice).toBe(16_000);
  });

  it('GET /job-api/job/{id}?lawyerId=: an admin on the lawyer job page reads the job', async () => {
    // lawyer-and-admin 2: "/lawyer/available-job-item/{jobId} (optional query parameter lawyerId)" and 6:
    // "an admin with a stored token passes every guarded route"; 7: "One job | GET /job-api/job/{id}
    // (lawyer variant takes lawyerId) | job". The admin opening that page sends the lawyer's id.
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const job = await insertJob(t, company.id, { appliedBy: [lawyer.id] });
    const one = is2xx(await client(admin.token).get(`/job-api/job/${job.id}?lawyerId=${lawyer.id}`));
    expect(one._id).toBe(job.id);
    expect(one.appliedLawer.map((l: Data) => l._id)).toEqual([lawyer.id]);
    // A lawyer still reads only as itself, and a bad id is still named.
    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await client(other.token).get(`/job-api/job/${job.id}?lawyerId=${lawyer.id}`)).status).toBe(403);
    const bad = await client(admin.token).get(`/job-api/job/${job.id}?lawyerId=not-an-id`);
    expect(bad.status).toBe(400);
    expect(bad.data.message).toBe('lawyerId must be a valid id');
  });

  it('the optional lawyerId left empty (``, `null`, `undefined`) is not sent: one job, apply', async () => {
    // lawyer-and-admin 2: the job page's lawyerId is optional; a client that builds
    // `/job-api/job/{id}?lawyerId=${lawyerId}` from a page without it sends `null` or `undefined`, and
    // 7: "Apply for job | POST /job-api/applyforjob/{id} | lawyerId" sends `{ lawyerId: null }`.
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    const job = await insertJob(t, company.id);
    for (const lawyerId of ['', 'null', 'undefined', '%20'])
      expect(is2xx(await api.get(`/job-api/job/${job.id}?lawyerId=${lawyerId}`))._id, lawyerId).toBe(job.id);
    for (const lawyerId of [null, '', 'null', 'undefined'])
      expect(is2xx(await api.post(`/job-api/applyforjob/${job.id}`, { lawyerId })).message, String(lawyerId)).toBe(
        'Job applied successfully',
      );
    const applied = is2xx(await api.get(`/job-api/job/${job.id}`));
    expect(applied.applied).toBe(true);
    // Another lawyer's id is still refused.
    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await api.post(`/job-api/applyforjob/${job.id}`, { lawyerId: other.id })).status).toBe(403);
  });

  it('PATCH /api/updateprofile: `profileImage` always sent, without a new picture it keeps the saved one', async () => {
    // lawyer-and-admin 5: "Lawyer profile save: sends only non-empty fields among ... and always
    // profileImage". Without a new picture a client appends what it holds: nothing (null, undefined)
    // or the loaded profile's `profileImage` object (section 3: "profileImage (with url)"), which a
    // FormData sends as "[object Object]". Each answered 400, so the form saved nothing at all.
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    const first = is2xx(await api.form('PATCH', `/api/updateprofile?_id=${lawyer.id}`, { profileImage: picture() }));
    const url = first.lawyer.profileImage.url;
    expect(url).toMatch(/^\/uploads\//);
    for (const profileImage of ['null', 'undefined', '[object Object]', '']) {
      const saved = is2xx(
        await api.patchForm(`/api/updateprofile?_id=${lawyer.id}`, {
          yourBio: `Bio ${profileImage || 'empty'}`,
          profileImage,
        }),
      );
      expect(saved.message).toBe('Profile Updated Successfully');
      expect(saved.lawyer.yourBio).toBe(`Bio ${profileImage || 'empty'}`);
      expect(saved.lawyer.profileImage, profileImage).toEqual({ url });
    }
    // The saved picture's own URL keeps it too; any other text is still refused.
    expect(
      is2xx(await api.patchForm(`/api/updateprofile?_id=${lawyer.id}`, { profileImage: url })).lawyer.profileImage,
    ).toEqual({ url });
    const refused = await api.patchForm(`/api/updateprofile?_id=${lawyer.id}`, { profileImage: 'my-picture.png' });
    expect(refused.status).toBe(400);
    expect(refused.data.message).toBe('The profile picture must be a PNG, JPEG or WebP image');

    // The company's form reads the same field the same way.
    const company = await signupAndLogin(t, 'company');
    const saved = is2xx(
      await client(company.token).patchForm(`/api/updateprofile?_id=${company.id}`, {
        website: 'https://ada.ng',
        profileImage: 'null',
      }),
    );
    expect(saved.company).toMatchObject({ website: 'https://ada.ng', profileImage: null });
  });

  it('payment details: the account number sent as a JSON number, its leading zero lost', async () => {
    // lawyer-and-admin 7: "Add payment details | POST /api/add-payment-details | accountNumber, accountName,
    // bank" and "Edit payment details | same fields". The type is not shown; a client with a number input
    // sends 123456789 for the account 0123456789. Both answered 400 "Please enter a 10-digit account number".
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    const added = is2xx(
      await api.post('/api/add-payment-details', {
        accountNumber: 123456789,
        accountName: 'Chidi Okeke',
        bank: 'GTBank',
      }),
    );
    expect(added.message).toBe('You have successfully added payment details');
    expect(added.lawyer.accountDetails[0].accountNumber).toBe('0123456789');
    is2xx(await api.post('/api/send-otp'));
    const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    expect(is2xx(await api.post('/api/confirm-otp', { OTP: otp })).message).toBe('OTP confirmed');
    const edited = is2xx(
      await api.patch('/api/edit-payment-details', {
        accountNumber: 1234567890,
        accountName: 'Chidi Okeke',
        bank: 'GTBank',
      }),
    );
    expect(edited.message).toMatch(/^You have successfully updated your payment details/);
    expect(edited.lawyerUpdate.accountDetails[0].accountNumber).toBe('1234567890');
    expect(is2xx(await api.get('/api/get-payment-details')).lawyer.accountDetails[0].accountNumber).toBe('1234567890');
    // A number that is no NUBAN is still refused with the rule.
    const other = client((await signupAndLogin(t, 'lawyer', { verified: true })).token);
    for (const accountNumber of [12_345_678_901, 12.5, -123456789])
      failsWith(
        await other.post('/api/add-payment-details', { accountNumber, accountName: 'Chidi Okeke', bank: 'GTBank' }),
        400,
        'Please enter a 10-digit account number',
      );
  });

  it('POST /api/confirm-otp: the joined digits under `code` or `token`', async () => {
    // lawyer-and-admin 7: "Confirm code | POST /api/confirm-otp | OTP as joined digits" names no field.
    // `otp` and `OTP` are read (2234); the screen calls it a one-time code, and the reset's confirm call
    // sends its code as `token`. Both answered 400 "Please enter the 6-digit code".
    for (const field of ['code', 'token']) {
      const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
      const api = client(lawyer.token);
      is2xx(
        await api.post('/api/add-payment-details', {
          accountNumber: '0123456789',
          accountName: 'Chidi Okeke',
          bank: 'GTBank',
        }),
      );
      is2xx(await api.post('/api/send-otp'));
      const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
      const wrong = otp === '000000' ? '000001' : '000000';
      failsWith(
        await api.post('/api/confirm-otp', { [field]: wrong }),
        400,
        'The code is incorrect or has expired. Please request a new one.',
      );
      expect(is2xx(await api.post('/api/confirm-otp', { [field]: otp })).message, field).toBe('OTP confirmed');
      is2xx(
        await api.patch('/api/edit-payment-details', {
          accountNumber: '0123456780',
          accountName: 'Chidi Okeke',
          bank: 'GTBank',
        }),
      );
    }
    // No code under any name still names the field.
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    failsWith(
      await client(lawyer.token).post('/api/confirm-otp', { pin: '123456' }),
      400,
      'Please enter the 6-digit code',
    );
  });

  it('GET /job-api/jobs: the sort option under `sortOption` or `sortBy`, and `-createdAt` for Recent jobs', async () => {
    // lawyer-and-admin 7: "Available jobs | GET /job-api/jobs | sort option Best fit or Recent jobs (how sent:
    // not shown)"; 4: "Recent jobs (createdAt descending)". `sort` is read (2110); the row's own words make
    // `sortOption`, and the Express back end's sort strings make `-createdAt`. Each came back in Best fit
    // order, or 400 "sort must be bestfit or recent".
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    // Best fit puts the job waiting longest first; Recent jobs the newest.
    const older = await insertJob(t, company.id, { createdAt: new Date(t.clock.now().getTime() - 86_400_000) });
    const newer = await insertJob(t, company.id);
    const ids = (r: Response) =>
      (is2xx(r) as Data[]).map((j) => j._id).filter((id) => [older.id, newer.id].includes(id));
    expect(ids(await api.get('/job-api/jobs'))).toEqual([older.id, newer.id]);
    for (const q of [
      'sortOption=Recent%20jobs',
      'sortBy=Recent%20jobs',
      'sortOption=recent',
      'sort=-createdAt',
      'sort=createdAt',
      'sortBy=-createdAt',
    ])
      expect(ids(await api.get(`/job-api/jobs?${q}`)), q).toEqual([newer.id, older.id]);
    expect(ids(await api.get('/job-api/jobs?sortOption=Best%20fit'))).toEqual([older.id, newer.id]);
    // `sort` wins when both are sent; an unknown value under the other names is named.
    expect(ids(await api.get('/job-api/jobs?sort=bestfit&sortOption=recent'))).toEqual([older.id, newer.id]);
    failsWith(await api.get('/job-api/jobs?sortOption=cheapest'), 400, 'sortOption must be bestfit or recent');
  });

  it('POST /job-api/assign: the single selection sent as a list of one lawyer', async () => {
    // lawyer-and-admin 2: "a select checkbox (single selection)" and 7: "Assign job | jobId, lawyerId (shape
    // not visible in one view)". A client that keeps the checked rows sends `lawyerId: [id]`. That answered
    // 400 "lawyerId must be a valid id".
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(admin.token);
    const job = await insertJob(t, company.id, { appliedBy: [lawyer.id] });
    // No row checked is the spec's alert; two rows is named.
    failsWith(
      await api.post('/job-api/assign', { jobId: job.id, lawyerId: [] }),
      400,
      'Please select a lawyer to assign the job.',
    );
    const other = await signupAndLogin(t, 'lawyer', { verified: true });
    failsWith(
      await api.post('/job-api/assign', { jobId: job.id, lawyerId: [lawyer.id, other.id] }),
      400,
      'Please select one lawyer: a job is assigned to one lawyer.',
    );
    failsWith(
      await api.post('/job-api/assign', { jobId: job.id, lawyerId: ['x'] }),
      400,
      'lawyerId must be a valid id',
    );
    const assigned = is2xx(await api.post('/job-api/assign', { jobId: job.id, lawyerId: [lawyer.id] }));
    expect(assigned.message).toBe('Job assigned successfully');
    const pending = is2xx(await api.get('/job-api/pendingjobs')) as Data[];
    expect(pending.find((j) => j._id === job.id)?.assignedTo.map((l: Data) => l._id)).toEqual([lawyer.id]);
  });
});
