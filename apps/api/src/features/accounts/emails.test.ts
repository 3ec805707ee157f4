import { describe, expect, it } from 'vitest';
import { renderMail } from '../../platform/mail-templates.js';
import { passwordChangedMail } from './emails.js';

const brand = { siteUrl: 'https://legalmarket.example', supportEmail: 'help@legalmarket.example' };

describe('the password-changed mail (decision 2338)', () => {
  it('gives the owner who did not change it the reset page to act on at once', () => {
    const mail = renderMail(passwordChangedMail('ada@example.ng', `${brand.siteUrl}/password-reset`), brand);
    expect(mail.text).toContain('If this was not you, reset your password at once');
    expect(mail.text).toContain('Reset your password: https://legalmarket.example/password-reset\n');
    expect(mail.html).toContain('<a href="https://legalmarket.example/password-reset"');
  });
});
