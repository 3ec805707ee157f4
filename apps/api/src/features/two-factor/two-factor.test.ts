import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { LIMITS, TWO_FACTOR, twoFactorMessages } from '@legalmarket/contracts';
import { twoFactor, users } from '../../db/schema.js';
import { insertJob } from '../../../test/admin-fixtures.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  signupAndLogin,
  type TestApp,
} from '../../../test/helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const MINUTE = 60_000;

describeEachDb('two-factor authentication', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const inject = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    who: { headers: Record<string, string> } | null,
    payload?: unknown,
  ) => t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });
  /** The code an authenticator app shows now (the app's clock is the test's). */
  const codeOf = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
  /** Moves to the next 30 s step, so the app shows a code not yet used. */
  const nextStep = () => t.clock.advance(30_000);
  const login = (email: string) => inject('POST', '/api/login', null, { officialEmail: email, password: PASSWORD });
  const secondStep = (challengeToken: string, code: string) =>
    inject('POST', '/api/login/two-factor', null, { challengeToken, code });

  /** Enrols the account: answers its secret and recovery codes. */
  async function enrol(who: Login) {
    const setup = await inject('POST', '/api/two-factor/setup', who, { password: PASSWORD });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUri } = setup.json().data as { secret: string; otpauthUri: string };
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/LegalMarket:.+\?.*secret=/);
    const enable = await inject('POST', '/api/two-factor/enable', who, { code: codeOf(secret) });
    expect(enable.statusCode).toBe(200);
    return { secret, recoveryCodes: enable.json().data.recoveryCodes as string[] };
  }

  it('enrols with the password and a first code, never answers the secret again, and stores it encrypted', async () => {
    const admin = await signupAndLogin(t, 'admin');
    expect((await inject('GET', '/api/two-factor', admin)).json().data).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    expect((await inject('POST', '/api/two-factor/setup', admin, { password: 'Wr0ng!Pass' })).statusCode).toBe(401);
    const setup = await inject('POST', '/api/two-factor/setup', admin, { password: PASSWORD });
    const { secret } = setup.json().data;
    // Waiting for its first code, nothing changes at sign-in.
    expect((await login(admin.email)).json().token).toBeTruthy();
    const wrong = await inject('POST', '/api/two-factor/enable', admin, {
      code: codeOf(secret) === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(twoFactorMessages.codeWrong);
    const enable = await inject('POST', '/api/two-factor/enable', admin, { code: codeOf(secret) });
    expect(enable.statusCode).toBe(200);
    const codes = enable.json().data.recoveryCodes as string[];
    expect(codes).toHaveLength(TWO_FACTOR.recoveryCodes);
    expect(new Set(codes).size).toBe(codes.length);
    const status = (await inject('GET', '/api/two-factor', admin)).json();
    expect(status.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(JSON.stringify(status)).not.toContain(secret);
    expect((await inject('POST', '/api/two-factor/setup', admin, { password: PASSWORD })).statusCode).toBe(409);
    const [row] = await t.rt.database.db.select().from(twoFactor).where(eq(twoFactor.userId, admin.id));
    expect(row.secretEnc).not.toContain(secret);
    expect(row.secretEnc.startsWith('v1:')).toBe(true);
  });

  it('set-ups sent together answer one secret, whose code turns it on; a minute later a new one', async () => {
    const who = await signupAndLogin(t, 'lawyer');
    const setup = () => inject('POST', '/api/two-factor/setup', who, { password: PASSWORD });
    // A double tap or a retry after a timeout: the app scans whichever answer arrives, so all must agree.
    const answers = await Promise.all([setup(), setup(), setup()]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const secrets = new Set(answers.map((a) => a.json().data.secret as string));
    expect(secrets.size).toBe(1);
    const [secret] = secrets;
    t.clock.advance(LIMITS.repeatWindowSeconds * 1000 + 1);
    const later = (await setup()).json().data.secret as string;
    expect(later).not.toBe(secret);
    expect((await inject('POST', '/api/two-factor/enable', who, { code: codeOf(secret) })).statusCode).toBe(400);
    expect((await inject('POST', '/api/two-factor/enable', who, { code: codeOf(later) })).statusCode).toBe(200);
  });

  it('sign-in asks for the code: a challenge, no token; a wrong code is refused; the right one signs in once', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { secret } = await enrol(admin);
    nextStep();
    const first = await login(admin.email);
    expect(first.statusCode).toBe(200);
    const challenge = first.json();
    expect(challenge).toMatchObject({ status: 'success', twoFactorRequired: true });
    expect(challenge.token).toBeUndefined();
    const code = codeOf(secret);
    const wrong = await secondStep(challenge.challengeToken, code === '123456' ? '654321' : '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(twoFactorMessages.codeWrong);
    const right = await secondStep(challenge.challengeToken, code);
    expect(right.statusCode).toBe(200);
    const body = right.json();
    expect(body.data.user).toEqual({ _id: admin.id, userType: 'admin' });
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/userprofile?_id=${admin.id}`,
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    // The challenge works once.
    expect((await secondStep(challenge.challengeToken, code)).statusCode).toBe(401);
    // The same code, replayed on a new sign-in within its window, is refused.
    const again = (await login(admin.email)).json();
    const replay = await secondStep(again.challengeToken, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(twoFactorMessages.codeWrong);
    // An older code (the step before) is refused too, once a later one was used.
    nextStep();
    expect((await secondStep(again.challengeToken, codeOf(secret))).statusCode).toBe(200);
  });

  it('a company signed in with its code gets the /cart page cookie, and the challenge alone none', async () => {
    const company = await signupAndLogin(t, 'company');
    const { secret } = await enrol(company);
    nextStep();
    const first = await login(company.email);
    expect(first.headers['set-cookie']).toBeUndefined();
    const right = await secondStep(first.json().challengeToken, codeOf(secret));
    expect(right.statusCode).toBe(200);
    const sid = JSON.parse(Buffer.from(right.json().token.split('.')[1], 'base64url').toString()).sid;
    expect(right.headers['set-cookie']).toMatch(
      new RegExp(`^lm_page_session=${sid}\\.[\\w-]{43}; Max-Age=43200; Path=/cart; HttpOnly; SameSite=Lax$`),
    );
  });

  it('users without two-factor keep the spec answer of POST /api/login', async () => {
    const company = await signupAndLogin(t, 'company');
    const res = (await login(company.email)).json();
    expect(Object.keys(res).sort()).toEqual(['data', 'message', 'status', 'token']);
  });

  it('limits guesses per account: after 5 wrong codes even the right one answers 429, across challenges', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { secret } = await enrol(admin);
    nextStep();
    const wrongCode = () => (codeOf(secret) === '000000' ? '999999' : '000000');
    // Five wrong codes spread over two challenges (a new sign-in does not reset the count).
    let challenge = (await login(admin.email)).json().challengeToken;
    for (let i = 0; i < 3; i++) expect((await secondStep(challenge, wrongCode())).statusCode).toBe(401);
    challenge = (await login(admin.email)).json().challengeToken;
    for (let i = 0; i < 2; i++) expect((await secondStep(challenge, wrongCode())).statusCode).toBe(401);
    challenge = (await login(admin.email)).json().challengeToken;
    const limited = await secondStep(challenge, codeOf(secret));
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // A burst of guesses compares at most the limit and answers 429 for the rest.
    t.clock.advance(TWO_FACTOR.windowMinutes * MINUTE + 1);
    const burstChallenges = await Promise.all(
      Array.from({ length: 4 }, async () => (await login(admin.email)).json().challengeToken as string),
    );
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => secondStep(burstChallenges[i % 4], String(100000 + i))),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(TWO_FACTOR.maxFailures);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20 - TWO_FACTOR.maxFailures);
    // Once the window is over, the right code works.
    t.clock.advance(TWO_FACTOR.windowMinutes * MINUTE + 1);
    challenge = (await login(admin.email)).json().challengeToken;
    expect((await secondStep(challenge, codeOf(secret))).statusCode).toBe(200);
  });

  it('a challenge dies after 5 wrong codes and after 5 minutes', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { secret } = await enrol(admin);
    nextStep();
    const challenge = (await login(admin.email)).json().challengeToken;
    t.clock.advance(TWO_FACTOR.challengeMinutes * MINUTE + 1);
    const late = await secondStep(challenge, codeOf(secret));
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(twoFactorMessages.challengeExpired);
  });

  it('a recovery code signs in once, in any case and with or without its dash', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    const { recoveryCodes } = await enrol(lawyer);
    const [code] = recoveryCodes;
    let challenge = (await login(lawyer.email)).json().challengeToken;
    expect((await secondStep(challenge, code.toUpperCase().replace('-', ''))).statusCode).toBe(200);
    challenge = (await login(lawyer.email)).json().challengeToken;
    expect((await secondStep(challenge, code)).statusCode).toBe(401);
    expect((await inject('GET', '/api/two-factor', lawyer)).json().data.recoveryCodesLeft).toBe(9);
  });

  it('actions on money ask for a code again after 15 minutes (428), and a fresh code lets them through', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const plain = await signupAndLogin(t, 'admin');
    const account = { accountNumber: '0123456789', accountName: 'LegalMarket Ltd', bank: 'Zenith Bank' };
    const job = await insertJob(t, (await signupAndLogin(t, 'company')).id, { status: 'pending' });
    const { secret } = await enrol(admin);
    // Enrolling proved a code in this session: money actions go through.
    expect((await inject('PUT', '/api/admin/settlement-account', admin, account)).statusCode).toBe(200);
    t.clock.advance(TWO_FACTOR.stepUpMinutes * MINUTE - 1000);
    expect((await inject('PUT', '/api/admin/settlement-account', admin, account)).statusCode).toBe(200);
    t.clock.advance(2000);
    for (const [method, url, body] of [
      ['PUT', '/api/admin/settlement-account', account],
      ['PUT', '/api/admin/money-settings', { commissionPercent: 20, holdDays: 7 }],
      ['POST', '/api/admin/refunds/nope/retry', {}],
      ['POST', '/api/admin/payouts/nope/approve', {}],
      ['POST', '/api/admin/payouts/approve', { ids: [crypto.randomUUID()] }],
      ['POST', '/api/admin/payouts/nope/reject', { reason: 'Wrong account' }],
      // An admin's cancel opens a refund.
      ['POST', `/job-api/jobs/${job.id}/actions/cancel`, { refund: 0 }],
    ] as const) {
      const res = await inject(method, url, admin, body);
      expect(res.statusCode, url).toBe(TWO_FACTOR.stepUpStatus);
      expect(res.json().message).toBe(twoFactorMessages.stepUpRequired);
    }
    // An admin without two-factor is not asked (enrolment is each account's choice).
    expect((await inject('PUT', '/api/admin/settlement-account', plain, account)).statusCode).toBe(200);
    const wrong = await inject('POST', '/api/two-factor/verify', admin, {
      code: codeOf(secret) === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect((await inject('PUT', '/api/admin/settlement-account', admin, account)).statusCode).toBe(428);
    nextStep();
    expect((await inject('POST', '/api/two-factor/verify', admin, { code: codeOf(secret) })).statusCode).toBe(200);
    expect((await inject('PUT', '/api/admin/settlement-account', admin, account)).statusCode).toBe(200);
    // Other job actions are not money: a message goes through without a code.
    t.clock.advance(TWO_FACTOR.stepUpMinutes * MINUTE + 1000);
    const message = await inject('POST', `/job-api/jobs/${job.id}/actions/message`, admin, { note: 'Checking in' });
    expect(message.statusCode).not.toBe(428);
    // The check belongs to the session: another sign-in of the same admin proved its own code.
    nextStep();
    const challenge = (await login(admin.email)).json().challengeToken;
    const other = (await secondStep(challenge, codeOf(secret))).json();
    const otherSession = { headers: { authorization: `Bearer ${other.token}` } };
    expect((await inject('PUT', '/api/admin/settlement-account', otherSession, account)).statusCode).toBe(200);
    // Verifying without two-factor on is a 409.
    expect((await inject('POST', '/api/two-factor/verify', plain, { code: '123456' })).statusCode).toBe(409);
  });

  it('turning it off needs a right code; then sign-in answers a token again', async () => {
    const company = await signupAndLogin(t, 'company');
    const { secret } = await enrol(company);
    nextStep();
    const bad = await inject('POST', '/api/two-factor/disable', company, {
      code: codeOf(secret) === '000000' ? '111111' : '000000',
    });
    expect(bad.statusCode).toBe(400);
    expect((await inject('POST', '/api/two-factor/disable', company, { code: codeOf(secret) })).statusCode).toBe(200);
    expect((await inject('GET', '/api/two-factor', company)).json().data.enabled).toBe(false);
    expect((await login(company.email)).json().token).toBeTruthy();
    expect((await inject('POST', '/api/two-factor/disable', company, { code: codeOf(secret) })).statusCode).toBe(409);
    const [u] = await t.rt.database.db.select().from(users).where(eq(users.id, company.id));
    expect(u).toBeTruthy();
    expect(await t.rt.database.db.select().from(twoFactor).where(eq(twoFactor.userId, company.id))).toHaveLength(0);
  });

  it('two sign-ins with the same code at the same moment: exactly one is accepted', async () => {
    const admin = await signupAndLogin(t, 'admin');
    const { secret } = await enrol(admin);
    for (let round = 0; round < 5; round++) {
      nextStep();
      const [a, b] = await Promise.all([login(admin.email), login(admin.email)]);
      const code = codeOf(secret);
      const answers = await Promise.all([
        secondStep(a.json().challengeToken, code),
        secondStep(b.json().challengeToken, code),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
      expect(answers.filter((r) => r.json().token).length).toBe(1);
    }
  });

  it('tells the owner by e-mail when two-factor is turned on and when it is turned off', async () => {
    // Whoever holds the password can turn it on and keep the recovery codes (the owner is then shut out),
    // or turn it off: neither may happen without the sign-in address hearing of it.
    const lawyer = await signupAndLogin(t, 'lawyer');
    const { secret } = await enrol(lawyer);
    const on = await lastMailTo(t, lawyer.email);
    expect(on?.subject).toBe('Two-factor authentication was turned on for your LegalMarket account');
    expect(on?.text).toContain('/password-reset');
    nextStep();
    expect((await inject('POST', '/api/two-factor/disable', lawyer, { code: codeOf(secret) })).statusCode).toBe(200);
    const off = await lastMailTo(t, lawyer.email);
    expect(off?.subject).toBe('Two-factor authentication was turned off for your LegalMarket account');
    expect(off?.id).not.toBe(on?.id);
  });
});
