import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { Secret, TOTP } from 'otpauth';
import { messages } from '@legalmarket/contracts';
import { sessions } from '../../src/db/schema.js';
import { createAuth, type Auth } from '../../src/platform/auth.js';
import { tokenHasher } from '../../src/platform/tokens.js';
import { createAccountsService } from '../../src/features/accounts/service.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  signupAndLogin,
  sixDigits,
  type TestApp,
} from '../helpers.js';

const NEW = 'N3w!Passw0rd';

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

  const db = () => t.rt.database.db;
  const liveSessions = (userId: string) =>
    db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));

  /** The whole reset flow through the API, as the owner does it. */
  async function resetPassword(email: string) {
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

  /** A second connection to the test's schema, for a transaction held open across a request. */
  async function otherConnection() {
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    const schema = (await db().execute(`select current_schema() as s`)) as unknown as { rows: Array<{ s: string }> };
    await other.query(`set search_path = ${schema.rows[0].s}`);
    return other;
  }

  // The reset's transaction is under way (row updated, sessions revoked, not committed) while a sign-in
  // with the old password writes its session: the sign-in must wait for it and then be refused, or its
  // session would be written after the revocation and outlive the reset. PGlite has one connection.
  it.runIf(kind === 'postgres')(
    'a sign-in racing a password reset on another connection waits for it and is refused',
    async () => {
      const owner = await signupAndLogin(t, 'company');
      const other = await otherConnection();
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
      const setup = await t.app.inject({
        method: 'POST',
        url: '/api/two-factor/setup',
        headers: owner.headers,
        payload: { password: PASSWORD },
      });
      const secret = Secret.fromBase32(setup.json().data.secret as string);
      const codeNow = () => new TOTP({ secret }).generate({ timestamp: t.clock.now().getTime() });
      const enable = await t.app.inject({
        method: 'POST',
        url: '/api/two-factor/enable',
        headers: owner.headers,
        payload: { code: codeNow() },
      });
      expect(enable.statusCode).toBe(200);
      t.clock.advance(30_000);
      const first = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { officialEmail: owner.email, password: PASSWORD },
      });
      const challengeToken = first.json().challengeToken as string;
      expect(challengeToken).toBeTruthy();

      const other = await otherConnection();
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
});
