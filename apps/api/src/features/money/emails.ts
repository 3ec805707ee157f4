import { formatNairaExact, maskAccountNumber } from '@legalmarket/contracts';
import { button, paragraph, plainName, type MailTemplate } from '../../platform/mail-templates.js';
import type { MailAttachment } from '../../platform/mailer.js';
import { creditNoteFilename, creditNoteNumber, receiptFilename, receiptNaira } from './receipts.js';

/** What a lawyer is told about its withdrawal. */
interface PayoutMail {
  to: string;
  name: string;
  /** Naira. */
  amount: number;
  bank: string;
  accountNumber: string;
  url: string;
}

export const payoutPaidMail = (m: PayoutMail): MailTemplate => ({
  to: m.to,
  subject: `Your withdrawal of ${formatNairaExact(m.amount)} has been paid`,
  body: [
    paragraph(`Hello ${m.name},`),
    paragraph(
      `${formatNairaExact(m.amount)} has been sent to your ${m.bank} account ${maskAccountNumber(m.accountNumber)}. Banks usually show it within minutes.`,
    ),
    button('See your earnings', m.url),
  ],
});

export const payoutFailedMail = (m: PayoutMail & { reason: string }): MailTemplate => ({
  to: m.to,
  subject: `Your withdrawal of ${formatNairaExact(m.amount)} did not go through`,
  body: [
    paragraph(`Hello ${m.name},`),
    paragraph(
      `The bank could not complete the transfer of ${formatNairaExact(m.amount)} to your ${m.bank} account ${maskAccountNumber(m.accountNumber)} (${m.reason}).`,
    ),
    paragraph(
      'The money is back in your available balance. Please check your payment details and ask for a withdrawal again.',
    ),
    button('See your earnings', m.url),
  ],
});

export const payoutRejectedMail = (m: PayoutMail & { reason: string }): MailTemplate => ({
  to: m.to,
  subject: `Your withdrawal of ${formatNairaExact(m.amount)} was not approved`,
  body: [
    paragraph(`Hello ${m.name},`),
    paragraph(
      `Your request to withdraw ${formatNairaExact(m.amount)} to your ${m.bank} account ${maskAccountNumber(m.accountNumber)} was not approved: ${m.reason}`,
    ),
    paragraph('Nothing was sent. The money is back in your available balance, and you can ask for a withdrawal again.'),
    button('See your earnings', m.url),
  ],
});

/** The lawyer cancelled its withdrawal (decision 2344); said by mail too, in case it was not the lawyer. */
export const payoutCancelledMail = (m: PayoutMail): MailTemplate => ({
  to: m.to,
  subject: `Your withdrawal of ${formatNairaExact(m.amount)} was cancelled`,
  body: [
    paragraph(`Hello ${m.name},`),
    paragraph(
      `Your request to withdraw ${formatNairaExact(m.amount)} to your ${m.bank} account ${maskAccountNumber(m.accountNumber)} was cancelled from your account before it was approved. Nothing was sent, and the money is back in your available balance.`,
    ),
    paragraph('If you did not cancel it, someone may be signed in to your account: change your password at once.'),
    button('See your earnings', m.url),
  ],
});

/** To the admins; the lawyer's name is shown to someone else, so defanged and on one line (decisions 0211, 2201). */
export const payoutWaitingMail = (m: {
  to: string;
  lawyerName: string;
  amount: number;
  url: string;
}): MailTemplate => ({
  to: m.to,
  subject: `A withdrawal of ${formatNairaExact(m.amount)} is waiting for approval`,
  body: [
    paragraph(`${plainName(m.lawyerName)} asked to withdraw ${formatNairaExact(m.amount)}.`),
    button('Review payouts', m.url),
  ],
  reason: 'you are a LegalMarket administrator',
});

/**
 * To the admins: a payout came back (reversed or failed) after its lawyer deleted the account, so nobody
 * can withdraw it from the app. No name: the account's is erased (decision 2228).
 */
export const payoutUnclaimedMail = (m: {
  to: string;
  payoutId: string;
  /** Naira. */
  amount: number;
  bank: string;
  accountNumber: string;
  reason: string;
  url: string;
}): MailTemplate => ({
  to: m.to,
  subject: `A withdrawal of ${formatNairaExact(m.amount)} came back to a deleted account`,
  body: [
    paragraph(
      `The transfer of ${formatNairaExact(m.amount)} to ${m.bank} account ${maskAccountNumber(m.accountNumber)} (payout ${m.payoutId}) came back from the bank (${m.reason}) after the lawyer deleted their account.`,
    ),
    paragraph(
      'The money is back in our provider balance and the ledger still owes it to that account, but nobody can withdraw it from the app. Pay it by hand or hold it, and record what you did.',
    ),
    button('Review payouts', m.url),
  ],
  reason: 'you are a LegalMarket administrator',
});

/** The payment confirmation, written with the order's move to paid (checkout/service.ts fulfil). */
export const paymentReceivedMail = (m: {
  to: string;
  name: string;
  reference: string;
  /** Kobo. */
  amount: number;
  items: number;
  url: string;
}): MailTemplate => ({
  to: m.to,
  subject: `Payment received: ${receiptNaira(m.amount)} (${m.reference})`,
  body: [
    paragraph(`Hello ${m.name},`),
    paragraph(
      `Thank you: we have received your payment of ${receiptNaira(m.amount)} for ${m.items} ${m.items === 1 ? 'service' : 'services'} (payment ${m.reference}). We are finding a lawyer for each now.`,
    ),
    paragraph('Your receipt is attached. You can download it again from your payments list.'),
    button('See your payments', m.url),
  ],
});

/** The receipt PDF, named for the mail worker to render when it sends (docs/decisions/1720). */
export const receiptAttachment = (orderId: string, reference: string): MailAttachment => ({
  kind: 'receipt',
  id: orderId,
  filename: receiptFilename(reference),
});

/** The credit note of a completed refund, attached to the refund's mail (money/refunds.ts settle). */
export const creditNoteAttachment = (refundId: string, reference: string, lineNo: number | string): MailAttachment => ({
  kind: 'credit_note',
  id: refundId,
  filename: creditNoteFilename(reference, lineNo),
});

export const creditNoteLine = (reference: string, lineNo: number | string) =>
  `Your credit note ${creditNoteNumber(reference, lineNo)} is attached.`;

/** To each live admin, once, when the background job stops sending a refused refund (decision 2309). */
export const refundGivenUpMail = (m: {
  to: string;
  refundId: string;
  /** Naira. */
  amount: number;
  what: string;
  reference: string;
  failure: string;
  url: string;
}): MailTemplate => ({
  to: m.to,
  subject: `A refund of ${formatNairaExact(m.amount)} is still refused by the provider`,
  body: [
    paragraph(
      `The refund of ${formatNairaExact(m.amount)} for ${m.what} (payment ${m.reference}, refund ${m.refundId}) has been refused by the payment provider every hour for three days (${m.failure}).`,
    ),
    paragraph(
      'It will not be sent again by itself. Find out why with the provider, then press Retry in the refunds list, or pay it back by hand and record what you did.',
    ),
    button('Review refunds', m.url),
  ],
  reason: 'you are a LegalMarket administrator',
});
