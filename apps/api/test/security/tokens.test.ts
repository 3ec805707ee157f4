import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { sessions } from '../../src/db/schema.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  signupAndLogin,
  sixDigits,
  type TestApp,
} from '../helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Issue 8, item 4: every kind of bad token gets 401 at once, on protected routes of every role.
 * A token is only as good as (1) an HS256 signature with the server's key, (2) its exp, and (3) a live
 * session row in the database for the same user: each test breaks exactly one of those.
 */
describeEachDb('tokens', (kind) => {
  let t: TestApp;
  let company: Login;
  let lawyer: Login;
  let admin: Login;

  beforeAll(async () => {
    t = await createTestApp(kind);
    company = await signupAndLogin(t, 'company');
    lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    admin = await signupAndLogin(t, 'admin');
  });
  afterAll(() => t.close());

  /**
   * Protected routes of each role; each must answer 401 for a bad token. Logout is idempotent since
   * issue 14 (the spec's client logs out whatever state its token is in): it answers 200 instead.
   */
  const protectedRoutes = (who: Login) => [
    { method: 'GET' as const, url: `/api/userprofile?_id=${who.id}` },
    { method: 'GET' as const, url: '/api/orders' },
    { method: 'GET' as const, url: '/job-api/lawyer/pendingjobs' },
    { method: 'GET' as const, url: '/api/admin/dashboard' },
    { method: 'GET' as const, url: '/job-api/jobs' },
  ];

  async function expect401Everywhere(token: string, who: Login, label: string) {
    for (const r of protectedRoutes(who)) {
      const res = await t.app.inject({ ...r, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, `${label}: ${r.method} ${r.url}`).toBe(401);
      expect(res.json()).toMatchObject({ status: 'fail', message: expect.any(String) });
    }
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode, `${label}: POST /api/logout`).toBe(200);
  }

  /** The claims of a real token of `who`, to re-sign in other ways. */
  const claimsOf = (who: Login) => decodeJwt(who.token) as Record<string, unknown> & { sub: string; sid: string };
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('a genuine token works on its own routes (the baseline for the refusals below)', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/userprofile?_id=${company.id}`, headers: company.headers }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/job-api/lawyer/pendingjobs', headers: lawyer.headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: admin.headers })).statusCode,
    ).toBe(200);
  });

  it('refuses alg none (any spelling), another key, HS384/HS512 with the right key, and an RS256 token', async () => {
    const secret = new TextEncoder().encode(t.rt.secret);
    for (const who of [company, lawyer, admin]) {
      const claims = claimsOf(who);
      const forged: Array<[string, string]> = [];
      for (const alg of ['none', 'None', 'NONE', 'nOnE'])
        forged.push([`alg ${alg}`, `${b64({ alg, typ: 'JWT' })}.${b64(claims)}.`]);
      forged.push([
        'another key',
        await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .sign(new TextEncoder().encode('x'.repeat(64))),
      ]);
      for (const alg of ['HS384', 'HS512'])
        forged.push([`${alg} with the server key`, await new SignJWT(claims).setProtectedHeader({ alg }).sign(secret)]);
      const { privateKey } = await generateKeyPair('RS256');
      forged.push(['RS256', await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey)]);
      // A genuine signature whose header claims another algorithm: header and signature must agree.
      const [, payload, sig] = who.token.split('.');
      forged.push(['HS256 signature under an RS256 header', `${b64({ alg: 'RS256', typ: 'JWT' })}.${payload}.${sig}`]);
      // Payload edited (userType raised to admin, name changed) without re-signing.
      const [h] = who.token.split('.');
      forged.push([
        'edited payload',
        `${h}.${b64({ ...claims, userType: 'admin', name: `${String(claims.name)}!` })}.${sig}`,
      ]);
      forged.push(['signature removed', `${h}.${payload}.`]);
      for (const [label, token] of forged) await expect401Everywhere(token, who, label);
    }
  });

  it('refuses malformed Authorization headers', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer ',
      `bearer ${company.token}x`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'Bearer a.b.c',
      `Bearer ${'A'.repeat(8000)}`,
      `Bearer ${company.token}.extra`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/userprofile?_id=${company.id}`,
        headers: { authorization },
      });
      expect(res.statusCode, authorization.slice(0, 40)).toBe(401);
    }
  });

  it('refuses tokens signed with the server key but without exp, without a session, or for another user', async () => {
    const secret = new TextEncoder().encode(t.rt.secret);
    const claims = claimsOf(company);
    const sign = (c: Record<string, unknown>) =>
      new SignJWT(c).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
    const { exp: _exp, ...noExp } = claims;
    await expect401Everywhere(await sign(noExp), company, 'no exp');
    await expect401Everywhere(await sign({ ...claims, sid: crypto.randomUUID() }), company, 'unknown session');
    await expect401Everywhere(await sign({ ...claims, sid: 'not-a-uuid' }), company, 'malformed session id');
    // The company's live session under the lawyer's id: the session row decides who the user is.
    await expect401Everywhere(await sign({ ...claims, sub: lawyer.id }), lawyer, 'session of another user');
  });

  it('refuses an expired token, and a long-lived token once its server session expired', async () => {
    const who = await signupAndLogin(t, 'company');
    const secret = new TextEncoder().encode(t.rt.secret);
    const claims = claimsOf(who);
    const nowS = Math.floor(t.clock.now().getTime() / 1000);
    const expired = await new SignJWT({ ...claims, exp: nowS - 1 }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    await expect401Everywhere(expired, who, 'exp in the past');
    // A token claiming a year of life: the session row (12 h) still ends it.
    const yearLong = await new SignJWT({ ...claims, exp: nowS + 365 * 86400 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret);
    const url = `/api/userprofile?_id=${who.id}`;
    expect(
      (await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${yearLong}` } })).statusCode,
    ).toBe(200);
    t.clock.advance(12 * 3600_000 + 1000);
    await expect401Everywhere(yearLong, who, 'session expired');
    await expect401Everywhere(who.token, who, 'token expired');
  });

  it('refuses the token of a logged-out session at once, and leaves other sessions of the account alone', async () => {
    const who = await signupAndLogin(t, 'company');
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    const other = { authorization: `Bearer ${second.json().token}` };
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: who.headers })).statusCode).toBe(200);
    await expect401Everywhere(who.token, who, 'logged out');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/userprofile?_id=${who.id}`, headers: other })).statusCode,
    ).toBe(200);
  });

  it('refuses every token of an account whose password was reset', async () => {
    const who = await signupAndLogin(t, 'lawyer', { verified: true });
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { officialEmail: who.email },
    });
    expect(forgot.statusCode).toBe(200);
    const code = sixDigits((await lastMailTo(t, who.email))!.text)!;
    const grant = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-reset-token',
      payload: { officialEmail: who.email, token: code },
    });
    expect(grant.statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'PATCH',
      url: `/api/reset-password?userEmail=${encodeURIComponent(who.email)}&token=${grant.json().resetToken}`,
      payload: { password: 'N3w!Password', passwordConfirm: 'N3w!Password' },
    });
    expect(reset.statusCode).toBe(200);
    await expect401Everywhere(who.token, who, 'password reset');
  });

  it("refuses the token of a lawyer whose verification was revoked, on the lawyer's own routes too", async () => {
    const who = await signupAndLogin(t, 'lawyer', { verified: true });
    const admin = await signupAndLogin(t, 'admin'); // the first admin's session may have expired above
    const before = await t.app.inject({ method: 'GET', url: '/job-api/lawyer/pendingjobs', headers: who.headers });
    expect(before.statusCode).toBe(200);
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: `/api/verifylawyer/${who.id}`,
      headers: admin.headers,
      payload: { verified: false },
    });
    expect(revoke.statusCode).toBe(200);
    await expect401Everywhere(who.token, who, 'verification revoked');
    for (const url of ['/job-api/lawyer/pendingjobs', '/api/get-payment-details', '/job-api/jobs']) {
      const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
      expect(res.statusCode, url).toBe(401);
    }
    const rows = await t.rt.database.db.select().from(sessions).where(eq(sessions.userId, who.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((s) => s.revokedAt !== null)).toBe(true);
  });
});
