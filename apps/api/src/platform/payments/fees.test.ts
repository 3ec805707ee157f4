import { describe, expect, it } from 'vitest';
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

  it('is never negative nor more than the amount', () => {
    expect(merchantFee({ amount, chargedAmount: amount + 2 * fee, fee })).toBe(0);
    expect(merchantFee({ amount, settledAmount: amount + 100 })).toBe(0);
    expect(merchantFee({ amount, fee: amount + 1 })).toBe(amount);
    expect(merchantFee({ amount, settledAmount: -500 })).toBe(amount);
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
