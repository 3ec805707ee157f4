import { beforeAll, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { messages, payoutMessages, type PayoutView } from '@legalmarket/contracts';
import {
  auditLog,
  ledgerEntries,
  ledgerTransactions,
  payoutDetails,
  payouts,
  sandboxTransfers,
  users,
} from '../../db/schema.js';
import { PASSWORD, describeEachDb, lastMailTo, signupAndLogin, sixDigits } from '../../../test/helpers.js';
import { mailsTo } from '../../../test/admin-fixtures.js';
import { payoutTestKit, until, type PayoutTestApp } from './payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;
const DAY = 86_400_000;

describeEachDb('lawyer payouts through the sandbox provider', (kind) => {
  const k = payoutTestKit(kind, { product: 'Non-Disclosure Agreement' });
  let t: PayoutTestApp;
  let admin: Login;
  beforeAll(() => {
    ({ t, admin } = k.suite);
  });
  /** The audit log's entries about one payout. */
  const auditOf = (payoutId: string) =>
    t.rt.database.db
      .select({ action: auditLog.action, actorId: auditLog.actorId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.targetId, payoutId));
  /** A verified lawyer with resolved details and ₦20,000 available. */
  async function earner(accountNumber = '0123456789') {
    const lawyer = await k.earner(accountNumber);
    expect(await k.available(lawyer)).toBe(20_000);
    return lawyer;
  }

  it("payout details are checked with the bank: unknown accounts refused, the bank's name saved", async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    const unknown = await k.addDetails(lawyer, '0123450000');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(payoutMessages.accountNotFound);
    expect((await k.inject('GET', '/api/get-payment-details', lawyer)).json().lawyer.accountDetails).toEqual([]);

    // The sandbox bank holds 0123456782 as TUNDE BAKARE: a clearly different typed name is replaced, and said so.
    const added = await k.addDetails(lawyer, '0123456782', 'Chidi Okeke');
    expect(added.statusCode).toBe(201);
    expect(added.json().message).toBe(
      `${messages.paymentDetailsAdded}. ${payoutMessages.nameFromBank('TUNDE BAKARE')}`,
    );
    expect(added.json().lawyer.accountDetails).toEqual([
      { accountNumber: '0123456782', accountName: 'TUNDE BAKARE', bank: 'Zenith Bank' },
    ]);
    const [row] = await t.rt.database.db.select().from(payoutDetails).where(eq(payoutDetails.lawyerId, lawyer.id));
    expect(row).toMatchObject({ bankCode: '057', typedName: 'Chidi Okeke', accountName: 'TUNDE BAKARE' });
    expect(row.resolvedAt).not.toBeNull();

    // A matching typed name answers the spec's message alone.
    const other = await signupAndLogin(t, 'lawyer');
    const same = await k.addDetails(other, '0123456789', 'chidi okeke');
    expect(same.json().message).toBe(messages.paymentDetailsAdded);
    expect(same.json().lawyer.accountDetails[0].accountName).toBe('CHIDI OKEKE');
  });

  it('details saved before resolution are refused for payouts until re-submitted', async () => {
    const lawyer = await earner();
    await t.rt.database.db
      .update(payoutDetails)
      .set({ resolvedAt: null, bankCode: null, accountName: 'Typed Name' })
      .where(eq(payoutDetails.lawyerId, lawyer.id));
    expect((await k.mine(lawyer)).detailsResolved).toBe(false);
    const refused = await k.request(lawyer, 1000);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(payoutMessages.detailsNotResolved);
    expect((await k.addDetails(lawyer, '0123456789')).statusCode).toBe(201);
    expect((await k.mine(lawyer)).detailsResolved).toBe(true);
    expect((await k.request(lawyer, 1000)).statusCode).toBe(201);
  });

  it('a withdrawal: refused above the available balance, reserved, approved once, paid, mailed', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await k.request(lawyer)).json().message).toBe(payoutMessages.noDetails);
    expect((await k.addDetails(lawyer, '0123456789')).statusCode).toBe(201);
    await k.holdDays(7);
    await k.earn(lawyer);
    await k.holdDays(0);
    // Still in its holding period.
    const early = await k.request(lawyer);
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(payoutMessages.nothingAvailable);
    t.clock.advance(7 * DAY + 1000);
    await k.relogin(lawyer);
    await k.relogin(admin);

    const above = await k.request(lawyer, 20_000.01);
    expect(above.statusCode).toBe(400);
    expect(above.json().message).toBe(payoutMessages.aboveAvailable(20_000));
    expect((await k.request(lawyer, 50)).json().message).toBe(payoutMessages.belowMinimum);
    const asked = await k.request(lawyer, 5_000.5);
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toMatchObject({
      message: payoutMessages.requested,
      payout: { status: 'requested', amount: 5_000.5, accountNumber: '•••• 6789', accountName: 'CHIDI OKEKE' },
    });
    const id = asked.json().payout._id as string;
    // Reserved: the rest is what may be asked for now, and nothing is posted before approval.
    expect((await k.mine(lawyer)).withdrawable).toBe(14_999.5);
    expect((await k.request(lawyer, 15_000)).json().message).toBe(payoutMessages.aboveAvailable(14_999.5));
    expect(await k.kinds(id)).toEqual([]);
    const waiting = (await k.inject('GET', '/api/admin/payouts?status=requested', admin)).json();
    expect(waiting.payouts.map((p: PayoutView) => p._id)).toContain(id);

    // A lawyer (even this one) cannot approve; nor can a company.
    expect((await k.approve(id, lawyer)).statusCode).toBe(403);
    const company = await signupAndLogin(t, 'company');
    expect((await k.approve(id, company)).statusCode).toBe(403);
    expect(await k.statusOf(id)).toBe('requested');

    const approved = await k.approve(id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().payout).toMatchObject({ status: 'paid', amount: 5_000.5 });
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    const sent = await t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id));
    expect(sent.map((s) => [s.amount, s.bankCode, s.accountNumber])).toEqual([[500_050, '057', '0123456789']]);
    // The transfer's fee (₦5,000.50 is in the ₦26.88 band) leaves the provider's cash as the platform's cost.
    const fee = await t.rt.database.db
      .select({ account: ledgerEntries.account, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerTransactions.payoutId, id), eq(ledgerTransactions.kind, 'fee')))
      .orderBy(ledgerEntries.id);
    expect(fee).toEqual([
      { account: 'provider_fees', amount: 2_688 },
      { account: 'provider_cash', amount: -2_688 },
    ]);
    expect(await k.available(lawyer)).toBe(14_999.5);
    const subjects = (await mailsTo(t, lawyer.email)).map((m) => m.subject);
    expect(subjects).toContain('Your withdrawal of ₦5,000.50 has been paid');
    expect((await mailsTo(t, admin.email)).map((m) => m.subject)).toContain(
      'A withdrawal of ₦5,000.50 is waiting for approval',
    );

    // Approving again moves nothing.
    const again = await k.approve(id);
    expect(again.statusCode).toBe(200);
    expect(again.json().payout.status).toBe('paid');
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    expect((await k.mine(lawyer)).payouts.map((p) => [p._id, p.status])).toEqual([[id, 'paid']]);
  });

  it('a withdrawal request is mailed to the admins there are, not to one who deleted the account', async () => {
    const gone = await signupAndLogin(t, 'admin');
    expect((await k.inject('POST', '/api/account/delete', gone, { password: PASSWORD })).statusCode).toBe(200);
    const [row] = await t.rt.database.db.select().from(users).where(eq(users.id, gone.id));
    expect(row.deletedAt).not.toBeNull();
    const lawyer = await earner('0123452222');
    expect((await k.request(lawyer, 1_000)).statusCode).toBe(201);
    const waiting = 'A withdrawal of ₦1,000 is waiting for approval';
    expect((await mailsTo(t, admin.email)).map((m) => m.subject)).toContain(waiting);
    expect(await mailsTo(t, row.officialEmail)).toEqual([]);
  });

  it('a failed transfer returns the money to the available balance once', async () => {
    const lawyer = await earner('0123451111');
    const id = (await k.request(lawyer)).json().payout._id as string;
    const res = await k.approve(id);
    expect(res.json().payout).toMatchObject({ status: 'failed', amount: 20_000 });
    expect(res.json().payout.failure).toMatch(/dormant/);
    expect(await k.kinds(id)).toEqual(['payout', 'payout_failed']);
    expect(await k.available(lawyer)).toBe(20_000);
    expect((await k.approve(id)).json().payout.status).toBe('failed');
    expect(await k.kinds(id)).toEqual(['payout', 'payout_failed']);
    expect((await mailsTo(t, lawyer.email)).map((m) => m.subject)).toContain(
      'Your withdrawal of ₦20,000 did not go through',
    );
    // The money can be asked for again.
    expect((await k.mine(lawyer)).withdrawable).toBe(20_000);
  });

  it('a transfer the sandbox keeps pending is finished by the admin, once', async () => {
    const lawyer = await earner('0123452222');
    const id = (await k.request(lawyer, 1_000)).json().payout._id as string;
    expect((await k.approve(id)).json().payout.status).toBe('sending');
    expect(await k.kinds(id)).toEqual(['payout']);
    expect(await k.available(lawyer)).toBe(19_000);
    const bad = await k.inject('POST', `/api/admin/payouts/${id}/sandbox-outcome`, admin, { status: 'MAYBE' });
    expect(bad.statusCode).toBe(400);
    const done = await k.inject('POST', `/api/admin/payouts/${id}/sandbox-outcome`, admin, { status: 'SUCCESSFUL' });
    expect(done.json().payout.status).toBe('paid');
    const twice = await k.inject('POST', `/api/admin/payouts/${id}/sandbox-outcome`, admin, { status: 'FAILED' });
    expect(twice.statusCode).toBe(409);
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
  });

  it('a batch approval approves each once; an unknown id approves nothing', async () => {
    const a = await earner();
    const b = await earner('0123456788');
    const ids = [(await k.request(a, 2_000)).json().payout._id, (await k.request(b, 3_000)).json().payout._id];
    const unknown = await k.inject('POST', '/api/admin/payouts/approve', admin, {
      ids: [...ids, '00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(404);
    expect(await k.statusOf(ids[0])).toBe('requested');
    const batch = await k.inject('POST', '/api/admin/payouts/approve', admin, { ids: [...ids, ids[0]] });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().message).toBe(payoutMessages.batchApproved(2));
    expect(batch.json().payouts.map((p: PayoutView) => p.status)).toEqual(['paid', 'paid']);
    const repeat = await k.inject('POST', '/api/admin/payouts/approve', admin, { ids });
    expect(repeat.json().message).toBe(payoutMessages.batchApproved(0));
    for (const id of ids) expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
  });

  it('a batch with payouts that cannot be approved approves none of it and names each (decision 2295)', async () => {
    const a = await earner();
    const b = await earner('0123456788');
    const c = await earner('0123456787');
    const first = (await k.request(a, 2_000)).json().payout._id as string;
    const turnedDown = (await k.request(c, 4_000)).json().payout._id as string;
    const nameOf = async (who: Login) =>
      (await t.rt.database.db.select({ name: users.name }).from(users).where(eq(users.id, who.id)))[0].name;
    // The app never lets a request outgrow the balance it reserves from, so b's is written to the table:
    // ₦30,000 waiting on ₦20,000 earned stands for whatever leaves a waiting payout uncovered.
    const [details] = await t.rt.database.db.select().from(payoutDetails).where(eq(payoutDetails.lawyerId, b.id));
    const [{ id: short }] = await t.rt.database.db
      .insert(payouts)
      .values({
        lawyerId: b.id,
        amount: 3_000_000,
        bank: details.bank,
        bankCode: details.bankCode!,
        accountNumber: details.accountNumber,
        accountName: details.accountName,
        provider: 'sandbox',
        createdAt: t.clock.now(),
        updatedAt: t.clock.now(),
      })
      .returning({ id: payouts.id });
    expect((await k.mine(b)).withdrawable).toBe(0);
    /** Nothing moved for the payout listed first: not approved, posted, sent or audited. */
    const untouched = async () => {
      expect(await k.statusOf(first)).toBe('requested');
      expect(await k.kinds(first)).toEqual([]);
      expect(
        await t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, first)),
      ).toHaveLength(0);
      expect(await auditOf(first)).toEqual([]);
      expect(await k.available(a)).toBe(20_000);
    };

    const refused = await k.inject('POST', '/api/admin/payouts/approve', admin, { ids: [first, short] });
    expect(refused.statusCode).toBe(409);
    const shortOne = { lawyerName: await nameOf(b), amount: 30_000, id: short, why: payoutMessages.batchWhyShort };
    expect(refused.json().message).toBe(payoutMessages.batchRefused([shortOne], 2));
    await untouched();
    expect(await k.statusOf(short)).toBe('requested');
    // Alone in its batch (the page's single Approve), there are no others to approve again.
    const alone = await k.inject('POST', '/api/admin/payouts/approve', admin, { ids: [short] });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().message).toBe(
      `Nothing was approved: the payout of ₦30,000 to ${shortOne.lawyerName} (id ${short}) ${payoutMessages.batchWhyShort}.`,
    );
    expect(await k.kinds(short)).toEqual([]);

    const reason = 'The company disputes the completed work.';
    expect((await k.inject('POST', `/api/admin/payouts/${turnedDown}/reject`, admin, { reason })).statusCode).toBe(200);
    const withRejected = await k.inject('POST', '/api/admin/payouts/approve', admin, { ids: [first, turnedDown] });
    expect(withRejected.statusCode).toBe(409);
    const rejectedOne = {
      lawyerName: await nameOf(c),
      amount: 4_000,
      id: turnedDown,
      why: payoutMessages.batchWhyRejected,
    };
    expect(withRejected.json().message).toBe(payoutMessages.batchRefused([rejectedOne], 2));
    await untouched();
    // Each payout in the way is named, in the order sent.
    const both = await k.inject('POST', '/api/admin/payouts/approve', admin, { ids: [turnedDown, first, short] });
    expect(both.statusCode).toBe(409);
    expect(both.json().message).toBe(payoutMessages.batchRefused([rejectedOne, shortOne], 3));
    expect(both.json().message).toMatch(/^Nothing was approved: the payout of ₦4,000 to .+; the payout of ₦30,000 to /);
    await untouched();

    // Left out, the rest is approved and sent once.
    const rest = await k.inject('POST', '/api/admin/payouts/approve', admin, { ids: [first] });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().message).toBe(payoutMessages.batchApproved(1));
    expect(rest.json().payouts.map((p: PayoutView) => p.status)).toEqual(['paid']);
    expect(await k.kinds(first)).toEqual(['payout', 'payout_settled', 'fee']);
    // The payout written past b's balance is turned down: the ledger audit names a waiting one uncovered.
    const cleared = await k.inject('POST', `/api/admin/payouts/${short}/reject`, admin, { reason: 'Written past it' });
    expect(cleared.statusCode).toBe(200);
  });

  it('twenty concurrent approvals of one payout send one transfer and post once', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    const codes = (await Promise.all(Array.from({ length: 20 }, () => k.approve(id)))).map((r) => r.statusCode);
    expect(codes).toEqual(Array(20).fill(200));
    expect(
      await t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id)),
    ).toHaveLength(1);
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    expect(await k.available(lawyer)).toBe(0);
    // The admin's approval is in the audit log once, with who and how much.
    expect(await auditOf(id)).toEqual([
      { action: 'payout.approve', actorId: admin.id, details: { lawyerId: lawyer.id, amountKobo: 2_000_000 } },
    ]);
  });

  it('an admin rejects a request with a reason: the money is withdrawable again, the lawyer is told once', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer, 5_000)).json().payout._id as string;
    expect((await k.mine(lawyer)).withdrawable).toBe(15_000);
    const reject = (reason: unknown, who = admin, payoutId = id) =>
      k.inject('POST', `/api/admin/payouts/${payoutId}/reject`, who, { reason });
    expect((await reject('Account is not yours', lawyer)).statusCode).toBe(403);
    const short = await reject('  x ');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/reason/);
    expect((await reject('Nope', admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    const done = await reject('  The company disputes the completed work.  ');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      message: payoutMessages.rejected,
      payout: { status: 'rejected', failure: 'The company disputes the completed work.' },
    });
    // Nothing was posted for the request; its reservation ended, so everything is withdrawable again.
    expect(await k.kinds(id)).toEqual([]);
    expect((await k.mine(lawyer)).withdrawable).toBe(20_000);
    expect(await k.available(lawyer)).toBe(20_000);
    // Again: answered as it is, no second mail; approving it is refused and sends nothing.
    expect((await reject('Second thoughts')).json().payout.failure).toBe('The company disputes the completed work.');
    const approved = await k.approve(id);
    expect(approved.statusCode).toBe(409);
    expect(approved.json().message).toBe(payoutMessages.notRequested);
    expect(
      await t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id)),
    ).toHaveLength(0);
    const subjects = (await mailsTo(t, lawyer.email)).map((m) => m.subject);
    expect(subjects.filter((x) => x === 'Your withdrawal of ₦5,000 was not approved')).toHaveLength(1);
    expect(await auditOf(id)).toEqual([
      {
        action: 'payout.reject',
        actorId: admin.id,
        details: { lawyerId: lawyer.id, amountKobo: 500_000, reason: 'The company disputes the completed work.' },
      },
    ]);
    expect((await k.mine(lawyer)).payouts.find((p) => p._id === id)?.status).toBe('rejected');

    // Once approved it can no longer be rejected.
    const sent = (await k.request(lawyer, 1_000)).json().payout._id as string;
    expect((await k.approve(sent)).statusCode).toBe(200);
    const late = await reject('Too late', admin, sent);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(payoutMessages.notRequested);
    expect(await k.kinds(sent)).toEqual(['payout', 'payout_settled', 'fee']);
  });

  it('a rejection and approvals at the same moment: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const lawyer = await earner();
      const id = (await k.request(lawyer)).json().payout._id as string;
      const calls = Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? k.approve(id)
          : k.inject('POST', `/api/admin/payouts/${id}/reject`, admin, { reason: 'Racing the approval' }),
      );
      const codes = (await Promise.all(calls)).map((r) => r.statusCode);
      expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
      const status = await k.statusOf(id);
      const sent = await t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id));
      const mails = (await mailsTo(t, lawyer.email)).map((m) => m.subject);
      // Whichever won is audited once; the loser left no entry.
      expect((await auditOf(id)).map((a) => a.action)).toEqual([
        status === 'rejected' ? 'payout.reject' : 'payout.approve',
      ]);
      if (status === 'rejected') {
        expect(sent).toHaveLength(0);
        expect(await k.kinds(id)).toEqual([]);
        expect(await k.available(lawyer)).toBe(20_000);
        expect(mails.filter((m) => m.endsWith('was not approved'))).toHaveLength(1);
      } else {
        expect(status).toBe('paid');
        expect(sent).toHaveLength(1);
        expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
        expect(await k.available(lawyer)).toBe(0);
        expect(mails.filter((m) => m.endsWith('was not approved'))).toHaveLength(0);
      }
    }
  });

  it('a batch racing the rejection of one of its payouts approves all of it or none (decision 2295)', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await earner();
      const b = await earner('0123456788');
      const ids = [
        (await k.request(a, 2_000)).json().payout._id as string,
        (await k.request(b, 3_000)).json().payout._id as string,
      ];
      const [batch, rejection] = await Promise.all([
        k.inject('POST', '/api/admin/payouts/approve', admin, { ids }),
        k.inject('POST', `/api/admin/payouts/${ids[1]}/reject`, admin, { reason: 'Racing the batch' }),
      ]);
      const statuses = [await k.statusOf(ids[0]), await k.statusOf(ids[1])];
      if (rejection.statusCode === 200) {
        expect(batch.statusCode, `round ${round}`).toBe(409);
        expect(statuses).toEqual(['requested', 'rejected']);
        expect(await k.kinds(ids[0])).toEqual([]);
      } else {
        expect([batch.statusCode, rejection.statusCode], `round ${round}`).toEqual([200, 409]);
        expect(statuses).toEqual(['paid', 'paid']);
      }
    }
  });

  it('concurrent requests cannot take the same available money twice', async () => {
    const lawyer = await earner();
    const res = await Promise.all(Array.from({ length: 10 }, () => k.request(lawyer, 15_000)));
    expect(res.map((r) => r.statusCode).sort()).toEqual([201, ...Array(9).fill(400)]);
    const open = await t.rt.database.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.lawyerId, lawyer.id), inArray(payouts.status, ['requested'])));
    expect(open.map((p) => p.amount)).toEqual([1_500_000]);
  });

  it('a request sent again under its Idempotency-Key answers the payout it made, at once or after a lost answer', async () => {
    const lawyer = await earner();
    const keyed = (key: string, amount?: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/lawyer/payouts',
        headers: { ...lawyer.headers, 'idempotency-key': key },
        payload: amount === undefined ? {} : { amount },
      });
    const mine = () => t.rt.database.db.select().from(payouts).where(eq(payouts.lawyerId, lawyer.id));
    const waitingMails = async () => (await mailsTo(t, admin.email)).length;
    const mailsBefore = await waitingMails();
    const key = crypto.randomUUID();
    const both = await Promise.all([keyed(key, 5_000), keyed(key, 5_000)]);
    expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
    const id = both[0].json().payout._id as string;
    expect(both[1].json().payout._id).toBe(id);
    expect(id).not.toBe(key);
    // The retry after a timeout: the same payout, not a second one.
    const retry = await keyed(key, 5_000);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ message: payoutMessages.requested, payout: { _id: id, amount: 5_000 } });
    expect((await mine()).map((p) => p.amount)).toEqual([500_000]);
    expect((await k.mine(lawyer)).withdrawable).toBe(15_000);
    expect((await waitingMails()) - mailsBefore).toBe(1);
    // Everything withdrawable, asked twice: the second is the first, not "nothing available".
    const rest = crypto.randomUUID();
    expect((await keyed(rest)).json().payout.amount).toBe(15_000);
    const again = await keyed(rest);
    expect(again.statusCode).toBe(201);
    expect(again.json().payout.amount).toBe(15_000);
    expect(await mine()).toHaveLength(2);
    // A key reused for another amount is refused; a bad key answers 400.
    const other = await keyed(key, 4_000);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(payoutMessages.requestKeyReused);
    const bad = await keyed('not-a-uuid', 1_000);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Idempotency-Key must be a valid id');
    // Approved meanwhile, the same request again answers it as it is now.
    expect((await k.approve(id)).statusCode).toBe(200);
    expect((await keyed(key, 5_000)).json().payout).toMatchObject({ _id: id });
    expect(await mine()).toHaveLength(2);
  });

  it('a change of payout details racing the approval never redirects the payout already asked for', async () => {
    const lawyer = await earner('0123456789');
    const id = (await k.request(lawyer, 10_000)).json().payout._id as string;
    expect((await k.inject('POST', '/api/send-otp', lawyer)).statusCode).toBe(200);
    const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text);
    expect((await k.inject('POST', '/api/confirm-otp', lawyer, { otp })).statusCode).toBe(200);
    const [approved, changed] = await Promise.all([
      k.approve(id),
      k.inject('PATCH', '/api/edit-payment-details', lawyer, {
        accountNumber: '9876543219',
        accountName: 'Chidi Okeke',
        bank: 'Access Bank',
      }),
    ]);
    expect([approved.statusCode, changed.statusCode]).toEqual([200, 200]);
    const sent = await t.rt.database.db.select().from(sandboxTransfers).where(eq(sandboxTransfers.reference, id));
    expect(sent.map((x) => [x.accountNumber, x.bankCode])).toEqual([['0123456789', '057']]);
    // What is asked for from now on goes to the new account.
    const next = (await k.request(lawyer)).json().payout;
    expect(next).toMatchObject({ amount: 10_000, bank: 'Access Bank', accountNumber: expect.stringMatching(/3219$/) });
  });
});

