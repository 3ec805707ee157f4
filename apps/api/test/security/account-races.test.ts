import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { messages } from '@legalmarket/contracts';
import { emailOutbox, oneTimeTokens, payoutDetails, sessions, users } from '../../src/db/schema.js';
import { createAuth, type Auth } from '../../src/platform/auth.js';
import { tokenHasher } from '../../src/platform/tokens.js';
import { createLimits } from '../../src/platform/rate-limit.js';
import { createAccountsService, type AccountsService } from '../../src/features/accounts/service.js';
import { createProfilesService } from '../../src/features/profiles/service.js';
import { createUploadsService } from '../../src/features/uploads/service.js';
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

const NEW = 'N3w!Passw0rd';

/** The whole reset flow through the API, as the owner does it. */
async function resetThroughApi(t: TestApp, email: string) {
  await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: email } });
  const code = sixDigits((await lastMailTo(t, email))!.text)!;
  const grant = await t.app.inject({
    method: 'POST',
    url: '/api/confirm-reset-token',
    payload: { officialEmail: email, token: code },
  });
  const done = await t.app.inject({
    method: 'PATCH',
    url: `/api/reset-password?userEmail=${encodeURIComponent(email)}&token=${grant.json().resetToken}`,
    payload: { password: NEW, passwordConfirm: NEW },
  });
  expect(done.statusCode).toBe(200);
}

/**
 * Sign-in and the changes that end every session (password reset, erasure): what is checked before a
 * slow step must still hold when the session is written. An attacker who knows the old password can
 * keep signing in while the owner resets it; the one sign-in that straddles the reset must not survive.
 */
