import { button, code, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

/**
 * To the account's sign-in address when two-factor is turned on. Whoever holds the password can turn it
 * on with their own app and keep the recovery codes, which signs the owner out everywhere and shuts
 * them out: the "This wasn't me" link undoes that enrolment (docs/decisions/2220).
 */
export const twoFactorEnabledMail = (to: string, notMeUrl: string, days: number, resetUrl: string): MailTemplate => ({
  to,
  subject: 'Two-factor authentication was turned on for your LegalMarket account',
  body: [
    paragraph(
      'Two-factor authentication was just turned on for your LegalMarket account: signing in now needs a code from the authenticator app that was set up, and every other device was logged out.',
    ),
    paragraph(
      `If this was not you, someone has your password and their own app now guards your account. Open the link below and confirm: it turns two-factor authentication off, logs out every device, stops your current password from working and emails you a code to set a new one. The link works once, for ${days} days.`,
    ),
    button('This wasn’t me', notMeUrl),
    paragraph(
      'If it was you, keep your recovery codes safe; you need do nothing. If you think someone else knows your password, change it with the link below.',
    ),
    button('Change my password', resetUrl),
  ],
});

/** To the sign-in address when two-factor is turned off: a stolen code may have done it. */
export const twoFactorDisabledMail = (to: string, resetUrl: string): MailTemplate => ({
  to,
  subject: 'Two-factor authentication was turned off for your LegalMarket account',
  body: [
    paragraph(
      'Two-factor authentication was just turned off for your LegalMarket account: signing in now needs only the password.',
    ),
    paragraph(
      'If this was not you, someone has your password. Reset it at once with the link below, then contact support.',
    ),
    button('Reset my password', resetUrl),
  ],
});

/**
 * After the "This wasn't me" link was confirmed: the password-reset e-mail, with a code as the
 * forgotten-password mail has, and what was done.
 */
export const twoFactorNotMeMail = (to: string, resetCode: string, minutes: number, resetUrl: string): MailTemplate => ({
  to,
  subject: 'Set a new password for your LegalMarket account',
  body: [
    paragraph(
      'You told us you did not turn on two-factor authentication. We turned it off, logged out every device and your old password no longer works. Set a new password with this code:',
    ),
    code(resetCode),
    paragraph(
      `It expires in ${minutes} minutes and works once. If it has expired, ask for a new code with the link below. Then sign in with your new password and, if you wish, turn two-factor authentication on again with your own app.`,
    ),
    button('Ask for a new code', resetUrl),
  ],
});
