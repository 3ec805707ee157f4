import { button, code, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

const SIGNED_UP = 'this address was used to sign up to LegalMarket';

/**
 * Sent to an address nobody has proven yet, so it carries no text the sign-up wrote: a name such as
 * "Visit http://evil.example now" would reach a stranger in our mail (docs/decisions/0211).
 */
export const confirmEmailMail = (to: string, url: string, hours: number): MailTemplate => ({
  to,
  subject: 'Confirm your LegalMarket email address',
  body: [
    paragraph('Hello,'),
    paragraph('Thank you for signing up to LegalMarket. Please confirm your email address to activate your account.'),
    paragraph(`The link works once and expires in ${hours} hours.`),
    button('Confirm email address', url),
  ],
  reason: SIGNED_UP,
});

export const alreadyRegisteredMail = (to: string, loginUrl: string, resetUrl: string): MailTemplate => ({
  to,
  subject: 'You already have a LegalMarket account',
  body: [
    paragraph(
      'Someone (hopefully you) tried to sign up to LegalMarket with this email address, which already has an account.',
    ),
    // Links as buttons, so the HTML part links them as the text part shows them.
    paragraph('You can log in with it, or reset your password if you forgot it:'),
    button('Log in', loginUrl),
    button('Reset your password', resetUrl),
    paragraph('If this was not you, you can ignore this email.'),
  ],
  reason: SIGNED_UP,
});

export const resetCodeMail = (to: string, resetCode: string, minutes: number): MailTemplate => ({
  to,
  subject: 'Your LegalMarket password reset code',
  body: [
    paragraph('Your password reset code is:'),
    code(resetCode),
    paragraph(
      `It expires in ${minutes} minutes and works once. If you did not ask for it, you can ignore this email; your password has not changed.`,
    ),
  ],
});

/** `resetUrl`: the owner who did not change it acts at once from the mail, as the two-factor mails let them. */
export const passwordChangedMail = (to: string, resetUrl: string): MailTemplate => ({
  to,
  subject: 'Your LegalMarket password was changed',
  body: [
    paragraph('The password of your LegalMarket account was just changed and every signed-in device was logged out.'),
    paragraph('If this was not you, reset your password at once and contact support.'),
    button('Reset your password', resetUrl),
  ],
});

const CHANGE_ASKED = 'a LegalMarket account asked to use this address to sign in';

/** To the new address of a sign-in e-mail change; nothing changes until it is confirmed (docs/decisions/0210). */
export const confirmEmailChangeMail = (to: string, url: string, hours: number): MailTemplate => ({
  to,
  subject: 'Confirm your new LegalMarket sign-in address',
  body: [
    paragraph('Hello,'),
    paragraph(
      'Someone signed in to a LegalMarket account asked to use this address to sign in. Confirm it to make the change; until then the account keeps its old address.',
    ),
    paragraph(`The link works once and expires in ${hours} hours. If you did not ask for this, ignore this email.`),
    button('Confirm new email address', url),
  ],
  reason: CHANGE_ASKED,
});

/** To the owner of an address another account asked to move to; the answer there was the same as for a free one. */
export const emailChangeTakenMail = (to: string, resetUrl: string): MailTemplate => ({
  to,
  subject: 'Someone tried to use your email address on LegalMarket',
  body: [
    paragraph(
      'Someone signed in to another LegalMarket account asked to change its sign-in address to this one. This address already has an account, so nothing changed.',
    ),
    paragraph('Your own account is untouched. If you forgot your password, you can reset it:'),
    button('Reset your password', resetUrl),
  ],
  reason: CHANGE_ASKED,
});

/** To the old address when a change is requested ('requested') and when it is confirmed ('done'). */
export const emailChangeNoticeMail = (
  to: string,
  stage: 'requested' | 'done',
  url: string,
  days: number,
): MailTemplate => ({
  to,
  subject:
    stage === 'requested'
      ? 'A change of your LegalMarket sign-in address was requested'
      : 'Your LegalMarket sign-in address was changed',
  body: [
    ...(stage === 'requested'
      ? [
          'Someone signed in to your LegalMarket account asked to change its sign-in email address. Nothing changes until the new address confirms it; until then you sign in, and receive every code, at this address.',
          `If this was not you, cancel it now: the link below cancels the change and logs out every device. It works for ${days} days.`,
        ]
      : [
          'The sign-in email address of your LegalMarket account was changed: the new address confirmed it. From now on codes and notices go there.',
          `If this was not you, undo it within ${days} days: the link below restores this address and logs out every device. Then reset your password.`,
        ]
    ).map(paragraph),
    button(stage === 'requested' ? 'Cancel the change' : 'Undo the change', url),
  ],
  reason: 'it is the sign-in address of a LegalMarket account',
});

/**
 * After an undo link restored this address and found two-factor turned on while the address was
 * elsewhere (decision 2232): that enrolment is off, the old password no longer works, and here is a code.
 */
export const undoShutOutMail = (to: string, resetCode: string, minutes: number, resetUrl: string): MailTemplate => ({
  to,
  subject: 'Set a new password for your LegalMarket account',
  body: [
    paragraph(
      'Your sign-in address was restored. While it was changed, two-factor authentication was turned on for your account and announced to the other address, so it was not yours: we turned it off, logged out every device and your old password no longer works. Set a new password with this code:',
    ),
    code(resetCode),
    paragraph(
      `It expires in ${minutes} minutes and works once. If it has expired, ask for a new code with the link below. Then sign in with your new password and, if you wish, turn two-factor authentication on again with your own app.`,
    ),
    button('Reset your password', resetUrl),
  ],
});
