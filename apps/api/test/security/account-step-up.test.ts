import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { messages, privacyMessages, TWO_FACTOR, twoFactorMessages } from '@legalmarket/contracts';
import { oneTimeTokens, payoutDetails, sessions, twoFactor, users } from '../../src/db/schema.js';
import { createAuth, type Auth } from '../../src/platform/auth.js';
import { tokenHasher } from '../../src/platform/tokens.js';
import { createAccountsService } from '../../src/features/accounts/service.js';
import { multipart } from '../upload-helpers.js';
import {
  PASSWORD,
  companyBody,
  createTestApp,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
  otherConnection,
} from '../helpers.js';
import { twoFactorKit } from '../two-factor-kit.js';

/**
 * "A session that can move the sign-in e-mail and with it the payouts": what a stolen session of an
 * account with two-factor on can still do, what survives a change of the account's keys, and the
 * e-mail change's links as an attacker uses them (decisions 2180 and 2181). Written from the OpenAPI
 * descriptions and decision 2020's 428 flow, as a client that knows only those would call.
 */

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
type Method = 'GET' | 'POST' | 'PATCH';
const MINUTE = 60_000;
const ACCOUNT = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Access Bank' };
const OTHER_ACCOUNT = { accountNumber: '0987654321', accountName: 'Chidi Okeke', bank: 'Access Bank' };

/** What every suite below does through the API. */
function kit(app: () => TestApp) {
  const t = () => app();
  const db = () => t().rt.database.db;
  const call = (method: Method, url: string, who: { headers: Record<string, string> } | null, payload?: object) =>
    t().app.inject({ method, url, headers: who?.headers ?? {}, payload });
  const patch = async (who: Login, fields: Array<[string, string]>) => {
    const body = await multipart(fields.map(([name, value]) => ({ name, value })));
    return t().app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };
  /** Asks for a new sign-in address with the right password. */
  const askEmailChange = (who: Login, to: string) =>
    patch(who, [
      ['officialEmail', to],
      ['currentPassword', PASSWORD],
    ]);
  // Another device's session (an account without two-factor), the app's codes and the next 30 s step.
  const { me, login, anotherSession, codeOf, nextStep, mailsTo } = twoFactorKit(app);
  /** Enrols an authenticator through the API (which stamps this session's step-up); answers its secret. */
  const enrol = async (who: Login) => {
    const setup = await call('POST', '/api/two-factor/setup', who, { password: PASSWORD });
    expect(setup.statusCode).toBe(200);
    const secret = setup.json().data.secret as string;
    expect((await call('POST', '/api/two-factor/enable', who, { code: codeOf(secret) })).statusCode).toBe(200);
    return secret;
  };
  /** What a thief holds: a session whose last code is older than the step-up window. */
  const goStale = () => t().clock.advance((TWO_FACTOR.stepUpMinutes + 1) * MINUTE);
  const stepUp = async (who: Login, secret: string) => {
    nextStep();
    expect((await call('POST', '/api/two-factor/verify', who, { code: codeOf(secret) })).statusCode).toBe(200);
  };
  const emailOf = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0].officialEmail;
  const pendingChanges = (userId: string) =>
    db()
      .select()
      .from(oneTimeTokens)
      .where(
        and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'email_change'), isNull(oneTimeTokens.usedAt)),
      );
  const liveSessions = async (userId: string) =>
    (
      await db()
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    ).map((s) => s.id);
  /** The session id a bearer token names. */
  const sessionOf = (who: Login) =>
    JSON.parse(Buffer.from(who.token.split('.')[1], 'base64url').toString()).sid as string;
  const confirmToken = async (to: string) => linkToken((await lastMailTo(t(), to))!.text)!;
  const confirm = (token: string, who: Login | null = null) =>
    call('POST', '/api/confirm-email-change', who, { token });

  return {
    db,
    call,
    patch,
    askEmailChange,
    me,
    login,
    anotherSession,
    codeOf,
    nextStep,
    enrol,
    goStale,
    stepUp,
    emailOf,
    mailsTo,
    pendingChanges,
    liveSessions,
    sessionOf,
    confirmToken,
    confirm,
  };
}

