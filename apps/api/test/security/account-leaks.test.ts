import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox, users } from '../../src/db/schema.js';
import { insertJob, insertProduct } from '../admin-fixtures.js';
import { PASSWORD, createTestApp, describeEachDb, signupAndLogin, type TestApp } from '../helpers.js';
import { multipart } from '../upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * What one account's answers carry of another's (decision 2238): an attacker's pass over the routes
 * with every role, ids of someone else's and fields the authorization matrix does not look for (phone
 * numbers, alternative e-mails, the lawyer's own contacts).
 */
describeEachDb('data one account reads of another', (kind) => {
  let t: TestApp;
  let company: Login;
  let lawyer: Login;
  let unverified: Login;
  let admin: Login;
  let jobId: string;
  let openJobId: string;
  const LAWYER_PHONE = '08033333333';

  const get = (url: string, who: Login) => t.app.inject({ method: 'GET', url, headers: who.headers });

  beforeAll(async () => {
    t = await createTestApp(kind, { IP_MAX_REQUESTS: '100000' });
    [company, lawyer, unverified, admin] = await Promise.all([
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
      signupAndLogin(t, 'lawyer'),
      signupAndLogin(t, 'admin'),
    ]);
    await t.rt.database.db.update(users).set({ companyName: 'Zenith Holdings Ltd' }).where(eq(users.id, company.id));
    await t.rt.database.db.update(users).set({ phoneNumber: LAWYER_PHONE }).where(eq(users.id, lawyer.id));
    const product = await insertProduct(t, 'Employment Contract Review');
    jobId = (await insertJob(t, company.id, { productId: product.id })).id;
    openJobId = (await insertJob(t, company.id, { productId: product.id })).id;
    expect(
      (await t.app.inject({ method: 'POST', url: `/job-api/applyforjob/${jobId}`, headers: lawyer.headers }))
        .statusCode,
    ).toBe(200);
    const assigned = await t.app.inject({
      method: 'POST',
      url: '/job-api/assign',
      headers: admin.headers,
      payload: { jobId, lawyerId: lawyer.id },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  // The spec's company job lists no lawyer's contact (visitor-and-company section 3) and the web shows
  // the lawyer's name only; the lawyer's own e-mail and phone went to every company it was assigned to.
  it("names a job's lawyer to its company without the lawyer's e-mail or phone", async () => {
    const answers = [
      await get('/job-api/company/pendingjobs', company),
      await get(`/job-api/job/${jobId}`, company),
      await get(`/job-api/jobs/${jobId}`, company),
      await t.app.inject({
        method: 'POST',
        url: `/job-api/jobs/${jobId}/actions/message`,
        headers: company.headers,
        payload: { note: 'When can we talk?' },
      }),
      await t.app.inject({
        method: 'PUT',
        url: `/job-api/company/editjobdetails/${jobId}`,
        headers: company.headers,
        payload: { detail: 'The contract is attached to the order.' },
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain('Chidi Okeke');
      expect(res.body).not.toContain(lawyer.email);
      expect(res.body).not.toContain(LAWYER_PHONE);
    }
    const listed = answers[0].json().find((j: { _id: string }) => j._id === jobId);
    expect(listed.assignedTo).toEqual([{ _id: lawyer.id, name: 'Chidi Okeke', officialEmail: '', phoneNumber: '' }]);
    // The lawyer reads its own contact, and the admin every one.
    for (const who of [lawyer, admin]) {
      const page = await get(`/job-api/jobs/${jobId}`, who);
      expect(page.json().job.assignedTo[0]).toMatchObject({ officialEmail: lawyer.email, phoneNumber: LAWYER_PHONE });
    }
    const projects = await get('/job-api/lawyer/pendingjobs', lawyer);
    expect(projects.json()[0].assignedTo[0].officialEmail).toBe(lawyer.email);
  });

  // Decision 0860 keeps an open job's brief from unverified lawyers (anyone who signs up as a lawyer):
  // "product and amount" is what they may know. Which company bought the service came with it, by name
  // and by id (the id names the company on every product review).
  it('shows an unverified lawyer an open job without which company bought it; a verified lawyer still sees it', async () => {
    for (const url of ['/job-api/jobs', '/job-api/jobs?sort=recent', `/job-api/job/${openJobId}`]) {
      const res = await get(url, unverified);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain('Employment Contract Review');
      expect(res.body).not.toContain('Zenith Holdings');
      expect(res.body).not.toContain(company.id);
      const job = Array.isArray(res.json()) ? res.json().find((j: { _id: string }) => j._id === openJobId) : res.json();
      expect(job.companyId).toEqual({ _id: '', companyName: '', officialEmail: '', phoneNumber: '' });
      expect(job.briefWithheld).toBe(true);
    }
    const verified = await get(`/job-api/job/${openJobId}`, lawyer);
    expect(verified.json().companyId).toEqual({
      _id: company.id,
      companyName: 'Zenith Holdings Ltd',
      officialEmail: '',
      phoneNumber: '',
    });
  });

  // The response cache keeps the busiest reads per route, user, verification state, query and params:
  // two readers of one URL, back to back and again, each get their own answer, and a query naming
  // another company changes nothing.
  it('answers two readers of one cached URL each their own, back to back', async () => {
    const other = await signupAndLogin(t, 'company');
    const mine = (who: Login) => get(`/job-api/company/pendingjobs?companyId=${company.id}`, who);
    for (let round = 0; round < 2; round++) {
      const [a, b] = [await mine(company), await mine(other)];
      expect(
        a
          .json()
          .map((j: { _id: string }) => j._id)
          .sort(),
      ).toEqual([jobId, openJobId].sort());
      expect(b.json()).toEqual([]);
      expect(b.body).not.toContain('Zenith Holdings');
    }
    for (let round = 0; round < 2; round++) {
      const [v, u] = [await get('/job-api/jobs', lawyer), await get('/job-api/jobs', unverified)];
      expect(v.body).toContain('Zenith Holdings');
      expect(u.body).not.toContain('Zenith Holdings');
    }
    const [pageA, pageB] = [await get(`/job-api/jobs/${jobId}`, company), await get(`/job-api/jobs/${jobId}`, other)];
    expect(pageA.statusCode).toBe(200);
    expect(pageB.statusCode).toBe(403);
    expect(pageB.body).not.toContain('Employment Contract Review');
  });

  // Erasure took the outbox's mails to the account's alternative e-mail too: a field typed on the
  // profile, never confirmed nor mailed, so a company could name another account's inbox there and
  // wipe that account's mails (a reset code on its way, receipts) by deleting itself.
  it("leaves another account's mails alone when an account naming its address is erased", async () => {
    const victim = await signupAndLogin(t, 'company');
    const eraser = await signupAndLogin(t, 'company');
    const body = await multipart([{ name: 'alternativeEmailAddress', value: victim.email }]);
    const named = await t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${eraser.id}`,
      headers: { ...eraser.headers, ...body.headers },
      payload: body.payload,
    });
    expect(named.statusCode, named.body).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { officialEmail: victim.email },
    });
    expect(reset.statusCode).toBe(200);
    const mailsOf = async (to: string) =>
      (await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to))).length;
    const before = await mailsOf(victim.email);
    expect(before).toBeGreaterThan(1); // its confirmation and the reset code
    const erased = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: eraser.headers,
      payload: { password: PASSWORD },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await mailsOf(victim.email)).toBe(before);
    expect(await mailsOf(eraser.email)).toBe(0);
  });

  // A review's jobId is null to anyone but the job's parties; asking for one job's review by its id
  // answered it all the same, tying the job to its lawyer, company and stars for whoever had seen the
  // job's id (every verified lawyer, while it was open).
  it("finds no review by a job's id for anyone but that job's parties", async () => {
    const done = await insertJob(t, company.id, { status: 'completed', lawyerId: lawyer.id });
    const written = await t.app.inject({
      method: 'POST',
      url: '/api/lawyer-reviews',
      headers: company.headers,
      payload: { jobId: done.id, stars: 4, reviewTitle: 'Quick', review: 'Answered within the day.' },
    });
    expect(written.statusCode, written.body).toBe(201);
    const rival = await signupAndLogin(t, 'lawyer', { verified: true });
    const other = await signupAndLogin(t, 'company');
    const byJob = (who: Login) => get(`/api/lawyers/${lawyer.id}/reviews?jobId=${done.id}`, who);
    for (const who of [rival, other]) {
      const res = await byJob(who);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.reviews).toEqual([]);
      // The lawyer's summary and its reviews stay public, without the job's id.
      const all = (await get(`/api/lawyers/${lawyer.id}/reviews`, who)).json().data;
      expect(all.count).toBe(1);
      expect(all.reviews[0].jobId).toBeNull();
    }
    for (const who of [company, lawyer, admin])
      expect((await byJob(who)).json().data.reviews.map((r: { jobId: string }) => r.jobId)).toEqual([done.id]);
  });
  // Last: its expiry case moves the clock past every token's lifetime.
  // A cached answer is only ever sent after the session check: a token ended by logout, erasure or its
  // expiry gets 401, never the copy its owner read a moment before.
  it('answers 401, not the cached copy, to a token ended by logout, erasure or expiry', async () => {
    for (const end of ['logout', 'erasure', 'expiry'] as const) {
      const who = await signupAndLogin(t, 'company');
      for (let i = 0; i < 2; i++) expect((await get('/job-api/company/pendingjobs', who)).statusCode).toBe(200);
      expect((await get('/api/notifications', who)).statusCode).toBe(200);
      if (end === 'expiry')
        t.clock.advance(12 * 3_600_000 + 1000); // TOKEN_TTL_HOURS, the default
      else {
        const ended = await t.app.inject({
          method: 'POST',
          url: end === 'logout' ? '/api/logout' : '/api/account/delete',
          headers: who.headers,
          payload: end === 'logout' ? {} : { password: PASSWORD },
        });
        expect(ended.statusCode, ended.body).toBe(200);
      }
      for (const url of ['/job-api/company/pendingjobs', '/api/notifications', `/api/userprofile?_id=${who.id}`])
        expect((await get(url, who)).statusCode, `${end} ${url}`).toBe(401);
    }
  });
});
