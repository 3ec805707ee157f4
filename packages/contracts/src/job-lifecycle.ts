import { z } from 'zod';
import { NOTIFICATION_READ_IDS_MAX } from './constants.js';
import { messages } from './messages.js';
import { wholeKobo } from './money.js';

/**
 * The job's lifecycle for every actor, in the spirit of Sharetribe's transaction processes: each
 * transition names its action, the stages it leaves from and goes to, who may take it, whom it tells,
 * and for the clock's transitions when they fire. The API applies actions only through this table, the
 * web shows only the buttons it allows, and migration 0005 mirrors its stage pairs in a trigger.
 */
export const JOB_STAGES = [
  'unassigned',
  'in_progress',
  'delivered',
  'changes_requested',
  'completed',
  'cancelled',
] as const;
export type JobStage = (typeof JOB_STAGES)[number];

/** Stages nothing leaves. */
export const FINAL_STAGES: readonly JobStage[] = ['completed', 'cancelled'];

/**
 * The spec's lists know three statuses: pending covers everything between assignment and completion.
 * A cancelled job belongs to none of the spec's lists (decision 1600).
 */
export const SPEC_STATUS_OF_STAGE = {
  unassigned: 'unassigned',
  in_progress: 'pending',
  delivered: 'pending',
  changes_requested: 'pending',
  completed: 'completed',
  cancelled: 'cancelled',
} as const satisfies Record<JobStage, string>;

/**
 * Who takes an action. `assigned_lawyer` is the lawyer the job is assigned to; `applicant` is any
 * verified lawyer not assigned to it; `clock` is the scheduler; `payment` is the verified payment.
 */
export const JOB_ACTORS = ['company', 'assigned_lawyer', 'applicant', 'admin', 'clock', 'payment'] as const;
export type JobActor = (typeof JOB_ACTORS)[number];

/** Who is told: the job's company, its assigned lawyer, or every admin. */
export const JOB_RECIPIENTS = ['company', 'lawyer', 'admins'] as const;
export type JobRecipient = (typeof JOB_RECIPIENTS)[number];

/** When a clock transition fires: a number of Nigerian working days after a moment of the job. */
export interface JobTimer {
  /** `delivered`: the latest delivery; `due`: the job's due date (negative days: before it). */
  after: 'delivered' | 'due';
  workingDays: number;
}

export interface JobTransition {
  action: string;
  from: readonly JobStage[] | 'start';
  /** `same`: the action records an event and leaves the stage as it is. */
  to: JobStage | 'same';
  actors: readonly JobActor[];
  notify: readonly JobRecipient[];
  at?: JobTimer;
  /** What the action must carry. */
  needs?: { note?: boolean; files?: boolean };
  label: string;
}

const OPEN: readonly JobStage[] = ['unassigned', 'in_progress', 'delivered', 'changes_requested'];
const WORKING: readonly JobStage[] = ['in_progress', 'changes_requested'];

