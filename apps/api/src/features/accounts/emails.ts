import type { Mail } from '../../platform/mailer.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(to: string, subject: string, lines: string[], action?: { label: string; url: string }): Mail {
  const text = [...lines, ...(action ? ['', `${action.label}: ${action.url}`] : []), '', '— LegalMarket'].join('\n');
  const html = `<div style="font-family:system-ui,sans-serif;max-width:560px">${lines
    .map((l) => `<p>${esc(l)}</p>`)
    .join('')}${
    action
      ? `<p><a href="${esc(action.url)}" style="background:#0f3d3e;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(action.label)}</a></p><p style="font-size:12px;color:#555">${esc(action.url)}</p>`
      : ''
  }<p>— LegalMarket</p></div>`;
  return { to, subject, text, html };
}

/**
 * Sent to an address nobody has proven yet, so it carries no text the sign-up wrote: a name such as
 * "Visit http://evil.example now" would reach a stranger in our mail (docs/decisions/0211).
 */
export const confirmEmailMail = (to: string, url: string, hours: number) =>
  layout(
    to,
    'Confirm your LegalMarket email address',
    [
      'Hello,',
      'Thank you for signing up to LegalMarket. Please confirm your email address to activate your account.',
      `The link works once and expires in ${hours} hours.`,
    ],
    { label: 'Confirm email address', url },
  );

export const alreadyRegisteredMail = (to: string, loginUrl: string, resetUrl: string) =>
  layout(to, 'You already have a LegalMarket account', [
    'Someone (hopefully you) tried to sign up to LegalMarket with this email address, which already has an account.',
    `You can log in at ${loginUrl}. If you forgot your password, reset it at ${resetUrl}.`,
    'If this was not you, you can ignore this email.',
  ]);

export const resetCodeMail = (to: string, code: string, minutes: number) =>
  layout(to, 'Your LegalMarket password reset code', [
    `Your password reset code is ${code}.`,
    `It expires in ${minutes} minutes and works once. If you did not ask for it, you can ignore this email; your password has not changed.`,
  ]);

export const passwordChangedMail = (to: string) =>
  layout(to, 'Your LegalMarket password was changed', [
    'The password of your LegalMarket account was just changed and every signed-in device was logged out.',
    'If this was not you, reset your password at once and contact support.',
  ]);

/** To the new address of a sign-in e-mail change; nothing changes until it is confirmed (docs/decisions/0210). */
export const confirmEmailChangeMail = (to: string, url: string, hours: number) =>
  layout(
    to,
    'Confirm your new LegalMarket sign-in address',
    [
      'Hello,',
      'Someone signed in to a LegalMarket account asked to use this address to sign in. Confirm it to make the change; until then the account keeps its old address.',
      `The link works once and expires in ${hours} hours. If you did not ask for this, ignore this email.`,
    ],
    { label: 'Confirm new email address', url },
  );

/** To the owner of an address another account asked to move to; the answer there was the same as for a free one. */
export const emailChangeTakenMail = (to: string, resetUrl: string) =>
  layout(to, 'Someone tried to use your email address on LegalMarket', [
    'Someone signed in to another LegalMarket account asked to change its sign-in address to this one. This address already has an account, so nothing changed.',
    `Your own account is untouched. If you forgot your password, reset it at ${resetUrl}.`,
  ]);

/** To the old address when a change is requested ('requested') and when it is confirmed ('done'). */
export const emailChangeNoticeMail = (to: string, stage: 'requested' | 'done', url: string, days: number) =>
  layout(
    to,
    stage === 'requested'
      ? 'A change of your LegalMarket sign-in address was requested'
      : 'Your LegalMarket sign-in address was changed',
    stage === 'requested'
      ? [
          'Someone signed in to your LegalMarket account asked to change its sign-in email address. Nothing changes until the new address confirms it; until then you sign in, and receive every code, at this address.',
          `If this was not you, cancel it now: the link below cancels the change and logs out every device. It works for ${days} days.`,
        ]
      : [
          'The sign-in email address of your LegalMarket account was changed: the new address confirmed it. From now on codes and notices go there.',
          `If this was not you, undo it within ${days} days: the link below restores this address and logs out every device. Then reset your password.`,
        ],
    { label: stage === 'requested' ? 'Cancel the change' : 'Undo the change', url },
  );
