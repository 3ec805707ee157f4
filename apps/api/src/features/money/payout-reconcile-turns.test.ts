import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../../test/helpers.js';
import { createPaymentProvider } from '../../platform/payments/index.js';
import { payoutTestKit, type PayoutTestApp } from './payout-test-kit.js';

/**
 * The reconciler's pass reads a limited number of unsettled payouts: transfers the provider holds
 * pending for days must not keep the payouts behind them out of every pass.
 */
describeEachDb('payout reconciliation takes every unsettled payout in turn', (kind) => {
  const k = payoutTestKit(kind, { product: 'Employment Contract', provider: 'flutterwave' });
  const { flw, request, approve, statusOf, transfersOf, instance } = k;
  let t: PayoutTestApp;
  beforeAll(() => {
    ({ t } = k.suite);
  });

  it('asks about a payout behind one the provider keeps pending, within a few passes', async () => {
    const [held, settled] = [await k.earner('0123456789'), await k.earner('0123456781')];
    const ids: string[] = [];
    for (const lawyer of [held, settled]) {
      const id = (await request(lawyer)).json().payout._id as string;
      expect((await approve(id)).json().payout.status).toBe('sending');
      ids.push(id);
    }
    const [heldId, settledId] = ids;
    // The second transfer is paid at the provider and its webhook lost; the first stays pending there.
    flw.completeTransfer(transfersOf(settledId)[0].id, 'SUCCESSFUL');
    t.clock.advance(61_000);
    // Passes that read one payout at a time, as passes of 50 read the first 50 of many.
    const pass = instance();
    for (let i = 0; i < 3; i++) {
      await pass.reconcile(1);
      t.clock.advance(61_000);
    }
    expect(await statusOf(settledId)).toBe('paid');
    expect(await statusOf(heldId)).toBe('sending');
  });

  it('asks about a payout behind one whose lookup fails, within a few passes', async () => {
    const [failing, settled] = [await k.earner('0123456782'), await k.earner('0123456783')];
    const ids: string[] = [];
    for (const lawyer of [failing, settled]) {
      const id = (await request(lawyer)).json().payout._id as string;
      expect((await approve(id)).json().payout.status).toBe('sending');
      ids.push(id);
      // Sent a second apart, so the failing one is ahead in the queue whatever the ids.
      t.clock.advance(1_000);
    }
    const [failingId, settledId] = ids;
    const failingTransfer = String(transfersOf(failingId)[0].id);
    flw.completeTransfer(transfersOf(settledId)[0].id, 'SUCCESSFUL');
    t.clock.advance(61_000);
    // The provider answers every lookup of the first transfer with an error (a timeout, a 500).
    const real = createPaymentProvider(t.config, k.db());
    const pass = instance({
      ...real,
      fetchTransfer: async (id) => {
        if (id === failingTransfer) throw new Error('provider timed out');
        return real.fetchTransfer(id);
      },
    });
    for (let i = 0; i < 3; i++) {
      await pass.reconcile(1);
      t.clock.advance(61_000);
    }
    expect(await statusOf(settledId)).toBe('paid');
    expect(await statusOf(failingId)).toBe('sending');
  });
});
