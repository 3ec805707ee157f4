import { maskAccountNumber } from '@legalmarket/contracts';
import { plainName, type Mail } from '../../platform/mailer.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function mail(to: string, subject: string, lines: string[]): Mail {
  return {
    to,
    subject,
    text: [...lines, '', '— LegalMarket'].join('\n'),
    html: `<div style="font-family:system-ui,sans-serif;max-width:560px">${lines
      .map((l) => `<p>${esc(l)}</p>`)
      .join('')}<p>— LegalMarket</p></div>`,
  };
}

export const detailsRequestedMail = (m: {
  to: string;
  companyName: string;
  productName: string;
  lawyerName: string;
  request: string;
  url: string;
}) =>
  mail(m.to, `A lawyer asked for more details on ${m.productName}`, [
    `Hello ${m.companyName},`,
    `${plainName(m.lawyerName)}, the lawyer working on your ${m.productName} job, asked for more details:`,
    `"${m.request}"`,
    `Please answer from the Notifications card of your dashboard: ${m.url}`,
  ]);

export const payoutCodeMail = (to: string, code: string, minutes: number) =>
  mail(to, 'Your LegalMarket payment details code', [
    `Your code to change your payment details is ${code}.`,
    `It expires in ${minutes} minutes and works once. If you did not ask for it, do not share it with anyone and contact support.`,
  ]);

export const payoutChangedMail = (
  to: string,
  kind: 'added' | 'changed',
  d: { accountNumber: string; accountName: string; bank: string },
) =>
  mail(
    to,
    kind === 'added'
      ? 'Payment details added to your LegalMarket account'
      : 'Your LegalMarket payment details were changed',
    [
      kind === 'added'
        ? 'Payment details were added to your LegalMarket account:'
        : 'The payment details of your LegalMarket account were just changed to:',
      `${d.bank}, ${d.accountName}, account ${maskAccountNumber(d.accountNumber)}.`,
      'Payments for your completed jobs go to this account. If this was not you, contact support at once and change your password.',
    ],
  );
