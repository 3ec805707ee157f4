import { button, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

export const lawyerVerifiedMail = (to: string, name: string, url: string): MailTemplate => ({
  to,
  subject: 'Your LegalMarket lawyer account is verified',
  body: [
    paragraph(`Hello ${name},`),
    paragraph('An administrator has verified your LegalMarket account. You can now apply for available jobs.'),
    button('See available jobs', url),
  ],
});

export const lawyerRejectedMail = (
  to: string,
  name: string,
  reason: string,
  profileUrl: string,
  supportEmail: string,
): MailTemplate => ({
  to,
  subject: 'Your LegalMarket verification needs more from you',
  body: [
    paragraph(`Hello ${name},`),
    paragraph('An administrator could not verify your LegalMarket account yet, for this reason:'),
    paragraph(reason),
    paragraph(
      `Update your details (SCN, year of call) on your profile and we will check them again. Questions: ${supportEmail}.`,
    ),
    button('Update your profile', profileUrl),
  ],
});

export const lawyerUnverifiedMail = (to: string, name: string, supportEmail: string): MailTemplate => ({
  to,
  subject: 'Your LegalMarket verification was withdrawn',
  body: [
    paragraph(`Hello ${name},`),
    paragraph(
      'An administrator has withdrawn the verification of your LegalMarket account, and you have been logged out. You cannot apply for new jobs until you are verified again.',
    ),
    paragraph(`If you think this is a mistake, write to ${supportEmail}.`),
  ],
});
