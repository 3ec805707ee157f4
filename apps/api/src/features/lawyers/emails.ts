import { formatNairaExact, formatOrdinalDate, maskAccountNumber } from '@legalmarket/contracts';
import { button, code, facts, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

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

type PayoutLine = { amount: number; bank: string; accountNumber: string; createdAt: Date };
const payoutFacts = (list: PayoutLine[]) =>
  facts(
    list.map((p) => [
      formatNairaExact(p.amount),
      `${p.bank} ${maskAccountNumber(p.accountNumber)}, asked ${formatOrdinalDate(p.createdAt)}`,
    ]),
  );
const waitingPart = (list: PayoutLine[], url: string) =>
  list.length
    ? [
        paragraph(
          `${list.length === 1 ? 'This withdrawal is' : 'These withdrawals are'} still waiting for approval and will go to the account ${list.length === 1 ? 'it was' : 'they were'} asked for, not to the details above:`,
        ),
        payoutFacts(list),
        paragraph(
          'If you did not ask for it, or it should go to your new details, cancel it on Get Paid before it is approved, then withdraw again.',
        ),
        button('Cancel on Get Paid', url),
      ]
    : [];
// An approved withdrawal can no longer be cancelled on Get Paid: no link, support only (decision 2344).
const sendingPart = (list: PayoutLine[]) =>
  list.length
    ? [
        paragraph(
          list.length === 1
            ? 'This withdrawal was already approved and is on its way to the account it was asked for, not to the details above:'
            : 'These withdrawals were already approved and are on their way to the account they were asked for, not to the details above:',
        ),
        payoutFacts(list),
        paragraph('If you did not ask for it, contact support at once.'),
      ]
    : [];

export const payoutChangedMail = (
  to: string,
  kind: 'added' | 'changed',
  d: { accountNumber: string; accountName: string; bank: string },
  /** The "This wasn't me" link of these details (decision 2244). */
  notMe?: { url: string; days: number },
  /**
   * Withdrawals still waiting for approval to go to another account than these details (the old one):
   * a change does not move them, so the owner is told it can cancel them on Get Paid (decision 2344).
   */
  stillWaiting?: {
    payouts: { amount: number; bank: string; accountNumber: string; createdAt: Date; sending?: boolean }[];
    url: string;
  },
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
    ...(notMe
      ? [
          paragraph(
            `If you did not save these details, someone may be signed in to your account. Open the link below and confirm: it removes these details, stops withdrawals waiting to go to them, logs out every device, stops your current password from working and emails you a code to set a new one. The link works once, for ${notMe.days} days, while these are your saved details.`,
          ),
          button('This wasn’t me', notMe.url),
        ]
      : []),
    ...waitingPart(stillWaiting?.payouts.filter((p) => !p.sending) ?? [], stillWaiting?.url ?? ''),
    ...sendingPart(stillWaiting?.payouts.filter((p) => p.sending) ?? []),
  ],
});

/**
 * After the payout details' "This wasn't me" link was confirmed: what was done, and a code to set a new
 * password, as the forgotten-password mail has (decision 2244).
 */
export const payoutNotMeMail = (
  to: string,
  resetCode: string,
  minutes: number,
  resetUrl: string,
  payoutsStopped: number,
): MailTemplate => ({
  to,
  subject: 'Set a new password for your LegalMarket account',
  body: [
    paragraph(
      `You told us you did not save the payment details of your account. We removed them${
        payoutsStopped
          ? `, stopped ${payoutsStopped === 1 ? 'the withdrawal' : `${payoutsStopped} withdrawals`} waiting to go to them (the money is in your balance again)`
          : ''
      }, logged out every device, and your old password no longer works. Set a new password with this code:`,
    ),
    code(resetCode),
    paragraph(
      `It expires in ${minutes} minutes and works once. If it has expired, ask for a new code with the link below. Then sign in with your new password and add your own payment details.`,
    ),
    button('Ask for a new code', resetUrl),
  ],
});
