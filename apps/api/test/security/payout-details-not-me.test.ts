import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAYOUT_NEW_ACCOUNT_HOURS, payoutMessages, type PayoutView } from '@legalmarket/contracts';
import { jobs, ledgerTransactions, payoutDetails, payouts } from '../../src/db/schema.js';
import { createLedger } from '../../src/features/money/ledger.js';
import { SUCCESS_CARD, createLoggedTestApp, insertProduct } from '../commerce-helpers.js';
import { mailsTo } from '../admin-fixtures.js';
import {
  PASSWORD,
  describeEachDb,
  lastMailTo,
  linkToken,
  signupAndLogin,
  sixDigits,
  type TestApp,
} from '../helpers.js';
import { RESET_SUBJECT, twoFactorKit } from '../two-factor-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const ADDED = 'Payment details added to your LegalMarket account';
const CHANGED = 'Your LegalMarket payment details were changed';

/**
 * A thief who holds a lawyer's session (no two-factor, no payout details yet) adds their own account and
 * asks for a withdrawal; the owner's "This wasn't me" link in the e-mail undoes it (decision 2244).
 */
describeEachDb('the payout details’ "This wasn’t me" link against a stolen session', (kind) => {
  let t: TestApp;
  let admin: Login;
  let product: string;
  beforeAll(async () => {
    t = await createLoggedTestApp(kind);
    admin = await signupAndLogin(t, 'admin');
    product = await insertProduct(t, 'Non-Disclosure Agreement', 25_000);
    const hold = await inject('PUT', '/api/admin/money-settings', admin, { commissionPercent: 20, holdDays: 0 });
    expect(hold.statusCode).toBe(200);
  });
  afterAll(() => t.close());
  // A test may move the clock past a session's lifetime: the admin signs in afresh for each.
  beforeEach(async () => {
    admin = await anotherSession(admin);
  });
  afterEach(async () => expect(await createLedger({ db: t.rt.database.db, clock: t.clock }).audit()).toEqual([]));

  const db = () => t.rt.database.db;
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, who: Login | null, payload?: unknown) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, payload: payload as Record<string, unknown> });
  const anotherSession = async (who: Login): Promise<Login> => {
    const res = await inject('POST', '/api/login', null, { officialEmail: who.email, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    return { ...who, headers: { authorization: `Bearer ${res.json().token}` } };
  };
  /** A verified lawyer who earned ₦20,000, withdrawable at once, with no payout details. */
  async function lawyerWithEarnings() {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const company = await signupAndLogin(t, 'company');
    await inject('POST', '/api/cart', company, { productId: product, quantity: 1 });
    const { reference, amount } = (await inject('POST', '/api/checkout', company)).json().data;
    const charged = await inject('POST', '/api/checkout/sandbox/charge', company, {
      reference,
      amount,
      currency: 'NGN',
      ...SUCCESS_CARD,
    });
    const transactionId = charged.json().data.transaction_id;
    expect((await inject('POST', '/api/checkout/verify', company, { reference, transactionId })).statusCode).toBe(200);
    const [job] = await db().select().from(jobs).where(eq(jobs.companyId, company.id));
    expect((await inject('POST', '/job-api/assign', admin, { jobId: job.id, lawyerId: lawyer.id })).statusCode).toBe(
      200,
    );
    expect((await inject('POST', `/job-api/jobs/${job.id}/actions/complete`, admin, {})).statusCode).toBe(200);
    return lawyer;
  }
  const addDetails = (who: Login, accountNumber: string) =>
    inject('POST', '/api/add-payment-details', who, { accountNumber, accountName: 'Chidi Okeke', bank: 'Zenith Bank' });
  const linkOf = async (to: string, subject: string) =>
    linkToken((await mailsTo(t, to)).filter((m) => m.subject === subject).at(-1)!.text)!;
  const { liveSessions } = twoFactorKit(() => t);
  const details = async (userId: string) => db().select().from(payoutDetails).where(eq(payoutDetails.lawyerId, userId));
  const payoutRow = async (id: string) => (await db().select().from(payouts).where(eq(payouts.id, id)))[0];
  const postings = async (payoutId: string) =>
    (
      await db()
        .select({ kind: ledgerTransactions.kind })
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.payoutId, payoutId))
    ).map((r) => r.kind);
  const check = (token: string) => inject('GET', `/api/payment-details/not-me?token=${token}`, null);
  const confirm = (token: string) => inject('POST', '/api/payment-details/not-me', null, { token });
  /** The thief, on the owner's session, adds their account and asks for everything. */
  async function theft(owner: Login, account = '0123456781') {
    expect((await addDetails(owner, account)).statusCode).toBe(201);
    const asked = await inject('POST', '/api/lawyer/payouts', owner, {});
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    return asked.json().payout as PayoutView;
  }

  it('the owner’s link removes the thief’s details, stops the withdrawal, ends every session, mails a reset', async () => {
    const thief = await lawyerWithEarnings();
    const owner = await anotherSession(thief);
    const payout = await theft(thief);
    expect(payout.status).toBe('requested');

    // The admin sees a new account on the payout.
    const list = (await inject('GET', '/api/admin/payouts', admin)).json().payouts as PayoutView[];
    const row = list.find((p) => p._id === payout._id)!;
    expect(row.detailsAddedAt).not.toBeNull();
    expect(t.clock.now().getTime() - Date.parse(row.detailsAddedAt!)).toBeLessThan(PAYOUT_NEW_ACCOUNT_HOURS * 3600_000);

    const token = await linkOf(thief.email, ADDED);
    // Opening it changes nothing, however often.
    for (let i = 0; i < 3; i++) {
      const seen = await check(token);
      expect(seen.statusCode, seen.body).toBe(200);
      expect(seen.json().data).toMatchObject({ bank: 'Zenith Bank', accountNumber: '•••• 6781' });
    }
    expect(await details(thief.id)).toHaveLength(1);
    expect((await payoutRow(payout._id)).status).toBe('requested');
    expect(await liveSessions(thief.id)).toBe(2);

    const done = await confirm(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      status: 'success',
      message: payoutMessages.notMeDone,
      data: { officialEmail: thief.email, payoutsStopped: 1 },
    });
    expect(await details(thief.id)).toEqual([]);
    const stopped = await payoutRow(payout._id);
    expect(stopped.status).toBe('rejected');
    expect(stopped.rejectionReason).toBe(payoutMessages.notMeRejection);
    expect(await postings(payout._id)).toEqual([]);
    expect(await liveSessions(thief.id)).toBe(0);
    expect((await inject('GET', '/api/lawyer/payouts', thief)).statusCode).toBe(401);
    expect((await inject('GET', '/api/lawyer/payouts', owner)).statusCode).toBe(401);
    // The admin can no longer approve it.
    expect((await inject('POST', `/api/admin/payouts/${payout._id}/approve`, admin, {})).statusCode).toBe(409);
    // The old password is dead; the mailed code sets a new one, and the money is withdrawable again.
    expect(
      (await inject('POST', '/api/login', null, { officialEmail: thief.email, password: PASSWORD })).statusCode,
    ).toBe(401);
    const mail = await lastMailTo(t, thief.email);
    expect(mail!.subject).toBe(RESET_SUBJECT);
    const code = sixDigits(mail!.text)!;
    const grant = await inject('POST', '/api/confirm-reset-token', null, { officialEmail: thief.email, token: code });
    expect(grant.statusCode, grant.body).toBe(200);
    const NEW = 'N3w!Passw0rd';
    const reset = await inject(
      'PATCH',
      `/api/reset-password?userEmail=${encodeURIComponent(thief.email)}&token=${grant.json().resetToken}`,
      null,
      { password: NEW, passwordConfirm: NEW },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    const back = await inject('POST', '/api/login', null, { officialEmail: thief.email, password: NEW });
    expect(back.statusCode).toBe(200);
    const again = { ...thief, headers: { authorization: `Bearer ${back.json().token}` } };
    expect((await inject('GET', '/api/lawyer/payouts', again)).json().withdrawable).toBe(20_000);

    // The link a second time: refused, nothing more happens.
    const outbox = (await mailsTo(t, thief.email)).length;
    expect((await confirm(token)).statusCode).toBe(409);
    expect((await check(token)).statusCode).toBe(409);
    expect((await mailsTo(t, thief.email)).length).toBe(outbox);
    expect(await liveSessions(thief.id)).toBe(1);
  });

  it('a link of details changed since no longer applies; the newest link works', async () => {
    const lawyer = await lawyerWithEarnings();
    expect((await addDetails(lawyer, '0123456782')).statusCode).toBe(201);
    const first = await linkOf(lawyer.email, ADDED);
    // The owner changes them with the mailed code.
    expect((await inject('POST', '/api/send-otp', lawyer)).statusCode).toBe(200);
    const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text)!;
    expect((await inject('POST', '/api/confirm-otp', lawyer, { otp })).statusCode).toBe(200);
    const edited = await inject('PATCH', '/api/edit-payment-details', lawyer, {
      accountNumber: '0123456783',
      accountName: 'Chidi Okeke',
      bank: 'Zenith Bank',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    for (const res of [await check(first), await confirm(first)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(payoutMessages.notMeLinkStale);
    }
    expect((await details(lawyer.id))[0].accountNumber).toBe('0123456783');
    expect(await liveSessions(lawyer.id)).toBe(1);
    const second = await linkOf(lawyer.email, CHANGED);
    expect((await check(second)).statusCode).toBe(200);
    // Unknown, cut and missing tokens.
    expect((await check('x'.repeat(43))).statusCode).toBe(404);
    expect((await confirm('short')).statusCode).toBe(400);
    expect((await inject('POST', '/api/payment-details/not-me', null, {})).statusCode).toBe(400);
    // Expired after its days.
    t.clock.advance(8 * 86_400_000);
    expect((await check(second)).statusCode).toBe(410);
    expect(await details(lawyer.id)).toHaveLength(1);
  });

  it('three confirmations at once take effect once', async () => {
    const lawyer = await lawyerWithEarnings();
    await theft(lawyer, '0123456784');
    const token = await linkOf(lawyer.email, ADDED);
    const answers = await Promise.all([confirm(token), confirm(token), confirm(token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect((await mailsTo(t, lawyer.email)).filter((m) => m.subject === RESET_SUBJECT)).toHaveLength(1);
  });

  it.runIf(kind === 'postgres')(
    'the link against an admin’s approval: exactly one wins, the ledger clean',
    async () => {
      const outcomes = new Set<string>();
      for (let round = 0; round < 6; round++) {
        const lawyer = await lawyerWithEarnings();
        const payout = await theft(lawyer, `012345678${round % 10}`.slice(0, 10));
        const token = await linkOf(lawyer.email, ADDED);
        const [approved, undone] = await Promise.all([
          inject('POST', `/api/admin/payouts/${payout._id}/approve`, admin, {}),
          confirm(token),
        ]);
        expect(undone.statusCode, undone.body).toBe(200);
        expect(approved.statusCode, approved.body).toBeLessThan(500);
        const after = await payoutRow(payout._id);
        if (after.status === 'rejected') {
          expect(undone.json().data.payoutsStopped).toBe(1);
          expect(await postings(payout._id)).toEqual([]);
          outcomes.add('link');
        } else {
          expect(['sending', 'paid']).toContain(after.status);
          expect(undone.json().data.payoutsStopped).toBe(0);
          expect(await postings(payout._id)).toContain('payout');
          outcomes.add('approval');
        }
        expect(await details(lawyer.id)).toEqual([]);
        expect(await createLedger({ db: db(), clock: t.clock }).audit()).toEqual([]);
      }
      expect(outcomes.size).toBeGreaterThan(0);
    },
  );
});
