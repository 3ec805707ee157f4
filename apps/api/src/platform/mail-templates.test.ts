import { describe, expect, it } from 'vitest';
import {
  button,
  code,
  escapeHtml,
  facts,
  oneLine,
  paragraph,
  plainName,
  quote,
  renderMail,
  type MailTemplate,
} from './mail-templates.js';

const brand = { siteUrl: 'https://legalmarket.example', supportEmail: 'help@legalmarket.example' };
const company = 'Okeke & Sons <script>alert(1)</script>';

const template: MailTemplate = {
  to: 'ada@example.ng',
  subject: `Your job for ${company}`,
  body: [
    paragraph(`Hello ${company},`),
    quote('Please send the "signed" MoU & the CAC form'),
    code('482913'),
    facts([
      ['Bank', 'Access Bank'],
      ['Account name', company],
    ]),
    button('Open the job', 'https://legalmarket.example/jobs/42?a=1&b=2'),
  ],
  reason: 'you ordered a job on LegalMarket',
};

/** The words a reader sees: tags and the head dropped, entities read back, punctuation ignored. */
const wordsOfHtml = (html: string) =>
  words(
    html
      .replace(/<head>.*<\/head>/s, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(
        /&(amp|lt|gt|quot|#39);/g,
        (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
      ),
  );
const words = (s: string) => new Set(s.split(/[\s,.:;“”"()?!-]+/).filter(Boolean));
const linksOfText = (text: string) => new Set(text.match(/https?:\/\/[^\s]+/g));
const linksOfHtml = (html: string) =>
  new Set([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&')));

describe('the mail renderer', () => {
  const mail = renderMail(template, brand);

  it('escapes what people wrote in the HTML and leaves the text as written', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Okeke &amp; Sons &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&quot;signed&quot; MoU &amp; the CAC form');
    expect(mail.html).toContain('href="https://legalmarket.example/jobs/42?a=1&amp;b=2"');
    expect(mail.text).toContain(`Hello ${company},`);
    expect(mail.text).toContain('“Please send the "signed" MoU & the CAC form”');
    expect(mail.text).toContain('Open the job: https://legalmarket.example/jobs/42?a=1&b=2');
    expect(mail.text).toContain(`Account name: ${company}`);
    expect(mail.subject).toBe(`Your job for ${company}`);
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('wraps every mail in the one layout: the name on top, who we are, why it came and whom to ask', () => {
    expect(mail.text.startsWith('LegalMarket\n\n')).toBe(true);
    expect(mail.html).toMatch(/^<!doctype html><html lang="en">/);
    expect(mail.html).toMatch(/<body[^>]*>.*LegalMarket<\/p>.*Hello Okeke/s);
    for (const line of [
      'LegalMarket is the marketplace where companies buy fixed-price legal work from verified Nigerian lawyers.',
      'You received this email because you ordered a job on LegalMarket.',
      'Questions? Write to help@legalmarket.example.',
    ]) {
      expect(mail.text).toContain(line);
      expect(mail.html).toContain(escapeHtml(line));
    }
    // The body comes before the footer, and the mail's own link is the first one in the text.
    expect([...linksOfText(mail.text)][0]).toBe('https://legalmarket.example/jobs/42?a=1&b=2');
    expect(renderMail({ ...template, reason: undefined }, brand).text).toContain(
      'You received this email because you have a LegalMarket account.',
    );
  });

  it('says the same words and carries the same links in HTML and text', () => {
    expect(wordsOfHtml(mail.html!)).toEqual(words(mail.text));
    expect(linksOfHtml(mail.html!)).toEqual(linksOfText(mail.text));
    expect(linksOfText(mail.text)).toEqual(
      new Set(['https://legalmarket.example/jobs/42?a=1&b=2', 'https://legalmarket.example']),
    );
    // The code stands alone on its line, so it can be copied whole.
    expect(mail.text).toMatch(/^\s*482913$/m);
  });
});

describe('a subject and a name shown to someone else', () => {
  it('keep to one line: control characters and line separators become a space, direction controls go', () => {
    const out = renderMail(
      { ...template, subject: 'Lease Review\r\nBcc: x@evil.example\u2028Second\u2029line\u202e\u2066 is due\t\u0085' },
      brand,
    );
    expect(out.subject).toBe('Lease Review Bcc: x@evil.example Second line is due ');
    expect(out.html).toContain('<title>Lease Review Bcc: x@evil.example Second line is due </title>');
    // U+2028 and U+2029 are line breaks as much as CR and LF are (decision 2222).
    expect(plainName('Ada\u2028Sent by LegalMarket\u2029support')).toBe('Ada Sent by LegalMarket support');
    expect(oneLine('Ada\r\n\u202eObi')).toBe('Ada Obi');
  });
});
