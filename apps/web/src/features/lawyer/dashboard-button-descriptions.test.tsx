import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { setSession } from '@/lib/session';
import { lawyerJob } from '@/test/job-fixture';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import { verifiedLawyer } from '@/test/lawyer-profile';
import { lawyerKeys } from './api/keys';
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
    // Verified: Request more details is offered only once the profile says so.
    const client = testQueryClient();
    client.setQueryData(lawyerKeys.profile('l1', false), { ...verifiedLawyer, userType: 'lawyer' });
    renderPage(<LawyerDashboardPage />, { client });
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