describeEachDb('lawyer payouts through Flutterwave (local stand-in): webhooks, failures, outages', (kind) => {
  const k = payoutTestKit(kind, { product: 'Trademark Registration', provider: 'flutterwave' });
  const { flw, earner, transferPosts } = k;
  let t: PayoutTestApp;
  beforeAll(() => {
    ({ t } = k.suite);
  });
  // A forged body: the status and amount here are never trusted, the transfer is fetched.
  const webhook = (id: number, status: string) => k.transferWebhook({ id, status, amount: 1 });
  const transferOf = (reference: string) => k.transfersOf(reference)[0];
  /** One pass of the reconciler, as main.ts's timer runs it. */
  const reconcile = () => k.instance().reconcile();
  /** Moves a payout's settlement (and any look at it) back in time, so the test's clock stays put for the sessions. */
  const settledAgo = (id: string, ms: number) =>
    t.rt.database.db
      .update(payouts)
      .set({ settledAt: new Date(t.clock.now().getTime() - ms), reversalCheckedAt: null })
      .where(eq(payouts.id, id));
  /** One pass of the daily look at paid payouts, as the reconciler's timer runs it. */
  const recheckPaid = () => k.instance().recheckPaid();

  it('resolves accounts with POST /v3/accounts/resolve; unknown 400, provider down 503', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer');
    flw.setAccount('0234567891', 'ADA OBI');
    expect((await k.addDetails(lawyer, '0234560000')).json().message).toBe(payoutMessages.accountNotFound);
    flw.setDown(true);
    const down = await k.addDetails(lawyer, '0234567891', 'Ada Obi');
    expect(down.statusCode).toBe(503);
    expect(down.json().message).toBe(payoutMessages.bankCheckUnavailable);
    flw.setDown(false);
    const ok = await k.addDetails(lawyer, '0234567891', 'Ada Obi');
    expect(ok.json()).toMatchObject({
      message: messages.paymentDetailsAdded,
      lawyer: { accountDetails: [{ accountNumber: '0234567891', accountName: 'ADA OBI', bank: 'Zenith Bank' }] },
    });
  });

  it('twenty concurrent approvals make one transfer; fifty duplicate webhooks settle it once', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer, 12_345.67)).json().payout._id as string;
    const before = transferPosts();
    const res = await Promise.all(Array.from({ length: 20 }, () => k.approve(id)));
    expect(res.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(transferPosts() - before).toBe(1);
    const tr = transferOf(id);
    expect(tr).toMatchObject({ amount: 12_345.67, currency: 'NGN', bank_code: '057', account_number: '0123456789' });
    expect(await k.statusOf(id)).toBe('sending');
    expect(await k.kinds(id)).toEqual(['payout']);

    // A webhook before the provider finished settles nothing.
    await webhook(tr.id, 'SUCCESSFUL');
    await new Promise((r) => setTimeout(r, 100));
    expect(await k.statusOf(id)).toBe('sending');

    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    const hooks = await Promise.all(Array.from({ length: 50 }, () => webhook(tr.id, 'SUCCESSFUL')));
    expect(hooks.every((h) => h.statusCode === 200)).toBe(true);
    await until(async () => (await k.statusOf(id)) === 'paid');
    await new Promise((r) => setTimeout(r, 200));
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    const paidMails = (await mailsTo(t, lawyer.email)).filter((m) => m.subject.includes('has been paid'));
    expect(paidMails).toHaveLength(1);
    expect(await k.available(lawyer)).toBe(7_654.33);
  });

  it('a failed transfer returns the money once, whatever the number of webhooks', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    await k.approve(id);
    expect(await k.available(lawyer)).toBe(0);
    const tr = transferOf(id);
    flw.completeTransfer(tr.id, 'FAILED');
    await Promise.all(Array.from({ length: 50 }, () => webhook(tr.id, 'FAILED')));
    await until(async () => (await k.statusOf(id)) === 'failed');
    await new Promise((r) => setTimeout(r, 200));
    expect(await k.kinds(id)).toEqual(['payout', 'payout_failed']);
    expect(await k.available(lawyer)).toBe(20_000);
    expect((await k.mine(lawyer)).payouts[0]).toMatchObject({
      status: 'failed',
      failure: expect.stringMatching(/dormant/),
    });
  });

  it('a refused transfer fails at once and returns the money', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    flw.setTransferMode('refuse');
    const res = await k.approve(id);
    expect(res.json().payout).toMatchObject({ status: 'failed', failure: 'Insufficient funds in customer balance' });
    expect(await k.kinds(id)).toEqual(['payout', 'payout_failed']);
    expect(await k.available(lawyer)).toBe(20_000);
  });

  it('a provider outage leaves the payout sending; the reconciler sends it once later', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    flw.setDown(true);
    const res = await k.approve(id);
    expect(res.json().payout.status).toBe('sending');
    expect(transferOf(id)).toBeUndefined();
    flw.setDown(false);
    // Too early: a send may still be under way.
    expect(await reconcile()).toBe(0);
    t.clock.advance(61_000);
    await reconcile();
    // Asked by our reference first: Flutterwave never got it, so it was sent again with the same reference.
    expect(flw.calls).toContain(`GET /v3/transfers?reference=${id}`);
    await reconcile();
    const tr = transferOf(id);
    expect([...flw.transfers.values()].filter((x) => x.reference === id)).toHaveLength(1);
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    t.clock.advance(61_000);
    // A lost webhook: the reconciler asks GET /v3/transfers/{id} and settles it.
    await reconcile();
    expect(await k.statusOf(id)).toBe('paid');
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
  });

  it('a transfer made but never answered, nor its webhook, is found by its reference and settled once', async () => {
    const [a, b] = [await earner(), await earner()];
    const ids: string[] = [];
    for (const lawyer of [a, b]) {
      const id = (await k.request(lawyer)).json().payout._id as string;
      flw.setTransferMode('lose');
      const res = await k.approve(id);
      flw.setTransferMode('queue');
      expect(res.json().payout.status).toBe('sending');
      ids.push(id);
    }
    // Flutterwave made each transfer once; we know neither id.
    for (const id of ids) {
      expect([...flw.transfers.values()].filter((x) => x.reference === id)).toHaveLength(1);
      expect(
        (await t.rt.database.db.select().from(payouts).where(eq(payouts.id, id)))[0].providerTransferId,
      ).toBeNull();
    }
    flw.completeTransfer(transferOf(ids[0]).id, 'SUCCESSFUL');
    flw.completeTransfer(transferOf(ids[1]).id, 'FAILED');
    const posts = transferPosts();
    expect(await reconcile()).toBe(0);
    t.clock.advance(61_000);
    expect(await reconcile()).toBe(2);
    expect(await reconcile()).toBe(0);
    // Looked up, not sent again.
    expect(transferPosts()).toBe(posts);
    expect(await k.statusOf(ids[0])).toBe('paid');
    expect(await k.kinds(ids[0])).toEqual(['payout', 'payout_settled', 'fee']);
    expect(await k.statusOf(ids[1])).toBe('failed');
    expect(await k.kinds(ids[1])).toEqual(['payout', 'payout_failed']);
    expect(await k.available(b)).toBe(20_000);
    expect(await k.available(a)).toBe(0);
  });

  it('a transfer paid and then reversed by the bank returns the money once, whatever the webhooks', async () => {
    for (const reported of ['REVERSED', 'FAILED'] as const) {
      const lawyer = await earner();
      const id = (await k.request(lawyer)).json().payout._id as string;
      await k.approve(id);
      const tr = transferOf(id);
      flw.completeTransfer(tr.id, 'SUCCESSFUL');
      await webhook(tr.id, 'SUCCESSFUL');
      await until(async () => (await k.statusOf(id)) === 'paid');
      expect(await k.available(lawyer)).toBe(0);

      // The beneficiary bank sends it back days later: Flutterwave's next webhook reports it so.
      flw.reverseTransfer(tr.id, reported);
      const hooks = await Promise.all(Array.from({ length: 20 }, () => webhook(tr.id, reported)));
      expect(hooks.every((h) => h.statusCode === 200)).toBe(true);
      await until(async () => (await k.statusOf(id)) === 'failed');
      await new Promise((r) => setTimeout(r, 200));
      expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee', 'payout_reversed']);
      expect(await k.available(lawyer)).toBe(20_000);
      expect((await k.mine(lawyer)).payouts[0]).toMatchObject({
        status: 'failed',
        failure: expect.stringMatching(/reversed/),
      });
      const failedMails = (await mailsTo(t, lawyer.email)).filter((m) => m.subject.includes('did not go through'));
      expect(failedMails).toHaveLength(1);
      // The returned money can be withdrawn again, and only once.
      expect((await k.request(lawyer)).statusCode).toBe(201);
      expect((await k.request(lawyer)).statusCode).toBe(400);
    }
  });

  it('a reversal whose webhook was lost is found by the daily look, and returns the money once', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    await k.approve(id);
    const tr = transferOf(id);
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    await webhook(tr.id, 'SUCCESSFUL');
    await until(async () => (await k.statusOf(id)) === 'paid');
    // Sent back by the bank; Flutterwave's webhook never reaches us.
    flw.reverseTransfer(tr.id, 'REVERSED');
    await recheckPaid();
    expect(await k.statusOf(id)).toBe('paid');
    await settledAgo(id, 25 * 3_600_000);
    // Two instances look at once: the lawyer gets the money back once.
    await Promise.all([recheckPaid(), recheckPaid()]);
    expect(await k.statusOf(id)).toBe('failed');
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee', 'payout_reversed']);
    expect(await k.available(lawyer)).toBe(20_000);
    await recheckPaid();
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee', 'payout_reversed']);
    const failedMails = (await mailsTo(t, lawyer.email)).filter((m) => m.subject.includes('did not go through'));
    expect(failedMails).toHaveLength(1);
  });

  it('looks at a paid payout once a day for 30 days, and no more', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    await k.approve(id);
    const tr = transferOf(id);
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    await webhook(tr.id, 'SUCCESSFUL');
    await until(async () => (await k.statusOf(id)) === 'paid');
    const lookups = () => flw.calls.filter((c) => c === `GET /v3/transfers/${tr.id}`).length;
    const before = lookups();
    await recheckPaid();
    expect(lookups()).toBe(before);
    await settledAgo(id, 25 * 3_600_000);
    await recheckPaid();
    expect(lookups()).toBe(before + 1);
    // Asked again the same day: not looked up again.
    await recheckPaid();
    expect(lookups()).toBe(before + 1);
    await settledAgo(id, 31 * 86_400_000);
    await recheckPaid();
    expect(lookups()).toBe(before + 1);
    expect(await k.statusOf(id)).toBe('paid');
  });

  it('a reversal reported before the success was applied fails the payout once, from transit', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    await k.approve(id);
    const tr = transferOf(id);
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    flw.reverseTransfer(tr.id);
    // The success webhook arrives after the reversal happened: the transfer is fetched, so it says reversed.
    await Promise.all([webhook(tr.id, 'SUCCESSFUL'), webhook(tr.id, 'REVERSED'), webhook(tr.id, 'SUCCESSFUL')]);
    await until(async () => (await k.statusOf(id)) === 'failed');
    await new Promise((r) => setTimeout(r, 200));
    expect(await k.kinds(id)).toEqual(['payout', 'payout_failed']);
    expect(await k.available(lawyer)).toBe(20_000);
  });

  it('a refusal after a lost answer does not return money the first send already paid', async () => {
    const lawyer = await earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    // The first send is made and its answer lost; the retry is refused for the balance that send spent.
    flw.setTransferMode('drain');
    const res = await k.approve(id);
    flw.setTransferMode('queue');
    expect([...flw.transfers.values()].filter((x) => x.reference === id)).toHaveLength(1);
    expect(res.json().payout.status).toBe('sending');
    expect(await k.kinds(id)).toEqual(['payout']);
    expect(await k.available(lawyer)).toBe(0);
    flw.completeTransfer(transferOf(id).id, 'SUCCESSFUL');
    await webhook(transferOf(id).id, 'SUCCESSFUL');
    await until(async () => (await k.statusOf(id)) === 'paid');
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    expect(await k.available(lawyer)).toBe(0);
  });
});
