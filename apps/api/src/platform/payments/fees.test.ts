import { describe, expect, it, vi } from 'vitest';
import { merchantFee } from './fees.js';
import { flutterwaveProvider } from './flutterwave.js';

/** ₦25,000 paid, Flutterwave's 1.4 % (₦350) fee; kobo. */
const amount = 2_500_000;
const fee = 35_000;

describe('the fee the merchant bore on a payment (decision 2348)', () => {
  it('is the app_fee when the merchant bears it, nothing when the customer paid it on top', () => {
    expect(merchantFee({ amount, chargedAmount: amount, fee, settledAmount: amount - fee })).toBe(fee);
    expect(merchantFee({ amount, chargedAmount: amount + fee, fee, settledAmount: amount })).toBe(0);
  });

  it('reads amount_settled first, then charged_amount less app_fee, then the amount less app_fee', () => {
    // Settled names a cost charged_amount and app_fee do not show (a stamp duty): it is what we bore.
    expect(merchantFee({ amount, chargedAmount: amount, fee, settledAmount: amount - fee - 5_000 })).toBe(fee + 5_000);
    expect(merchantFee({ amount, chargedAmount: amount + fee, fee })).toBe(0);
    expect(merchantFee({ amount, fee })).toBe(fee);
    expect(merchantFee({ amount, chargedAmount: amount })).toBe(0);
    expect(merchantFee({ amount })).toBe(0);
  });

  it('never posts the whole payment as a fee when amount_settled or app_fee is bad data', () => {
    const heard = vi.fn();
    // amount_settled 0 (a placeholder, test mode, another settlement currency): charged_amount less app_fee.
    expect(merchantFee({ amount, chargedAmount: amount, fee, settledAmount: 0 }, heard)).toBe(fee);
    expect(heard).toHaveBeenLastCalledWith({ amount, chargedAmount: amount, fee, settledAmount: 0, posted: fee });
    // A settlement in another currency: a figure far below the amount less app_fee is not ours.
    expect(merchantFee({ amount, chargedAmount: amount, fee, settledAmount: 1_500 }, heard)).toBe(fee);
    // app_fee at or above the amount with nothing charged on top: no plausible figure, nothing posted.
    expect(merchantFee({ amount, chargedAmount: amount, fee: amount, settledAmount: 0 }, heard)).toBe(0);
    expect(merchantFee({ amount, chargedAmount: amount, fee: amount + 1 }, heard)).toBe(0);
    expect(heard).toHaveBeenCalledTimes(4);
    // Plausible figures are not reported.
    merchantFee({ amount, chargedAmount: amount, fee, settledAmount: amount - fee - 5_000 }, heard);
    merchantFee({ amount, chargedAmount: amount + fee, fee }, heard);
    expect(heard).toHaveBeenCalledTimes(4);
  });

  it('is never negative nor more than the amount', () => {
    expect(merchantFee({ amount, chargedAmount: amount + 2 * fee, fee })).toBe(0);
    expect(merchantFee({ amount, settledAmount: amount + 100 })).toBe(0);
    expect(merchantFee({ amount, fee: amount + 1 })).toBe(0);
    expect(merchantFee({ amount, settledAmount: -500 })).toBe(0);
  });

  it("maps Flutterwave's amount_settled, charged_amount and app_fee to kobo", async () => {
    const data = {
      id: 4975363,
      tx_ref: 'LM-1',
      amount: 25_000,
      currency: 'NGN',
      charged_amount: 25_350,
      app_fee: 350,
      amount_settled: 25_000,
      status: 'successful',
    };
    const provider = flutterwaveProvider({
      publicKey: 'FLWPUBK_TEST-x',
      secretKey: 'FLWSECK_TEST-x',
      secretHash: 'hash',
      apiUrl: 'https://flutterwave.invalid',
      fetch: () => Promise.resolve(Response.json({ status: 'success', message: 'Transaction fetched', data })),
    });
    const tx = (await provider.verifyById('4975363'))!;
    expect(tx).toMatchObject({ amount, chargedAmount: amount + fee, fee, settledAmount: amount });
    expect(merchantFee(tx)).toBe(0);
  });
});
