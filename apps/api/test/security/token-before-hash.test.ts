import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages, TWO_FACTOR, twoFactorMessages } from '@legalmarket/contracts';
import { users } from '../../src/db/schema.js';
import {
  createTestApp,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from '../helpers.js';
import { twoFactorKit } from '../two-factor-kit.js';

/**
 * The links and tokens that lead to a password hash ("This wasn't me", the reset token) are looked up
 * before the hash is made: a guessed, spent or stale token costs the server a lookup, never an argon2 hash
 * (19 MiB, tens of milliseconds) that anyone could ask for in a loop. Every argon2 hash the app makes goes
 * through platform/passwords.ts `hashPassword`, counted here around the real one.
 */
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/platform/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/platform/passwords.js')>();
  return {
    ...real,
    hashPassword: (password: string) => {
      hashes.count += 1;
      return real.hashPassword(password);
    },
  };
});

const NEW = 'N3w!Passw0rd';
const DAY = 24 * 3600_000;

describeEachDb('a token is checked before any password is hashed', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());
  const twoFactor = twoFactorKit(() => t);

  type Login = Awaited<ReturnType<typeof signupAndLogin>>;
  const db = () => t.rt.database.db;
  /** The answer to a request and how many password hashes it made. */
  async function counted(request: () => Promise<{ statusCode: number; json: () => { message: string } }>) {
    const before = hashes.count;
    const res = await request();
    return { status: res.statusCode, message: res.json().message, hashed: hashes.count - before };
  }
  const notMe = (token: string) =>
    counted(() => t.app.inject({ method: 'POST', url: '/api/two-factor/not-me', payload: { token } }));
  const reset = (email: string, token: string) =>
    counted(() =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/reset-password?userEmail=${encodeURIComponent(email)}&token=${token}`,
        payload: { password: NEW, passwordConfirm: NEW },
      }),
    );

  /** Turns two-factor on for `who`: answers the "This wasn't me" link's token and the app's secret. */
  async function enrol(who: Login) {
    const secret = await twoFactor.enrol(who);
    const code = () => twoFactor.codeOf(secret);
    const [mail] = (await twoFactor.mailsTo(who.email)).filter((m) =>
      m.subject.startsWith('Two-factor authentication was turned on'),
    );
    return { token: linkToken(mail.text)!, code };
  }

  it('"This wasn\'t me": every refusal answers as before and hashes nothing; the confirmation hashes once', async () => {
    expect(await notMe('x'.repeat(43))).toEqual({
      status: 404,
      message: twoFactorMessages.notMeLinkUnknown,
      hashed: 0,
    });

    // Used: the first confirmation makes the one hash of the password nobody knows.
    const used = await signupAndLogin(t, 'company');
    const { token: usedToken } = await enrol(used);
    expect(await notMe(usedToken)).toEqual({ status: 200, message: twoFactorMessages.notMeDone, hashed: 1 });
    expect(await notMe(usedToken)).toEqual({ status: 409, message: twoFactorMessages.notMeLinkUsed, hashed: 0 });

    // Two-factor turned off since: the link no longer applies.
    const stale = await signupAndLogin(t, 'company');
    const enrolled = await enrol(stale);
    t.clock.advance(30_000);
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/two-factor/disable',
      headers: stale.headers,
      payload: { code: enrolled.code() },
    });
    expect(off.statusCode).toBe(200);
    expect(await notMe(enrolled.token)).toEqual({
      status: 409,
      message: twoFactorMessages.notMeLinkStale,
      hashed: 0,
    });

    // The address moved since the e-mail.
    const movedOwner = await signupAndLogin(t, 'company');
    const { token: movedToken } = await enrol(movedOwner);
    await db()
      .update(users)
      .set({ officialEmail: uniqueEmail('moved') })
      .where(eq(users.id, movedOwner.id));
    expect(await notMe(movedToken)).toEqual({
      status: 409,
      message: twoFactorMessages.notMeAddressChanged,
      hashed: 0,
    });

    // Expired.
    const late = await signupAndLogin(t, 'company');
    const { token: lateToken } = await enrol(late);
    t.clock.advance(TWO_FACTOR.notMeLinkDays * DAY + 60_000);
    expect(await notMe(lateToken)).toEqual({ status: 410, message: twoFactorMessages.notMeLinkExpired, hashed: 0 });
  });

  it('a password reset: an unknown address or a wrong or spent token hashes nothing; the right one hashes once', async () => {
    const owner = await signupAndLogin(t, 'company');
    const refused = { status: 400, message: messages.linkInvalid, hashed: 0 };
    expect(await reset(uniqueEmail('nobody'), 'y'.repeat(43))).toEqual(refused);
    expect(await reset(owner.email, 'y'.repeat(43))).toEqual(refused);

    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: owner.email } });
    const code = sixDigits((await lastMailTo(t, owner.email))!.text)!;
    const grant = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-reset-token',
      payload: { officialEmail: owner.email, token: code },
    });
    const resetToken = grant.json().resetToken as string;
    // The right token of another account's address is no token for this one.
    expect(await reset(uniqueEmail('nobody'), resetToken)).toEqual(refused);
    expect(await reset(owner.email, resetToken)).toEqual({
      status: 200,
      message: messages.passwordResetSuccessfully,
      hashed: 1,
    });
    expect(await reset(owner.email, resetToken)).toEqual(refused);
  });
});