describeEachDb('a stolen session of an account with two-factor on (decision 2180)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  const k = kit(() => t);

  it('cannot ask for a new sign-in e-mail without a fresh code, even with the password, nor test passwords there', async () => {
    const owner = await signupAndLogin(t, 'company');
    const secret = await k.enrol(owner);
    k.goStale();
    const thiefInbox = uniqueEmail('thief');
    const res = await k.patch(owner, [
      ['officialEmail', thiefInbox],
      ['currentPassword', PASSWORD],
      ['website', 'https://moved.ng'],
    ]);
    expect(res.statusCode).toBe(TWO_FACTOR.stepUpStatus);
    expect(res.json().message).toBe(twoFactorMessages.stepUpRequired);
    // Nothing saved, nothing mailed, nothing pending.
    const [row] = await k.db().select().from(users).where(eq(users.id, owner.id));
    expect(row.website).toBeNull();
    expect(await k.mailsTo(thiefInbox)).toEqual([]);
    expect(await k.pendingChanges(owner.id)).toEqual([]);
    // The password is not looked at before the code: guesses answer 428, not 403, and cost no login try.
    for (let i = 0; i < 12; i++) {
      const guess = await k.patch(owner, [
        ['officialEmail', thiefInbox],
        ['currentPassword', `Wrong!Pass${i}`],
      ]);
      expect(guess.statusCode).toBe(TWO_FACTOR.stepUpStatus);
    }
    const signIn = await k.login(owner.email);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().twoFactorRequired).toBe(true);
    // Every other edit, and the spec's form sending the current address, asks for no code.
    const ordinary = await k.patch(owner, [
      ['officialEmail', owner.email.toUpperCase()],
      ['yourBio', 'Still us'],
    ]);
    expect(ordinary.statusCode).toBe(200);
    // With a fresh code the same form goes through: the owner's own change.
    await k.stepUp(owner, secret);
    expect((await k.askEmailChange(owner, thiefInbox)).statusCode).toBe(200);
    expect(await k.confirmToken(thiefInbox)).toBeTruthy();
  });

  it('cannot delete the account without a fresh code, even with the password', async () => {
    const owner = await signupAndLogin(t, 'company');
    const secret = await k.enrol(owner);
    k.goStale();
    for (const password of [PASSWORD, 'Wrong!Pass1']) {
      const res = await k.call('POST', '/api/account/delete', owner, { password });
      expect(res.statusCode).toBe(TWO_FACTOR.stepUpStatus);
      expect(res.json().message).toBe(twoFactorMessages.stepUpRequired);
    }
    const [row] = await k.db().select().from(users).where(eq(users.id, owner.id));
    expect(row.deletedAt).toBeNull();
    expect((await k.me(owner)).statusCode).toBe(200);
    await k.stepUp(owner, secret);
    const deleted = await k.call('POST', '/api/account/delete', owner, { password: PASSWORD });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe(privacyMessages.accountDeleted);
  });

  it('of a lawyer can change neither the payout account nor turn two-factor off, and sets no password', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await k.call('POST', '/api/add-payment-details', lawyer, ACCOUNT)).statusCode).toBe(201);
    await k.enrol(lawyer);
    k.goStale();
    // Even holding the code mailed to the owner, the change asks for the authenticator first.
    expect((await k.call('POST', '/api/send-otp', lawyer)).statusCode).toBe(200);
    const mailed = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    expect((await k.call('POST', '/api/confirm-otp', lawyer, { otp: mailed })).statusCode).toBe(200);
    const edit = await k.call('PATCH', '/api/edit-payment-details', lawyer, OTHER_ACCOUNT);
    expect(edit.statusCode).toBe(TWO_FACTOR.stepUpStatus);
    const add = await k.call('POST', '/api/add-payment-details', lawyer, OTHER_ACCOUNT);
    expect(add.statusCode).toBe(TWO_FACTOR.stepUpStatus);
    const [saved] = await k.db().select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyer.id));
    expect(saved.accountNumber).toBe(ACCOUNT.accountNumber);
    // Turning two-factor off takes a code of its own.
    for (const code of ['', '000000', 'aaaaa-bbbbb']) {
      const off = await k.call('POST', '/api/two-factor/disable', lawyer, { code });
      expect(off.statusCode).toBe(400);
    }
    expect((await k.call('GET', '/api/two-factor', lawyer)).json().data.enabled).toBe(true);
    // No call sets a password on the strength of a session: the session's token is no reset token.
    const reset = await k.call(
      'PATCH',
      `/api/reset-password?userEmail=${encodeURIComponent(lawyer.email)}&token=${lawyer.token}`,
      lawyer,
      { password: 'N3w!Passw0rd', passwordConfirm: 'N3w!Passw0rd' },
    );
    expect(reset.statusCode).toBe(400);
    expect((await k.login(lawyer.email)).json().twoFactorRequired).toBe(true);
  });

  it("the development shortcut forgets only the caller's own last code, so a journey meets the step-up", async () => {
    const owner = await signupAndLogin(t, 'company');
    await k.enrol(owner);
    const forgot = await k.call('POST', '/dev/two-factor/forget-code', owner);
    expect(forgot.statusCode).toBe(200);
    const res = await k.call('POST', '/api/account/delete', owner, { password: PASSWORD });
    expect(res.statusCode).toBe(TWO_FACTOR.stepUpStatus);
    expect((await k.call('POST', '/dev/two-factor/forget-code', null)).statusCode).toBe(401);
  });

  it('asks an account without two-factor for no code (the spec client is unchanged)', async () => {
    const owner = await signupAndLogin(t, 'company');
    t.clock.advance(60 * MINUTE);
    expect((await k.askEmailChange(owner, uniqueEmail('plain'))).statusCode).toBe(200);
    expect((await k.call('POST', '/api/account/delete', owner, { password: PASSWORD })).statusCode).toBe(200);
  });
});

