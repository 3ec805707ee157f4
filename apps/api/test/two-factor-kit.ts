import { expect } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { emailOutbox, sessions, twoFactor, users } from '../src/db/schema.js';
import { PASSWORD, lastMailTo, linkToken, type TestApp, type signupAndLogin } from './helpers.js';
import { multipart } from './upload-helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** The subject of the e-mail that tells two-factor was turned on, with its "This wasn't me" link (decision 2220). */
export const TWO_FACTOR_ON_SUBJECT = 'Two-factor authentication was turned on for your LegalMarket account';
/** The subject of the e-mail that carries a password reset code. */
export const RESET_SUBJECT = 'Set a new password for your LegalMarket account';
/** The password an owner or a thief sets in these suites. */
export const NEW_PASSWORD = 'N3w!Passw0rd';

/**
 * The calls the two-factor and stolen-session suites make through the API: sign-in, another device's
 * session, an authenticator app's codes on the test clock, an enrolment, and the mail sent to an address.
 * `app` is read on each call, since suites build their app in `beforeAll`.
 */
export function twoFactorKit(app: () => TestApp) {
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login | null, payload?: object) =>
    app().app.inject({ method, url, headers: who?.headers ?? {}, payload });
  const login = (officialEmail: string, password = PASSWORD) =>
    call('POST', '/api/login', null, { officialEmail, password });
  const codeOf = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: app().clock.now().getTime() });
  /** The next 30-second step, so a code is never the one just used. */
  const nextStep = () => app().clock.advance(30_000);
  const db = () => app().rt.database.db;
  const mailsTo = (to: string) => db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id);
  return {
    call,
    login,
    codeOf,
    nextStep,
    me: (who: Login) => call('GET', `/api/userprofile?_id=${who.id}`, who),
    /** Another device signing in with the password alone. */
    async anotherSession(who: Login): Promise<Login> {
      const res = await login(who.email);
      expect(res.statusCode).toBe(200);
      const token = res.json().token as string;
      return { ...who, token, headers: { authorization: `Bearer ${token}` } };
    },
    async enrol(who: Login) {
      const setup = await call('POST', '/api/two-factor/setup', who, { password: PASSWORD });
      expect(setup.statusCode).toBe(200);
      const secret = setup.json().data.secret as string;
      nextStep();
      expect((await call('POST', '/api/two-factor/enable', who, { code: codeOf(secret) })).statusCode).toBe(200);
      return secret;
    },
    /**
     * Sets two-factor up and sends a code at once, with no step between; the enable's answer is the
     * caller's to check. `codeNow` is the authenticator app's code at the test clock's time.
     */
    async turnOn(who: Login) {
      const setup = await call('POST', '/api/two-factor/setup', who, { password: PASSWORD });
      const secret = setup.json().data.secret as string;
      const codeNow = () => codeOf(secret);
      return { codeNow, enable: await call('POST', '/api/two-factor/enable', who, { code: codeNow() }) };
    },
    mailsTo,
    /** The token of the link in the latest two-factor-on e-mail to `to`. */
    notMeToken: async (to: string) =>
      linkToken((await mailsTo(to)).filter((m) => m.subject === TWO_FACTOR_ON_SUBJECT).at(-1)!.text)!,
    /** How many of the user's sessions are not revoked. */
    liveSessions: async (userId: string) =>
      (
        await db()
          .select({ id: sessions.id })
          .from(sessions)
          .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      ).length,
    /** The thief asks to move the owner's sign-in address to `inbox`: answers the confirmation link's token. */
    async askToMove(owner: Login, thief: Login, inbox: string) {
      const form = await multipart([
        { name: 'officialEmail', value: inbox },
        { name: 'currentPassword', value: PASSWORD },
      ]);
      const asked = await app().app.inject({
        method: 'PATCH',
        url: `/api/updateprofile?_id=${owner.id}`,
        headers: { ...thief.headers, ...form.headers },
        payload: form.payload,
      });
      expect(asked.statusCode).toBe(200);
      return linkToken((await lastMailTo(app(), inbox))!.text)!;
    },
    enrolment: async (userId: string) => (await db().select().from(twoFactor).where(eq(twoFactor.userId, userId)))[0],
    userRow: async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0],
  };
}
