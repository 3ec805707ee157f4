import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { setSession } from '@/lib/session';
import { lawyerJob } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import LawyerDashboardPage from './dashboard-page';

describe('/lawyer/dashboard repeated buttons for a screen reader', { timeout: 30_000 }, () => {
  it('describes each Request more details and View more details by its project', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const jobs = [1, 2].map((n) => ({
      ...lawyerJob('pending', n),
      stage: 'in_progress' as const,
      companyDetail: 'The CAC forms are attached.',
    }));
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /job-api/lawyer/pendingjobs': () => ({ body: jobs, headers: { 'x-total-count': '2' } }),
      }).fn,
    );
    renderPage(<LawyerDashboardPage />);
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    const ask = within(list).getAllByRole('button', { name: 'Request more details' });
    expect(ask).toHaveLength(2);
    expect(ask[0]).toHaveAccessibleDescription('pending job 1');
    expect(ask[1]).toHaveAccessibleDescription('pending job 2');
    const card = screen.getByRole('complementary', { name: 'Notifications' });
    const view = await within(card).findAllByRole('button', { name: 'View more details' });
    expect(view).toHaveLength(2);
    expect(view[0]).toHaveAccessibleDescription('pending job 1');
    expect(view[1]).toHaveAccessibleDescription('pending job 2');
  });
});
