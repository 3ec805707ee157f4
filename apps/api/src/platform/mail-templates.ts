import type { Config } from '../config.js';

/** Text as HTML: the one escaper for every page or mail the API writes by hand. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One piece of a mail's body; each is written once and rendered both as HTML and as plain text. */
type MailBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'facts'; rows: ReadonlyArray<readonly [label: string, value: string]> };

/**
 * Line breaks (the Unicode line and paragraph separators too) and other control characters (a name
 * would start a line of its own in a mail or a notification) and the direction controls that turn the
 * rest of a line around ("Ada\u202e sent a message" shows as "Ada egassem a tnes"): none of them
 * belongs in a name shown to someone else, nor in a subject, which is one header line.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text on one line: a run of control characters becomes a space, direction controls go (decisions 2201, 2222). */
export const oneLine = (text: string): string => text.replace(CONTROLS, ' ').replace(DIRECTION_CONTROLS, '');

/**
 * A name someone else chose, as plain text that no mail client turns into a link: every dot inside a
 * word becomes "[.]", "://" becomes "[:]//" and "@" becomes "[at]" ("evil.example" → "evil[.]example").
 * Names are shown to other people in mail; a link there would carry our sender's trust (docs/decisions/0211).
 * A line break or other control character becomes a space, a direction control is dropped (decision 2201).
 */
