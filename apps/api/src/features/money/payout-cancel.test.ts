import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { payoutMessages, type PayoutView } from '@legalmarket/contracts';
import { auditLog, sandboxTransfers } from '../../db/schema.js';
import { describeEachDb, lastMailTo, linkToken, signupAndLogin, sixDigits } from '../../../test/helpers.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { payoutTestKit, type PayoutTestApp } from './payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/** A lawyer cancels its own withdrawal before approval (decision 2344). */
describeEachDb('a lawyer cancels its own withdrawal', (kind) => {
  const k = payoutTestKit(kind, { product: 'Tenancy Agreement' });
  let t: PayoutTestApp;
  beforeAll(() => {
    ({ t } = k.suite);
  });
  const cancel = (id: string, who: Login) => k.inject('POST', `/api/lawyer/payouts/${id}/cancel`, who, {});
  const auditOf = async (id: string) =>
    (await k.db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, id))).map(
      (a) => a.action,
    );
  /** The code-confirmed change of payout details to 0123456789 at Zenith Bank, as the owner makes it. */
  async function changeToOwnAccount(who: Login) {
    expect((await k.inject('POST', '/api/send-otp', who)).statusCode).toBe(200);
    const otp = sixDigits((await lastMailTo(t, who.email))!.text);
    expect((await k.inject('POST', '/api/confirm-otp', who, { otp })).statusCode).toBe(200);
    const edit = await k.inject('PATCH', '/api/edit-payment-details', who, {
      accountNumber: '0123456789',
      accountName: 'Chidi Okeke',
      bank: 'Zenith Bank',
    });
    expect(edit.statusCode).toBe(200);
  }
  const transfersTo = (id: string) =>
    t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id));

  it('ends the request: its amount is withdrawable again, no ledger entry, audited, mailed; again answers the same', async () => {
    const lawyer = await k.earner();
    const id = (await k.request(lawyer, 15_000)).json().payout._id as string;
    expect((await k.mine(lawyer)).withdrawable).toBe(5_000);
    const res = await cancel(id, lawyer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'success',
      message: payoutMessages.cancelled,
      payout: { _id: id, status: 'rejected', cancelled: true, failure: payoutMessages.cancelledReason, amount: 15_000 },
    });
    expect((await k.mine(lawyer)).withdrawable).toBe(20_000);
    expect(await k.kinds(id)).toEqual([]);
    expect(await auditOf(id)).toEqual(['payout.cancel']);
    expect((await lastMailTo(t, lawyer.email))!.subject).toMatch(/was cancelled/);
    const mails = (await mailsTo(t, lawyer.email)).length;
    // An impatient second tap, or a retry after a lost answer: the same answer, nothing written again.
    const again = await cancel(id, lawyer);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect(await auditOf(id)).toEqual(['payout.cancel']);
    expect((await mailsTo(t, lawyer.email)).length).toBe(mails);
    // An admin approving it afterwards moves nothing.
    expect((await k.approve(id)).statusCode).toBe(409);
    expect(await transfersTo(id)).toEqual([]);
  });

  it('another lawyer’s payout, an unknown or malformed id: 404, and the payout stays waiting', async () => {
    const owner = await k.earner();
    const id = (await k.request(owner)).json().payout._id as string;
    const other = await k.earner('0234567890');
    for (const [path, who] of [
      [id, other],
      ['00000000-0000-4000-8000-000000000000', owner],
      ['not-a-uuid', owner],
      [`${id}x`, owner],
    ] as const) {
      const res = await cancel(path, who);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().message).toBe(payoutMessages.notFound);
    }
    expect(await k.statusOf(id)).toBe('requested');
  });

  it('an approved payout, or one an admin rejected, answers 409 and stays as it is', async () => {
    const lawyer = await k.earner('0123456789', 2);
    const approved = (await k.request(lawyer, 20_000)).json().payout._id as string;
    expect((await k.approve(approved)).statusCode).toBe(200);
    const rejected = (await k.request(lawyer, 20_000)).json().payout._id as string;
    const reject = await k.inject('POST', `/api/admin/payouts/${rejected}/reject`, k.suite.admin, {
      reason: 'Account under review',
    });
    expect(reject.statusCode).toBe(200);
    for (const id of [approved, rejected]) {
      const res = await cancel(id, lawyer);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(payoutMessages.cancelTooLate);
    }
    expect(await k.statusOf(approved)).toBe('paid');
    expect((await k.payout(rejected)).rejectionReason).toBe('Account under review');
  });

  it('a cancel racing an admin approval: exactly one wins, and the balance and ledger say which', async () => {
    for (let round = 0; round < (kind === 'postgres' ? 8 : 2); round++) {
      const lawyer = await k.earner();
      const id = (await k.request(lawyer)).json().payout._id as string;
      // Impatient taps on both sides: three cancels and three approvals at once.
      const calls = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? cancel(id, lawyer) : k.approve(id))),
      );
      const cancelled = calls[0];
      const codes = [...new Set(calls.filter((_, i) => i % 2 === 0).map((r) => r.statusCode))].concat([
        ...new Set(calls.filter((_, i) => i % 2 === 1).map((r) => r.statusCode)),
      ]);
      const status = await k.statusOf(id);
      if (status === 'rejected') {
        expect(codes, `round ${round}`).toEqual([200, 409]);
        expect(await k.kinds(id)).toEqual([]);
        expect(await transfersTo(id)).toEqual([]);
        expect((await k.mine(lawyer)).withdrawable).toBe(20_000);
      } else {
        expect(codes, `round ${round}`).toEqual([409, 200]);
        expect(cancelled.json().message).toBe(payoutMessages.cancelTooLate);
        expect((await k.kinds(id)).slice(0, 2)).toEqual(['payout', 'payout_settled']);
        expect((await k.mine(lawyer)).withdrawable).toBe(0);
      }
      expect(await k.owed(lawyer.id)).toBe(status === 'rejected' ? 2_000_000 : 0);
    }
  });

  it('the session thief’s withdrawal to its own account: the owner’s change mail names it and the owner cancels it', async () => {
    // An owner without two-factor and without payout details; the thief holds its session.
    const owner = await signupAndLogin(t, 'lawyer', { verified: true });
    await k.earn(owner);
    expect((await k.addDetails(owner, '0999999999', 'Thief Account', 'Access Bank')).statusCode).toBe(201);
    const addedMail = (await lastMailTo(t, owner.email))!.text;
    const id = (await k.request(owner)).json().payout._id as string;
    // The owner corrects the details with the e-mailed code rather than the "added" mail's link.
    await changeToOwnAccount(owner);
    const changed = (await lastMailTo(t, owner.email))!;
    expect(changed.subject).toBe('Your LegalMarket payment details were changed');
    expect(changed.text).toContain('₦20,000');
    expect(changed.text).toContain('Access Bank •••• 9999');
    expect(changed.text).toContain(`${t.config.PUBLIC_URL}/lawyer/get-paid?tab=get-paid`);
    // The "added" mail's link no longer applies: cancelling is the owner's way to stop the payout.
    const stale = await k.inject('POST', '/api/payment-details/not-me', null, { token: linkToken(addedMail) });
    expect(stale.statusCode).toBe(409);
    const list = (await k.mine(owner)).payouts.find((p: PayoutView) => p._id === id)!;
    expect(list).toMatchObject({ status: 'requested', bank: 'Access Bank' });
    expect((await cancel(id, owner)).statusCode).toBe(200);
    expect((await k.approve(id)).statusCode).toBe(409);
    expect(await transfersTo(id)).toEqual([]);
    // Withdrawn again, the money goes to the owner's account.
    const next = (await k.request(owner)).json().payout as PayoutView;
    expect(next).toMatchObject({ amount: 20_000, bank: 'Zenith Bank', accountNumber: expect.stringMatching(/6789$/) });
  });

  it('the thief’s withdrawal an admin already approved: the change mail names it as on its way, with no cancel link', async () => {
    const owner = await signupAndLogin(t, 'lawyer', { verified: true });
    await k.earn(owner);
    // A sandbox account ending 2222: the approved transfer stays on its way.
    expect((await k.addDetails(owner, '0999992222', 'Thief Account', 'Access Bank')).statusCode).toBe(201);
    const id = (await k.request(owner)).json().payout._id as string;
    expect((await k.approve(id)).json().payout.status).toBe('sending');
    await changeToOwnAccount(owner);
    const changed = (await lastMailTo(t, owner.email))!.text;
    expect(changed).toContain('already approved and is on its way');
    expect(changed).toContain('Access Bank •••• 2222');
    expect(changed).toContain('contact support');
    expect(changed).not.toContain('Cancel on Get Paid');
    expect((await cancel(id, owner)).statusCode).toBe(409);
  });

  it('a batch approval naming a cancelled withdrawal says the lawyer cancelled it, not an admin', async () => {
    const lawyer = await k.earner();
    const id = (await k.request(lawyer, 10_000)).json().payout._id as string;
    expect((await cancel(id, lawyer)).statusCode).toBe(200);
    const batch = await k.inject('POST', '/api/admin/payouts/approve', k.suite.admin, { ids: [id] });
    expect(batch.statusCode).toBe(409);
    expect(batch.json().message).toContain(payoutMessages.batchWhyCancelled);
    expect(batch.json().message).not.toContain('rejected by an admin');
  });

  it('the change mail says nothing of withdrawals already going to the new details', async () => {
    const lawyer = await k.earner();
    await k.request(lawyer, 10_000);
    // The same account again (re-checked with the bank): the waiting withdrawal goes where it says.
    await changeToOwnAccount(lawyer);
    expect((await lastMailTo(t, lawyer.email))!.text).not.toContain('Cancel on Get Paid');
  });
});
