import { beforeAll, expect, it } from 'vitest';
import type { EarningsResponse, LawyerPayoutsResponse } from '@legalmarket/contracts';
import { describeEachDb, signupAndLogin } from '../../../test/helpers.js';
import { payoutTestKit, type PayoutTestApp } from './payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * The lawyer's Get Paid tab explains its withdrawable amount (decision 2314): what was earned, less what is
 * held, paid, being sent and waiting for approval. The sums are over every payout and earning.
 */
describeEachDb('payout figures that add up for the lawyer and the admin', (kind) => {
  const k = payoutTestKit(kind, { product: 'Lease Agreement' });
  let t: PayoutTestApp;
  let admin: Login;
  beforeAll(() => {
    ({ t, admin } = k.suite);
  });
  const earnings = async (lawyer: Login) =>
    ((await k.inject('GET', '/job-api/lawyer/earnings', lawyer)).json() as EarningsResponse).data;
  const payoutsOf = async (lawyer: Login) =>
    (await k.inject('GET', '/api/lawyer/payouts', lawyer)).json() as LawyerPayoutsResponse;

  it('earned less held, paid, sending and requested is what may be withdrawn; rejected money is back', async () => {
    // Transfers to an account ending in 2222 stay pending at the sandbox until told otherwise.
    const lawyer = await k.earner('0123452222', 2);
    const ask = async (amount: number) => (await k.request(lawyer, amount)).json().payout._id as string;

    const paid = await ask(1_000);
    expect((await k.approve(paid)).json().payout.status).toBe('sending');
    const done = await k.inject('POST', `/api/admin/payouts/${paid}/sandbox-outcome`, admin, {
      status: 'SUCCESSFUL',
    });
    expect(done.json().payout.status).toBe('paid');
    const sending = await ask(2_000.5);
    expect((await k.approve(sending)).json().payout.status).toBe('sending');
    await ask(3_000);
    const rejected = await ask(500);
    const no = await k.inject('POST', `/api/admin/payouts/${rejected}/reject`, admin, { reason: 'Not this one' });
    expect(no.statusCode).toBe(200);

    const p = await payoutsOf(lawyer);
    expect(p.totals).toEqual({ earned: 40_000, held: 0, paid: 1_000, sending: 2_000.5, requested: 3_000 });
    expect(p.withdrawable).toBe(33_999.5);
    const sum = p.totals!;
    expect(sum.earned - sum.held - sum.paid - sum.sending - sum.requested).toBe(p.withdrawable);
    // The ledger's available share is the same money before the requests waiting for approval.
    expect((await earnings(lawyer)).available).toBe(p.withdrawable + sum.requested);
  });

  it('a share still in its holding period is earned and held, not withdrawable', async () => {
    await k.holdDays(7);
    try {
      const lawyer = await k.earner('0123456789', 1);
      const p = await payoutsOf(lawyer);
      expect(p.totals).toEqual({ earned: 20_000, held: 20_000, paid: 0, sending: 0, requested: 0 });
      expect(p.withdrawable).toBe(0);
      expect((await earnings(lawyer)).pending).toBe(20_000);
    } finally {
      await k.holdDays(0);
    }
  });

  it("the admin's list counts every waiting payout beside their total", async () => {
    const before = (await k.inject('GET', '/api/admin/payouts', admin)).json();
    const lawyer = await k.earner('0123456789', 1);
    expect((await k.request(lawyer, 1_000)).statusCode).toBe(201);
    expect((await k.request(lawyer, 2_500.25)).statusCode).toBe(201);
    const after = (await k.inject('GET', '/api/admin/payouts', admin)).json();
    expect(after.waitingCount).toBe(before.waitingCount + 2);
    expect(after.waitingTotal).toBeCloseTo(before.waitingTotal + 3_500.25, 2);
    expect(after.waitingCount).toBe(after.payouts.filter((p: { status: string }) => p.status === 'requested').length);
  });

  it('a lawyer with nothing earned has zero figures', async () => {
    const lawyer = await signupAndLogin(t, 'lawyer', { verified: true });
    expect((await payoutsOf(lawyer)).totals).toEqual({ earned: 0, held: 0, requested: 0, sending: 0, paid: 0 });
  });
});
