import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { setSession } from '@/lib/session';
import { lawyerJob } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import LawyerDashboardPage from './dashboard-page';

describe('/lawyer/dashboard "Your last request:"', { timeout: 30_000 }, () => {
  it('keeps the line breaks of the request as typed', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const request = 'Please send:\n1. the CAC forms\n2. the board resolution';
    const jobs = [{ ...lawyerJob('pending', 1), stage: 'in_progress' as const, lawyerRequestedDetail: request }];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /job-api/lawyer/pendingjobs': () => ({ body: jobs, headers: { 'x-total-count': '1' } }),
      }).fn,
    );
    renderPage(<LawyerDashboardPage />);
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    const shown = within(list).getByText('Your last request:', { exact: false }).parentElement!;
    expect(shown.textContent).toBe(`Your last request: ${request}`);
    // jsdom applies no stylesheet: the class is what makes the browser keep the "\n"s.
    expect(shown).toHaveClass('whitespace-pre-line');
  });
});
