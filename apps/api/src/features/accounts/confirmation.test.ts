import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages } from '@legalmarket/contracts';
import {
  companyBody,
  createTestApp,
  describeEachDb,
  lastMailTo,
  lawyerBody,
  linkToken,
  signupAndLogin,
  uniqueEmail,
  PASSWORD,
  type TestApp,
} from '../../../test/helpers.js';

describeEachDb('e-mail confirmation, lawyer and admin sign-up', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { ADMIN_INVITE_CODE: 'the-right-invite-code' });
  });
  afterAll(() => t.close());

  it('expires confirmation links after 48 hours and resends a fresh one that works', async () => {
    const email = uniqueEmail('late');
    await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    const old = linkToken((await lastMailTo(t, email))!.text)!;
    t.clock.advance(49 * 3600_000);
    const expired = await t.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token: old } });
    expect(expired.statusCode).toBe(400);

    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/resendconfirmemail',
      payload: { officialEmail: email },
    });
    expect(resend.json()).toEqual({ status: 'success', message: messages.confirmationEmailSent });
    const fresh = linkToken((await lastMailTo(t, email))!.text)!;
    expect(fresh).not.toBe(old);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token: fresh } })).statusCode,
    ).toBe(200);
  });

  it('says a link opened twice is already confirmed, and still refuses a used link of an unconfirmed account', async () => {
    const email = uniqueEmail('twice');
    await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(email) });
    const token = linkToken((await lastMailTo(t, email))!.text)!;
    const confirm = () => t.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token } });
    expect((await confirm()).json()).toEqual({ status: 'success', message: messages.emailConfirmed });
    const again = await confirm();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'success', message: messages.emailAlreadyConfirmed });
    // Long after, the spent link still says so rather than "invalid".
    t.clock.advance(72 * 3600_000);
    expect((await confirm()).json().message).toBe(messages.emailAlreadyConfirmed);

    // A link replaced by a resend, while the account is still unconfirmed, stays refused.
    const other = uniqueEmail('replaced');
    await t.app.inject({ method: 'POST', url: '/api/company/signup', payload: companyBody(other) });
    const first = linkToken((await lastMailTo(t, other))!.text)!;
    await t.app.inject({ method: 'POST', url: '/api/resendconfirmemail', payload: { officialEmail: other } });
    const replaced = await t.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token: first } });
    expect(replaced.statusCode).toBe(400);
    expect(replaced.json().message).toBe(messages.linkInvalid);
    // An unknown token is refused as before.
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/confirm-email',
      payload: { token: 'x'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('answers resend-confirmation the same for unknown addresses', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/resendconfirmemail',
      payload: { officialEmail: uniqueEmail('none') },
    });
    expect(unknown.json()).toEqual({ status: 'success', message: messages.confirmationEmailSent });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/resendconfirmemail',
      payload: { officialEmail: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(messages.enterEmail);
  });

  it('signs a lawyer up unverified with the expertise list enforced', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/lawyer/signup',
      payload: { ...lawyerBody(uniqueEmail('l')), areasOfPractise: ['Cooking'] },
    });
    expect(bad.statusCode).toBe(400);
    // Named in words, as the form names it, never by the payload's field name.
    expect(bad.json().message).toBe('Please choose your areas of practice from the expertise list');
    const lawyer = await signupAndLogin(t, 'lawyer');
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/userprofile?_id=${lawyer.id}`,
      headers: lawyer.headers,
    });
    expect(profile.json()).toMatchObject({
      userType: 'lawyer',
      verified: false,
      areasOfPractise: ['Technology', 'Tax Practise'],
    });
  });

  it('lets an admin sign up only with the configured invite code', async () => {
    const body = (inviteCode: string) => ({
      name: 'Ops',
      phoneNumber: '08011112222',
      officialEmail: uniqueEmail('adm'),
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      inviteCode,
    });
    const wrong = await t.app.inject({ method: 'POST', url: '/api/admin/signup', payload: body('not-the-code') });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(messages.adminInviteInvalid);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signup',
      payload: { ...body(''), inviteCode: undefined },
    });
    expect(missing.statusCode).toBe(400);
    const ok = body('the-right-invite-code');
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/signup', payload: ok })).statusCode).toBe(201);
    const token = linkToken((await lastMailTo(t, ok.officialEmail))!.text)!;
    await t.app.inject({ method: 'POST', url: '/api/confirm-email', payload: { token } });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: ok.officialEmail, password: PASSWORD },
    });
    expect(login.json().data.user.userType).toBe('admin');
  });

  it('accepts a password of exactly 8 characters with every class', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/company/signup',
      payload: { ...companyBody(uniqueEmail('p8')), password: 'short1!A', passwordConfirm: 'short1!A' },
    });
    expect(res.statusCode).toBe(201);
  });

  it('names the field in every validation message of company sign-up', async () => {
    const email = uniqueEmail('v');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ companyName: '' }, 'Please enter your company name'],
      [{ contactName: '   ' }, 'Please enter your contact name'],
      [{ officeAddress: undefined }, 'Please enter your office address'],
      [{ industry: '' }, 'Please enter your industry'],
      [{ officialEmail: '' }, messages.enterEmail],
      [{ phoneNumber: '0801234567' }, messages.phoneRule],
      [{ phoneNumber: '0801234567a' }, messages.phoneRule],
      [{ password: 'alllowercase1!', passwordConfirm: 'alllowercase1!' }, messages.passwordRuleSignup],
      [{ password: 'Has Space1!', passwordConfirm: 'Has Space1!' }, messages.passwordRuleSignup],
      [{ passwordConfirm: '' }, messages.confirmPassword],
      [{ passwordConfirm: 'Other!Pass1' }, messages.passwordsDoNotMatch],
    ];
    for (const [patch, message] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/company/signup',
        payload: { ...companyBody(email), ...patch },
      });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().status).toBe('fail');
      expect(res.json().message).toBe(message);
    }
  });
});
