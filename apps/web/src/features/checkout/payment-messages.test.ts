import { describe, expect, it } from 'vitest';
import { messages } from '@legalmarket/contracts/messages';
import { flutterwavePaymentResult, NO_CONNECTION, paymentNotMade, WINDOW_OFFLINE } from './payment-messages';

// The inline checkout's callback argument as Flutterwave's v3.js documents it (card, approved).
const approvedCallback = {
  amount: 54600,
  charge_response_code: '00',
  charge_response_message: 'Approved Successful',
  charged_amount: 54600,
  created_at: '2026-11-25T10:00:00.000Z',
  currency: 'NGN',
  customer: { name: 'Ada Ventures', email: 'ada@example.ng', phone_number: '08012345678' },
  flw_ref: 'FLW-MOCK-0a6b80654370ff4b0987851ce0e611c0',
  status: 'successful',
  transaction_id: 288200108,
  tx_ref: 'lm-R1',
};

// The verify answer's `data` for a declined card (Flutterwave's "Insufficient Funds" test card).
const declinedVerifyData = {
  id: 288200109,
  tx_ref: 'lm-R1',
  flw_ref: 'FLW-MOCK-1b7c',
  amount: 54600,
  currency: 'NGN',
  charged_amount: 54600,
  processor_response: 'Insufficient Funds',
  auth_model: 'PIN',
  status: 'failed',
  payment_type: 'card',
};

describe("Flutterwave's inline checkout result, in the sandbox's words (decision 1820)", () => {
  it('an approved card or a completed transfer goes to the server with its transaction id', () => {
    expect(flutterwavePaymentResult(approvedCallback)).toEqual({ status: 'successful', transactionId: '288200108' });
    expect(flutterwavePaymentResult({ ...approvedCallback, status: 'completed', transaction_id: '5' })).toEqual({
      status: 'successful',
      transactionId: '5',
    });
  });

  it('a payment still being confirmed is asked of the server, not called a failure', () => {
    expect(flutterwavePaymentResult({ ...approvedCallback, status: 'pending' }).status).toBe('successful');
  });

  it('insufficient funds, from the callback or from the verify answer, says so', () => {
    const fromCallback = flutterwavePaymentResult({
      ...approvedCallback,
      status: 'failed',
      charge_response_code: '51',
      charge_response_message: 'Insufficient Funds',
    });
    expect(fromCallback).toMatchObject({ status: 'failed', reason: 'Insufficient Funds' });
    const fromVerify = flutterwavePaymentResult(declinedVerifyData as never);
    expect(fromVerify).toMatchObject({ status: 'failed', reason: 'Insufficient Funds' });
    for (const r of [fromCallback, fromVerify])
      expect(paymentNotMade(r)).toEqual({
        tone: 'error',
        title: messages.paymentFailed,
        body: 'Your bank declined the card: insufficient funds. Try another card or another method.',
      });
  });

  it('a wrong PIN says so', () => {
    const r = flutterwavePaymentResult({ ...declinedVerifyData, processor_response: 'Incorrect PIN' } as never);
    expect(paymentNotMade(r).body).toBe('Your bank declined the card: incorrect PIN. Check the PIN and try again.');
  });

  it("another decline gives the bank's words; none gives none, never the approval's words", () => {
    const other = flutterwavePaymentResult({ status: 'failed', processor_response: 'Do Not Honor.' });
    expect(paymentNotMade(other).body).toBe('Your bank said: Do Not Honor.');
    const bare = flutterwavePaymentResult({ status: 'failed', charge_response_message: 'Approved Successful' });
    expect(bare).toEqual({ status: 'failed', transactionId: undefined });
    expect(paymentNotMade(bare)).toEqual({ tone: 'error', title: messages.paymentFailed, body: undefined });
    expect(flutterwavePaymentResult({}).status).toBe('failed');
  });

  it('a cancelled payment is a closed window: "Payment cancelled", not "Payment failed"', () => {
    const r = flutterwavePaymentResult({ status: 'cancelled', tx_ref: 'lm-R1' });
    expect(r).toEqual({ status: 'cancelled' });
    const said = paymentNotMade(r);
    expect(said).toMatchObject({ tone: 'neutral', title: 'Payment cancelled' });
    expect(said.title).not.toBe(messages.paymentFailed);
    expect(said.body).toMatch(/Nothing was charged/);
  });

  it('no connection says so', () => {
    expect(WINDOW_OFFLINE).toEqual({ tone: 'error', title: 'No internet connection', body: NO_CONNECTION });
    expect(NO_CONNECTION).toMatch(/nothing was charged/);
  });
});
