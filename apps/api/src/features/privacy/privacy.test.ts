import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { Secret, TOTP } from 'otpauth';
import { TERMS_VERSION, privacyMessages } from '@legalmarket/contracts';
import {
  auditLog,
  cartItems,
  jobs,
  lawyerReviews,
  orders,
  payoutDetails,
  sessions,
  subscriptions,
  twoFactor,
  twoFactorRecoveryCodes,
  uploads,
  users,
} from '../../db/schema.js';
import {
  PASSWORD,
  companyBody,
  createTestApp,
  describeEachDb,
  lastMailTo,
  lawyerBody,
  linkToken,
  signupAndLogin,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js';
import { buyOne, insertPlan, insertProduct } from '../../../test/commerce-helpers.js';
import { pdfBytes, pngBytes, uploadAs } from '../../../test/upload-helpers.js';
import { createLedger } from '../money/ledger.js';
import { pdfText } from '../../../test/document-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('data protection: export and account deletion (NDPA 2023)', (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;
  let ledger: ReturnType<typeof createLedger>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    // A second admin, so an admin may delete its account (the only admin may not).
    await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Trademark Registration', 50_000);
    ledger = createLedger({ db: t.rt.database.db, clock: t.clock });
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await ledger.audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const inject = (method: 'GET' | 'POST', url: string, who: Login | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });
  const del = (who: Login, password = PASSWORD) => inject('POST', '/api/account/delete', who, { password });

  const upload = (who: Login, kindOf: 'image' | 'document', data: Buffer, filename: string) =>
    uploadAs(t.app, who.headers, kindOf, data, filename);

  async function pay(company: Login) {
    const { orderId } = await buyOne(t, company, product);
    const [job] = await db().select().from(jobs).where(eq(jobs.orderId, orderId));
    return { orderId, job };
  }

  async function exportOf(who: Login, query = '') {
    const res = await inject('GET', `/api/account/export${query}`, who);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="legalmarket-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    return unzipSync(new Uint8Array(res.rawPayload));
  }
  const jsonIn = (zip: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(zip[name]));

  /** A company and a verified lawyer sharing a completed job with messages and files from both. */
  async function sharedCompletedJob() {
    const company = await signupAndLogin(t, 'company');
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const { orderId, job } = await pay(company);
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    const brief = await upload(company, 'document', pdfBytes('COMPANY-BRIEF-BYTES'), 'our-brief.pdf');
    const draft = await upload(lawyer, 'document', pdfBytes('LAWYER-DRAFT-BYTES'), 'draft.pdf');
    const said = (who: Login, note: string, file: { url: string; name: string }) =>
      inject('POST', `/job-api/jobs/${job.id}/actions/message`, who, { note, files: [file] });
    expect((await said(company, 'COMPANY-MESSAGE please see the brief', brief)).statusCode).toBe(200);
    expect((await said(lawyer, 'LAWYER-MESSAGE here is a draft', draft)).statusCode).toBe(200);
    expect((await inject('POST', `/job-api/jobs/${job.id}/actions/complete`, admin, {})).statusCode).toBe(200);
    return { company, lawyer, orderId, job, brief, draft };
  }

  it("exports the caller's own data and files, the job's thread, and never another user's", async () => {
    const { company, lawyer, job } = await sharedCompletedJob();
    const other = await signupAndLogin(t, 'company');
    await db().update(users).set({ companyName: 'OTHER-COMPANY-SECRET' }).where(eq(users.id, other.id));
    await upload(other, 'document', pdfBytes('OTHER-COMPANY-BYTES'), 'other.pdf');
    const picture = await upload(company, 'image', pngBytes(), 'logo.png');

    const zip = await exportOf(company);
    const names = Object.keys(zip);
    expect(names).toEqual(
      expect.arrayContaining([
        'README.txt',
        'profile.json',
        'jobs.json',
        'orders.json',
        'reviews.json',
        'notifications.json',
        'files.json',
      ]),
    );
    const profile = jsonIn(zip, 'profile.json');
    expect(profile).toMatchObject({ id: company.id, officialEmail: company.email, companyName: 'Ada Ventures Ltd' });
    expect(profile.passwordHash).toBeUndefined();
    const [exportedJob] = jsonIn(zip, 'jobs.json');
    expect(exportedJob.id).toBe(job.id);
    expect(exportedJob.messages.map((m: { from: string; note: string | null }) => [m.from, m.note])).toEqual(
      expect.arrayContaining([
        ['you', 'COMPANY-MESSAGE please see the brief'],
        ['lawyer', 'LAWYER-MESSAGE here is a draft'],
      ]),
    );
    expect(jsonIn(zip, 'orders.json')).toHaveLength(1);
    // The caller's own uploads, bytes included; the lawyer's draft is named on the thread, not copied.
    const fileNames = names.filter((n) => n.startsWith('files/'));
    expect(fileNames).toHaveLength(2);
    expect(fileNames.some((n) => n.endsWith('-our-brief.pdf'))).toBe(true);
    expect(fileNames.some((n) => n.endsWith('-logo.png'))).toBe(true);
    expect(strFromU8(zip[fileNames.find((n) => n.endsWith('-our-brief.pdf'))!])).toContain('COMPANY-BRIEF-BYTES');
    expect(picture.url).toBeTruthy();
    const everything = names.map((n) => strFromU8(zip[n])).join('\n');
    for (const foreign of [
      lawyer.email,
      lawyerBody('x').phoneNumber,
      'LAWYER-DRAFT-BYTES',
      other.email,
      'OTHER-COMPANY',
    ])
      expect(everything).not.toContain(foreign);

    // The lawyer's archive: the job it did, its payouts file, none of the company's contact details.
    const lz = await exportOf(lawyer, `?_id=${lawyer.id}`);
    const lawyerAll = Object.keys(lz)
      .map((n) => strFromU8(lz[n]))
      .join('\n');
    expect(jsonIn(lz, 'jobs.json')[0].id).toBe(job.id);
    expect(jsonIn(lz, 'payouts.json').earnings).toHaveLength(1);
    expect(lawyerAll).toContain('LAWYER-DRAFT-BYTES');
    expect(lawyerAll).not.toContain(company.email);
    expect(lawyerAll).not.toContain('COMPANY-BRIEF-BYTES');

    // An admin's archive holds its own actions.
    const az = await exportOf(admin);
    expect(jsonIn(az, 'admin-actions.json').map((a: { action: string }) => a.action)).toContain('job.assign');
  });

  it("refuses to export another user's data, even to an admin, and a guest", async () => {
    const a = await signupAndLogin(t, 'company');
    const b = await signupAndLogin(t, 'company');
    for (const who of [a, admin]) {
      const res = await inject('GET', `/api/account/export?_id=${b.id}`, who);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ status: 'fail', message: privacyMessages.exportOthersRefused });
    }
    expect((await inject('GET', '/api/account/export', null)).statusCode).toBe(401);
    const bad = await inject('GET', '/api/account/export?_id=nope', a);
    expect(bad.statusCode).toBe(400);
  });

  it('refuses deletion with an open job, naming it, and changes nothing', async () => {
    const company = await signupAndLogin(t, 'company');
    await pay(company);
    const check = await inject('GET', '/api/account/deletion', company);
    expect(check.json().data.canDelete).toBe(false);
    expect(check.json().data.blockers[0]).toMatchObject({ kind: 'open_job' });
    const res = await del(company);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(
      /^Your account cannot be deleted yet: You have 1 open job: Trademark Registration \(unassigned\)/,
    );
    const [row] = await db().select().from(users).where(eq(users.id, company.id));
    expect(row.deletedAt).toBeNull();
    expect(row.officialEmail).toBe(company.email);
    expect((await inject('GET', `/api/userprofile?_id=${company.id}`, company)).statusCode).toBe(200);
  });

  it("refuses deletion while a lawyer's earnings are unpaid, and with a wrong password", async () => {
    const { lawyer } = await sharedCompletedJob();
    const wrong = await del(lawyer, 'Wr0ng!Password');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(privacyMessages.deletePasswordWrong);
    const res = await del(lawyer);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('of earnings not yet paid out');
    expect(res.json().message).toContain('₦40,000');
    const [row] = await db().select().from(users).where(eq(users.id, lawyer.id));
    expect(row.deletedAt).toBeNull();
  });

  it('refuses deletion while a monthly plan is live, and erases the card of one that ended', async () => {
    const company = await signupAndLogin(t, 'company');
    const plan = await insertPlan(t, company);
    const check = await inject('GET', '/api/account/deletion', company);
    expect(check.json().data).toMatchObject({ canDelete: false, blockers: [{ kind: 'live_plan' }] });
    const refused = await del(company);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('Silver plan renews on');

    await db().update(subscriptions).set({ status: 'ended' }).where(eq(subscriptions.id, plan.id));
    expect((await del(company)).statusCode).toBe(200);
    const [ended] = await db().select().from(subscriptions).where(eq(subscriptions.id, plan.id));
    expect(ended).toMatchObject({ cardToken: null, customerEmail: `deleted-${company.id}@deleted.invalid` });
  });

  it('refuses deleting the only admin', async () => {
    const solo = await createTestApp(kind);
    try {
      const only = await signupAndLogin(solo, 'admin');
      const res = await solo.app.inject({
        method: 'POST',
        url: '/api/account/delete',
        headers: only.headers,
        payload: { password: PASSWORD },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('You are the only admin');
    } finally {
      await solo.close();
    }
    expect((await inject('GET', '/api/account/deletion', admin)).json().data).toEqual({
      canDelete: true,
      blockers: [],
    });
  });

  it('deletes a company: data erased, records kept without the name, login fails, the e-mail signs up again', async () => {
    const { company, orderId, brief } = await sharedCompletedJob();
    const picture = await upload(company, 'image', pngBytes(), 'logo.png');
    const pictureKey = picture.url.split('/').pop()!;
    const briefKey = brief.url.split('/').pop()!;
    await inject('POST', '/api/cart', company, { productId: product, quantity: 1, detail: 'CART-BRIEF' });
    const before = await ledger.balances();

    const res = await del(company);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', message: privacyMessages.accountDeleted });

    const [row] = await db().select().from(users).where(eq(users.id, company.id));
    expect(row).toMatchObject({
      officialEmail: `deleted-${company.id}@deleted.invalid`,
      name: 'Deleted user',
      companyName: 'Deleted user',
      phoneNumber: '',
      contactName: null,
      officeAddress: null,
      cac: null,
      profileImage: null,
    });
    expect(row.deletedAt).not.toBeNull();
    // Sessions ended at once; login with the old address fails.
    expect((await inject('GET', `/api/userprofile?_id=${company.id}`, company)).statusCode).toBe(401);
    const live = await db().select().from(sessions).where(eq(sessions.userId, company.id));
    expect(live.every((s) => s.revokedAt)).toBe(true);
    const login = await inject('POST', '/api/login', null, { officialEmail: company.email, password: PASSWORD });
    expect(login.statusCode).toBe(401);
    // The cart and the picture went; the brief on the job stays with the job (the lawyer's record).
    expect(await db().select().from(cartItems).where(eq(cartItems.companyId, company.id))).toEqual([]);
    const left = await db()
      .select({ key: uploads.key })
      .from(uploads)
      .where(inArray(uploads.key, [pictureKey, briefKey]));
    expect(left.map((u) => u.key)).toEqual([briefKey]);
    expect(await t.rt.storage.get(pictureKey)).toBeNull();
    // The order, its job and the ledger stay; the books balance and nothing moved.
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order.status).toBe('paid');
    expect(order.billedTo).toEqual({ name: 'Account deleted', address: null, email: '' });
    expect(await ledger.balances()).toEqual(before);
    expect(await ledger.audit()).toEqual([]);
    // The receipt still renders, without the name, address or e-mail.
    const receipt = await inject('GET', `/api/orders/${orderId}/receipt.pdf`, admin);
    expect(receipt.statusCode).toBe(200);
    const text = await pdfText(receipt.rawPayload);
    expect(text).toContain('Account deleted');
    expect(text).toContain('Trademark Registration');
    for (const gone of ['Ada Ventures', '12 Marina', company.email]) expect(text).not.toContain(gone);
    // Audited through platform/audit.ts, with no personal data.
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'account.delete'), eq(auditLog.targetId, company.id)));
    expect(entry.details).toEqual({ userType: 'company', filesRemoved: 1 });
    // The address is free: a new sign-up with it works end to end.
    const again = await signupAndLogin(t, 'company', { email: company.email });
    expect(again.id).not.toBe(company.id);
    // A second delete with the dead token is a 401, not a second erasure.
    expect((await del(company)).statusCode).toBe(401);
  });

  it("exports a company's reviews of lawyers; deletion takes them, the authenticator secret and its recovery codes", async () => {
    const { company, lawyer, job } = await sharedCompletedJob();
    const review = { jobId: job.id, stars: 4, reviewTitle: 'REVIEW-TITLE', review: 'REVIEW-TEXT careful work' };
    expect((await inject('POST', '/api/lawyer-reviews', company, review)).statusCode).toBe(201);
    const setup = await inject('POST', '/api/two-factor/setup', company, { password: PASSWORD });
    const { secret } = setup.json().data as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
    expect((await inject('POST', '/api/two-factor/enable', company, { code })).statusCode).toBe(200);

    const written = jsonIn(await exportOf(company), 'lawyer-reviews.json');
    expect(written).toEqual([expect.objectContaining({ jobId: job.id, stars: 4, review: 'REVIEW-TEXT careful work' })]);
    expect(jsonIn(await exportOf(lawyer), 'lawyer-reviews.json')).toEqual([
      expect.objectContaining({ jobId: job.id, reviewTitle: 'REVIEW-TITLE' }),
    ]);

    expect((await del(company)).statusCode).toBe(200);
    expect(await db().select().from(lawyerReviews).where(eq(lawyerReviews.companyId, company.id))).toEqual([]);
    expect(await db().select().from(twoFactor).where(eq(twoFactor.userId, company.id))).toEqual([]);
    expect(
      await db().select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, company.id)),
    ).toEqual([]);
  });

  it('deletes a lawyer with no balance: applications and payout details go, the assign list no longer offers it', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const company = await signupAndLogin(t, 'company');
    const { job } = await pay(company);
    expect((await inject('POST', `/job-api/applyforjob/${job.id}`, lawyer, {})).statusCode).toBe(200);
    await db()
      .insert(payoutDetails)
      .values({ lawyerId: lawyer.id, accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Access Bank' });
    expect((await del(lawyer)).statusCode).toBe(200);
    expect(await db().select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyer.id))).toEqual([]);
    const assign = await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id });
    expect(assign.statusCode).toBe(409);
    const [row] = await db().select().from(users).where(eq(users.id, lawyer.id));
    expect(row).toMatchObject({ name: 'Deleted user', scn: null, verified: false, areasOfPractise: [] });
  });

  it("deletes a lawyer's replies to its reviews; the companies' reviews stay (2276)", async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const company = await signupAndLogin(t, 'company');
    const { job } = await pay(company);
    // A review of a job this lawyer no longer holds (nothing open of its own blocks the deletion).
    const [review] = await db()
      .insert(lawyerReviews)
      .values({
        jobId: job.id,
        companyId: company.id,
        lawyerId: lawyer.id,
        stars: 2,
        reviewTitle: 'Slow',
        review: 'REVIEW-STAYS',
      })
      .returning();
    const replied = await inject('POST', `/api/lawyer-reviews/${review.id}/reply`, lawyer, {
      reply: 'LAWYER-REPLY I am Chidi Okeke, call me on 08031234567',
    });
    expect(replied.statusCode, replied.body).toBe(200);
    expect((await del(lawyer)).statusCode).toBe(200);
    // Every signed-in user reads a lawyer's reviews by its id: the erased lawyer's own words go with it.
    const read = await inject('GET', `/api/lawyers/${lawyer.id}/reviews`, company);
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain('REVIEW-STAYS');
    expect(read.body).not.toContain('LAWYER-REPLY');
    const [row] = await db().select().from(lawyerReviews).where(eq(lawyerReviews.id, review.id));
    expect([row.reply, row.repliedAt]).toEqual([null, null]);
  });

  it('an admin deletes its account when another admin remains', async () => {
    const extra = await signupAndLogin(t, 'admin');
    expect((await del(extra)).statusCode).toBe(200);
    expect(
      (await inject('POST', '/api/login', null, { officialEmail: extra.email, password: PASSWORD })).statusCode,
    ).toBe(401);
  });

  it('records consent with the version accepted at sign-up; a spec client without it still signs up', async () => {
    const withConsent = uniqueEmail('consent');
    const ok = await inject('POST', '/api/company/signup', null, {
      ...companyBody(withConsent),
      termsVersion: TERMS_VERSION,
    });
    expect(ok.statusCode).toBe(201);
    const [row] = await db().select().from(users).where(eq(users.officialEmail, withConsent));
    expect(row.termsVersion).toBe(TERMS_VERSION);
    expect(row.termsAcceptedAt).not.toBeNull();

    const lawyerEmail = uniqueEmail('consent-lawyer');
    expect(
      (await inject('POST', '/api/lawyer/signup', null, { ...lawyerBody(lawyerEmail), termsVersion: TERMS_VERSION }))
        .statusCode,
    ).toBe(201);
    const [lawyerRow] = await db().select().from(users).where(eq(users.officialEmail, lawyerEmail));
    expect(lawyerRow.termsVersion).toBe(TERMS_VERSION);

    const old = await inject('POST', '/api/company/signup', null, {
      ...companyBody(uniqueEmail('old-terms')),
      termsVersion: '2020-01-01',
    });
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toContain(privacyMessages.termsVersionOutdated);

    const spec = uniqueEmail('spec');
    expect((await inject('POST', '/api/company/signup', null, companyBody(spec))).statusCode).toBe(201);
    const [specRow] = await db().select().from(users).where(eq(users.officialEmail, spec));
    expect(specRow.termsVersion).toBeNull();
    const mail = await lastMailTo(t, spec);
    expect(linkToken(mail!.text)).toBeTruthy();
  });

  describe('races (run on the PostgreSQL server when TEST_DATABASE_URL is set)', () => {
    it('deletion racing a checkout: never a deleted company with a pending order or a cart', async () => {
      for (let round = 0; round < 6; round++) {
        const company = await signupAndLogin(t, 'company');
        await inject('POST', '/api/cart', company, { productId: product, quantity: 1 });
        const [checkout, deletion] = await Promise.all([inject('POST', '/api/checkout', company), del(company)]);
        const [row] = await db().select().from(users).where(eq(users.id, company.id));
        const pending = await db()
          .select()
          .from(orders)
          .where(and(eq(orders.companyId, company.id), eq(orders.status, 'pending')));
        if (deletion.statusCode === 200) {
          expect(row.deletedAt).not.toBeNull();
          expect(pending).toEqual([]);
          expect([401, 404]).toContain(checkout.statusCode);
        } else {
          expect(deletion.statusCode).toBe(409);
          expect(deletion.json().message).toContain('may still be completing');
          expect(checkout.statusCode).toBe(200);
          expect(row.deletedAt).toBeNull();
          expect(pending).toHaveLength(1);
        }
      }
    });

    it('deletion racing a job assignment: the lawyer is either assigned and kept, or deleted and not assigned', async () => {
      for (let round = 0; round < 6; round++) {
        const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
        const company = await signupAndLogin(t, 'company');
        const { job } = await pay(company);
        const [assign, deletion] = await Promise.all([
          inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id }),
          del(lawyer),
        ]);
        const [row] = await db().select().from(users).where(eq(users.id, lawyer.id));
        const [after] = await db().select().from(jobs).where(eq(jobs.id, job.id));
        expect([assign.statusCode, deletion.statusCode].filter((s) => s === 200)).toHaveLength(1);
        if (deletion.statusCode === 200) {
          expect(row.deletedAt).not.toBeNull();
          expect(after.assignedTo).toBeNull();
          expect(assign.statusCode).toBe(409);
        } else {
          expect(deletion.statusCode).toBe(409);
          expect(after.assignedTo).toBe(lawyer.id);
          expect(row.deletedAt).toBeNull();
        }
      }
    });
  });
});