export function plainName(name: string): string {
  return oneLine(name)
    .replace(/:\/\//g, '[:]//')
    .replace(/[@＠]/g, '[at]')
    .replace(/(?<=\S)[.。．｡](?=[^\s.。．｡])/g, '[.]');
}

export const paragraph = (text: string): MailBlock => ({ kind: 'paragraph', text });
export const button = (label: string, url: string): MailBlock => ({ kind: 'button', label, url });
/** A code to type in (one-time codes): large in HTML, alone on its line in text. */
export const code = (text: string): MailBlock => ({ kind: 'code', text });
/** Words someone wrote, shown as theirs. */
export const quote = (text: string): MailBlock => ({ kind: 'quote', text });
export const facts = (rows: ReadonlyArray<readonly [string, string]>): MailBlock => ({ kind: 'facts', rows });

export interface MailTemplate {
  to: string;
  subject: string;
  body: MailBlock[];
  /** Why this address got the mail, ending the footer's sentence "You received this email because …". */
  reason?: string;
}

interface MailBrand {
  /** The site's address (PUBLIC_URL), linked from the header and footer. */
  siteUrl: string;
  supportEmail: string;
}

const PRODUCT = 'LegalMarket';
const WHO_WE_ARE = `${PRODUCT} is the marketplace where companies buy fixed-price legal work from verified Nigerian lawyers.`;
const ACCOUNT_REASON = 'you have a LegalMarket account';

const footerLines = (t: MailTemplate, brand: MailBrand) => [
  WHO_WE_ARE,
  `You received this email because ${t.reason ?? ACCOUNT_REASON}.`,
  `Questions? Write to ${brand.supportEmail}.`,
];

/** Every way a text breaks a line: a mail client shows each as a new line. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

function blockText(b: MailBlock): string {
  switch (b.kind) {
    case 'paragraph':
      return b.text;
    case 'button':
      return `${b.label}: ${b.url}`;
    case 'code':
      return `${CODE_TEXT_INDENT}${b.text}`;
    case 'quote':
      // Every line opens with a quotation mark, as each paragraph of a long quotation does: a line break
      // in the words must not start a line that reads as ours (decision 2298).
      return `${b.text
        .split(LINE_BREAKS)
        .map((line) => (line ? `“${line}` : ''))
        .join('\n')}”`;
    case 'facts':
      return b.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
  }
}

const COLOR = '#0f3d3e';
/** How a code block starts, in text and in HTML: `withoutSecrets` finds the codes by them. */
const CODE_TEXT_INDENT = '    ';
const CODE_HTML_OPEN =
  '<p style="margin:0 0 16px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:28px;letter-spacing:6px;font-weight:700">';
const REMOVED = '[removed once sent]';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A code block's line: the indent, then the code's digits alone (text people write may be indented too).
const CODE_LINE = new RegExp(`^${CODE_TEXT_INDENT}\\d{4,12}$`, 'gm');
const CODE_HTML = new RegExp(`(${escapeRegExp(CODE_HTML_OPEN)})[^<]*(</p>)`, 'g');
/** A link's token, in a query string, as our links carry it (`?token=…`, HTML-escaped `&amp;token=…` too). */
const LINK_TOKEN = /([?&;]token=)[A-Za-z0-9_-]+/g;

/**
 * The mail as the outbox keeps it once sent (decision 2233): every one-time code (a code block) and every
 * link token blanked, the rest as written. A code or link is stored elsewhere only as its HMAC; the sent
 * mail must not be the one place a database reader or a backup finds it usable.
 */
export function withoutSecrets(mail: { text: string; html: string | null }) {
  return {
    text: mail.text.replace(CODE_LINE, `${CODE_TEXT_INDENT}${REMOVED}`).replace(LINK_TOKEN, `$1${REMOVED}`),
    html: mail.html?.replace(CODE_HTML, `$1${REMOVED}$2`).replace(LINK_TOKEN, `$1${REMOVED}`) ?? null,
  };
}

function blockHtml(b: MailBlock): string {
  switch (b.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px">${escapeHtml(b.text)}</p>`;
    case 'button':
      // The address is shown too, for clients that drop the button's link.
      return `<p style="margin:24px 0 8px"><a href="${escapeHtml(b.url)}" style="background:${COLOR};color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(b.label)}</a></p><p style="margin:0 0 16px;font-size:12px;color:#555;word-break:break-all">${escapeHtml(b.url)}</p>`;
    case 'code':
      return `${CODE_HTML_OPEN}${escapeHtml(b.text)}</p>`;
    case 'quote':
      return `<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid ${COLOR};background:#f4f6f6">“${escapeHtml(b.text)}”</blockquote>`;
    case 'facts':
      return `<table role="presentation" style="margin:0 0 16px;border-collapse:collapse">${b.rows
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;font-weight:600">${escapeHtml(label)}:</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`;
  }
}

/** A rendered mail, as the outbox stores it (platform/mailer.ts `Mail`). */
export interface RenderedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The one layout: the product's name on top, the body, then who we are, why this came and whom to ask. */
export function renderMail(t: MailTemplate, brand: MailBrand): RenderedMail {
  const footer = footerLines(t, brand);
  // A product's or a person's name inside a subject must not break the header line nor turn it around.
  const subject = oneLine(t.subject);
  // No address before the body: the first link in the text is the mail's own (e2e and people read it so).
  const text = [PRODUCT, ...t.body.map(blockText), `-- \n${footer.join('\n')}\n${brand.siteUrl}`].join('\n\n');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;background:#f4f6f6"><div style="max-width:560px;margin:0 auto;padding:24px 16px;font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">` +
    `<p style="margin:0 0 16px;font-size:20px;font-weight:700">${PRODUCT}</p>` +
    `<div style="background:#fff;border-radius:8px;padding:24px">${t.body.map(blockHtml).join('')}</div>` +
    `<div style="padding:16px 0;font-size:12px;color:#555">${footer.map((l) => `<p style="margin:0 0 4px">${escapeHtml(l)}</p>`).join('')}<p style="margin:0"><a href="${escapeHtml(brand.siteUrl)}" style="color:${COLOR}">${escapeHtml(brand.siteUrl)}</a></p></div>` +
    `</div></body></html>`;
  return { to: t.to, subject, text, html };
}

/** The renderer a service keeps: the brand read from the configuration once. */
export const mailRenderer = (config: Pick<Config, 'PUBLIC_URL' | 'SUPPORT_EMAIL'>) => {
  const brand: MailBrand = { siteUrl: config.PUBLIC_URL, supportEmail: config.SUPPORT_EMAIL };
  return (t: MailTemplate) => renderMail(t, brand);
};