describeEachDb('sessions started while the password changes', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  const twoFactor = twoFactorKit(() => t);

  const db = () => t.rt.database.db;
  const liveSessions = (userId: string) =>
    db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));

  const resetPassword = (email: string) => resetThroughApi(t, email);

  it('one reset token sent by many requests at once sets the password once, and one code gives one token', async () => {
    const owner = await signupAndLogin(t, 'company');
    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: owner.email } });
    const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
    const grants = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/confirm-reset-token',
          payload: { officialEmail: owner.email, token: code },
        }),
      ),
    );
    expect(grants.filter((g) => g.statusCode === 200)).toHaveLength(1);
    const grant = grants.find((g) => g.statusCode === 200)!.json().resetToken as string;
    const passwords = Array.from({ length: 8 }, (_, i) => `Rac3!Pass${i}`);
    const answers = await Promise.all(
      passwords.map((password) =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant}`,
          payload: { password, passwordConfirm: password },
        }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(passwords.length - 1);
    const winner = passwords[answers.findIndex((a) => a.statusCode === 200)];
    const signIn = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { officialEmail: owner.email, password } });
    expect((await signIn(winner)).statusCode).toBe(200);
    expect((await signIn(passwords.find((p) => p !== winner)!)).statusCode).toBe(401);
  });

  /** The accounts service with an `issue` that lets `meanwhile` run after the password was checked. */
  function accountsWith(meanwhile: () => Promise<void>) {
    const auth = createAuth({ db: db(), secret: t.rt.secret, clock: t.clock, ttlHours: 12 });
    const slowAuth: Auth = {
      ...auth,
      async issue(user, guard) {
        await meanwhile();
        return auth.issue(user, guard);
      },
    };
    return createAccountsService({
      db: db(),
      auth: slowAuth,
      clock: t.clock,
      hashToken: tokenHasher(t.rt.secret),
      publicUrl: t.config.PUBLIC_URL,
      supportEmail: t.config.SUPPORT_EMAIL,
      mailWritten: () => undefined,
      securityLog: () => undefined,
    });
  }

  it('a sign-in with the old password gets no session when the reset commits after the password was checked', async () => {
    const owner = await signupAndLogin(t, 'company');
    const accounts = accountsWith(() => resetPassword(owner.email));
    await expect(accounts.login(owner.email, PASSWORD, '203.0.113.5')).rejects.toMatchObject({
      statusCode: 401,
      message: messages.invalidCredentials,
    });
    expect(await liveSessions(owner.id)).toEqual([]);
  });

  it('a sign-in gets no session when the account is erased after the password was checked', async () => {
    const owner = await signupAndLogin(t, 'company');
    const accounts = accountsWith(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/account/delete',
        headers: owner.headers,
        payload: { password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
    });
    await expect(accounts.login(owner.email, PASSWORD, '203.0.113.5')).rejects.toMatchObject({ statusCode: 401 });
    expect(await liveSessions(owner.id)).toEqual([]);
  });

  // The reset's transaction is under way (row updated, sessions revoked, not committed) while a sign-in
  // with the old password writes its session: the sign-in must wait for it and then be refused, or its
  // session would be written after the revocation and outlive the reset. PGlite has one connection.
  it.runIf(kind === 'postgres')(
    'a sign-in racing a password reset on another connection waits for it and is refused',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query(`update users set password_hash = 'reset-elsewhere' where id = $1`, [owner.id]);
        await other.query(`update sessions set revoked_at = now() where user_id = $1 and revoked_at is null`, [
          owner.id,
        ]);
        const login = t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { officialEmail: owner.email, password: PASSWORD },
        });
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const res = await login;
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toBe(messages.invalidCredentials);
        expect(await liveSessions(owner.id)).toEqual([]);
      } finally {
        await other.end();
      }
    },
  );

  // The second step of a two-factor sign-in checks the code, uses the challenge and writes the session:
  // a password reset that locks the row meanwhile (then kills the challenges and revokes every session)
  // must leave it without a session, not with one written after the revocation.
  it.runIf(kind === 'postgres')(
    'a two-factor sign-in racing a password reset on another connection gets no session',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const { codeNow, enable } = await twoFactor.turnOn(owner);
      expect(enable.statusCode).toBe(200);
      t.clock.advance(30_000);
      const first = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: owner.email, password: PASSWORD },
      });
      const challengeToken = first.json().challengeToken as string;
      expect(challengeToken).toBeTruthy();

      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('select id from users where id = $1 for update', [owner.id]);
        const second = t.app.inject({
          method: 'POST',
          url: '/api/login/two-factor',
          payload: { challengeToken, code: codeNow() },
        });
        await new Promise((r) => setTimeout(r, 400));
        await other.query(`update users set password_hash = 'reset-elsewhere' where id = $1`, [owner.id]);
        await other.query('update one_time_tokens set used_at = now() where user_id = $1 and used_at is null', [
          owner.id,
        ]);
        await other.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [
          owner.id,
        ]);
        await other.query('commit');
        const res = await second;
        expect(res.statusCode).toBe(401);
        expect(await liveSessions(owner.id)).toEqual([]);
      } finally {
        await other.end();
      }
    },
  );

  // The reset uses its grant and writes the account's row; forgot-password (decision 2221), like every
  // writer that kills an account's tokens, locks the row first and then kills the grant. Taken in the
  // other order, each waits for the other until PostgreSQL ends one (40P01, answered 409). Another
  // connection holds the users table in SHARE mode (row locks are still granted, row updates wait), so
  // the reset holds its grant and waits to write the row while forgot-password takes the row first.
  it.runIf(kind === 'postgres')(
    'a password reset and a new code asked for at the same moment both go through (decision 2225)',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: owner.email } });
      const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
      const grant = await t.app.inject({
        method: 'POST',
        url: '/api/confirm-reset-token',
        payload: { officialEmail: owner.email, token: code },
      });
      expect(grant.statusCode).toBe(200);
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('lock table users in share mode');
        const reset = t.app.inject({
          method: 'PATCH',
          url: `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant.json().resetToken}`,
          payload: { password: NEW, passwordConfirm: NEW },
        });
        await new Promise((r) => setTimeout(r, 400));
        const again = t.app.inject({
          method: 'POST',
          url: '/api/forgot-password',
          payload: { officialEmail: owner.email },
        });
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const [resetRes, againRes] = await Promise.all([reset, again]);
        expect(resetRes.statusCode, resetRes.body).toBe(200);
        expect(againRes.statusCode, againRes.body).toBe(200);
        const signIn = await t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { officialEmail: owner.email, password: NEW },
        });
        expect(signIn.statusCode).toBe(200);
      } finally {
        await other.query('rollback').catch(() => undefined);
        await other.end();
      }
    },
  );
});

/**
 * Changing the sign-in address checks the current password, then writes a pending change in a
 * transaction. A password reset or the owner's undo link (each kills every pending link and ends every
 * session) that commits in between must not leave a change written after it: whoever knew the old
 * password could otherwise keep sending changes until one straddled the owner's reset.
 */
describeEachDb('a change of sign-in address racing a reset or an undo', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const db = () => t.rt.database.db;
  type Login = Awaited<ReturnType<typeof signupAndLogin>>;
  const pendingChanges = (userId: string) =>
    db()
      .select()
      .from(oneTimeTokens)
      .where(
        and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'email_change'), isNull(oneTimeTokens.usedAt)),
      );
  const patch = async (who: Login, fields: Array<[string, string]>) => {
    const body = await multipart(fields.map(([name, value]) => ({ name, value })));
    return t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...body.headers },
      payload: body.payload,
    });
  };

  const resetPassword = (email: string) => resetThroughApi(t, email);

  /** The profiles service, whose password check lets `meanwhile` run after the password was found right. */
  function profilesWith(meanwhile: () => Promise<void>) {
    const hashToken = tokenHasher(t.rt.secret);
    const auth = createAuth({ db: db(), secret: t.rt.secret, clock: t.clock, ttlHours: 12 });
    const real = createAccountsService({
      db: db(),
      auth,
      clock: t.clock,
      hashToken,
      publicUrl: t.config.PUBLIC_URL,
      supportEmail: t.config.SUPPORT_EMAIL,
      mailWritten: () => undefined,
      securityLog: () => undefined,
    });
    const accounts: AccountsService = {
      ...real,
      async checkPassword(userId, password) {
        const checked = await real.checkPassword(userId, password);
        await meanwhile();
        return checked;
      },
    };
    const limits = createLimits(t.rt.rateLimits, {
      loginMaxFailures: 10,
      loginWindowMs: 900_000,
      ipMax: 1000,
      ipWindowMs: 900_000,
      emailActionMax: 5,
      emailActionWindowMs: 900_000,
    });
    return {
      auth,
      profiles: createProfilesService({
        db: db(),
        clock: t.clock,
        config: t.config,
        limits,
        accounts,
        securityLog: () => undefined,
        mailWritten: () => undefined,
        uploads: createUploadsService({ db: db(), storage: t.rt.storage, clock: t.clock, config: t.config, hashToken }),
        // No account here has two-factor on: the step-up never applies.
        recentCode: async () => undefined,
      }),
    };
  }

  const changeTo = (email: string) => ({
    fields: new Map([
      ['officialEmail', [email]],
      ['currentPassword', [PASSWORD]],
    ]),
    file: null,
  });

  it('a password reset committed after the password check leaves no pending change', async () => {
    const owner = await signupAndLogin(t, 'company');
    const { auth, profiles } = profilesWith(() => resetPassword(owner.email));
    const me = (await auth.resolve(`Bearer ${owner.token}`))!;
    await expect(profiles.update(me, 'company', changeTo(uniqueEmail('thief')))).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(await pendingChanges(owner.id)).toEqual([]);
  });

  it("the owner's undo link used after the password check leaves no pending change", async () => {
    const owner = await signupAndLogin(t, 'company');
    // An earlier change sent the owner an undo link.
    const first = await patch(owner, [
      ['officialEmail', uniqueEmail('thief')],
      ['currentPassword', PASSWORD],
    ]);
    expect(first.statusCode).toBe(200);
    const undoToken = linkToken((await lastMailTo(t, owner.email))!.text)!;
    const { auth, profiles } = profilesWith(async () => {
      const undo = await t.app.inject({ method: 'POST', url: '/api/undo-email-change', payload: { token: undoToken } });
      expect(undo.statusCode).toBe(200);
    });
    const me = (await auth.resolve(`Bearer ${owner.token}`))!;
    await expect(profiles.update(me, 'company', changeTo(uniqueEmail('thief')))).rejects.toMatchObject({
      statusCode: 401,
    });
    expect(await pendingChanges(owner.id)).toEqual([]);
  });

  // The reset is under way on another connection (row updated, links killed, sessions revoked, not yet
  // committed) while the change's password check reads the old hash: the change must wait and refuse.
  it.runIf(kind === 'postgres')('a change racing a password reset on another connection is refused', async () => {
    const owner = await signupAndLogin(t, 'company');
    const other = await otherConnection(t);
    try {
      await other.query('begin');
      await other.query(`update users set password_hash = 'reset-elsewhere' where id = $1`, [owner.id]);
      await other.query('update one_time_tokens set used_at = now() where user_id = $1 and used_at is null', [
        owner.id,
      ]);
      await other.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [owner.id]);
      const change = patch(owner, [
        ['officialEmail', uniqueEmail('thief')],
        ['currentPassword', PASSWORD],
      ]);
      await new Promise((r) => setTimeout(r, 400));
      await other.query('commit');
      const res = await change;
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(messages.currentPasswordWrong);
      expect(await pendingChanges(owner.id)).toEqual([]);
    } finally {
      await other.end();
    }
  });
  // The address moves on another connection (the owner's undo, a confirmed change) while a reset code or
  // a confirmation link is asked for under the old one: read again under the row lock, nothing goes to
  // the inbox the account left, and the new address's own request is not held off by a live code.
  it.runIf(kind === 'postgres')('a code or link asked for while the address moves goes nowhere', async () => {
    const owner = await signupAndLogin(t, 'company');
    const unconfirmed = uniqueEmail('unconfirmed');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(unconfirmed) }))
        .statusCode,
    ).toBe(201);
    const [moved, movedToo] = [uniqueEmail('moved'), uniqueEmail('moved')];
    const other = await otherConnection(t);
    try {
      await other.query('begin');
      await other.query('update users set official_email = $1 where official_email = $2', [moved, owner.email]);
      await other.query('update users set official_email = $1 where official_email = $2', [movedToo, unconfirmed]);
      const forgot = t.app.inject({
        method: 'POST',
        url: '/api/forgot-password',
        payload: { officialEmail: owner.email },
      });
      const resend = t.app.inject({
        method: 'POST',
        url: '/api/resendconfirmemail',
        payload: { officialEmail: unconfirmed },
      });
      await new Promise((r) => setTimeout(r, 400));
      await other.query('commit');
      expect((await forgot).statusCode).toBe(200);
      expect((await resend).statusCode).toBe(200);
    } finally {
      await other.end();
    }
    const subjectsTo = async (to: string) =>
      (await t.rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id)).map(
        (m) => m.subject,
      );
    expect(await subjectsTo(owner.email)).not.toContain('Your LegalMarket password reset code');
    // The sign-up's link only: no second one for an address the account left.
    expect(await subjectsTo(unconfirmed)).toEqual(['Confirm your LegalMarket email address']);
    const forMoved = await t.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { officialEmail: moved },
    });
    expect(forMoved.statusCode).toBe(200);
    expect((await lastMailTo(t, moved))?.subject).toBe('Your LegalMarket password reset code');
  });

  /**
   * A thief who knows the password moved the sign-in address to `taken`; answers the owner's undo link
   * (mailed to the address left) and that address.
   */
  async function movedByThief(owner: Login) {
    const taken = uniqueEmail('thief');
    expect(
      (
        await patch(owner, [
          ['officialEmail', taken],
          ['currentPassword', PASSWORD],
        ])
      ).statusCode,
    ).toBe(200);
    const confirmLink = linkToken((await lastMailTo(t, taken))!.text)!;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-email-change',
      payload: { token: confirmLink },
    });
    expect(confirmed.statusCode).toBe(200);
    return { taken, undoToken: linkToken((await lastMailTo(t, owner.email))!.text)! };
  }
  const undo = (token: string) => t.app.inject({ method: 'POST', url: '/api/undo-email-change', payload: { token } });
  const login = (officialEmail: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { officialEmail, password } });
  const liveSessions = (userId: string) =>
    db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));

  // The undo is under way and slow to write the address back: another connection holds the users table
  // in SHARE mode (row locks are still granted, row updates wait). Killing the tokens and sessions in
  // one transaction and restoring the address in a second left a gap between them in which the thief
  // signed in at the address being undone and kept that session after the restore.
  it.runIf(kind === 'postgres')(
    'a sign-in at the address being undone while the undo is under way gets no session',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const { taken, undoToken } = await movedByThief(owner);
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('lock table users in share mode');
        const undone = undo(undoToken);
        await new Promise((r) => setTimeout(r, 400));
        const signIn = login(taken, PASSWORD);
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const [undoRes, signInRes] = await Promise.all([undone, signIn]);
        expect(undoRes.statusCode, undoRes.body).toBe(200);
        expect(undoRes.json().message).toBe(messages.emailChangeReverted);
        expect(signInRes.statusCode).toBe(401);
        expect(signInRes.json().message).toBe(messages.invalidCredentials);
      } finally {
        await other.query('rollback').catch(() => undefined);
        await other.end();
      }
      expect(await liveSessions(owner.id)).toEqual([]);
    },
  );

  // As above, the thief asks for a reset code at the address being undone, exchanges it for a reset
  // token and sets a password: with the undo in two transactions all of it fitted in the gap, and the
  // new password then opened the restored address.
  it.runIf(kind === 'postgres')(
    'a password reset at the address being undone while the undo is under way sets nothing',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const { taken, undoToken } = await movedByThief(owner);
      const resetCodes = async () =>
        (await db().select().from(emailOutbox).where(eq(emailOutbox.to, taken))).filter(
          (m) => m.subject === 'Your LegalMarket password reset code',
        );
      const other = await otherConnection(t);
      let resetRes: { statusCode: number } | null = null;
      try {
        await other.query('begin');
        await other.query('lock table users in share mode');
        const undone = undo(undoToken);
        await new Promise((r) => setTimeout(r, 400));
        let reached!: () => void;
        const atReset = new Promise<void>((r) => (reached = r));
        const thief = (async () => {
          await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: taken } });
          const [mail] = await resetCodes();
          if (!mail) return reached();
          const grant = await t.app.inject({
            method: 'POST',
            url: '/api/confirm-reset-token',
            payload: { officialEmail: taken, token: sixDigits(mail.text)! },
          });
          const reset = t.app.inject({
            method: 'PATCH',
            url: `/api/reset-password?userEmail=${encodeURIComponent(taken)}&token=${grant.json().resetToken}`,
            payload: { password: NEW, passwordConfirm: NEW },
          });
          reached();
          resetRes = await reset;
        })();
        // Fixed, the reset code is asked for behind the undo's row lock and never reaches the reset.
        await Promise.race([atReset, new Promise((r) => setTimeout(r, 1500))]);
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const [undoRes] = await Promise.all([undone, thief]);
        expect(undoRes.statusCode, undoRes.body).toBe(200);
        expect(undoRes.json().message).toBe(messages.emailChangeReverted);
      } finally {
        await other.query('rollback').catch(() => undefined);
        await other.end();
      }
      expect(resetRes).toBeNull();
      expect(await resetCodes()).toEqual([]);
      expect((await login(owner.email, NEW)).statusCode).toBe(401);
      expect((await login(taken, NEW)).statusCode).toBe(401);
    },
  );

  // Another account takes the old address on another connection and has not committed when the undo
  // writes it back: the undo's lookup does not see it, its write waits on the unique index, and the
  // commit refuses it. Answered as when the address was already taken (409), in a savepoint, so the
  // sessions and codes the undo ended stay ended and nothing else changes.
  it.runIf(kind === 'postgres')(
    'an undo whose old address another account takes while the undo waits answers 409 and only ends sessions',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const { taken, undoToken } = await movedByThief(owner);
      const squatter = await signupAndLogin(t, 'company');
      // A live reset code at the address the thief set: the undo kills it with the sessions.
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: taken } }))
          .statusCode,
      ).toBe(200);
      const liveCodes = () =>
        db()
          .select({ purpose: oneTimeTokens.purpose })
          .from(oneTimeTokens)
          .where(
            and(
              eq(oneTimeTokens.userId, owner.id),
              isNull(oneTimeTokens.usedAt),
              ne(oneTimeTokens.purpose, 'email_change_undo'),
            ),
          );
      expect(await liveCodes()).toEqual([{ purpose: 'password_reset' }]);
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('update users set official_email = $1 where id = $2', [owner.email, squatter.id]);
        const undone = undo(undoToken);
        await new Promise((r) => setTimeout(r, 400));
        await other.query('commit');
        const res = await undone;
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().message).toBe(messages.emailChangeRevertBlocked);
      } finally {
        await other.query('rollback').catch(() => undefined);
        await other.end();
      }
      expect(await liveSessions(owner.id)).toEqual([]);
      expect(await liveCodes()).toEqual([]);
      const addressOf = async (id: string) =>
        (await db().select({ email: users.officialEmail }).from(users).where(eq(users.id, id)))[0]?.email;
      expect(await addressOf(owner.id)).toBe(taken);
      expect(await addressOf(squatter.id)).toBe(owner.email);
      expect(await liveSessions(squatter.id)).toHaveLength(1);
      // The link is spent: used again it answers as any used link.
      expect((await undo(undoToken)).statusCode).toBe(400);
    },
  );
});

/**
 * What is mailed to a signed-in account (a payout code, the notice that two-factor went off, the notice
 * and undo link of an address change) and the notice of a password reset go to the address the account's
 * row holds under its lock when they are written, never to the one the request was read with: a confirmed
 * address change may commit in between, and the address it left is no longer the account's.
 */
describeEachDb('mail written while the sign-in address moves', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  const twoFactor = twoFactorKit(() => t);

  type Login = Awaited<ReturnType<typeof signupAndLogin>>;
  const ACCOUNT = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Access Bank' };
  const CODE_SUBJECT = 'Your LegalMarket payment details code';
  const MOVED_SUBJECT = 'Your LegalMarket sign-in address was changed';
  const OFF_SUBJECT = 'Two-factor authentication was turned off for your LegalMarket account';
  const ASKED_SUBJECT = 'A change of your LegalMarket sign-in address was requested';
  const ADDED = 'Payment details added to your LegalMarket account';
  const CHANGED = 'Your LegalMarket payment details were changed';
  const NEW_ACCOUNT = { accountNumber: '9876543219', accountName: 'Chidi Okeke', bank: 'Access Bank' };
  const db = () => t.rt.database.db;
  const about = async (to: string, subject: string) =>
    (await db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id)).filter(
      (m) => m.subject === subject,
    );
  const sendOtp = (who: Login) => t.app.inject({ method: 'POST', url: '/api/send-otp', headers: who.headers });
  /** Sends back the payout-details code last mailed to `who`: answers the request. */
  const confirmOtp = async (who: Login) => {
    const code = sixDigits((await about(who.email, CODE_SUBJECT))[0].text)!;
    return t.app.inject({ method: 'POST', url: '/api/confirm-otp', headers: who.headers, payload: { otp: code } });
  };
  const editDetails = (who: Login) =>
    t.app.inject({ method: 'PATCH', url: '/api/edit-payment-details', headers: who.headers, payload: NEW_ACCOUNT });
  const pause = () => new Promise((r) => setTimeout(r, 400));

  async function lawyerWithDetails() {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/add-payment-details',
      headers: lawyer.headers,
      payload: ACCOUNT,
    });
    expect(res.statusCode).toBe(201);
    return lawyer;
  }
  /** Asks, from `who`'s session, to move the sign-in address to `to`: answers the request. */
  async function askToMove(who: Login, to: string) {
    const form = await multipart([
      { name: 'officialEmail', value: to },
      { name: 'currentPassword', value: PASSWORD },
    ]);
    return t.app.inject({
      method: 'PATCH',
      url: `/api/updateprofile?_id=${who.id}`,
      headers: { ...who.headers, ...form.headers },
      payload: form.payload,
    });
  }

  // The session that asked for the change stays signed in after it (decision 2181): its payout code
  // and the confirmation take the row lock in turn. A code written first goes to the old address (and
  // dies with the change); one written after goes to the new one, never to the address just left.
  it('a payout code asked for while the address change is confirmed goes to the address held then', async () => {
    for (let round = 0; round < 8; round++) {
      const lawyer = await lawyerWithDetails();
      const moved = uniqueEmail('moved');
      expect((await askToMove(lawyer, moved)).statusCode).toBe(200);
      const link = linkToken((await lastMailTo(t, moved))!.text)!;
      const confirm = () =>
        t.app.inject({ method: 'POST', url: '/api/confirm-email-change', payload: { token: link } });
      // Sent in either order: which one reaches the row first varies.
      const [code, confirmed] =
        round % 2
          ? await Promise.all([sendOtp(lawyer), confirm()])
          : (await Promise.all([confirm(), sendOtp(lawyer)])).reverse();
      expect(code.statusCode, code.body).toBe(200);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const [done] = await about(lawyer.email, MOVED_SUBJECT);
      const codes = [...(await about(lawyer.email, CODE_SUBJECT)), ...(await about(moved, CODE_SUBJECT))];
      expect(codes).toHaveLength(1);
      expect(codes[0].to).toBe(codes[0].id < done.id ? lawyer.email : moved);
      // Only a code at the address held now is live: one mailed to the old address died with the change.
      const live = await t.rt.database.db
        .select({ id: oneTimeTokens.id })
        .from(oneTimeTokens)
        .where(
          and(
            eq(oneTimeTokens.userId, lawyer.id),
            eq(oneTimeTokens.purpose, 'payout_otp'),
            isNull(oneTimeTokens.usedAt),
          ),
        );
      expect(live).toHaveLength(codes[0].to === moved ? 1 : 0);
    }
  });

  // Surely interleaved: another connection has moved the address and holds the row while the request
  // reads the session (the old address) and then waits for the lock.
  it.runIf(kind === 'postgres')(
    'a payout code waiting on the row while the address moves goes to the new address',
    async () => {
      const lawyer = await lawyerWithDetails();
      const moved = uniqueEmail('moved');
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        await other.query('update users set official_email = $1 where id = $2', [moved, lawyer.id]);
        const code = sendOtp(lawyer);
        await pause();
        await other.query('commit');
        expect((await code).statusCode).toBe(200);
      } finally {
        await other.end();
      }
      expect(await about(lawyer.email, CODE_SUBJECT)).toEqual([]);
      expect(await about(moved, CODE_SUBJECT)).toHaveLength(1);
    },
  );

  // Another session's confirmed change, or an erasure, ends this session while its request waits: no
  // code is written, to either address.
  it.runIf(kind === 'postgres')('a payout code asked for by a session ended meanwhile is not sent', async () => {
    for (const ending of ['moved', 'erased'] as const) {
      const lawyer = await lawyerWithDetails();
      const moved = uniqueEmail('moved');
      const other = await otherConnection(t);
      try {
        await other.query('begin');
        if (ending === 'moved')
          await other.query('update users set official_email = $1 where id = $2', [moved, lawyer.id]);
        else await other.query('update users set deleted_at = now() where id = $1', [lawyer.id]);
        await other.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [
          lawyer.id,
        ]);
        const code = sendOtp(lawyer);
        await pause();
        await other.query('commit');
        const res = await code;
        expect(res.statusCode, ending).toBe(401);
        expect(res.json().message).toBe(messages.notSignedIn);
      } finally {
        await other.end();
      }
      expect(await about(lawyer.email, CODE_SUBJECT)).toEqual([]);
      expect(await about(moved, CODE_SUBJECT)).toEqual([]);
    }
  });

  // The code check waits on the two-factor row (held by the other connection with the address moved),
  // after the session was read: the notice must still go to the address held when it is written.
  it.runIf(kind === 'postgres')('the notice that two-factor went off goes to the address held then', async () => {
    const owner = await signupAndLogin(t, 'company');
    const { codeNow, enable } = await twoFactor.turnOn(owner);
    expect(enable.statusCode).toBe(200);
    t.clock.advance(30_000);
    const moved = uniqueEmail('moved');
    const other = await otherConnection(t);
    try {
      await other.query('begin');
      await other.query('update users set official_email = $1 where id = $2', [moved, owner.id]);
      await other.query('select user_id from two_factor where user_id = $1 for update', [owner.id]);
      const off = t.app.inject({
        method: 'POST',
        url: '/api/two-factor/disable',
        headers: owner.headers,
        payload: { code: codeNow() },
      });
      await pause();
      await other.query('commit');
      expect((await off).statusCode).toBe(200);
    } finally {
      await other.end();
    }
    expect(await about(owner.email, OFF_SUBJECT)).toEqual([]);
    expect(await about(moved, OFF_SUBJECT)).toHaveLength(1);
  });

  // A second change asked from the session that made the first, while the first is confirmed: the notice
  // and its undo link go to the address the account has then, the one a thief's second move leaves.
  it.runIf(kind === 'postgres')('the notice of a change asked for goes to the address held then', async () => {
    const owner = await signupAndLogin(t, 'company');
    const [moved, next] = [uniqueEmail('moved'), uniqueEmail('next')];
    const other = await otherConnection(t);
    try {
      await other.query('begin');
      await other.query('update users set official_email = $1 where id = $2', [moved, owner.id]);
      const ask = askToMove(owner, next);
      await pause();
      await other.query('commit');
      expect((await ask).statusCode).toBe(200);
    } finally {
      await other.end();
    }
    expect(await about(owner.email, ASKED_SUBJECT)).toEqual([]);
    expect(await about(moved, ASKED_SUBJECT)).toHaveLength(1);
    const undo = await db()
      .select({ email: oneTimeTokens.email })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.userId, owner.id),
          eq(oneTimeTokens.purpose, 'email_change_undo'),
          isNull(oneTimeTokens.usedAt),
        ),
      );
    expect(undo).toEqual([{ email: moved }]);
  });

  // The reset token was earned with a code mailed to the old address: once the account has left it,
  // the reset sets nothing and mails nobody, as forgot-password sends nothing then.
  it.runIf(kind === 'postgres')('a password reset for an address the account left meanwhile is refused', async () => {
    const owner = await signupAndLogin(t, 'company');
    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: owner.email } });
    const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
    const grant = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-reset-token',
      payload: { officialEmail: owner.email, token: code },
    });
    expect(grant.statusCode).toBe(200);
    const moved = uniqueEmail('moved');
    const other = await otherConnection(t);
    let res: { statusCode: number; json: () => { message: string } } | undefined;
    try {
      await other.query('begin');
      await other.query('update users set official_email = $1 where id = $2', [moved, owner.id]);
      const reset = t.app.inject({
        method: 'PATCH',
        url: `/api/reset-password?userEmail=${encodeURIComponent(owner.email)}&token=${grant.json().resetToken}`,
        payload: { password: NEW, passwordConfirm: NEW },
      });
      await pause();
      await other.query('commit');
      res = await reset;
    } finally {
      await other.end();
    }
    expect(res!.statusCode).toBe(400);
    expect(res!.json().message).toBe(messages.linkInvalid);
    const changed = 'Your LegalMarket password was changed';
    expect([...(await about(owner.email, changed)), ...(await about(moved, changed))]).toEqual([]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: moved, password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
  });

  // Another connection has moved the address and holds the row while the details are added, or changed
  // with a confirmed code: each notice goes to the address held when it is written.
  it.runIf(kind === 'postgres')(
    'the notices of payout details added or changed go to the address held then',
    async () => {
      /** Runs `request` while another connection moves `who`'s address to `to` and holds the row. */
      async function whileMoving(who: Login, to: string, request: () => Promise<{ statusCode: number }>) {
        const other = await otherConnection(t);
        try {
          await other.query('begin');
          await other.query('update users set official_email = $1 where id = $2', [to, who.id]);
          const pending = request();
          await pause();
          await other.query('commit');
          return (await pending).statusCode;
        } finally {
          await other.end();
        }
      }

      const adding = await signupAndLogin(t, 'lawyer', { verified: true });
      const addedTo = uniqueEmail('moved');
      const add = () =>
        t.app.inject({ method: 'POST', url: '/api/add-payment-details', headers: adding.headers, payload: ACCOUNT });
      expect(await whileMoving(adding, addedTo, add)).toBe(201);
      expect(await about(adding.email, ADDED)).toEqual([]);
      expect(await about(addedTo, ADDED)).toHaveLength(1);

      const changing = await lawyerWithDetails();
      expect((await sendOtp(changing)).statusCode).toBe(200);
      const confirmed = await confirmOtp(changing);
      expect(confirmed.statusCode).toBe(200);
      const changedTo = uniqueEmail('moved');
      const edit = () => editDetails(changing);
      expect(await whileMoving(changing, changedTo, edit)).toBe(200);
      expect(await about(changing.email, CHANGED)).toEqual([]);
      expect(await about(changedTo, CHANGED)).toHaveLength(1);
    },
  );

  // Counted by the session's address, the limit on payout codes started again at the new address.
  it('the limit on payout codes holds across a change of sign-in address', async () => {
    const lawyer = await lawyerWithDetails();
    for (let i = 0; i < t.config.EMAIL_ACTION_MAX; i++) expect((await sendOtp(lawyer)).statusCode).toBe(200);
    const moved = uniqueEmail('moved');
    expect((await askToMove(lawyer, moved)).statusCode).toBe(200);
    const link = linkToken((await lastMailTo(t, moved))!.text)!;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-email-change',
      payload: { token: link },
    });
    expect(confirmed.statusCode).toBe(200);
    const limited = await sendOtp(lawyer);
    expect(limited.statusCode).toBe(429);
    expect(await about(moved, CODE_SUBJECT)).toEqual([]);
  });

  // Counted by the session's address, as the payout codes were, both limits started again at the new one.
  it('the limits on data exports and account deletion hold across a change of sign-in address', async () => {
    const owner = await signupAndLogin(t, 'company');
    const exportData = () => t.app.inject({ method: 'GET', url: '/api/account/export', headers: owner.headers });
    const deleteAccount = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/account/delete', headers: owner.headers, payload: { password } });
    for (let i = 0; i < t.config.EMAIL_ACTION_MAX; i++) {
      expect((await exportData()).statusCode).toBe(200);
      expect((await deleteAccount('Wr0ng!Pass')).statusCode).toBe(403);
    }
    const moved = uniqueEmail('moved');
    expect((await askToMove(owner, moved)).statusCode).toBe(200);
    const link = linkToken((await lastMailTo(t, moved))!.text)!;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-email-change',
      payload: { token: link },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await exportData()).statusCode).toBe(429);
    // The right password now: the limit answers before it is looked at, and the account stays.
    expect((await deleteAccount(PASSWORD)).statusCode).toBe(429);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: moved, password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
  });

  // The session is read (live) before the request waits for the account's row, which another connection
  // holds while it ends the session: as another session's confirmed address change does (the address
  // moved, codes and grants killed), or its turning two-factor on (the grant, bound to this session, kept).
  // Sessions are revoked under that lock, so the details are checked against it as a payout code is.
  it.runIf(kind === 'postgres')(
    'payout details added or changed by a session ended meanwhile are not saved',
    async () => {
      /** Runs `request` while another connection ends `who`'s sessions, and answers it. */
      async function whileEnding(
        who: Login,
        ending: 'moved' | 'enrolled',
        to: string,
        request: () => Promise<{ statusCode: number; json: () => { message: string } }>,
      ) {
        const other = await otherConnection(t);
        try {
          await other.query('begin');
          await other.query('select id from users where id = $1 for update', [who.id]);
          if (ending === 'moved') {
            await other.query('update users set official_email = $1 where id = $2', [to, who.id]);
            await other.query(
              `update one_time_tokens set used_at = now()
               where user_id = $1 and used_at is null and purpose <> 'email_change_undo'`,
              [who.id],
            );
          }
          await other.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [
            who.id,
          ]);
          const pending = request();
          await pause();
          await other.query('commit');
          return await pending;
        } finally {
          await other.end();
        }
      }
      const savedFor = async (lawyerId: string) =>
        (
          await db()
            .select({ accountNumber: payoutDetails.accountNumber })
            .from(payoutDetails)
            .where(eq(payoutDetails.lawyerId, lawyerId))
        ).map((r) => r.accountNumber);

      const adding = await signupAndLogin(t, 'lawyer', { verified: true });
      const addedTo = uniqueEmail('moved');
      const add = () =>
        t.app.inject({ method: 'POST', url: '/api/add-payment-details', headers: adding.headers, payload: ACCOUNT });
      const added = await whileEnding(adding, 'moved', addedTo, add);
      expect(added.statusCode).toBe(401);
      expect(added.json().message).toBe(messages.notSignedIn);
      expect(await savedFor(adding.id)).toEqual([]);
      expect([...(await about(adding.email, ADDED)), ...(await about(addedTo, ADDED))]).toEqual([]);

      for (const ending of ['moved', 'enrolled'] as const) {
        const changing = await lawyerWithDetails();
        expect((await sendOtp(changing)).statusCode).toBe(200);
        const confirmedCode = await confirmOtp(changing);
        expect(confirmedCode.statusCode).toBe(200);
        const changedTo = uniqueEmail('moved');
        const edit = () => editDetails(changing);
        const edited = await whileEnding(changing, ending, changedTo, edit);
        expect(edited.statusCode, ending).toBe(401);
        expect(edited.json().message).toBe(messages.notSignedIn);
        expect(await savedFor(changing.id)).toEqual([ACCOUNT.accountNumber]);
        expect([...(await about(changing.email, CHANGED)), ...(await about(changedTo, CHANGED))]).toEqual([]);
      }
    },
  );
});
