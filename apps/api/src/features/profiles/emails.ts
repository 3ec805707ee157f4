import { button, facts, paragraph, type MailTemplate } from '../../platform/mail-templates.js';

/** To the admins: a verified lawyer changed the SCN, so the Verified badge went (docs/decisions/1810). */
export const scnChangedMail = (m: {
  to: string;
  lawyerName: string;
  lawyerEmail: string;
  oldScn: string;
  newScn: string;
  url: string;
}): MailTemplate => ({
  to: m.to,
  subject: `Verify again: ${m.lawyerName} changed their SCN`,
  body: [
    paragraph(
      `${m.lawyerName}, a verified lawyer, changed their Supreme Court Number. Their verification was removed until an admin checks the new number; they cannot apply for new jobs meanwhile, and jobs already assigned stay assigned.`,
    ),
    facts([
      ['Lawyer', `${m.lawyerName} (${m.lawyerEmail})`],
      ['Old SCN', m.oldScn || '—'],
      ['New SCN', m.newScn],
    ]),
    button('Review unverified lawyers', m.url),
  ],
});