describeEachDb('other sessions end when the keys of the account change (decision 2181)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  const k = kit(() => t);

  it('turning two-factor on ends every other session, not the one that turned it on', async () => {
    const owner = await signupAndLogin(t, 'company');
    const elsewhere = await k.anotherSession(owner);
    const setup = await k.call('POST', '/api/two-factor/setup', owner, { password: PASSWORD });
    // Waiting for its first code, nothing is on yet and nobody is signed out.
    expect((await k.me(elsewhere)).statusCode).toBe(200);
    const code = k.codeOf(setup.json().data.secret as string);
    expect((await k.call('POST', '/api/two-factor/enable', owner, { code })).statusCode).toBe(200);
    expect((await k.me(elsewhere)).statusCode).toBe(401);
    expect((await k.me(owner)).statusCode).toBe(200);
    expect(await k.liveSessions(owner.id)).toEqual([k.sessionOf(owner)]);
  });

  it('a confirmed new sign-in e-mail ends every other session; the session that asked stays', async () => {
    const owner = await signupAndLogin(t, 'company');
    const before = await k.anotherSession(owner);
    const next = uniqueEmail('moved');
    expect((await k.askEmailChange(owner, next)).statusCode).toBe(200);
    // Asking changes nothing yet: the other devices stay.
    expect((await k.me(before)).statusCode).toBe(200);
    const during = await k.anotherSession(owner);
    expect((await k.confirm(await k.confirmToken(next))).statusCode).toBe(200);
    expect((await k.me(before)).statusCode).toBe(401);
    expect((await k.me(during)).statusCode).toBe(401);
    const kept = await k.me(owner);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().officialEmail).toBe(next);
    expect(await k.liveSessions(owner.id)).toEqual([k.sessionOf(owner)]);
  });

  it('codes mailed to the old address and half-done two-factor sign-ins die with the change', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await k.call('POST', '/api/add-payment-details', lawyer, ACCOUNT)).statusCode).toBe(201);
    const secret = await k.enrol(lawyer);
    // Left in the old inbox: a reset code and a payout code; and a sign-in waiting for its code.
    expect((await k.call('POST', '/api/forgot-password', null, { officialEmail: lawyer.email })).statusCode).toBe(200);
    const resetCode = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    expect((await k.call('POST', '/api/send-otp', lawyer)).statusCode).toBe(200);
    const payoutCode = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    const challengeToken = (await k.login(lawyer.email)).json().challengeToken as string;
    expect(challengeToken).toBeTruthy();

    const next = uniqueEmail('moved');
    expect((await k.askEmailChange(lawyer, next)).statusCode).toBe(200);
    expect((await k.confirm(await k.confirmToken(next))).statusCode).toBe(200);

    const reset = await k.call('POST', '/api/confirm-reset-token', null, { officialEmail: next, token: resetCode });
    expect(reset.statusCode).toBe(400);
    expect((await k.call('POST', '/api/confirm-otp', lawyer, { otp: payoutCode })).statusCode).toBe(400);
    k.nextStep();
    const second = await k.call('POST', '/api/login/two-factor', null, { challengeToken, code: k.codeOf(secret) });
    expect(second.statusCode).toBe(401);
    expect(second.json().message).toBe(twoFactorMessages.challengeExpired);
    expect((await k.me(lawyer)).statusCode).toBe(200);
  });

  it("a link confirmed while signed in as someone else moves only the link's account", async () => {
    const owner = await signupAndLogin(t, 'company');
    const elsewhere = await k.anotherSession(owner);
    const bystander = await signupAndLogin(t, 'lawyer');
    const next = uniqueEmail('moved');
    expect((await k.askEmailChange(owner, next)).statusCode).toBe(200);
    expect((await k.confirm(await k.confirmToken(next), bystander)).statusCode).toBe(200);
    expect(await k.emailOf(owner.id)).toBe(next);
    expect(await k.emailOf(bystander.id)).toBe(bystander.email);
    expect((await k.me(bystander)).statusCode).toBe(200);
    expect((await k.me(owner)).statusCode).toBe(200);
    expect((await k.me(elsewhere)).statusCode).toBe(401);
  });

  it('when the session that asked has signed out, the confirmation ends every session', async () => {
    const owner = await signupAndLogin(t, 'company');
    const elsewhere = await k.anotherSession(owner);
    const next = uniqueEmail('moved');
    expect((await k.askEmailChange(owner, next)).statusCode).toBe(200);
    expect((await k.call('POST', '/api/logout', owner)).statusCode).toBe(200);
    expect((await k.confirm(await k.confirmToken(next))).statusCode).toBe(200);
    expect((await k.me(elsewhere)).statusCode).toBe(401);
    expect(await k.liveSessions(owner.id)).toEqual([]);
    expect((await k.login(next)).statusCode).toBe(200);
  });

  it('a password reset ends every session (no session made it)', async () => {
    const owner = await signupAndLogin(t, 'company');
    const elsewhere = await k.anotherSession(owner);
    await k.call('POST', '/api/forgot-password', null, { officialEmail: owner.email });
    const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
    const grant = await k.call('POST', '/api/confirm-reset-token', null, { officialEmail: owner.email, token: code });
    const done = await k.call(
      'PATCH',
      `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant.json().resetToken}`,
      null,
      { password: 'N3w!Passw0rd', passwordConfirm: 'N3w!Passw0rd' },
    );
    expect(done.statusCode).toBe(200);
    expect((await k.me(owner)).statusCode).toBe(401);
    expect((await k.me(elsewhere)).statusCode).toBe(401);
  });

  /** The accounts service with an `issue` that lets `meanwhile` run after the password was checked. */
  function accountsWith(meanwhile: () => Promise<void>) {
    const db = t.rt.database.db;
    const auth = createAuth({ db, secret: t.rt.secret, clock: t.clock, ttlHours: 12 });
    const slowAuth: Auth = {
      ...auth,
      async issue(user, guard) {
        await meanwhile();
        return auth.issue(user, guard);
      },
    };
    const accounts = createAccountsService({
      db,
      auth: slowAuth,
      clock: t.clock,
      hashToken: tokenHasher(t.rt.secret),
      publicUrl: t.config.PUBLIC_URL,
      supportEmail: t.config.SUPPORT_EMAIL,
      mailWritten: () => undefined,
      securityLog: () => undefined,
    });
    const secondFactorOn = async (userId: string) =>
      (await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)))[0]?.enabledAt != null;
    return { login: (email: string) => accounts.login(email, PASSWORD, '203.0.113.7', secondFactorOn) };
  }

  it('a sign-in whose password was checked before two-factor went on gets the code question, not a session', async () => {
    const owner = await signupAndLogin(t, 'company');
    const setup = await k.call('POST', '/api/two-factor/setup', owner, { password: PASSWORD });
    const secret = setup.json().data.secret as string;
    const { login } = accountsWith(async () => {
      const on = await k.call('POST', '/api/two-factor/enable', owner, { code: k.codeOf(secret) });
      expect(on.statusCode).toBe(200);
    });
    const result = await login(owner.email);
    expect(result).toMatchObject({ ok: true, secondFactor: true });
    expect(await k.liveSessions(owner.id)).toEqual([k.sessionOf(owner)]);
  });

  it('a sign-in with the old address whose password was checked before the change was confirmed gets no session', async () => {
    const owner = await signupAndLogin(t, 'company');
    const next = uniqueEmail('moved');
    expect((await k.askEmailChange(owner, next)).statusCode).toBe(200);
    const token = await k.confirmToken(next);
    const { login } = accountsWith(async () => {
      expect((await k.confirm(token)).statusCode).toBe(200);
    });
    await expect(login(owner.email)).rejects.toMatchObject({ statusCode: 401, message: messages.invalidCredentials });
    expect(await k.liveSessions(owner.id)).toEqual([k.sessionOf(owner)]);
  });

  // The change is under way on another connection (row updated, other sessions revoked, not committed)
  // while a sign-in writes its session: it must wait for it and be refused, or its session outlives it.
  it.runIf(kind === 'postgres')(
    'a password sign-in racing two-factor being turned on, on another connection, is asked for the code',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      expect((await k.call('POST', '/api/two-factor/setup', owner, { password: PASSWORD })).statusCode).toBe(200);
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [owner.id]);
        await other.query('update two_factor set enabled_at = now() where user_id = $1', [owner.id]);
        await other.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [
          owner.id,
        ]);
        const signIn = k.login(owner.email);
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const res = await signIn;
        expect(res.statusCode).toBe(200);
        expect(res.json().twoFactorRequired).toBe(true);
        expect(res.json().token).toBeUndefined();
        expect(await k.liveSessions(owner.id)).toEqual([]);
      } finally {
        await other.end();
      }
    },
  );

  it.runIf(kind === 'postgres')(
    'a sign-in with the old address racing the confirmation on another connection gets no session',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('update users set official_email = $2 where id = $1', [owner.id, uniqueEmail('moved')]);
        await other.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [
          owner.id,
        ]);
        const signIn = k.login(owner.email);
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const res = await signIn;
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toBe(messages.invalidCredentials);
        expect(await k.liveSessions(owner.id)).toEqual([]);
      } finally {
        await other.end();
      }
    },
  );
});

