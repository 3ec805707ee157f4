import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import JobPage from './job-page';

const page = (over: Partial<JobPageResponse> = {}): JobPageResponse => ({
  job: {
    ...jobFixture({ status: 'pending' }),
    stage: 'delivered',
    late: false,
    assignedTo: [{ _id: 'lawyer-1', name: 'Tunde Bakare', officialEmail: '', phoneNumber: '' }],
  },
  viewer: 'company',
  actions: ['message', 'request_changes', 'accept'],
  events: [],
  earlier: false,
  lastReadEventId: '0',
  planCredit: false,
  deliveries: 1,
  // 2:30 pm in Lagos on Monday 7 December 2026.
  autoAcceptAt: '2026-12-07T13:30:00.000Z',
  ...over,
});

const open = (data: JobPageResponse, as: 'company' | 'lawyer') => {
  setSession({ userToken: 't', userType: as, userId: as === 'company' ? 'company-1' : 'lawyer-1' });
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /job-api/jobs/job-1': () => ({ body: data }),
      'POST /job-api/jobs/job-1/read': () => ({ body: { status: 'success' } }),
    }).fn,
  );
  renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
};

afterEach(() => vi.unstubAllGlobals());

/** Decision 2331: a delivered job says when the clock accepts it. */
describe('/jobs/:jobId while the work is delivered', { timeout: 30_000 }, () => {
  it('tells the company when the work is accepted automatically', async () => {
    open(page(), 'company');
    await screen.findByRole('heading', { name: 'A job' });
    const term = screen.getByText('Accepted automatically on');
    const value = term.nextElementSibling!;
    expect(value).toHaveTextContent('7 Dec 2026');
    expect(value).toHaveTextContent(/2:30\s?pm|14:30/i);
    expect(value).toHaveTextContent('Unless you accept the work or ask for changes before then.');
  });

  it('tells the lawyer too, in their words', async () => {
    open(page({ viewer: 'assigned_lawyer', actions: ['message'] }), 'lawyer');
    await screen.findByRole('heading', { name: 'A job' });
    expect(screen.getByText('Accepted automatically on').nextElementSibling).toHaveTextContent(
      'Unless the company accepts the work or asks for changes before then.',
    );
  });

  it('names no date once the job has left delivery', async () => {
    open(
      page({ job: { ...page().job, stage: 'changes_requested' }, autoAcceptAt: null, actions: ['message'] }),
      'company',
    );
    await screen.findByRole('heading', { name: 'A job' });
    expect(screen.queryByText('Accepted automatically on')).toBeNull();
  });
});
