import { createHmac } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ledgerTransactions } from '../../db/schema.js';
import { describeEachDb, lastMailTo, sixDigits, type signupAndLogin } from '../../../test/helpers.js';
import { payoutTestKit, until, type PayoutTestApp } from './payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * Payouts after the job, attacked from outside on the paths payouts.test.ts leaves alone: the
 * reconciler's passes of several instances at once, a slow provider refusing one send while another
 * goes through, and transfers Flutterwave reports with another amount or currency. Races show on the
 * PostgreSQL server; on PGlite the same steps must keep the same books.
 */
describeEachDb('payout races through Flutterwave (local stand-in)', (kind) => {
  const k = payoutTestKit(kind, { product: 'Employment Contract', provider: 'flutterwave' });
  const { flw, inject, db, instance, payout, kinds, available, transfersOf, transferPosts } = k;
  let t: PayoutTestApp;
  let admin: Login;
  const ROUNDS = kind === 'postgres' ? 5 : 2;
  beforeAll(() => {
    ({ t, admin } = k.suite);
  });

  const hookBody = (id: number) => k.transferHookBody({ id });
  const webhook = (id: number, headers?: Record<string, string>) => k.transferWebhook({ id }, headers);

  /** A lawyer with checked details who earned ₦20,000 (₦25,000 less 20 %), available now. */
  async function earner(accountNumber = '0123456789') {
    const lawyer = await k.earner(accountNumber);
    expect(await available(lawyer)).toBe(20_000);
    return lawyer;
  }

  /** A payout approved while Flutterwave was down: `sending`, never sent, due for the reconciler a minute on. */
  async function leftByAnOutage(lawyer: Login) {
    const id = (await inject('POST', '/api/lawyer/payouts', lawyer, {})).json().payout._id as string;
    flw.setDown(true);
    const approved = await inject('POST', `/api/admin/payouts/${id}/approve`, admin, {});
    flw.setDown(false);
    expect(approved.json().payout.status).toBe('sending');
    expect(transfersOf(id)).toEqual([]);
    t.clock.advance(61_000);
    return id;
  }

  it('the reconciler passes of three instances at once send a payout left by an outage once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const lawyer = await earner();
      const id = await leftByAnOutage(lawyer);
      const before = transferPosts();
      const passes = [instance(), instance(), instance()];
      await Promise.all(passes.map((p) => p.reconcile()));
      expect(transferPosts() - before, `round ${round}`).toBe(1);
      const [tr] = transfersOf(id);
      expect(tr).toMatchObject({ amount: 20_000, account_number: '0123456789' });
      flw.completeTransfer(tr.id, 'SUCCESSFUL');
      await Promise.all([webhook(tr.id), webhook(tr.id)]);
      await until(async () => (await payout(id)).status === 'paid');
      expect(await kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
      expect(await available(lawyer)).toBe(0);
    }
  });

  it('a send refused while another pass is sending the same payout never returns money that is being paid', async () => {
    const lawyer = await earner();
    const id = await leftByAnOutage(lawyer);
    // Flutterwave is slow: the first pass's transfer request waits there.
    const slow = flw.holdTransfers();
    const first = instance().reconcile();
    await until(() => slow.waiting() === 1);
    // Another instance's pass a moment later, while the first one's request is still on its way.
    let secondDone = false;
    const second = instance()
      .reconcile()
      .finally(() => (secondDone = true));
    await until(() => secondDone || slow.waiting() === 2);
    // The first request is refused (the balance was short then); the money is topped up before the next.
    flw.setTransferMode('refuse');
    slow.next();
    await until(async () => (await payout(id)).status !== 'sending');
    flw.setTransferMode('queue');
    slow.release();
    await Promise.all([first, second]);

    const p = await payout(id);
    const made = transfersOf(id);
    // The money is either on its way to the bank or back with the lawyer, never both.
    expect({ status: p.status, transfers: made.length }).toEqual({ status: 'failed', transfers: 0 });
    expect(await kinds(id)).toEqual(['payout', 'payout_failed']);
    expect(await available(lawyer)).toBe(20_000);
  });

  it('a payout resent after an outage goes to the account it was asked for, whatever the details say now', async () => {
    const lawyer = await earner('0123456789');
    const id = await leftByAnOutage(lawyer);
    expect((await inject('POST', '/api/send-otp', lawyer)).statusCode).toBe(200);
    const otp = sixDigits((await lastMailTo(t, lawyer.email))!.text);
    expect((await inject('POST', '/api/confirm-otp', lawyer, { otp })).statusCode).toBe(200);
    const edit = { accountNumber: '9876543219', accountName: 'Chidi Okeke', bank: 'Access Bank' };
    const [changed] = await Promise.all([
      inject('PATCH', '/api/edit-payment-details', lawyer, edit),
      instance().reconcile(),
      instance().reconcile(),
    ]);
    expect(changed.statusCode).toBe(200);
    expect(transfersOf(id).map((x) => [x.account_number, x.bank_code])).toEqual([['0123456789', '057']]);
    // The payout keeps the account it went to; the lawyer's page shows it.
    const mine = (await inject('GET', '/api/lawyer/payouts', lawyer)).json().payouts;
    expect(mine.find((x: { _id: string }) => x._id === id)).toMatchObject({
      bank: 'Zenith Bank',
      accountNumber: '•••• 6789',
    });
  });

  it('a transfer reported with another amount or currency, or a webhook not signed, settles nothing', async () => {
    const lawyer = await earner();
    const id = (await inject('POST', '/api/lawyer/payouts', lawyer, {})).json().payout._id as string;
    expect((await inject('POST', `/api/admin/payouts/${id}/approve`, admin, {})).statusCode).toBe(200);
    const [tr] = transfersOf(id);
    flw.completeTransfer(tr.id, 'SUCCESSFUL');
    const forged: Record<string, string>[] = [
      {},
      { 'verif-hash': 'not-the-secret' },
      { 'flutterwave-signature': createHmac('sha256', 'not-the-secret').update(hookBody(tr.id)).digest('base64') },
    ];
    for (const headers of forged) expect((await webhook(tr.id, headers)).statusCode).toBe(401);

    // Flutterwave says the transfer paid another amount, then another currency: neither is this payout.
    const stored = flw.transfers.get(tr.id)! as { amount: number; currency: string };
    for (const [amount, currency] of [
      [19_999.99, 'NGN'],
      [20_000, 'USD'],
    ] as const) {
      Object.assign(stored, { amount, currency });
      expect((await webhook(tr.id)).statusCode).toBe(200);
      t.clock.advance(61_000);
      await instance().reconcile();
      await new Promise((r) => setTimeout(r, 200));
      expect((await payout(id)).status).toBe('sending');
      expect(await kinds(id)).toEqual(['payout']);
    }
    // Put right, the same webhook settles it once.
    Object.assign(stored, { amount: 20_000, currency: 'NGN' });
    await Promise.all([webhook(tr.id), webhook(tr.id)]);
    await until(async () => (await payout(id)).status === 'paid');
    expect(await kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    expect(
      await db()
        .select()
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.payoutId, id), eq(ledgerTransactions.kind, 'payout_settled'))),
    ).toHaveLength(1);
  });
});
