import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, type signupAndLogin } from '../../../test/helpers.js';
import { createPaymentProvider, type PaymentProvider } from '../../platform/payments/index.js';
import { payoutTestKit, type PayoutTestApp } from './payout-test-kit.js';

type Login = Awaited<ReturnType<typeof signupAndLogin>>;

/**
 * A payout is carried by one transfer, the one its row knows. A webhook naming another transfer under
 * the payout's reference that reports a failure or a reversal (Flutterwave gives a reference to one
 * transfer only, so this is a provider contradicting itself, or a replayed id from elsewhere) must not
 * give the lawyer the money back: the known transfer paid it.
 */
describeEachDb('a failure of another transfer under a payout’s reference', (kind) => {
  const k = payoutTestKit(kind, { product: 'Share Purchase Agreement' });
  let t: PayoutTestApp;
  beforeAll(() => {
    ({ t } = k.suite);
  });

  /** The provider as the app has it, but answering `id` with a failed transfer under `reference`. */
  const failing = (transferId: string, reference: string, amount: number): PaymentProvider => {
    const real = createPaymentProvider(t.config, k.db());
    return {
      ...real,
      fetchTransfer: async (id) =>
        id === transferId
          ? { id, reference, amount, currency: 'NGN', status: 'failed', message: 'Reversed by the bank' }
          : real.fetchTransfer(id),
    };
  };
  /** A lawyer whose ₦20,000 payout was approved and paid; its transfer's id. */
  async function paidPayout(): Promise<{ lawyer: Login; id: string; transferId: string }> {
    const lawyer = await k.earner();
    const id = (await k.request(lawyer)).json().payout._id as string;
    expect((await k.approve(id)).statusCode).toBe(200);
    const p = await k.payout(id);
    expect(p.status).toBe('paid');
    return { lawyer, id, transferId: p.providerTransferId! };
  }

  it('a reversal reported for another transfer leaves the paid payout paid and the lawyer owed nothing', async () => {
    const { lawyer, id, transferId } = await paidPayout();
    const other = `${transferId}-other`;
    const payouts = k.instance(failing(other, id, 2_000_000));
    for (let i = 0; i < 3; i++) await payouts.onWebhook({ data: { id: other } });
    expect(await k.statusOf(id)).toBe('paid');
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee']);
    expect(await k.owed(lawyer.id)).toBe(0);
    expect((await k.mine(lawyer)).withdrawable).toBe(0);
  });

  it('a reversal of the transfer that paid it still gives the money back, once', async () => {
    const { lawyer, id, transferId } = await paidPayout();
    const payouts = k.instance(failing(transferId, id, 2_000_000));
    for (let i = 0; i < 3; i++) await payouts.onWebhook({ data: { id: transferId } });
    expect(await k.statusOf(id)).toBe('failed');
    expect(await k.kinds(id)).toEqual(['payout', 'payout_settled', 'fee', 'payout_reversed']);
    expect(await k.owed(lawyer.id)).toBe(2_000_000);
  });
});
