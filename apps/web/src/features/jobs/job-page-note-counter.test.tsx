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

async function open() {
  setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
  vi.stubGlobal('fetch', jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }) }).fn);
  renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
  return screen.findByLabelText('Message or note');
}

describe('/jobs/{id} character counter for screen readers', { timeout: 30_000 }, () => {
  it('describes the note box by its counter, and by the error alone while one is shown', async () => {
    const box = await open();
    expect(box).toHaveAccessibleDescription('0 / 5,000');
    await userEvent.type(box, 'Clause 4');
    expect(box).toHaveAccessibleDescription('8 / 5,000');
    await userEvent.clear(box);
    await userEvent.click(screen.getByRole('button', { name: 'Request changes' }));
    expect(box).toHaveAccessibleDescription(messages.changesNoteMissing);
    await userEvent.type(box, 'C');
    expect(box).toHaveAccessibleDescription('1 / 5,000');
  });

  it('announces politely when the note nears and passes the limit', async () => {
    const box = await open();
    const said = () => document.querySelector('[aria-live="polite"]')?.textContent;
    expect(said()).toBe('');
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(4501));
    expect(said()).toBe('500 characters or fewer left.');
    await userEvent.paste('x'.repeat(400));
    expect(said()).toBe('100 characters or fewer left.');
    await userEvent.paste('x'.repeat(99));
    expect(said()).toBe('100 characters or fewer left.');
    await userEvent.paste('x');
    expect(said()).toBe('Over the limit of 5,000 characters.');
  });
});
