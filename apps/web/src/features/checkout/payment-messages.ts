import { messages } from '@legalmarket/contracts/messages';
import type { PaymentResult } from './payment-result';

/**
 * What Flutterwave hands the browser about a payment: the inline checkout's `callback` argument (v3.js:
 * `status`, `transaction_id`, `tx_ref`, `charge_response_code`, `charge_response_message`), which for
 * some payment types carries the verify answer's `processor_response` too. Every field may be missing.
 */
export interface FlutterwavePayment {
  status?: string;
  transaction_id?: number | string | null;
  tx_ref?: string;
  /** The verify answer's words: "Approved by Financial Institution", "Insufficient Funds", "Incorrect PIN"... */
  processor_response?: string;
  /** The inline callback's code ("00" approved) and words ("Approved Successful", "Insufficient Funds"). */
  charge_response_code?: string;
  charge_response_message?: string;
}

/** Words that only say the charge went through: never shown as the reason of a decline. */
const APPROVAL = /^\s*(approved|successful|success)\b/i;

/**
 * Turns Flutterwave's callback into what the pages act on, as the sandbox dialog does (decision 1820):
 * `successful`/`completed` are checked by the server; `pending` (a transfer or USSD payment still being
 * confirmed) is asked of the server too, which answers 202 and keeps checking, rather than called a
 * failure; `cancelled` is a closed window; anything else is a decline with the provider's words.
 */
export function flutterwavePaymentResult(p: FlutterwavePayment): PaymentResult {
  const status = (p.status ?? '').trim().toLowerCase();
  const transactionId = p.transaction_id == null || p.transaction_id === '' ? undefined : String(p.transaction_id);
  if (status === 'successful' || status === 'completed' || status === 'pending')
    return { status: 'successful', transactionId };
  if (status === 'cancelled') return { status: 'cancelled' };
  const reason = [p.processor_response, p.charge_response_message]
    .map((s) => (typeof s === 'string' ? s.trim() : ''))
    .find((s) => s && !APPROVAL.test(s));
  return { status: 'failed', transactionId, ...(reason ? { reason } : {}) };
}

/** The sandbox's words for a lost connection, shared by the live checkout. */
export const NO_CONNECTION = 'No internet connection. Check your connection and try again; nothing was charged.';

/** Why the bank declined, in a founder's words, from the provider's `processor_response`. */
const DECLINES: Array<[RegExp, string]> = [
  [/insufficient/i, 'Your bank declined the card: insufficient funds. Try another card or another method.'],
  [/\bpin\b/i, 'Your bank declined the card: incorrect PIN. Check the PIN and try again.'],
  [/expired/i, 'Your bank declined the card: it has expired. Try another card or another method.'],
  [
    /exceeds?.*limit|limit.*exceeded/i,
    'Your bank declined the card: it is over its spending limit. Try another card or another method.',
  ],
];

export interface PaymentMessage {
  tone: 'error' | 'neutral';
  title: string;
  body?: string;
}

/** Closing the window is not a failure; a decline says why (issue 18, decision 1820). */
export function paymentNotMade(paid: PaymentResult): PaymentMessage {
  if (paid.status === 'cancelled')
    return {
      tone: 'neutral',
      title: 'Payment cancelled',
      body: 'You closed the payment window before paying. Nothing was charged and your cart is as you left it.',
    };
  const known = paid.reason ? DECLINES.find(([re]) => re.test(paid.reason!)) : undefined;
  return {
    tone: 'error',
    title: messages.paymentFailed,
    body: known ? known[1] : paid.reason ? `Your bank said: ${paid.reason.replace(/[.\s]+$/, '')}.` : undefined,
  };
}

/** The payment window did not open because the browser is offline: nothing was charged. */
export const WINDOW_OFFLINE: PaymentMessage = { tone: 'error', title: 'No internet connection', body: NO_CONNECTION };
