import { describe, expect, it } from 'vitest';
import {
  confirmEmailChangeMail,
  confirmEmailMail,
  emailChangeNoticeMail,
  resetCodeMail,
  undoShutOutMail,
} from '../features/accounts/emails.js';
import { payoutCodeMail } from '../features/lawyers/emails.js';
import { twoFactorEnabledMail, twoFactorNotMeMail } from '../features/two-factor/emails.js';
import { mailRenderer, withoutSecrets } from './mail-templates.js';
import { randomCode, randomToken } from './tokens.js';

/**
 * Decision 2233: every mail that carries a code or a link token keeps neither once sent (what the outbox
 * stores after the worker sent it), and keeps the rest of its words.
 */
describe('withoutSecrets: what the outbox keeps of a sent mail (decision 2233)', () => {
  const render = mailRenderer({ PUBLIC_URL: 'https://legalmarket.ng', SUPPORT_EMAIL: 'help@legalmarket.ng' });
  const site = 'https://legalmarket.ng';
  const to = 'owner@example.ng';
  const code = randomCode();
  const token = randomToken();
  const mails = {
    'reset code': resetCodeMail(to, code, 10),
    'payout code': payoutCodeMail(to, code, 10),
    '"This wasn\'t me" reset code': twoFactorNotMeMail(to, code, 10, `${site}/password-reset`),
    'undo shut-out reset code': undoShutOutMail(to, code, 10, `${site}/password-reset`),
    'sign-up link': confirmEmailMail(to, `${site}/confirm-email?token=${token}`, 48),
    'new address link': confirmEmailChangeMail(to, `${site}/confirm-email-change?token=${token}`, 24),
    'undo link': emailChangeNoticeMail(to, 'done', `${site}/undo-email-change?token=${token}`, 7),
    '"This wasn\'t me" link': twoFactorEnabledMail(
      to,
      `${site}/two-factor-not-me?token=${token}`,
      7,
      `${site}/password-reset`,
    ),
  };
  for (const [name, template] of Object.entries(mails))
    it(name, () => {
      const mail = render(template);
      const secret = mail.text.includes(token) ? token : code;
      expect(`${mail.text}${mail.html}`).toContain(secret);
      const kept = withoutSecrets(mail);
      expect(`${kept.text}${kept.html}`).not.toContain(secret);
      expect(kept.text).toContain('[removed once sent]');
      expect(kept.html).toContain('[removed once sent]');
      // The words around it stay.
      expect(kept.text.split('\n').length).toBe(mail.text.split('\n').length);
      expect(kept.text).toContain(template.body.find((b) => b.kind === 'paragraph')!.text);
    });

  it('indented lines people wrote (a reason, a quoted request) are kept as written', () => {
    const reason = 'Your certificate is unreadable:\n    please upload page 2 again\n    Ref 2024/17';
    const mail = render({
      to,
      subject: 'Verification declined',
      body: [
        { kind: 'paragraph', text: reason },
        { kind: 'quote', text: 'We need:\n    an NDA\n    with our supplier' },
      ],
    });
    expect(mail.text).toContain('    please upload page 2 again');
    expect(withoutSecrets(mail)).toEqual({ text: mail.text, html: mail.html });
  });

  it('a mail without a code or link is kept as written', () => {
    const mail = render({ to, subject: 'Paid', body: [{ kind: 'paragraph', text: 'Order 123456 paid: ₦45,000.' }] });
    expect(withoutSecrets(mail)).toEqual({ text: mail.text, html: mail.html });
  });
});
