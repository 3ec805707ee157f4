import { vi } from 'vitest';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import JobPage from './job-page';

type Routes = Parameters<typeof jsonFetch>[0];

/**
 * The company's page of job-1, pending, due 4 December and assigned to Tunde Bakare, with no events yet:
 * in progress (a message may be sent) or delivered once (changes may be asked for, or the work accepted).
 */
export function companyJobPage(stage: 'in_progress' | 'delivered', over: Partial<JobPageResponse> = {}) {
  const delivered = stage === 'delivered';
  const data: JobPageResponse = {
    job: {
      ...jobFixture({ status: 'pending' }),
      stage,
      dueAt: '2026-12-04T22:59:59.000Z',
      late: false,
      assignedTo: [{ _id: 'lawyer-1', name: 'Tunde Bakare', officialEmail: '', phoneNumber: '' }],
    },
    viewer: 'company',
    actions: delivered ? ['message', 'request_changes', 'accept'] : ['message'],
    events: [],
    earlier: false,
    lastReadEventId: '0',
    planCredit: false,
    deliveries: delivered ? 1 : 0,
    ...over,
  };
  return data;
}

/**
 * Signs company-1 in, stores `drafts` (composer parts such as `note` or `files`) as its draft of job-1,
 * and answers the page's GET with `data` and any other `routes`. Render with renderJobPage.
 */
export function companyOnJobPage(
  data: JobPageResponse,
  { drafts = {}, routes = {} }: { drafts?: Record<string, unknown>; routes?: Routes } = {},
) {
  setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
  for (const [part, value] of Object.entries(drafts))
    localStorage.setItem(`draft:company-1:job:job-1:${part}`, JSON.stringify(value));
  const api = jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }), ...routes });
  vi.stubGlobal('fetch', api.fn);
  return api;
}

export const renderJobPage = () => renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
