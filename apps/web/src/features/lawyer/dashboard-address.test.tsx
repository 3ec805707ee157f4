import { afterEach, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { setSession } from '@/lib/session';
import { lawyerJob } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import LawyerDashboardPage from './dashboard-page';

const job = lawyerJob;

afterEach(() => vi.unstubAllGlobals());

it('/lawyer/dashboard opened on Completed projects, page 2 (a reload, or Back from a job), shows that page', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const list = (status: 'pending' | 'completed') => (_: unknown, url: URL) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const all = Array.from({ length: 15 }, (_, i) => job(status, i + 1));
    return { body: all.slice((page - 1) * limit, page * limit), headers: { 'x-total-count': String(all.length) } };
  };
  const { fn } = jsonFetch({
    'GET /job-api/lawyer/pendingjobs': list('pending'),
    'GET /job-api/lawyer/completedjobs': list('completed'),
  });
  vi.stubGlobal('fetch', fn);
  renderPage(<LawyerDashboardPage />, { path: '/lawyer/dashboard', at: '/lawyer/dashboard?tab=completed&page=2' });
  const shown = await screen.findByRole('list', { name: 'Completed projects' });
  await waitFor(() => expect(within(shown).getByText('completed job 15')).toBeInTheDocument());
  expect(within(shown).queryByText('completed job 1')).toBeNull();
  expect(screen.getByRole('tab', { name: 'Completed projects' })).toHaveAttribute('aria-selected', 'true');
});
