import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { FlutterwavePayment } from './payment-messages';
import { usePayment, type PaymentData } from './use-payment';

/** Flutterwave's inline checkout, driven by each test: what it calls back with, or that it was closed. */
let act_: (config: { callback: (p: FlutterwavePayment) => void; onclose: () => void }) => void = () => {};
vi.mock('./flutterwave-loader', () => ({
  loadFlutterwave: async () => (config: { callback: (p: FlutterwavePayment) => void; onclose: () => void }) => {
    act_(config);
    return { close: () => config.onclose() };
  },
}));

const data: PaymentData = {
  reference: 'lm-R1',
  amount: 1000,
  currency: 'NGN',
  title: 'NDA and 1 more',
  paymentOptions: 'card',
  customer: { email: 'ada@example.ng', phone: '08012345678', name: 'Ada' },
  provider: { name: 'flutterwave', publicKey: 'pk', testMode: true },
};

async function live(drive: typeof act_) {
  act_ = drive;
  const { result } = renderHook(() => usePayment());
  let paid;
  await act(async () => {
    paid = await result.current.pay(data);
  });
  return paid;
}

describe('the live Flutterwave checkout (decision 1820)', () => {
  it("a declined card resolves with the provider's reason, once, though the modal closes after", async () => {
    expect(
      await live(({ callback }) =>
        callback({
          status: 'failed',
          transaction_id: 288200109,
          tx_ref: 'lm-R1',
          charge_response_code: '51',
          charge_response_message: 'Insufficient Funds',
        }),
      ),
    ).toEqual({ status: 'failed', transactionId: '288200109', reason: 'Insufficient Funds' });
  });

  it('closing the window, or a cancelled callback, is a cancel', async () => {
    expect(await live(({ onclose }) => onclose())).toEqual({ status: 'cancelled' });
    expect(await live(({ callback }) => callback({ status: 'cancelled', tx_ref: 'lm-R1' }))).toEqual({
      status: 'cancelled',
    });
  });

  it('an approved card goes to the server with its id', async () => {
    expect(await live(({ callback }) => callback({ status: 'successful', transaction_id: 7 }))).toEqual({
      status: 'successful',
      transactionId: '7',
    });
  });
});
