import { formatNairaExact, maskAccountNumber } from '@legalmarket/contracts';
import { adminMail } from '../admin/emails.js';

/** What a lawyer is told about its withdrawal, in the style of every LegalMarket mail. */
interface PayoutMail {
  to: string;
  name: string;
  /** Naira. */
  amount: number;
  bank: string;
  accountNumber: string;
  url: string;
}

export const payoutPaidMail = (m: PayoutMail) =>
  adminMail(
    m.to,
    `Your withdrawal of ${formatNairaExact(m.amount)} has been paid`,
    [
      `Hello ${m.name},`,
      `${formatNairaExact(m.amount)} has been sent to your ${m.bank} account ${maskAccountNumber(m.accountNumber)}. Banks usually show it within minutes.`,
    ],
    { label: 'See your earnings', url: m.url },
  );

export const payoutFailedMail = (m: PayoutMail & { reason: string }) =>
  adminMail(
    m.to,
    `Your withdrawal of ${formatNairaExact(m.amount)} did not go through`,
    [
      `Hello ${m.name},`,
      `The bank could not complete the transfer of ${formatNairaExact(m.amount)} to your ${m.bank} account ${maskAccountNumber(m.accountNumber)} (${m.reason}).`,
      'The money is back in your available balance. Please check your payment details and ask for a withdrawal again.',
    ],
    { label: 'See your earnings', url: m.url },
  );

export const payoutWaitingMail = (m: { to: string; lawyerName: string; amount: number; url: string }) =>
  adminMail(
    m.to,
    `A withdrawal of ${formatNairaExact(m.amount)} is waiting for approval`,
    [`${m.lawyerName} asked to withdraw ${formatNairaExact(m.amount)}.`],
    { label: 'Review payouts', url: m.url },
  );
