import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { emailOutbox } from '../src/db/schema.js';
import { PASSWORD, type TestApp, type signupAndLogin } from './helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

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
    mailsTo: (to: string) =>
      app().rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id),
  };
}
