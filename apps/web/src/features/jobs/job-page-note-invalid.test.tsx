import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import JobPage from './job-page';

const data: JobPageResponse = {
  job: {
    ...jobFixture({ status: 'pending' }),
    stage: 'delivered',
    dueAt: '2026-12-04T22:59:59.000Z',
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
};

describe('/jobs/{id} composer errors for screen readers', { timeout: 30_000 }, () => {
  it('marks the note invalid with the reason tied to it, and clears both once typed in', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    vi.stubGlobal('fetch', jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }) }).fn);
    renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
    const box = await screen.findByLabelText('Message or note');
    expect(box).not.toHaveAttribute('aria-invalid');
    await userEvent.click(screen.getByRole('button', { name: 'Request changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.changesNoteMissing);
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(messages.changesNoteMissing);
    await userEvent.type(box, 'Clause 4');
    expect(box).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
