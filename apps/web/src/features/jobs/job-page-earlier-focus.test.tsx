import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobEventResponse } from '@legalmarket/contracts/job-lifecycle';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import JobPage from './job-page';

const event = (id: number): JobEventResponse => ({
  _id: String(id),
  action: 'message',
  actor: { _id: 'lawyer-1', name: 'Tunde Bakare', role: 'lawyer' },
  note: `Message ${id}`,
  files: [],
  fromStage: 'in_progress',
  toStage: 'in_progress',
  createdAt: '2026-11-20T10:00:00.000Z',
});

const data: JobPageResponse = {
  job: {
    ...jobFixture({ status: 'pending' }),
    stage: 'in_progress',
    dueAt: '2026-12-04T22:59:59.000Z',
    late: false,
    assignedTo: [{ _id: 'lawyer-1', name: 'Tunde Bakare', officialEmail: '', phoneNumber: '' }],
  },
  viewer: 'company',
  actions: ['message'],
  events: [event(60), event(61)],
  earlier: true,
  lastReadEventId: '61',
  planCredit: false,
  deliveries: 0,
};

describe('/jobs/{id} Show earlier messages and focus', { timeout: 30_000 }, () => {
  it('moves focus to the oldest message shown, the button being gone once none remain', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /job-api/jobs/job-1': () => ({ body: data }),
        'GET /job-api/jobs/job-1/events': () => ({
          body: { stage: 'in_progress', actions: ['message'], events: [event(58), event(59)], earlier: false },
        }),
      }).fn,
    );
    renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Show earlier messages' }));
    await screen.findByText('Message 58');
    expect(screen.queryByRole('button', { name: 'Show earlier messages' })).toBeNull();
    expect(document.activeElement).toHaveTextContent('Message 58');
    expect(document.activeElement?.tagName).toBe('LI');
  });
});
