import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { sessions, users } from '../../db/schema.js';
import { createTestApp, describeEachDb, lastMailTo, signupAndLogin, type TestApp } from '../../../test/helpers.js';
import { auditFor, insertJob, insertOrder, insertUsers, mailsTo } from '../../../test/admin-fixtures.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

describeEachDb('admin workspace: counts, companies, lawyers, payments, settlement, audit', (kind) => {
  let t: TestApp;
  let admin: Login;
  let company: Login;
  let lawyer: Login;

  beforeAll(async () => {
    t = await createTestApp(kind);
    [admin, company, lawyer] = await Promise.all([
      signupAndLogin(t, 'admin'),
      signupAndLogin(t, 'company'),
      signupAndLogin(t, 'lawyer', { verified: true }),
    ]);
  });
  afterAll(() => t.close());

  const get = (url: string, who: Login | null = admin) => t.app.inject({ method: 'GET', url, headers: who?.headers });
  const send = (
    method: 'PATCH' | 'PUT' | 'POST',
    url: string,
    payload: Record<string, unknown>,
    who: Login | null = admin,
  ) => t.app.inject({ method, url, headers: who?.headers, payload });

  it('refuses every admin route to guests (401), companies and lawyers (403)', async () => {
    const routes: Array<['GET' | 'PATCH' | 'PUT', string, unknown?]> = [
      ['GET', '/api/admin/dashboard'],
      ['GET', '/api/admin/audit-log'],
      ['GET', '/api/companys'],
      ['GET', '/api/verifiedlawyers'],
      ['GET', '/api/unverifiedlawyers'],
      ['PATCH', `/api/verifylawyer/${lawyer.id}`, { verified: false }],
      ['GET', '/api/admin/payments'],
      ['GET', '/api/admin/settlement-account'],
      ['PUT', '/api/admin/settlement-account', { accountNumber: '0123456789', accountName: 'X', bank: 'Y' }],
    ];
    for (const [method, url, payload] of routes) {
      for (const [who, code] of [
        [null, 401],
        [company, 403],
        [lawyer, 403],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: who?.headers,
          ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
        });
        expect(res.statusCode, `${method} ${url} as ${who?.email ?? 'guest'}`).toBe(code);
        expect(res.json().status).toBe('fail');
      }
    }
    // the lawyer route above was refused: still verified, still logged in
    expect((await get('/api/verifiedlawyers?limit=100')).json().lawyers.map((l: { _id: string }) => l._id)).toContain(
      lawyer.id,
    );
  });

  it('pages companies on the server: company, totals, 5 per page by default, no secrets', async () => {
    const before = (await get('/api/companys')).json().total as number;
    await insertUsers(t, 'company', 11);
    const p1 = (await get('/api/companys?page=1')).json();
    expect(p1).toMatchObject({ status: 'success', page: 1, limit: 5, total: before + 11, results: 5 });
    expect(p1.company).toHaveLength(5);
    expect(p1.company[0]).not.toHaveProperty('passwordHash');
    expect(Object.keys(p1.company[0])).toEqual(
      expect.arrayContaining(['_id', 'companyName', 'contactName', 'officialEmail', 'phoneNumber', 'createdAt']),
    );
    const last = Math.ceil((before + 11) / 5);
    const pl = (await get(`/api/companys?page=${last}`)).json();
    expect(pl.results).toBe(before + 11 - (last - 1) * 5);
    // Without `page`: the whole list (up to 500).
    const all = (await get('/api/companys')).json();
    expect(all).toMatchObject({ page: 1, limit: 500, total: before + 11, results: before + 11 });
    expect(all.company).toHaveLength(before + 11);
    expect(new Set(all.company.map((c: { _id: string }) => c._id)).size).toBe(before + 11);
    expect(all.company.some((c: { _id: string }) => c._id === company.id)).toBe(true);
    // only companies
    expect(all.company.some((c: { _id: string }) => c._id === lawyer.id || c._id === admin.id)).toBe(false);
  });

  it('lists verified and unverified lawyers separately with totals', async () => {
    const v0 = (await get('/api/verifiedlawyers')).json().total as number;
    const u0 = (await get('/api/unverifiedlawyers')).json().total as number;
    await insertUsers(t, 'lawyer', 6, { verified: false });
    await insertUsers(t, 'lawyer', 3, { verified: true });
    const u = (await get('/api/unverifiedlawyers?page=1')).json();
    expect(u).toMatchObject({ total: u0 + 6, results: 5, page: 1, limit: 5 });
    expect(u.lawyers.every((l: { verified: boolean }) => l.verified === false)).toBe(true);
    const u2 = (await get('/api/unverifiedlawyers?page=2')).json();
    expect(u2.results).toBe(u0 + 6 - 5);
    const v = (await get('/api/verifiedlawyers?limit=50')).json();
    expect(v.total).toBe(v0 + 3);
    expect(v.lawyers.every((l: { verified: boolean }) => l.verified)).toBe(true);
    expect(v.lawyers[0]).toHaveProperty('scn');
    expect(v.lawyers[0]).not.toHaveProperty('passwordHash');
  });

  it('verifies a lawyer once: leaves the unverified list, e-mailed, audit-logged; repeating changes nothing', async () => {
    const newbie = await signupAndLogin(t, 'lawyer');
    const unverifiedIds = async () =>
      (await get('/api/unverifiedlawyers?limit=100')).json().lawyers.map((l: { _id: string }) => l._id);
    expect(await unverifiedIds()).toContain(newbie.id);
    const mailsBefore = (await mailsTo(t, newbie.email)).length;

    const res = await send('PATCH', `/api/verifylawyer/${newbie.id}`, { verified: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', message: messages.verificationSuccessful });
    expect(res.json().data.lawyer).toMatchObject({ _id: newbie.id, verified: true });
    expect(await unverifiedIds()).not.toContain(newbie.id);
    const mail = await lastMailTo(t, newbie.email);
    expect(mail!.subject).toMatch(/verified/i);
    expect((await mailsTo(t, newbie.email)).length).toBe(mailsBefore + 1);
    const audit = await auditFor(t, 'lawyer.verify', newbie.id);
    expect(audit).toHaveLength(1);
    expect(audit[0].actorId).toBe(admin.id);

    const again = await send('PATCH', `/api/verifylawyer/${newbie.id}`, { verified: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(messages.verificationSuccessful);
    expect((await mailsTo(t, newbie.email)).length).toBe(mailsBefore + 1);
    expect(await auditFor(t, 'lawyer.verify', newbie.id)).toHaveLength(1);

    // the lawyer's own session still works after being verified
    expect((await get(`/api/userprofile?_id=${newbie.id}`, newbie)).statusCode).toBe(200);
  });

  it('withdrawing verification logs the lawyer out everywhere and is audit-logged', async () => {
    const l = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await get(`/api/userprofile?_id=${l.id}`, l)).statusCode).toBe(200);
    const res = await send('PATCH', `/api/verifylawyer/${l.id}`, { verified: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.verificationRevoked);
    expect((await get(`/api/userprofile?_id=${l.id}`, l)).statusCode).toBe(401);
    const live = await t.rt.database.db.select().from(sessions).where(eq(sessions.userId, l.id));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    expect(await auditFor(t, 'lawyer.unverify', l.id)).toHaveLength(1);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, l.id));
    expect(row.verified).toBe(false);
  });

  it('verify refuses non-lawyers, unknown ids and bad bodies', async () => {
    const notLawyer = await send('PATCH', `/api/verifylawyer/${company.id}`, { verified: true });
    expect(notLawyer.statusCode).toBe(404);
    expect(notLawyer.json().message).toBe(messages.lawyerNotFound);
    expect((await send('PATCH', '/api/verifylawyer/not-an-id', { verified: true })).statusCode).toBe(400);
    const bad = await send('PATCH', `/api/verifylawyer/${lawyer.id}`, { verified: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/verified/);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, company.id));
    expect(row.verified).toBe(false);
  });

  it('rejects a lawyer with a reason: e-mailed as written, audit-logged, still unverified; once per reason', async () => {
    const applicant = await signupAndLogin(t, 'lawyer');
    const before = (await mailsTo(t, applicant.email)).length;
    const reason = 'Your SCN does not match the NBA roll; please send your call certificate.';
    const res = await send('POST', `/api/rejectlawyer/${applicant.id}`, { reason: `  ${reason}  ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', message: messages.verificationRejected });
    expect(res.json().data.lawyer).toMatchObject({ _id: applicant.id, verified: false });
    const mail = await lastMailTo(t, applicant.email);
    expect(mail!.text).toContain(reason);
    expect(mail!.text).toContain(`/lawyer/profile/${applicant.id}`);
    const audit = await auditFor(t, 'lawyer.reject', applicant.id);
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ reason });

    // A double tap or a retry: no second mail, no second entry; a new reason is sent.
    expect((await send('POST', `/api/rejectlawyer/${applicant.id}`, { reason })).statusCode).toBe(200);
    expect((await mailsTo(t, applicant.email)).length).toBe(before + 1);
    expect(await auditFor(t, 'lawyer.reject', applicant.id)).toHaveLength(1);
    expect(
      (await send('POST', `/api/rejectlawyer/${applicant.id}`, { reason: 'Please add your year of call too.' }))
        .statusCode,
    ).toBe(200);
    expect((await mailsTo(t, applicant.email)).length).toBe(before + 2);

    // Two admins at once with the same reason: one mail.
    const other = await signupAndLogin(t, 'lawyer');
    const otherBefore = (await mailsTo(t, other.email)).length;
    const racing = await Promise.all([1, 2, 3].map(() => send('POST', `/api/rejectlawyer/${other.id}`, { reason })));
    expect(racing.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect((await mailsTo(t, other.email)).length).toBe(otherBefore + 1);
  });

  it('reject refuses a verified lawyer, non-lawyers, unknown ids and missing or short reasons', async () => {
    const verified = await signupAndLogin(t, 'lawyer', { verified: true });
    const onVerified = await send('POST', `/api/rejectlawyer/${verified.id}`, { reason: 'Reason long enough here.' });
    expect(onVerified.statusCode).toBe(409);
    expect(onVerified.json().message).toBe(messages.rejectVerifiedLawyer);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, verified.id));
    expect(row.verified).toBe(true);
    const notLawyer = await send('POST', `/api/rejectlawyer/${company.id}`, { reason: 'Reason long enough here.' });
    expect(notLawyer.statusCode).toBe(404);
    expect((await send('POST', '/api/rejectlawyer/not-an-id', { reason: 'Reason long enough here.' })).statusCode).toBe(
      400,
    );
    for (const body of [{}, { reason: '' }, { reason: '   short   ' }, { reason: 42 }, { reason: 'x'.repeat(1001) }]) {
      const bad = await send('POST', `/api/rejectlawyer/${lawyer.id}`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().message).toMatch(/reason/);
    }
    expect(await auditFor(t, 'lawyer.reject', lawyer.id)).toHaveLength(0);
  });

  it('payments ledger: orders with company and reference, paged, totals for the chosen period', async () => {
    const c = await signupAndLogin(t, 'company');
    const d = (s: string) => new Date(`${s}T12:00:00Z`);
    await insertOrder(t, c.id, { status: 'paid', amountKobo: 10_000_00, createdAt: d('2025-03-01') });
    await insertOrder(t, c.id, { status: 'paid', amountKobo: 25_000_00, createdAt: d('2025-03-15') });
    await insertOrder(t, c.id, { status: 'failed', amountKobo: 7_000_00, createdAt: d('2025-03-20') });
    await insertOrder(t, c.id, { status: 'paid', amountKobo: 99_000_00, createdAt: d('2025-04-02') });
    for (let i = 0; i < 5; i++)
      await insertOrder(t, c.id, { status: 'expired', amountKobo: 1_000_00, createdAt: d(`2025-03-0${i + 2}`) });

    const march = (await get('/api/admin/payments?from=2025-03-01&to=2025-03-31')).json();
    expect(march).toMatchObject({ status: 'success', total: 8, results: 5, page: 1, limit: 5 });
    expect(march.data.totals).toEqual({
      paid: { count: 2, amount: 35000 },
      pending: { count: 0, amount: 0 },
      failed: { count: 1, amount: 7000 },
      expired: { count: 5, amount: 5000 },
      replaced: { count: 0, amount: 0 },
    });
    const p = march.data.payments[0];
    expect(p).toMatchObject({ provider: 'sandbox', company: { _id: c.id, companyName: 'Ada Ventures Ltd' } });
    expect(p.reference).toMatch(/^tx-/);
    expect(p.status).toBe('failed'); // newest first: 20 March
    const page2 = (await get('/api/admin/payments?from=2025-03-01&to=2025-03-31&page=2')).json();
    expect(page2.results).toBe(3);
    expect(page2.data.totals.paid.count).toBe(2); // totals cover the period, not the page

    const paidOnly = (await get('/api/admin/payments?from=2025-03-01&to=2025-04-30&status=paid')).json();
    expect(paidOnly.total).toBe(3);
    expect(paidOnly.data.totals.paid).toEqual({ count: 3, amount: 134000 });
    const oneDay = (await get('/api/admin/payments?from=2025-04-02&to=2025-04-02')).json();
    expect(oneDay.total).toBe(1);

    expect((await get('/api/admin/payments?from=2025-13-01')).statusCode).toBe(400);
    expect((await get('/api/admin/payments?from=2025-04-02&to=2025-04-01')).statusCode).toBe(400);
    expect((await get('/api/admin/payments?status=refunded')).statusCode).toBe(400);
  });

  it('keeps the settlement account on the server, validates it, audit-logs changes with the number masked', async () => {
    const empty = (await get('/api/admin/settlement-account')).json();
    expect(empty.data.account).toBeNull();
    const bad = await send('PUT', '/api/admin/settlement-account', {
      accountNumber: '12ab',
      accountName: '',
      bank: 'GTBank',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/accountNumber|account/);
    const body = { accountNumber: '0123456789', accountName: 'LegalMarket Ltd', bank: 'GTBank' };
    const res = await send('PUT', '/api/admin/settlement-account', body);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(messages.settlementAccountSaved);
    expect(res.json().data.account).toMatchObject(body);
    expect((await get('/api/admin/settlement-account')).json().data.account).toMatchObject(body);
    await send('PUT', '/api/admin/settlement-account', body); // same values: nothing to record
    const audit = await auditFor(t, 'settlement.update');
    expect(audit).toHaveLength(1);
    expect(audit[0].actorId).toBe(admin.id);
    expect(JSON.stringify(audit[0].details)).not.toContain('0123456789');
    expect(audit[0].details).toMatchObject({ before: null, after: { accountNumber: '******6789', bank: 'GTBank' } });
    await send('PUT', '/api/admin/settlement-account', { ...body, bank: 'Access Bank' });
    const audit2 = await auditFor(t, 'settlement.update');
    expect(audit2).toHaveLength(2);
  });

  it('dashboard counts are live and show the latest audit entries; the audit log pages with actors', async () => {
    const before = (await get('/api/admin/dashboard')).json().data.counts;
    const c = await signupAndLogin(t, 'company');
    await insertJob(t, c.id);
    await insertJob(t, c.id);
    await insertJob(t, c.id, { status: 'pending', lawyerId: lawyer.id });
    await insertUsers(t, 'lawyer', 2, { verified: false });
    const res = await get('/api/admin/dashboard');
    expect(res.statusCode).toBe(200);
    const after = res.json().data.counts;
    expect(after.openJobs).toBe(before.openJobs + 2);
    expect(after.pendingJobs).toBe(before.pendingJobs + 1);
    expect(after.unverifiedLawyers).toBe(before.unverifiedLawyers + 2);
    expect(after.companies).toBe(before.companies + 1);
    // insertJob writes a paid order per job
    expect(after.payments).toBe(before.payments + 3);

    const recent = res.json().data.recentActivity;
    expect(recent.length).toBeGreaterThan(0);
    expect(recent[0]).toMatchObject({ action: 'settlement.update', actor: { _id: admin.id } });

    const log = (await get('/api/admin/audit-log?limit=2')).json();
    expect(log).toMatchObject({ status: 'success', page: 1, limit: 2, results: 2 });
    expect(log.total).toBeGreaterThanOrEqual(4);
    const log2 = (await get('/api/admin/audit-log?limit=2&page=2')).json();
    expect(log2.data.entries[0]._id).not.toBe(log.data.entries[0]._id);
  });
});
