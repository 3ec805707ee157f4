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

/** A moment as the mails say it, in Lagos time: "4 Dec 2026, 2:30 pm". */
export const lagosWhen = (at: Date) =>
  at.toLocaleString('en-NG', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'Africa/Lagos',
  });

/**
 * A lifecycle step told to each recipient: the notification's text is the subject and the first line.
 * `acceptsAt`: a delivery told to its company, which the clock accepts then unless answered (decision 2331).
 */
export const jobEventMail = (
  to: string,
  m: { text: string; note?: string | null; files?: string[]; url: string; thread?: boolean; acceptsAt?: Date },
): MailTemplate => ({
  to,
  subject: m.text,
  body: [
    paragraph(`${m.text}.`),
    ...(m.note ? [quote(preview(m.note))] : []),
    ...(m.files?.length ? [paragraph(`Documents: ${m.files.map(plainFileName).join(', ')}`)] : []),
    ...(m.acceptsAt
      ? [
          paragraph(
            `If you neither accept the work nor ask for changes, it will be accepted automatically on ${lagosWhen(m.acceptsAt)} (Lagos time), five working days after the delivery.`,
          ),
        ]
      : []),
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

/**
 * The hand-over of a job at work to another lawyer (decision 2316): the new lawyer learns the job carries
 * on where it stands, with what the thread already holds. Names the company as lawyerAssignedMail does
 * (`"…" for {company}.`), so a company's erasure finds it the same way.
 */
export const lawyerReassignedMail = (
  to: string,
  m: { lawyerName: string; productName: string; companyName: string; stage: string; url: string },
): MailTemplate => ({
  to,
  subject: `A job has been passed to you: ${m.productName}`,
  body: [
    paragraph(`Hello ${m.lawyerName},`),
    paragraph(`An administrator has passed you the job "${m.productName}" for ${plainName(m.companyName)}.`),
    paragraph(
      `The lawyer who worked on it can no longer do so. The job stays at its stage (${m.stage}), and its thread, files and deliveries so far are on the job page for you to carry on from.`,
    ),
    button('Open the job', m.url),
  ],
});

/** The company's side of a hand-over: the new lawyer by name, the work done so far kept (decision 2316). */
export const companyReassignedMail = (
  to: string,
  m: { companyName: string; productName: string; lawyerName: string; stage: string; url: string },
): MailTemplate => ({
  to,
  subject: `Another lawyer is now working on ${m.productName}`,
  body: [
    paragraph(`Hello ${m.companyName},`),
    paragraph(
      `The lawyer working on your job "${m.productName}" can no longer do so, so an administrator has passed it to ${plainName(m.lawyerName)}, who will carry it on.`,
    ),
    paragraph(`Your job stays at its stage (${m.stage}), and its thread, files and deliveries are kept as they are.`),
    button('Open the job', m.url),
  ],
});

/**
 * The replaced lawyer's notice (decision 2316). It names no other person (the new lawyer is not theirs
 * to know, and an erasure has nothing to find), and links the dashboard: the job no longer opens for them.
 */
export const lawyerReplacedMail = (
  to: string,
  m: { lawyerName: string; text: string; productName: string; url: string },
): MailTemplate => ({
  to,
  subject: m.text,
  body: [
    paragraph(`Hello ${m.lawyerName},`),
    paragraph(
      `As your verification has been withdrawn, an administrator has passed the job "${m.productName}" to another lawyer. It no longer shows among your projects.`,
    ),
    paragraph('If you think your verification should stand, please contact us from your profile.'),
    button('Open your dashboard', m.url),
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
