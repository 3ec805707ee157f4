import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIMITS, messages } from '@legalmarket/contracts';
import { oneTimeTokens } from '../../db/schema.js';
import {
  PASSWORD,
  createTestApp,
  describeEachDb,
  lastMailTo,
  signupAndLogin,
  sixDigits,
  type TestApp,
} from '../../../test/helpers.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

const ACCOUNT = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' };
const NEW_ACCOUNT = { accountNumber: '9876543219', accountName: 'Chidi Okeke', bank: 'Access Bank' };

/**
 * The payout code's answer lost on a flaky connection (decision 2312): a code works once, so the retry
 * of the same code is a used code, while the grant the first try stored still allows one change (the web
 * goes on to the edit step). Asking for a new code within a minute says when to ask.
 */
describeEachDb('the payout code confirmed again after a lost answer', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const confirm = (who: Login, otp: string) => call('POST', '/api/confirm-otp', who, { otp });
  const edit = (who: Login, body: object = NEW_ACCOUNT) => call('PATCH', '/api/edit-payment-details', who, body);
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const grants = (who: Login) =>
    t.rt.database.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, who.id), eq(oneTimeTokens.purpose, 'payout_grant')));

  async function lawyerWithDetails() {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await call('POST', '/api/add-payment-details', lawyer, ACCOUNT)).statusCode).toBe(201);
    return lawyer;
  }
  async function sendCode(who: Login) {
    expect((await call('POST', '/api/send-otp', who)).statusCode).toBe(200);
    return sixDigits((await lastMailTo(t, who.email))!.text)!;
  }
  async function otherSession(who: Login): Promise<Login> {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: who.email, password: PASSWORD },
    });
    return { ...who, headers: { authorization: `Bearer ${login.json().token}` } };
  }

  it('answers the same code sent again as a used code, and the first grant still allows one change', async () => {
    const lawyer = await lawyerWithDetails();
    const code = await sendCode(lawyer);
    expect((await confirm(lawyer, code)).statusCode).toBe(200);
    const [first] = await grants(lawyer);
    // The first answer never arrived; the page sends the same code again.
    const again = await confirm(lawyer, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(messages.codeInvalid);
    // The retry stored nothing and killed nothing: the one grant, as it was.
    expect(await grants(lawyer)).toEqual([first]);

    expect((await edit(lawyer)).statusCode).toBe(200);
    const spent = await edit(lawyer, ACCOUNT);
    expect(spent.statusCode).toBe(403);
    expect(spent.json().message).toBe(messages.payoutCodeRequired);
  });

  it('refuses the used code from another session, whose edit has no grant', async () => {
    const lawyer = await lawyerWithDetails();
    const code = await sendCode(lawyer);
    expect((await confirm(lawyer, code)).statusCode).toBe(200);
    const other = await otherSession(lawyer);
    expect((await confirm(other, code)).statusCode).toBe(400);
    const refused = await edit(other);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.payoutCodeRequired);
    expect((await edit(lawyer)).statusCode).toBe(200);
  });

  it('still counts wrong codes after a confirmation toward the limit', async () => {
    const lawyer = await lawyerWithDetails();
    const code = await sendCode(lawyer);
    expect((await confirm(lawyer, code)).statusCode).toBe(200);
    for (let i = 0; i < LIMITS.codeMaxAttempts; i++) {
      const res = await confirm(lawyer, wrong(code));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(messages.codeInvalid);
    }
    expect((await confirm(lawyer, code)).statusCode).toBe(429);
  });

  it('answers two confirms of one code at once with one success, one used code and one grant', async () => {
    const rounds = kind === 'postgres' ? 4 : 2;
    for (let round = 0; round < rounds; round++) {
      const lawyer = await lawyerWithDetails();
      const code = await sendCode(lawyer);
      const both = await Promise.all([confirm(lawyer, code), confirm(lawyer, code)]);
      expect(both.map((r) => r.statusCode).sort(), both.map((r) => r.body).join()).toEqual([200, 400]);
      expect(await grants(lawyer)).toHaveLength(1);
      const edits = await Promise.all([edit(lawyer), edit(lawyer, { ...NEW_ACCOUNT, bank: 'Wema Bank' })]);
      expect(edits.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    }
  });

  it('says when a new code may be asked for when one was mailed less than a minute ago', async () => {
    const lawyer = await lawyerWithDetails();
    const first = await call('POST', '/api/send-otp', lawyer);
    expect(first.statusCode).toBe(200);
    expect(first.headers['retry-after']).toBeUndefined();
    const code = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    t.clock.advance(20_000);
    const soon = await call('POST', '/api/send-otp', lawyer);
    expect(soon.statusCode).toBe(200);
    expect(soon.json()).toEqual({ status: 'success', message: messages.otpSent });
    expect(soon.headers['retry-after']).toBe(String(LIMITS.repeatWindowSeconds - 20));
    // Nothing new was mailed: the first code still works.
    expect(sixDigits((await lastMailTo(t, lawyer.email))!.text)).toBe(code);
    t.clock.advance(LIMITS.repeatWindowSeconds * 1000);
    const later = await call('POST', '/api/send-otp', lawyer);
    expect(later.headers['retry-after']).toBeUndefined();
  });
});
