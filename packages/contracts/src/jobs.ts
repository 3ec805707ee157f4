import type { UserType } from './constants.js';

/**
 * The job lifecycle, defined once. The API applies transitions through `canTransition`;
 * pages derive which buttons to show from (state, role).
 */
export const JOB_STATUSES = ['unassigned', 'pending', 'completed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JOB_TRANSITIONS = [
  { action: 'assign', from: 'unassigned', to: 'pending', roles: ['admin'] },
  { action: 'complete', from: 'pending', to: 'completed', roles: ['admin'] },
  // Not a state change: an admin adds details (text and a document) while the job is still open.
  { action: 'add_details', from: 'unassigned', to: 'unassigned', roles: ['admin'] },
  { action: 'add_details', from: 'pending', to: 'pending', roles: ['admin'] },
] as const satisfies ReadonlyArray<{
  action: string;
  from: JobStatus;
  to: JobStatus;
  roles: readonly UserType[];
}>;
export type JobAction = (typeof JOB_TRANSITIONS)[number]['action'];

export function findTransition(action: JobAction, from: JobStatus, role: UserType) {
  const t = JOB_TRANSITIONS.find(
    (x) => x.action === action && x.from === from && (x.roles as readonly UserType[]).includes(role),
  );
  return t ?? null;
}

export const allowedActions = (from: JobStatus, role: UserType): JobAction[] =>
  JOB_TRANSITIONS.filter((t) => t.from === from && (t.roles as readonly UserType[]).includes(role)).map(
    (t) => t.action,
  );
