import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages } from '@legalmarket/contracts';
import {
  PASSWORD,
  companyBody,
  createTestApp,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js';

describeEachDb('accounts: sign-up, confirmation, login, logout', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('signs a company up, e-mails a link that confirms once, then logs in and out', async () => {
    const email = uniqueEmail('co');
    const res = await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'success', message: messages.accountCreated });

    const early = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: email, password: PASSWORD },
    });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe(messages.unconfirmedEmail);

    const mail = await lastMailTo(t, email);
    const token = linkToken(mail!.text)!;
    expect(mail!.text).toContain(`http://localhost:3000/confirm-email?token=${token}`);
    const c1 = await t.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token } });
    expect(c1.statusCode).toBe(200);
    // Opened again (issue 18): confirmed once, and the second answer says so instead of "invalid".
    const c2 = await t.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token } });
    expect(c2.statusCode).toBe(200);
    expect(c2.json().message).toBe(messages.emailAlreadyConfirmed);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: email.toUpperCase(), password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(body.status).toBe('success');
    expect(body.data.user.userType).toBe('company');
    const claims = JSON.parse(Buffer.from(body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ officialEmail: email, phoneNumber: '08012345678', name: 'Ada Ventures Ltd' });
    expect(claims.exp - claims.iat).toBe(12 * 3600);

    const headers = { authorization: `Bearer ${body.token}` };
    const profile = await t.app.inject({ method: 'GET', url: `/api/userprofile?_id=${body.data.user._id}`, headers });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ officialEmail: email, companyName: 'Ada Ventures Ltd' });
    expect(profile.body).not.toContain('argon2');

    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: `/api/userprofile?_id=${body.data.user._id}`, headers });
    expect(after.statusCode).toBe(401);
  });

  it('answers a second sign-up with the same address exactly like the first, and e-mails the owner', async () => {
    const email = uniqueEmail('dup');
    const a = await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    const b = await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.body).toBe(a.body);
    expect((await lastMailTo(t, email))!.subject).toMatch(/already have/);
  });

  it('refuses a wrong password with the same answer as an unknown account', async () => {
    const { email } = await signupAndLogin(t, 'company');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: email, password: 'Wrong!Pass1' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: uniqueEmail('nobody'), password: 'Wrong!Pass1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
  });

  it("refuses other users' profiles with the spec message", async () => {
    const a = await signupAndLogin(t, 'company');
    const b = await signupAndLogin(t, 'company');
    const res = await t.app.inject({ method: 'GET', url: `/api/userprofile?_id=${b.id}`, headers: a.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(messages.noPermissionProfile);
  });
});
