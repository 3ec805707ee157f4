import { button, paragraph, plainName, quote, type MailTemplate } from '../../platform/mail-templates.js';

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The first `max` characters of a note as a reader counts them (graphemes), cut between two: an emoji
 * is never halved into U+FFFD, nor a flag (two code points) into a letter, nor a family or a skin tone
 * (joined code points) into one person.
 */
function preview(note: string, max = 400): string {
  const kept: string[] = [];
  for (const { segment } of GRAPHEMES.segment(note)) {
    if (kept.length === max) return `${kept.join('')}…`;
    kept.push(segment);
  }
  return note;
}

/** The extensions of the documents and images an upload can be (uploads/service.ts). */
const OWN_EXTENSION = /\.(pdf|docx?|png|jpe?g|jpe|jfif|webp)$/i;

/**
 * A document's name as the job e-mail lists it: its uploader chose it, and the list speaks in our
 * voice, so it is defanged as a person's name is (decision 2297); its own extension stays.
 */
function plainFileName(name: string): string {
  const ext = OWN_EXTENSION.exec(name)?.[0] ?? '';
  return plainName(name.slice(0, name.length - ext.length)) + ext;
}

/** A lifecycle step told to each recipient: the notification's text is the subject and the first line. */
export const jobEventMail = (
  to: string,
  m: { text: string; note?: string | null; files?: string[]; url: string; thread?: boolean },
): MailTemplate => ({
  to,
  subject: m.text,
  body: [
    paragraph(`${m.text}.`),
    ...(m.note ? [quote(preview(m.note))] : []),
    ...(m.files?.length ? [paragraph(`Documents: ${m.files.map(plainFileName).join(', ')}`)] : []),
    ...(m.thread
      ? [paragraph('Until you open the job, further messages on it wait there and in your notifications.')]
      : []),
    button('Open the job', m.url),
  ],
});

export const lawyerAssignedMail = (
  to: string,
  m: { lawyerName: string; productName: string; companyName: string; url: string },
): MailTemplate => ({
  to,
  subject: `You have been assigned a job: ${m.productName}`,
  body: [
    paragraph(`Hello ${m.lawyerName},`),
    paragraph(`An administrator has assigned you the job "${m.productName}" for ${plainName(m.companyName)}.`),
    paragraph('You will find it under your pending projects, with the company’s details and contacts.'),
    button('Open your projects', m.url),
  ],
});

export const companyAssignedMail = (
  to: string,
  m: { companyName: string; productName: string; lawyerName: string; url: string },
): MailTemplate => ({
  to,
  subject: `A lawyer is now working on ${m.productName}`,
  body: [
    paragraph(`Hello ${m.companyName},`),
    paragraph(`Your job "${m.productName}" has been assigned to ${plainName(m.lawyerName)}, who will contact you.`),
    button('See your jobs', m.url),
  ],
});

export const jobCompletedMail = (
  to: string,
  m: { companyName: string; productName: string; url: string },
): MailTemplate => ({
  to,
  subject: `Your job is completed: ${m.productName}`,
  body: [
    paragraph(`Hello ${m.companyName},`),
    paragraph(
      `Your job "${m.productName}" has been marked completed. You will find it under Completed jobs on your dashboard.`,
    ),
    button('See your jobs', m.url),
  ],
});

export const detailsRequestedMail = (m: {
  to: string;
  companyName: string;
  productName: string;
  lawyerName: string;
  request: string;
  url: string;
}): MailTemplate => ({
  to: m.to,
  subject: `A lawyer asked for more details on ${m.productName}`,
  body: [
    paragraph(`Hello ${m.companyName},`),
    paragraph(`${plainName(m.lawyerName)}, the lawyer working on your ${m.productName} job, asked for more details:`),
    quote(m.request),
    paragraph('Please answer from the Notifications card of your dashboard.'),
    button('Open your dashboard', m.url),
  ],
});