export const JOB_LIFECYCLE = [
  {
    action: 'paid',
    from: 'start',
    to: 'unassigned',
    actors: ['payment'],
    notify: ['company', 'admins'],
    label: 'Paid',
  },
  { action: 'apply', from: ['unassigned'], to: 'same', actors: ['applicant'], notify: ['admins'], label: 'Apply' },
  {
    action: 'assign',
    from: ['unassigned'],
    to: 'in_progress',
    actors: ['admin'],
    notify: ['company', 'lawyer'],
    label: 'Assign',
  },
  {
    action: 'request_details',
    from: WORKING,
    to: 'same',
    actors: ['assigned_lawyer'],
    notify: ['company'],
    needs: { note: true },
    label: 'Request more details',
  },
  {
    action: 'give_details',
    from: ['unassigned', 'in_progress', 'changes_requested'],
    to: 'same',
    actors: ['company'],
    notify: ['lawyer', 'admins'],
    needs: { note: true },
    label: 'Give details',
  },
  {
    action: 'add_details',
    from: OPEN,
    to: 'same',
    actors: ['admin'],
    notify: ['company', 'lawyer'],
    needs: { note: true },
    label: 'Add details',
  },
  {
    action: 'message',
    from: OPEN,
    to: 'same',
    actors: ['company', 'assigned_lawyer', 'admin'],
    notify: ['company', 'lawyer', 'admins'],
    needs: { note: true },
    label: 'Send',
  },
  {
    action: 'deliver',
    from: ['in_progress'],
    to: 'delivered',
    actors: ['assigned_lawyer'],
    notify: ['company'],
    needs: { files: true },
    label: 'Deliver',
  },
  {
    action: 'request_changes',
    from: ['delivered'],
    to: 'changes_requested',
    actors: ['company'],
    notify: ['lawyer'],
    needs: { note: true },
    label: 'Request changes',
  },
  {
    action: 'deliver_again',
    from: ['changes_requested'],
    to: 'delivered',
    actors: ['assigned_lawyer'],
    notify: ['company'],
    needs: { files: true },
    label: 'Deliver again',
  },
  {
    action: 'accept',
    from: ['delivered'],
    to: 'completed',
    actors: ['company'],
    notify: ['lawyer', 'admins'],
    label: 'Accept',
  },
  {
    action: 'auto_accept',
    from: ['delivered'],
    to: 'completed',
    actors: ['clock'],
    notify: ['company', 'lawyer', 'admins'],
    at: { after: 'delivered', workingDays: 5 },
    label: 'Accepted automatically',
  },
  {
    action: 'complete',
    from: ['in_progress', 'delivered', 'changes_requested'],
    to: 'completed',
    actors: ['admin'],
    notify: ['company', 'lawyer'],
    label: 'Mark as Completed',
  },
  {
    action: 'cancel',
    from: OPEN,
    to: 'cancelled',
    actors: ['admin'],
    notify: ['company', 'lawyer'],
    label: 'Cancel job',
  },
  {
    action: 'remind_due',
    from: WORKING,
    to: 'same',
    actors: ['clock'],
    notify: ['lawyer'],
    at: { after: 'due', workingDays: -2 },
    label: 'Due soon reminder',
  },
  {
    action: 'remind_late',
    from: WORKING,
    to: 'same',
    actors: ['clock'],
    notify: ['lawyer', 'admins'],
    at: { after: 'due', workingDays: 0 },
    label: 'Late reminder',
  },
  {
    action: 'remind_company',
    from: ['delivered'],
    to: 'same',
    actors: ['clock'],
    notify: ['company'],
    at: { after: 'delivered', workingDays: 3 },
    label: 'Delivery waiting reminder',
  },
] as const satisfies readonly JobTransition[];

export type JobAction = (typeof JOB_LIFECYCLE)[number]['action'];
export const JOB_ACTIONS = JOB_LIFECYCLE.map((t) => t.action) as unknown as readonly [JobAction, ...JobAction[]];

/**
 * The actions taken from the job page (POST /job-api/jobs/:id/actions/:action); assign names a lawyer
 * and apply is a lawyer's, so both keep their spec routes.
 */
export const JOB_PAGE_ACTIONS = [
  'message',
  'deliver',
  'deliver_again',
  'request_changes',
  'accept',
  'request_details',
  'give_details',
  'add_details',
  'complete',
  'cancel',
] as const satisfies readonly JobAction[];

/** Due dates: this many Nigerian working days after payment. */
export const DUE_WORKING_DAYS = 10;
/** The longest message or note, in characters as a reader counts them (characterCount). */
export const MAX_MESSAGE_LENGTH = 5000;
/**
 * A note's bound in UTF-16 units, four per character (a Yoruba letter with its marks is three, a flag
 * four): one character can carry any number of combining marks, and the note must stay bounded and
 * cheap to count (decision 2336).
 */
export const MAX_MESSAGE_UNITS = MAX_MESSAGE_LENGTH * 4;

// Made on first use, not on load: Firefox 93-124 has no Intl.Segmenter, and a module-level one threw
// as the module loaded, taking down every page importing contracts. null: the runtime has none.
let graphemes: Intl.Segmenter | null | undefined;
function graphemeSegmenter(): Intl.Segmenter | null {
  if (graphemes === undefined) {
    graphemes = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('en', { granularity: 'grapheme' }) : null;
  }
  return graphemes;
}

/**
 * The characters of a text as its reader counts them (graphemes): an emoji, a flag or a Yoruba letter
 * with its tone and dot marks (ẹ́, three code points when typed apart) is one, where `length` counts
 * two to four UTF-16 units (decision 2336).
 */
export function characterCount(text: string, stopAfter = Infinity): number {
  // ASCII only (most notes): one character per unit, but CR LF, which is one grapheme.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.length - (text.match(/\r\n/g)?.length ?? 0);
  const segmenter = graphemeSegmenter();
  // Without a segmenter: code points. An emoji is one, but a mark typed apart counts on its own, so
  // the count may read above the grapheme one: never below it.
  if (!segmenter) return [...text].length;
  let n = 0;
  // Segmenting costs more than linear time: a count past `stopAfter` is all a limit needs to know.
  for (const _ of segmenter.segment(text)) if (++n > stopAfter) break;
  return n;
}

