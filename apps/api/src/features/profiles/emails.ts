import { button, facts, paragraph, plainName, type MailTemplate } from '../../platform/mail-templates.js';

/**
 * To the admins: a verified lawyer changed the SCN, so the Verified badge went (docs/decisions/1810).
 * The name and the numbers are the lawyer's text, shown to someone else: defanged, on one line
 * (decisions 0211, 2201).
 */
export const scnChangedMail = (m: {
  to: string;
  lawyerName: string;
  lawyerEmail: string;
  oldScn: string;
  newScn: string;
  url: string;
}): MailTemplate => {
  const name = plainName(m.lawyerName);
  return {
    to: m.to,
    subject: `Verify again: ${name} changed their SCN`,
    body: [
      paragraph(
        `${name}, a verified lawyer, changed their Supreme Court Number. Their verification was removed until an admin checks the new number; they cannot apply for new jobs meanwhile, and jobs already assigned stay assigned.`,
      ),
      facts([
        ['Lawyer', `${name} (${m.lawyerEmail})`],
        ['Old SCN', plainName(m.oldScn) || '—'],
        ['New SCN', plainName(m.newScn)],
      ]),
      button('Review unverified lawyers', m.url),
    ],
  };
};
