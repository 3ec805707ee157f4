import { formatNairaExact, maskAccountNumber } from '@legalmarket/contracts';
import { button, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

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

export const payoutWaitingMail = (m: {
  to: string;
  lawyerName: string;
  amount: number;
  url: string;
}): MailTemplate => ({
  to: m.to,
  subject: `A withdrawal of ${formatNairaExact(m.amount)} is waiting for approval`,
  body: [
    paragraph(`${m.lawyerName} asked to withdraw ${formatNairaExact(m.amount)}.`),
    button('Review payouts', m.url),
  ],
  reason: 'you are a LegalMarket administrator',
});