/** Whether a note (as stored, without the blanks around it) is past the limit of MAX_MESSAGE_LENGTH characters. */
export const noteTooLong = (text: string): boolean =>
  text.length > MAX_MESSAGE_LENGTH &&
  (text.length > MAX_MESSAGE_UNITS || characterCount(text, MAX_MESSAGE_LENGTH) > MAX_MESSAGE_LENGTH);
/** The most documents one message or delivery carries. */
export const MAX_EVENT_FILES = 5;
/** The job page sends the newest events in pages of this many; older ones are asked for with `before`. */
export const THREAD_PAGE = 50;
/** The most events one `after` poll answers; `later` says more remain (the page then reloads). */
export const EVENTS_AFTER_MAX = 200;

export function transitionOf(action: JobAction): JobTransition {
  return JOB_LIFECYCLE.find((t) => t.action === action)!;
}

/** The transition an actor may take now, or null. */
export function findJobTransition(action: JobAction, stage: JobStage, actor: JobActor): JobTransition | null {
  const t = transitionOf(action);
  if (!t || t.from === 'start') return null;
  return (t.from as readonly JobStage[]).includes(stage) && (t.actors as readonly JobActor[]).includes(actor)
    ? t
    : null;
}

/** Every action an actor may take on a job in this stage (clock and payment actions never show). */
export function allowedJobActions(stage: JobStage, actor: JobActor): JobAction[] {
  return JOB_LIFECYCLE.filter(
    (t) =>
      t.from !== 'start' &&
      (t.from as readonly JobStage[]).includes(stage) &&
      (t.actors as readonly JobActor[]).includes(actor),
  ).map((t) => t.action);
}

/**
 * What an action that needs a note answers when it has none: the spec's "Kindly add/edit details" for
 * details (as its own details routes answer), a request for changes its own words, a message "Please
 * enter a message".
 */
export const noteMissingMessage = (action: JobAction): string =>
  action === 'request_changes'
    ? messages.changesNoteMissing
    : action === 'give_details' || action === 'add_details'
      ? messages.kindlyAddDetails
      : messages.messageMissing;

export const nextStage = (t: JobTransition, stage: JobStage): JobStage => (t.to === 'same' ? stage : t.to);

const file = z.object({ url: z.string(), name: z.string() });

/** One entry of the job's timeline; messages are entries too. */
export const jobEvent = z.object({
  _id: z.string(),
  action: z.enum(JOB_ACTIONS),
  actor: z.object({
    _id: z.string().nullable(),
    name: z.string(),
    role: z.enum(['company', 'lawyer', 'admin', 'clock', 'payment']),
  }),
  note: z.string().nullable(),
  files: z.array(file),
  fromStage: z.enum(JOB_STAGES).nullable(),
  toStage: z.enum(JOB_STAGES),
  createdAt: z.string(),
});
export type JobEventResponse = z.infer<typeof jobEvent>;

/** POST /job-api/jobs/:id/actions/:action and the thread's send. */
/**
 * Whom and how much an admin's Mark as Completed confirmation showed it pays (the one-job answer's
 * `payOnComplete`), sent back with the completion on the job page and on the spec's route (decision 2340).
 */
export const payOnCompleteCheck = z.object({
  lawyerId: z.string('payOnComplete.lawyerId must be the id of a lawyer'),
  amount: z.number('payOnComplete.amount must be a number of naira'),
});

export const jobActionRequest = z.object({
  /** Measured without the blanks around it, as it is stored. */
  note: z
    .string()
    .trim()
    .max(MAX_MESSAGE_UNITS, messages.messageTooLong)
    .refine((text) => !noteTooLong(text), messages.messageTooLong)
    .optional(),
  files: z.array(file).max(MAX_EVENT_FILES, `Please attach at most ${MAX_EVENT_FILES} documents`).optional(),
  /**
   * Cancel only: naira refunded to the company, at most what is held for the job (the default, a full
   * refund). What is not refunded is kept by the platform. A job a plan credit opened takes none (0 at
   * most): its credit goes back to the plan instead (decision 1900).
   */
  refund: z
    .number()
    .min(0, 'refund cannot be negative')
    .max(1_000_000_000, 'refund is too large')
    // Rounded to the kobo it would refund another sum than the one asked (₦0.004 none at all).
    .refine(...wholeKobo('refund'))
    .optional(),
  /**
   * Accept and request changes only: the number of the delivery the reader looked at (the job page's
   * `deliveries`). When the lawyer has delivered again since, the action is refused with 409 instead
   * of being taken on work the reader has not seen (decision 2258).
   */
  delivery: z
    .number('delivery must be the number of a delivery')
    .int('delivery must be the number of a delivery')
    .min(1, 'delivery must be the number of a delivery')
    .max(1_000_000, 'delivery must be the number of a delivery')
    .optional(),
  /**
   * An admin's complete only: whom and how much the confirmation showed it pays (the one-job answer's
   * `payOnComplete`). Another payee or amount by now: 409 naming them, nothing paid (decision 2340).
   */
  payOnComplete: payOnCompleteCheck.optional(),
  /**
   * A key the client makes for one action it means to take once (a fresh one for each): the same
   * action sent again with the same key (a double click, a retry after a lost answer) is not taken
   * again and answers the job page as it is.
   */
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'key must be 8 to 64 letters, digits, - or _')
    .optional(),
});
export type JobActionRequest = z.infer<typeof jobActionRequest>;

