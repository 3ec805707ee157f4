import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import JobPage from './job-page';

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
  events: [],
  earlier: false,
  lastReadEventId: '0',
  planCredit: false,
  deliveries: 0,
};

describe('/jobs/{id} a document removed from the composer by mistake', { timeout: 30_000 }, () => {
  it('comes back where it was with Undo, without uploading it again', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    // Two documents already uploaded with the draft (decision 2292).
    localStorage.setItem(
      'draft:company-1:job:job-1:files',
      JSON.stringify([
        { fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' },
        { fileName: 'cac-forms.pdf', url: '/uploads/b.pdf' },
      ]),
    );
    const api = jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }) });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove board-resolution.pdf' }));
    expect(screen.queryByRole('button', { name: 'Remove board-resolution.pdf' })).toBeNull();
    const undo = screen.getByRole('button', { name: 'Undo: attach board-resolution.pdf again' });
    expect(undo).toHaveFocus();
    await userEvent.click(undo);
    const removes = screen.getAllByRole('button', { name: /^Remove / });
    expect(removes.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Remove board-resolution.pdf',
      'Remove cac-forms.pdf',
    ]);
    expect(api.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });
});
