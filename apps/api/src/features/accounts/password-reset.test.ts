import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages } from '@legalmarket/contracts';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  signupAndLogin,
  sixDigits,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js';

const NEW = 'N3w!Passw0rd';

describeEachDb('password reset', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const forgot = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { officialEmail: email } });
  const confirm = (email: string, token: string) =>
    t.app.inject({ method: 'POST', url: '/api/confirm-reset-token', payload: { officialEmail: email, token } });
  const reset = (email: string, token: string, password = NEW, passwordConfirm = password) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/reset-password?userType=company&userEmail=${encodeURIComponent(email)}&token=${token}`,
      payload: { password, passwordConfirm },
    });
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('e-mails a code, exchanges it once for a reset token, sets the password and logs every session out', async () => {
    const user = await signupAndLogin(t, 'company');
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', message: messages.passwordResetEmailSent });
    const code = sixDigits((await lastMailTo(t, user.email))!.text)!;

    const ok = await confirm(user.email, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(messages.otpConfirmedReset);
    const again = await confirm(user.email, code);
    expect(again.statusCode).toBe(400);

    const weak = await reset(user.email, ok.json().resetToken, 'password');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe(messages.passwordRuleNew);
    const mismatch = await reset(user.email, ok.json().resetToken, NEW, 'Other!Pass1');
    expect(mismatch.json().message).toBe(messages.passwordsDoNotMatch);

    const done = await reset(user.email, ok.json().resetToken);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe(messages.passwordResetSuccessfully);
    expect((await reset(user.email, ok.json().resetToken)).statusCode).toBe(400);

    const old = await t.app.inject({ method: 'GET', url: `/api/userprofile?_id=${user.id}`, headers: user.headers });
    expect(old.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: user.email, password: NEW },
    });
    expect(login.statusCode).toBe(200);
    const oldPassword = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: user.email, password: PASSWORD },
    });
    expect(oldPassword.statusCode).toBe(401);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const known = await signupAndLogin(t, 'company');
    const a = await forgot(known.email);
    const unknown = uniqueEmail('ghost');
    const b = await forgot(unknown);
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.body).toBe(a.body);
    expect(await lastMailTo(t, unknown)).toBeUndefined();
  });

  it('kills a code after 5 wrong tries, even when the sixth is right', async () => {
    const user = await signupAndLogin(t, 'company');
    await forgot(user.email);
    const code = sixDigits((await lastMailTo(t, user.email))!.text)!;
    for (let i = 0; i < 5; i++) expect((await confirm(user.email, wrongCode(code))).statusCode).toBe(400);
    // Refused: the code is dead, and the account's tries for the window are spent too (429).
    expect((await confirm(user.email, code)).statusCode).toBe(429);
  });

  it('evaluates at most 5 of many concurrent guesses', async () => {
    const user = await signupAndLogin(t, 'company');
    await forgot(user.email);
    const code = sixDigits((await lastMailTo(t, user.email))!.text)!;
    const guesses = Array.from({ length: 60 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((g) => confirm(user.email, g)));
    // Five evaluated and wrong (400); the rest past the account's tries (429), claimed before comparing.
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(55);
    // The right code is refused too: the code died after five evaluations.
    expect((await confirm(user.email, code)).statusCode).toBe(429);
  });

  it('refuses a code after 10 minutes', async () => {
    const user = await signupAndLogin(t, 'company');
    await forgot(user.email);
    const code = sixDigits((await lastMailTo(t, user.email))!.text)!;
    t.clock.advance(10 * 60_000 + 1000);
    expect((await confirm(user.email, code)).statusCode).toBe(400);
  });

  it('refuses a reset token after 10 minutes', async () => {
    const user = await signupAndLogin(t, 'company');
    await forgot(user.email);
    const code = sixDigits((await lastMailTo(t, user.email))!.text)!;
    const ok = await confirm(user.email, code);
    t.clock.advance(10 * 60_000 + 1000);
    expect((await reset(user.email, ok.json().resetToken)).statusCode).toBe(400);
  });

  it('a new code replaces the old one', async () => {
    const user = await signupAndLogin(t, 'company');
    await forgot(user.email);
    const first = sixDigits((await lastMailTo(t, user.email))!.text)!;
    await forgot(user.email);
    const second = sixDigits((await lastMailTo(t, user.email))!.text)!;
    if (first !== second) expect((await confirm(user.email, first)).statusCode).toBe(400);
    expect((await confirm(user.email, second)).statusCode).toBe(200);
  });

  it('a new code also ends a reset token the earlier code was exchanged for', async () => {
    // Asking again is starting again (the owner saw something odd, or another tab got there first): no
    // new-password step opened before it may still set the password.
    const user = await signupAndLogin(t, 'company');
    await forgot(user.email);
    const first = await confirm(user.email, sixDigits((await lastMailTo(t, user.email))!.text)!);
    expect(first.statusCode).toBe(200);
    await forgot(user.email);
    const stale = await reset(user.email, first.json().resetToken);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toBe(messages.linkInvalid);
    const second = await confirm(user.email, sixDigits((await lastMailTo(t, user.email))!.text)!);
    expect((await reset(user.email, second.json().resetToken)).statusCode).toBe(200);
  });
});
