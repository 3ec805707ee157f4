import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { messages, payoutMessages, twoFactorMessages } from '@legalmarket/contracts';
import { oneTimeTokens, payoutDetails } from '../../db/schema.js';
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
/** What is saved: the sandbox bank's own name for these accounts (decision 1710), not the typed one. */
const SAVED = { ...ACCOUNT, accountName: 'CHIDI OKEKE' };
const NEW_SAVED = { ...NEW_ACCOUNT, accountName: 'CHIDI OKEKE' };

describeEachDb('lawyer payout details and the e-mailed code', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who: Login, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const details = async (who: Login) =>
    (await call('GET', '/api/get-payment-details', who)).json().lawyer.accountDetails;

  /** A lawyer with saved details. */
  async function lawyerWithDetails() {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const res = await call('POST', '/api/add-payment-details', lawyer, ACCOUNT);
    expect(res.statusCode).toBe(201);
    return lawyer;
  }
  async function sendCode(who: Login) {
    const res = await call('POST', '/api/send-otp', who);
    expect(res.json()).toEqual({ status: 'success', message: messages.otpSent });
    const mail = await lastMailTo(t, who.email);
    expect(mail!.subject).toMatch(/payment details code/);
    return sixDigits(mail!.text)!;
  }
  const confirm = (who: Login, otp: string) => call('POST', '/api/confirm-otp', who, { otp });
  const edit = (who: Login, body: object = NEW_ACCOUNT) => call('PATCH', '/api/edit-payment-details', who, body);
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('adds details once, validates every field and e-mails the lawyer', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    const empty = await call('GET', '/api/get-payment-details', lawyer);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().lawyer).toMatchObject({ _id: lawyer.id, accountDetails: [] });

    const short = await call('POST', '/api/add-payment-details', lawyer, { ...ACCOUNT, accountNumber: '012345678' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe(messages.accountNumberRule);
    const letters = await call('POST', '/api/add-payment-details', lawyer, { ...ACCOUNT, accountNumber: '01234567ab' });
    expect(letters.json().message).toBe(messages.accountNumberRule);
    const bank = await call('POST', '/api/add-payment-details', lawyer, { ...ACCOUNT, bank: 'Bank of Nowhere' });
    expect(bank.json().message).toBe(messages.bankRule);
    const name = await call('POST', '/api/add-payment-details', lawyer, { ...ACCOUNT, accountName: ' ' });
    expect(name.json().message).toBe('Please enter your account name');

    const added = await call('POST', '/api/add-payment-details', lawyer, { ...ACCOUNT, lawyerId: lawyer.id });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({
      status: 'success',
      message: messages.paymentDetailsAdded,
      lawyer: { _id: lawyer.id, accountDetails: [SAVED] },
    });
    const mail = await lastMailTo(t, lawyer.email);
    expect(mail!.subject).toMatch(/Payment details added/);
    expect(mail!.text).toContain('6789');
    expect(mail!.text).not.toContain(ACCOUNT.accountNumber);
    expect(await details(lawyer)).toEqual([SAVED]);

    // The same details again change nothing; other details need the code step.
    const again = await call('POST', '/api/add-payment-details', lawyer, ACCOUNT);
    expect(again.statusCode).toBe(201);
    expect((await lastMailTo(t, lawyer.email))!.id).toBe(mail!.id);
    const other = await call('POST', '/api/add-payment-details', lawyer, NEW_ACCOUNT);
    expect(other.statusCode).toBe(409);
    expect(await details(lawyer)).toEqual([SAVED]);
  });

  it("refuses a mismatched account: another lawyer's id", async () => {
    const a = await signupAndLogin(t, 'lawyer');
    const b = await signupAndLogin(t, 'lawyer');
    const viaBody = await call('POST', '/api/add-payment-details', b, { ...ACCOUNT, lawyerId: a.id });
    expect(viaBody.statusCode).toBe(403);
    expect(viaBody.json().message).toBe(messages.paymentAdditionUnsuccessful);
    const viaQuery = await call('POST', `/api/add-payment-details?_id=${a.id}`, b, ACCOUNT);
    expect(viaQuery.json().message).toBe(messages.paymentAdditionUnsuccessful);
    expect(await details(a)).toEqual([]);
    expect(await details(b)).toEqual([]);
  });

  it('changes details only after a confirmed code, once per confirmation, and e-mails the lawyer', async () => {
    const lawyer = await lawyerWithDetails();
    const refused = await edit(lawyer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.payoutCodeRequired);

    const code = await sendCode(lawyer);
    // Sent but not confirmed is not enough.
    expect((await edit(lawyer)).statusCode).toBe(403);
    const ok = await confirm(lawyer, code);
    expect(ok.json()).toEqual({ status: 'success', message: messages.otpConfirmed });

    const changed = await edit(lawyer);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({
      status: 'success',
      message: messages.paymentDetailsUpdated,
      lawyerUpdate: { _id: lawyer.id, accountDetails: [NEW_SAVED] },
    });
    expect(await details(lawyer)).toEqual([NEW_SAVED]);
    const mail = await lastMailTo(t, lawyer.email);
    expect(mail!.subject).toMatch(/payment details were changed/);
    expect(mail!.text).toContain('Access Bank');

    // The window is spent, and the code does not work twice.
    expect((await edit(lawyer, ACCOUNT)).statusCode).toBe(403);
    const reused = await confirm(lawyer, code);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(messages.codeInvalid);
    expect(await details(lawyer)).toEqual([NEW_SAVED]);
  });

  it('checks a change with the bank first: an unknown account is refused and does not spend the code', async () => {
    const lawyer = await lawyerWithDetails();
    expect((await confirm(lawyer, await sendCode(lawyer))).statusCode).toBe(200);
    const unknown = await edit(lawyer, { ...NEW_ACCOUNT, accountNumber: '9876540000' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(payoutMessages.accountNotFound);
    expect(await details(lawyer)).toEqual([SAVED]);
    // The confirmed window is still open for the right account.
    const changed = await edit(lawyer, { ...NEW_ACCOUNT, accountName: 'Someone Else' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().message).toBe(
      `${messages.paymentDetailsUpdated}. ${payoutMessages.nameFromBank('CHIDI OKEKE')}`,
    );
    expect(await details(lawyer)).toEqual([NEW_SAVED]);
  });

  it('refuses an expired code and an edit window older than 10 minutes', async () => {
    const lawyer = await lawyerWithDetails();
    const code = await sendCode(lawyer);
    t.clock.advance(10 * 60_000 + 1000);
    expect((await confirm(lawyer, code)).statusCode).toBe(400);
    expect((await edit(lawyer)).statusCode).toBe(403);

    const fresh = await sendCode(lawyer);
    expect((await confirm(lawyer, fresh)).statusCode).toBe(200);
    t.clock.advance(10 * 60_000 + 1000);
    const late = await edit(lawyer);
    expect(late.statusCode).toBe(403);
    expect(await details(lawyer)).toEqual([SAVED]);
  });

  it('locks a code after 5 wrong tries, and a new code replaces the old one', async () => {
    const lawyer = await lawyerWithDetails();
    const code = await sendCode(lawyer);
    for (let i = 0; i < 5; i++) expect((await confirm(lawyer, wrong(code))).statusCode).toBe(400);
    // Refused: the code is dead, and the account's tries for the window are spent too (429).
    expect((await confirm(lawyer, code)).statusCode).toBe(429);
    expect((await edit(lawyer)).statusCode).toBe(403);

    // A new code buys no new guesses within the window; after it, the latest code works.
    t.clock.advance(15 * 60_000 + 1000);
    const first = await sendCode(lawyer);
    const second = await sendCode(lawyer);
    if (first !== second) expect((await confirm(lawyer, first)).statusCode).toBe(400);
    expect((await confirm(lawyer, second)).statusCode).toBe(200);
    expect((await edit(lawyer)).statusCode).toBe(200);
    const otp = await t.rt.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, lawyer.id));
    expect(otp.every((r) => r.tokenHash !== first && r.tokenHash !== second)).toBe(true);
  });

  it('lets two edits racing on one confirmation change the details once', async () => {
    const lawyer = await lawyerWithDetails();
    expect((await confirm(lawyer, await sendCode(lawyer))).statusCode).toBe(200);
    const results = await Promise.all([edit(lawyer, NEW_ACCOUNT), edit(lawyer, { ...NEW_ACCOUNT, bank: 'Wema Bank' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    const winner = results.find((r) => r.statusCode === 200)!.json().lawyerUpdate.accountDetails;
    expect(await details(lawyer)).toEqual(winner);
  });

  it('keeps the edit window to the session that confirmed the code', async () => {
    const lawyer = await lawyerWithDetails();
    const code = await sendCode(lawyer);
    expect((await confirm(lawyer, code)).statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { officialEmail: lawyer.email, password: PASSWORD },
    });
    const otherSession = { ...lawyer, headers: { authorization: `Bearer ${login.json().token}` } };
    expect((await edit(otherSession)).statusCode).toBe(403);
    expect((await edit(lawyer)).statusCode).toBe(200);
  });

  it("keeps one lawyer out of another's payout details", async () => {
    const a = await lawyerWithDetails();
    const b = await lawyerWithDetails();
    await t.rt.database.db
      .update(payoutDetails)
      .set({ accountNumber: '1111111111' })
      .where(eq(payoutDetails.lawyerId, b.id));
    // Each reads only its own.
    expect(await details(a)).toEqual([SAVED]);
    expect((await call('GET', '/api/get-payment-details', b)).body).not.toContain(ACCOUNT.accountNumber);

    // A's code does not work for B, and B's confirmed code does not let it change A's details.
    const codeA = await sendCode(a);
    expect((await confirm(b, codeA)).statusCode).toBe(400);
    const codeB = await sendCode(b);
    expect((await confirm(b, codeB)).statusCode).toBe(200);
    const cross = await edit(b, { ...NEW_ACCOUNT, lawyerId: a.id });
    expect(cross.statusCode).toBe(403);
    expect(await details(a)).toEqual([SAVED]);
    expect((await edit(a)).statusCode).toBe(403);
    expect(await details(a)).toEqual([SAVED]);
  });

  it('serves lawyers only, and sends no code before details exist', async () => {
    const company = await signupAndLogin(t, 'company');
    const admin = await signupAndLogin(t, 'admin');
    for (const who of [company, admin]) {
      expect((await call('GET', '/api/get-payment-details', who)).statusCode).toBe(403);
      expect((await call('POST', '/api/add-payment-details', who, ACCOUNT)).statusCode).toBe(403);
      expect((await call('POST', '/api/send-otp', who)).statusCode).toBe(403);
      expect((await edit(who)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/get-payment-details' })).statusCode).toBe(401);
    const lawyer = await signupAndLogin(t, 'lawyer');
    const early = await call('POST', '/api/send-otp', lawyer);
    expect(early.statusCode).toBe(404);
    expect(early.json().message).toBe(messages.noPaymentDetails);
    const bad = await call('POST', '/api/confirm-otp', lawyer, { otp: '12a456' });
    expect(bad.statusCode).toBe(400);
    const spec = await call('POST', '/api/confirm-otp', lawyer, { OTP: '123456' });
    expect(spec.json().message).toBe(messages.codeInvalid);
  });

  it('asks a lawyer with two-factor on for a fresh authenticator code before details are added or changed', async () => {
    // A stolen session that also reads the mailbox must still not redirect the money.
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const setup = await call('POST', '/api/two-factor/setup', lawyer, { password: PASSWORD });
    const secret = Secret.fromBase32(setup.json().data.secret as string);
    const codeAt = (ms: number) => new TOTP({ secret }).generate({ timestamp: ms });
    expect(
      (await call('POST', '/api/two-factor/enable', lawyer, { code: codeAt(t.clock.now().getTime()) })).statusCode,
    ).toBe(200);
    t.clock.advance(16 * 60_000);

    const add = await call('POST', '/api/add-payment-details', lawyer, ACCOUNT);
    expect(add.statusCode).toBe(428);
    expect(add.json().message).toBe(twoFactorMessages.stepUpRequired);
    expect(await details(lawyer)).toEqual([]);
    expect(
      (await call('POST', '/api/two-factor/verify', lawyer, { code: codeAt(t.clock.now().getTime()) })).statusCode,
    ).toBe(200);
    expect((await call('POST', '/api/add-payment-details', lawyer, ACCOUNT)).statusCode).toBe(201);

    t.clock.advance(16 * 60_000);
    expect((await confirm(lawyer, await sendCode(lawyer))).statusCode).toBe(200);
    const changed = await edit(lawyer);
    expect(changed.statusCode).toBe(428);
    expect(await details(lawyer)).toEqual([SAVED]);
    expect(
      (await call('POST', '/api/two-factor/verify', lawyer, { code: codeAt(t.clock.now().getTime()) })).statusCode,
    ).toBe(200);
    // The e-mailed code's window was not spent by the refused try.
    expect((await edit(lawyer)).statusCode).toBe(200);
    expect(await details(lawyer)).toEqual([NEW_SAVED]);
  });
});
