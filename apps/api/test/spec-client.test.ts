import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIST_LIMIT_MAX } from '@legalmarket/contracts';
import { insertJob, insertUsers } from './admin-fixtures.js';
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
import { is2xx, specClient, type Data } from './spec-client-kit.js';

/**
 * The spec's call table played by a client written only from the spec (issue 14): JSON headers, the
 * bearer token when it has one, and `response.data` is the JSON body. Each call checks exactly what
 * the table says the client reads; nothing else of our answers is assumed.
 */
describeEachDb("the spec's call table, as a client written to it reads it", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const client = (userToken?: string) => specClient(t.app, userToken);

  /** Company sign-up with `name` (spec section 3: "companyName or name"), confirmation, login. */
  async function companyFromTheSpec(name: string) {
    const email = uniqueEmail('spec-company');
    const signup = await client().post('/api/company/signup', {
      name,
      contactName: 'Ada Obi',
      phoneNumber: '08012345678',
      officialEmail: email,
      officeAddress: '12 Marina, Lagos',
      industry: 'Fintech',
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(is2xx(signup).status).toBe('success');
    const confirm = await client().post('/api/confirm-email', { token: linkToken((await lastMailTo(t, email))!.text) });
    is2xx(confirm);
    const login = is2xx(await client().post('/api/login', { officialEmail: email, password: PASSWORD }));
    return { id: login.data.user._id as string, token: login.token as string };
  }

  it('POST /api/company/signup takes `name` for the company name', async () => {
    const company = await companyFromTheSpec('Name Only Ventures');
    const profile = is2xx(await client(company.token).get(`/api/userprofile?_id=${company.id}`));
    expect(profile.companyName).toBe('Name Only Ventures');
  });

  it('GET /product-api/products and /product-api/product/{id}: `products` at the top, the product itself', async () => {
    const id = await insertProduct(t, 'Spec Client Trademark', 25_000);
    const list = is2xx(await client().get('/product-api/products'));
    expect(Array.isArray(list.products)).toBe(true);
    expect(list.products.find((p: Data) => p._id === id)).toMatchObject({ _id: id, productPrice: 25_000 });

    const one = is2xx(await client().get(`/product-api/product/${id}`));
    expect(one._id).toBe(id);
    expect(one.productPrice).toBe(25_000);
    expect(one.productName).toBe('Spec Client Trademark');
  });

  it('GET /api/userprofile and PATCH /api/updateprofile: the profile itself; `company` / `lawyer` at the top', async () => {
    const company = await companyFromTheSpec('Profile Ventures');
    const profile = is2xx(await client(company.token).get(`/api/userprofile?_id=${company.id}`));
    // Spec section 6: the lookup succeeds only if the returned id equals the requested id.
    expect(profile._id).toBe(company.id);

    const saved = is2xx(
      await client(company.token).patchForm(`/api/updateprofile?_id=${company.id}`, { yourBio: 'We sell rails.' }),
    );
    expect(saved.company._id).toBe(company.id);
    expect(saved.company.yourBio).toBe('We sell rails.');

    const lawyer = await signupAndLogin(t, 'lawyer');
    expect(is2xx(await client(lawyer.token).get(`/api/userprofile?_id=${lawyer.id}`))._id).toBe(lawyer.id);
    const lawyerSaved = is2xx(
      await client(lawyer.token).patchForm(`/api/updateprofile?_id=${lawyer.id}`, { yearOfCall: '2015' }),
    );
    expect(lawyerSaved.lawyer._id).toBe(lawyer.id);
    expect(lawyerSaved.lawyer.yearOfCall).toBe('2015');
  });

  it('GET /ratings-api/rating is an array; POST and PATCH /api/rating answer the review itself', async () => {
    const productId = await insertProduct(t, 'Spec Client Review Product', 10_000);
    const company = await companyFromTheSpec('Reviewing Ventures');
    const api = client(company.token);
    const created = is2xx(
      await api.post('/api/rating', { review: 'Fast and clear.', status: 5, reviewTitle: 'Great', productId }),
    );
    expect(created.companyId).toEqual({ _id: company.id, companyName: 'Reviewing Ventures' });
    expect(created.reviewTitle).toBe('Great');
    expect(created.status).toBe(5);

    const edited = is2xx(
      await api.patch(`/api/rating/${created._id}`, {
        review: 'Fast.',
        status: 4,
        reviewTitle: 'Good',
        productId,
      }),
    );
    expect(edited._id).toBe(created._id);
    expect(edited.companyId.companyName).toBe('Reviewing Ventures');
    expect(edited.status).toBe(4);

    const reviews = is2xx(await client().get('/ratings-api/rating'));
    expect(Array.isArray(reviews)).toBe(true);
    const mine = reviews.find((r: Data) => r._id === created._id);
    expect(mine).toMatchObject({ _id: created._id, reviewTitle: 'Good', review: 'Fast.', status: 4, productId });
    expect(mine.companyId).toEqual({ _id: company.id, companyName: 'Reviewing Ventures' });
    expect(typeof mine.date).toBe('string');
    for (const r of reviews) expect(Object.keys(r.companyId).sort()).toEqual(['_id', 'companyName']);
  });

  it('admin job lists: an array of jobs, the whole list without paging; the paged form with `page`', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const ids: Record<string, string[]> = { unassigned: [], pending: [], completed: [] };
    for (const status of ['unassigned', 'pending', 'completed'] as const)
      for (let i = 0; i < 7; i++)
        ids[status].push((await insertJob(t, company.id, { status, lawyerId: lawyer.id })).id);
    const api = client(admin.token);
    for (const [url, status] of [
      ['/job-api/unassign', 'unassigned'],
      ['/job-api/pendingjobs', 'pending'],
      ['/job-api/completedjobs', 'completed'],
    ] as const) {
      const jobs = is2xx(await api.get(url));
      expect(Array.isArray(jobs), url).toBe(true);
      // More than the admin pages' 5: without paging parameters the list is whole (up to the cap).
      for (const id of ids[status]) expect(jobs.map((j: Data) => j._id)).toContain(id);
      for (const j of jobs) expect(j.status).toBe(status);

      const page = is2xx(await api.get(`${url}?page=2&limit=5`));
      expect(page).toMatchObject({ status: 'success', page: 2, limit: 5 });
      expect(page.total).toBe(jobs.length);
      expect(page.jobs).toEqual(jobs.slice(5, 10));
    }
    expect((await api.get(`/job-api/unassign?limit=${LIST_LIMIT_MAX + 1}`)).status).toBe(400);
    expect(is2xx(await api.get('/job-api/unassign?limit=2'))).toHaveLength(2);
  });

  it('lawyer lists (open jobs, projects): the whole list without `page`, a page with it', async () => {
    // The lawyer table's rows answer "list"; a client written to it sends no paging and must see every
    // job, as it does for the admin lists (decision 0901). Before, the open jobs stopped at 20 and the
    // projects at 50.
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const productId = await insertProduct(t, 'Spec Client Lawyer Lists', 10_000);
    const open: string[] = [];
    for (let i = 0; i < 23; i++) open.push((await insertJob(t, company.id, { productId })).id);
    const pending: string[] = [];
    for (let i = 0; i < 52; i++)
      pending.push((await insertJob(t, company.id, { productId, status: 'pending', lawyerId: lawyer.id })).id);
    const api = client(lawyer.token);

    for (const sort of ['', '?sort=bestfit', '?sort=recent']) {
      const jobs = is2xx(await api.get(`/job-api/jobs${sort}`));
      expect(Array.isArray(jobs)).toBe(true);
      for (const id of open)
        expect(
          jobs.map((j: Data) => j._id),
          sort,
        ).toContain(id);
    }
    const projects = is2xx(await api.get('/job-api/lawyer/pendingjobs'));
    expect(projects.map((j: Data) => j._id).sort()).toEqual([...pending].sort());

    // With `page`, the pages the web app reads (20 open jobs, 50 projects unless `limit` says otherwise).
    expect(is2xx(await api.get('/job-api/jobs?page=1'))).toHaveLength(20);
    expect(is2xx(await api.get('/job-api/lawyer/pendingjobs?page=1'))).toHaveLength(50);
    const second = is2xx(await api.get('/job-api/lawyer/pendingjobs?page=2&limit=5'));
    expect(second.map((j: Data) => j._id)).toEqual(projects.slice(5, 10).map((j: Data) => j._id));
    expect((await api.get('/job-api/jobs?page=1&limit=51')).status).toBe(400);
    expect(is2xx(await api.get('/job-api/jobs?limit=3'))).toHaveLength(3);
    expect((await api.get(`/job-api/jobs?limit=${LIST_LIMIT_MAX + 1}`)).status).toBe(400);
  });

  it('GET /api/companys, /api/(un)verifiedlawyers, /api/lawyer/{id}, /api/company/{id}: keys at the top', async () => {
    const admin = await signupAndLogin(t, 'admin');
    await insertUsers(t, 'company', 7);
    await insertUsers(t, 'lawyer', 7, { verified: true });
    await insertUsers(t, 'lawyer', 7, { verified: false });
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const api = client(admin.token);

    const companies = is2xx(await api.get('/api/companys'));
    expect(Array.isArray(companies.company)).toBe(true);
    expect(companies.company.length).toBeGreaterThan(7);
    expect(companies.company.map((c: Data) => c._id)).toContain(company.id);
    const verified = is2xx(await api.get('/api/verifiedlawyers'));
    expect(Array.isArray(verified.lawyers)).toBe(true);
    expect(verified.lawyers.length).toBeGreaterThanOrEqual(7);
    for (const l of verified.lawyers) expect(l.verified).toBe(true);
    const unverified = is2xx(await api.get('/api/unverifiedlawyers'));
    expect(unverified.lawyers.map((l: Data) => l._id)).toContain(lawyer.id);
    for (const l of unverified.lawyers) expect(l.verified).toBe(false);

    const paged = is2xx(await api.get('/api/companys?page=1&limit=5'));
    expect(paged.company).toHaveLength(5);
    expect(paged.total).toBe(companies.company.length);

    expect(is2xx(await api.get(`/api/lawyer/${lawyer.id}`)).lawyer._id).toBe(lawyer.id);
    expect(is2xx(await api.get(`/api/company/${company.id}`)).company._id).toBe(company.id);
  });

  it('payment details: `lawyer` / `lawyerUpdate` at the top, and the bank typed as the spec’s client does', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const api = client(lawyer.token);
    const none = is2xx(await api.get('/api/get-payment-details'));
    expect(none.lawyer._id).toBe(lawyer.id);
    expect(none.lawyer.accountDetails).toEqual([]);

    const added = is2xx(
      await api.post('/api/add-payment-details', {
        accountNumber: '0123456789',
        accountName: 'Chidi Okeke',
        bank: 'GTBank',
      }),
    );
    expect(added.lawyer._id).toBe(lawyer.id);
    expect(added.lawyer.accountDetails).toEqual([
      // The bank's own name for the account is saved (the sandbox bank holds 0123456789 as CHIDI OKEKE).
      { accountNumber: '0123456789', accountName: 'CHIDI OKEKE', bank: 'Guaranty Trust Bank (GTBank)' },
    ]);
    const read = is2xx(await api.get('/api/get-payment-details'));
    expect(read.lawyer._id).toBe(lawyer.id);
    expect(read.lawyer.accountDetails).toEqual(added.lawyer.accountDetails);

    is2xx(await api.post('/api/send-otp'));
    const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    is2xx(await api.post('/api/confirm-otp', { OTP: otp }));
    const edited = is2xx(
      await api.patch('/api/edit-payment-details', {
        accountNumber: '9876543219',
        accountName: 'Chidi Okeke',
        bank: 'access',
      }),
    );
    expect(edited.lawyerUpdate.accountDetails).toEqual([
      { accountNumber: '9876543219', accountName: 'CHIDI OKEKE', bank: 'Access Bank' },
    ]);

    const other = await signupAndLogin(t, 'lawyer');
    for (const bank of ['gtbank', 'Guaranty Trust Bank', 'Zenith', 'UBA', 'First Bank']) {
      const res = await client(other.token).post('/api/add-payment-details', {
        accountNumber: '1111111111',
        accountName: 'Ngozi Eze',
        bank,
      });
      // The first is saved; the same bank again is the same details (2xx), another bank a change (409).
      expect([200, 201, 409], `${bank}: ${JSON.stringify(res.data)}`).toContain(res.status);
    }
    const refused = await client(other.token).post('/api/add-payment-details', {
      accountNumber: '1111111111',
      accountName: 'Ngozi Eze',
      bank: 'Bank of Atlantis',
    });
    expect(refused.status).toBe(400);
  });

  it('POST /api/logout answers 2xx also when the session is already gone', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = client(company.token);
    expect(is2xx(await api.post('/api/logout')).status).toBe('success');
    expect((await api.get(`/api/userprofile?_id=${company.id}`)).status).toBe(401);
    expect(is2xx(await api.post('/api/logout')).status).toBe('success');
    expect(is2xx(await client().post('/api/logout')).status).toBe('success');
    expect(is2xx(await client('not-a-token').post('/api/logout')).status).toBe('success');
  });
});
