import type { JobAction, JobEventResponse, JobStage } from '@legalmarket/contracts/job-lifecycle';

export const STAGE_LABELS: Record<JobStage, string> = {
  unassigned: 'Waiting for a lawyer',
  in_progress: 'In progress',
  delivered: 'Delivered',
  changes_requested: 'Changes requested',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** How the timeline says what happened, after the actor's name. */
export const EVENT_WORDS: Record<JobAction, string> = {
  paid: 'paid for the job',
  apply: 'applied',
  assign: 'assigned the job to a lawyer',
  request_details: 'asked for more details',
  give_details: 'added details',
  add_details: 'added details',
  message: 'wrote',
  deliver: 'delivered the work',
  request_changes: 'asked for changes',
  deliver_again: 'delivered the work again',
  accept: 'accepted the work',
  auto_accept: 'accepted the work automatically: five working days passed without an answer',
  complete: 'marked the job completed',
  cancel: 'cancelled the job',
  remind_due: 'reminded the lawyer that the job is due soon',
  remind_late: 'reminded the lawyer that the job is late',
  remind_company: 'reminded the company to accept the delivery or ask for changes',
};

/**
 * An event's words: an assignment of a job already at work is its hand-over to another lawyer
 * (decision 2310), which the timeline tells apart from the first assignment.
 */
export const eventWords = (e: Pick<JobEventResponse, 'action' | 'fromStage'>): string =>
  e.action === 'assign' && e.fromStage !== null && e.fromStage !== 'unassigned'
    ? 'passed the job to another lawyer'
    : EVENT_WORDS[e.action];

export const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'Africa/Lagos',
  });

export const formatDay = (iso: string) =>
  new Date(iso).toLocaleDateString('en-NG', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'Africa/Lagos',
  });
