import { maskAccountNumber } from '@legalmarket/contracts';
import { code, facts, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

export const payoutCodeMail = (to: string, payoutCode: string, minutes: number): MailTemplate => ({
  to,
  subject: 'Your LegalMarket payment details code',
  body: [
    paragraph('Your code to change your payment details is:'),
    code(payoutCode),
    paragraph(
      `It expires in ${minutes} minutes and works once. If you did not ask for it, do not share it with anyone and contact support.`,
    ),
  ],
});

export const payoutChangedMail = (
  to: string,
  kind: 'added' | 'changed',
  d: { accountNumber: string; accountName: string; bank: string },
): MailTemplate => ({
  to,
  subject:
    kind === 'added'
      ? 'Payment details added to your LegalMarket account'
      : 'Your LegalMarket payment details were changed',
  body: [
    paragraph(
      kind === 'added'
        ? 'Payment details were added to your LegalMarket account:'
        : 'The payment details of your LegalMarket account were just changed to:',
    ),
    facts([
      ['Bank', d.bank],
      ['Account name', d.accountName],
      ['Account number', maskAccountNumber(d.accountNumber)],
    ]),
    paragraph(
      'Payments for your completed jobs go to this account. If this was not you, contact support at once and change your password.',
    ),
  ],
});
