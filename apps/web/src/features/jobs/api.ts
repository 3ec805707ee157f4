import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JobAction, JobActionRequest, JobEventsResponse } from '@legalmarket/contracts/job-lifecycle';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { HttpError, api } from '@/lib/http';

const jobKeys = {
  page: (jobId: string) => ['job-page', jobId] as const,
};

/** GET /job-api/jobs/{id}: the job, its timeline and thread, and the reader's actions. */
export const useJobPage = (jobId: string) =>
  useQuery({
    queryKey: jobKeys.page(jobId),
    queryFn: ({ signal }) => api<JobPageResponse>(`/job-api/jobs/${encodeURIComponent(jobId)}`, { signal }),
  });

const POLL_MS = 4000;

/**
 * While the page is visible, asks every 4 s what happened since the newest event and appends it; a
 * hidden tab asks nothing. A change of stage reloads the whole page's data (status, dates, buttons).
 */
export function useJobPolling(jobId: string, data: JobPageResponse | undefined) {
  const qc = useQueryClient();
  const lastId = data?.events.at(-1)?._id ?? '0';
  const stage = data?.job.stage;
  useEffect(() => {
    if (!stage) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState === 'visible') {
        try {
          const since = await api<JobEventsResponse>(`/job-api/jobs/${encodeURIComponent(jobId)}/events`, {
            query: { after: lastId },
          });
          if (stopped) return;
          // A new stage, or more news than one answer holds: the page's data is read again whole.
          if (since.stage !== stage || since.later) return void qc.invalidateQueries({ queryKey: jobKeys.page(jobId) });
          if (since.events.length)
            qc.setQueryData<JobPageResponse>(jobKeys.page(jobId), (old) =>
              old
                ? {
                    ...old,
                    actions: since.actions,
                    // An acceptance names the newest delivery shown (decision 2258); an answer without it keeps the old.
                    deliveries: since.deliveries ?? old.deliveries,
                    events: [...old.events, ...since.events.filter((e) => !old.events.some((o) => o._id === e._id))],
                  }
                : old,
            );
        } catch {
          // A failed poll is retried at the next one; the page keeps what it shows.
        }
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        clearTimeout(timer);
        void poll();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [jobId, lastId, stage, qc]);
}

/** GET /job-api/jobs/{id}/events?before=: the page of older events, put in front of the shown ones. */
export function useEarlierEvents(jobId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (before: string) =>
      api<JobEventsResponse>(`/job-api/jobs/${encodeURIComponent(jobId)}/events`, { query: { before } }),
    onSuccess: (older) =>
      qc.setQueryData<JobPageResponse>(jobKeys.page(jobId), (old) =>
        old
          ? {
              ...old,
              earlier: older.earlier,
              events: [...older.events.filter((e) => !old.events.some((o) => o._id === e._id)), ...old.events],
            }
          : old,
      ),
  });
}

/**
 * Every list a job action may move a job in or out of, by the prefix of its feature's keys (those
 * files are other features' internals): the dashboards, projects, earnings, refunds and the plan.
 */
const LISTS_OF_JOBS = [
  ['company-jobs'],
  ['company-refunds'],
  ['my-plan'],
  ['lawyer'],
  ['admin'],
  ['admin-refunds'],
] as const;

/** The key of a job's actions in the mutation cache: a page opened again finds the sends still on their way. */
export const jobActionKey = (jobId: string) => ['job-action', jobId] as const;

export type JobActionSend = JobActionRequest & { action: JobAction };

/** POST /job-api/jobs/{id}/actions/{action}: answers the job page, which replaces the shown one. */
export function useJobAction(jobId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: jobActionKey(jobId),
    mutationFn: ({ action, ...body }: JobActionSend) =>
      api<JobPageResponse>(`/job-api/jobs/${encodeURIComponent(jobId)}/actions/${action}`, { method: 'POST', body }),
    onSuccess: (page) => {
      qc.setQueryData(jobKeys.page(jobId), page);
      // A list read before the action would show the job where it was (cached answers stay fresh 30 s).
      for (const queryKey of LISTS_OF_JOBS) void qc.invalidateQueries({ queryKey });
    },
    // Refused for the job's moment (409: another stage, or a newer delivery): the page is read again, so
    // the reader sees what changed under the message saying so.
    onError: (err) => {
      if (err instanceof HttpError && err.status === 409) void qc.invalidateQueries({ queryKey: jobKeys.page(jobId) });
    },
  });
}

/** POST /job-api/jobs/{id}/read: the thread (and its notifications) read up to an event. */
export const markJobRead = (jobId: string, lastEventId: string) =>
  api(`/job-api/jobs/${encodeURIComponent(jobId)}/read`, { method: 'POST', body: { lastEventId } }).catch(
    () => undefined,
  );