describeEachDb('the e-mail change links, used as an attacker would', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  const k = kit(() => t);

  it('a confirmation link sent many times at once moves the address once', async () => {
    const owner = await signupAndLogin(t, 'company');
    const next = uniqueEmail('burst');
    expect((await k.askEmailChange(owner, next)).statusCode).toBe(200);
    const token = await k.confirmToken(next);
    const answers = await Promise.all(Array.from({ length: 6 }, () => k.confirm(token)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await k.emailOf(owner.id)).toBe(next);
    const notices = (await k.mailsTo(owner.email)).filter((m) => /sign-in address was changed/.test(m.subject));
    expect(notices).toHaveLength(1);
  });

  it('an address in other case is the same address: its owner is told and no link is sent', async () => {
    const asker = await signupAndLogin(t, 'company');
    const holder = await signupAndLogin(t, 'lawyer');
    const res = await k.askEmailChange(asker, holder.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const notice = await lastMailTo(t, holder.email);
    expect(notice?.subject).toMatch(/Someone tried to use your email address/);
    expect(linkToken(notice!.text)).toBeUndefined();
    expect(await k.mailsTo(holder.email.toUpperCase())).toEqual([]);
    expect(await k.pendingChanges(asker.id)).toEqual([]);
  });

  it('look-alike addresses in other scripts or widths are refused, not taken as another mailbox', async () => {
    const asker = await signupAndLogin(t, 'company');
    const [local, domain] = asker.email.split('@');
    for (const lookAlike of [
      `${local.replace('c', '\u0441')}@${domain}`, // Cyrillic es
      `\uff43${local.slice(1)}@${domain}`, // fullwidth c
      `${local}\u200b@${domain}`, // zero-width space
    ]) {
      const res = await k.askEmailChange(asker, lookAlike);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please enter a valid email address');
    }
    expect(await k.pendingChanges(asker.id)).toEqual([]);
  });

  it('an address a sign-up holds, confirmed or not, is taken; one signed up while a change waits wins it', async () => {
    const asker = await signupAndLogin(t, 'company');
    const elsewhere = await k.anotherSession(asker);
    const held = uniqueEmail('held');
    expect((await k.call('POST', '/api/company/signup', null, companyBody(held))).statusCode).toBe(201);
    expect((await k.askEmailChange(asker, held)).statusCode).toBe(200);
    expect((await lastMailTo(t, held))?.subject).toMatch(/Someone tried to use your email address/);
    expect(await k.pendingChanges(asker.id)).toEqual([]);

    const free = uniqueEmail('free');
    expect((await k.askEmailChange(asker, free)).statusCode).toBe(200);
    const token = await k.confirmToken(free);
    expect((await k.call('POST', '/api/company/signup', null, companyBody(free))).statusCode).toBe(201);
    const late = await k.confirm(token);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(messages.emailTaken);
    // Nothing changed, so nobody is signed out.
    expect(await k.emailOf(asker.id)).toBe(asker.email);
    expect((await k.me(elsewhere)).statusCode).toBe(200);
  });

  it('two accounts confirming the same new address at once: one moves, the other answers 409', async () => {
    const a = await signupAndLogin(t, 'company');
    const b = await signupAndLogin(t, 'company');
    const wanted = uniqueEmail('wanted');
    expect((await k.askEmailChange(a, wanted)).statusCode).toBe(200);
    const tokenA = await k.confirmToken(wanted);
    expect((await k.askEmailChange(b, wanted)).statusCode).toBe(200);
    const tokenB = await k.confirmToken(wanted);
    const answers = await Promise.all([k.confirm(tokenA), k.confirm(tokenB)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const moved = [await k.emailOf(a.id), await k.emailOf(b.id)].filter((e) => e === wanted);
    expect(moved).toHaveLength(1);
  });

  // A link's account is locked before its token, as a reset, a new change, an undo and an erasure lock
  // the account before they kill its links: the other order deadlocks on PostgreSQL (one side 500s).
  const links = [
    {
      name: 'the new address confirms a change',
      url: '/api/confirm-email-change',
      async tokenFor(owner: Login) {
        const next = uniqueEmail('next');
        expect((await k.askEmailChange(owner, next)).statusCode).toBe(200);
        return k.confirmToken(next);
      },
    },
    {
      name: 'the old address undoes a change',
      url: '/api/undo-email-change',
      async tokenFor(owner: Login) {
        expect((await k.askEmailChange(owner, uniqueEmail('next'))).statusCode).toBe(200);
        return k.confirmToken(owner.email);
      },
    },
  ];
  for (const link of links)
    it.runIf(kind === 'postgres')(
      `${link.name} while another connection holds the account and kills its links: no deadlock, the link is dead`,
      async () => {
        const owner = await signupAndLogin(t, 'company');
        const token = await link.tokenFor(owner);
        const other = await otherConnection(t);
        try {
          await other.query('begin');
          await other.query('select id from users where id = $1 for update', [owner.id]);
          const use = k.call('POST', link.url, null, { token });
          await new Promise((r) => setTimeout(r, 400));
          await other.query('update one_time_tokens set used_at = now() where user_id = $1 and used_at is null', [
            owner.id,
          ]);
          await other.query('commit');
          const res = await use;
          expect(res.statusCode).toBe(400);
          expect(res.json().message).toBe(messages.linkInvalid);
          expect(await k.emailOf(owner.id)).toBe(owner.email);
        } finally {
          await other.end();
        }
      },
    );

  it.runIf(kind === 'postgres')(
    'a sign-up link used while another connection holds the account and kills its links: no deadlock',
    async () => {
      const email = uniqueEmail('fresh');
      expect((await k.call('POST', '/api/company/signup', null, companyBody(email))).statusCode).toBe(201);
      const token = await k.confirmToken(email);
      const [row] = await k.db().select().from(users).where(eq(users.officialEmail, email));
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [row.id]);
        const use = k.call('POST', '/api/confirm-email', null, { token });
        await new Promise((r) => setTimeout(r, 400));
        await other.query('update one_time_tokens set used_at = now() where user_id = $1 and used_at is null', [
          row.id,
        ]);
        await other.query('commit');
        const res = await use;
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(messages.linkInvalid);
      } finally {
        await other.end();
      }
    },
  );
});
