import type { Mail } from '../../platform/mailer.js';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Plain text plus a small HTML twin, the way every LegalMarket mail looks. */
export function adminMail(to: string, subject: string, lines: string[], action?: { label: string; url: string }): Mail {
  const text = [...lines, ...(action ? ['', `${action.label}: ${action.url}`] : []), '', '— LegalMarket'].join('\n');
  const html = `<div style="font-family:system-ui,sans-serif;max-width:560px">${lines
    .map((l) => `<p>${esc(l)}</p>`)
    .join('')}${
    action
      ? `<p><a href="${esc(action.url)}" style="background:#0f3d3e;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(action.label)}</a></p>`
      : ''
  }<p>— LegalMarket</p></div>`;
  return { to, subject, text, html };
}

export const lawyerVerifiedMail = (to: string, name: string, url: string) =>
  adminMail(
    to,
    'Your LegalMarket lawyer account is verified',
    [`Hello ${name},`, 'An administrator has verified your LegalMarket account. You can now apply for available jobs.'],
    { label: 'See available jobs', url },
  );

export const lawyerUnverifiedMail = (to: string, name: string, supportEmail: string) =>
  adminMail(to, 'Your LegalMarket verification was withdrawn', [
    `Hello ${name},`,
    'An administrator has withdrawn the verification of your LegalMarket account, and you have been logged out. You cannot apply for new jobs until you are verified again.',
    `If you think this is a mistake, write to ${supportEmail}.`,
  ]);
