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

export const confirmEmailMail = (to: string, name: string, url: string, hours: number) =>
  layout(
    to,
    'Confirm your LegalMarket email address',
    [
      `Hello ${name},`,
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
