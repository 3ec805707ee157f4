import { button, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

/**
 * To the account's sign-in address when two-factor is turned on or off. Whoever holds the password can
 * turn it on and keep the recovery codes, which shuts the owner out; or turn it off with a stolen code.
 * Either way the owner hears of it at once, as of a password or payout change.
 */
export const twoFactorChangedMail = (to: string, change: 'enabled' | 'disabled', url: string): MailTemplate => ({
  to,
  subject:
    change === 'enabled'
      ? 'Two-factor authentication was turned on for your LegalMarket account'
      : 'Two-factor authentication was turned off for your LegalMarket account',
  body: [
    paragraph(
      change === 'enabled'
        ? 'Two-factor authentication was just turned on for your LegalMarket account: signing in now needs a code from the authenticator app that was set up.'
        : 'Two-factor authentication was just turned off for your LegalMarket account: signing in now needs only the password.',
    ),
    paragraph(
      'If this was not you, someone has your password. Reset it at once with the link below, then contact support.',
    ),
    button('Reset my password', url),
  ],
});
