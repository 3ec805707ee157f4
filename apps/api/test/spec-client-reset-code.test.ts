import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDb, lastMailTo, signupAndLogin, sixDigits, type TestApp } from './helpers.js';
import { is2xx, specClient } from './spec-client-kit.js';

/**
 * The code step of the password reset as a spec client sends it. The row reads "POST
 * /api/confirm-reset-token | token"; the code is only unique per account, so the address is needed too
 * (decision 0002). The client holds it as `userEmail`: its page is /otp/{userEmail} and the next call is
 * "PATCH /api/reset-password?userType=&userEmail=&token=" (decision 2326).
 */
describeEachDb('a spec client’s password-reset code step', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('POST /api/confirm-reset-token takes the address under the route’s name `userEmail`, or `email`', async () => {
    for (const name of ['userEmail', 'email']) {
      const company = await signupAndLogin(t, 'company');
      const api = specClient(t.app);
      is2xx(await api.post('/api/forgot-password', { officialEmail: company.email }));
      const code = sixDigits((await lastMailTo(t, company.email))!.text)!;
      const confirmed = is2xx(await api.post('/api/confirm-reset-token', { token: code, [name]: company.email }));
      expect(confirmed.message).toBe('OTP Confirmed!');
      const query = `userEmail=${encodeURIComponent(company.email)}&token=${confirmed.resetToken}`;
      const reset = is2xx(
        await api.patch(`/api/reset-password?${query}`, {
          password: 'New1!Password',
          passwordConfirm: 'New1!Password',
        }),
      );
      expect(reset.message).toBe('Password Reset Successfully');
    }
  });

  it('the address sent both ways: `officialEmail` wins; none at all still names the address', async () => {
    const company = await signupAndLogin(t, 'company');
    const api = specClient(t.app);
    is2xx(await api.post('/api/forgot-password', { officialEmail: company.email }));
    const code = sixDigits((await lastMailTo(t, company.email))!.text)!;
    const missing = await api.post('/api/confirm-reset-token', { token: code });
    expect(missing.status).toBe(400);
    expect(missing.data.message).toBe('Please enter your email address');
    const both = is2xx(
      await api.post('/api/confirm-reset-token', {
        token: code,
        officialEmail: company.email,
        userEmail: 'someone-else@example.ng',
      }),
    );
    expect(both.message).toBe('OTP Confirmed!');
  });
});