/** GET /job-api/jobs/:id/events?after=<eventId>: what happened since, for the open page's polling. */
export const jobEventsResponse = z.object({
  stage: z.enum(JOB_STAGES),
  actions: z.array(z.enum(JOB_ACTIONS)),
  /** Oldest first. */
  events: z.array(jobEvent),
  /** With `before`: older events remain. Always false with `after`. */
  earlier: z.boolean(),
  /** How many times the work has been delivered: what `delivery` of an acceptance names (decision 2258). */
  deliveries: z.number(),
  /** With `after`: more than EVENTS_AFTER_MAX newer events, of which the oldest are sent; ask again after the last. */
  later: z.boolean(),
});
export type JobEventsResponse = z.infer<typeof jobEventsResponse>;

/**
 * POST /job-api/jobs/:id/read {lastEventId}: marks the thread read up to that event. At most 15
 * digits, as notification ids: a longer one passed bigint and answered 500.
 */
export const jobReadRequest = z.object({
  lastEventId: z.string().regex(/^\d{1,15}$/, 'lastEventId must be an event id'),
});

/** One entry of the notification centre. */
export const notification = z.object({
  _id: z.string(),
  jobId: z.string(),
  action: z.enum(JOB_ACTIONS),
  /** One line for the list, e.g. "Tunde Bakare delivered Trademark Registration". */
  text: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /**
   * False when the job's page no longer opens for the reader: a lawyer an admin passed the job away from
   * (the page answers them 403), whose entry leads to their projects (decision 2332). Left out otherwise.
   */
  jobOpens: z.literal(false).optional(),
});
export type NotificationResponse = z.infer<typeof notification>;

/** GET /api/notifications?before=<id>: newest first, 20 a page. */
export const notificationsResponse = z.object({
  notifications: z.array(notification),
  unread: z.number(),
  hasMore: z.boolean(),
});
export type NotificationsResponse = z.infer<typeof notificationsResponse>;

const notificationId = (message: string) => z.string().regex(/^\d{1,15}$/, message);

/**
 * POST /api/notifications/read (decision 2279). `{ ids }`: exactly those, the entries the reader's list
 * showed; "Mark all as read" sends the unread ones it shows, so a notification the reader was never
 * shown stays unread. `{ all: true }`: every one. `{ all: true, upTo }` (decision 2259, kept for clients
 * that send it): those with an id up to it, which on PostgreSQL can include one committed after the
 * list was read with a lower id.
 */
export const readNotificationsRequest = z.union([
  z.object({
    ids: z.array(notificationId('ids must be notification ids')).min(1).max(NOTIFICATION_READ_IDS_MAX),
  }),
  z.object({
    all: z.literal(true),
    upTo: notificationId('upTo must be a notification id').optional(),
  }),
]);
export type ReadNotificationsRequest = z.infer<typeof readNotificationsRequest>;

/** GET /api/notifications/unread: the bell's count, polled. */
export const unreadNotificationsResponse = z.object({ unread: z.number() });

/** GET/POST /api/admin/holidays: the public holidays working days skip. */
export const holiday = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter the date as YYYY-MM-DD')
    .refine((d) => {
      const t = Date.parse(`${d}T00:00:00Z`);
      return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d) && d >= '2000' && d < '2100';
    }, 'Please enter a real date between 2000 and 2099'),
  name: z.string().trim().min(1, 'Please enter the holiday name').max(100),
});
export const holidaysResponse = z.object({ holidays: z.array(holiday) });

/** A job's stage, read from an answer that may predate stages (the spec's status alone). */
export const stageOf = (job: { stage?: JobStage; status: string }): JobStage =>
  job.stage ?? (job.status === 'pending' ? 'in_progress' : (job.status as JobStage));
