import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch, renderPage } from '@/test/render';
import AdminJobsPage from './jobs-page';
import AdminLawyersPage from './lawyers-page';
import AdminCompaniesPage from './companies-page';

// A long list (results > 0), so no page is stepped back from as an emptied one would be.
const empty = (key: string) => ({ status: 'success', page: 1, limit: 5, total: 50, results: 1, [key]: [] });

function stub(routes: Record<string, string>) {
  const api = jsonFetch(
    Object.fromEntries(Object.entries(routes).map(([route, key]) => [route, () => ({ body: empty(key) })])),
  );
  vi.stubGlobal('fetch', api.fn);
  return (path: string) =>
    api.calls.filter((c) => c.url.pathname === path).map((c) => Object.fromEntries(c.url.searchParams));
}

afterEach(() => vi.unstubAllGlobals());

describe('admin lists keep their tab and page in the address', () => {
  it('/admin/jobs opened on the Pending tab, page 2, asks for that page and shows that tab', async () => {
    const asked = stub({
      'GET /job-api/unassign': 'jobs',
      'GET /job-api/pendingjobs': 'jobs',
      'GET /job-api/completedjobs': 'jobs',
    });
    renderPage(<AdminJobsPage />, { path: '/admin/jobs', at: '/admin/jobs?tab=pending&page=2' });
    await waitFor(() => expect(asked('/job-api/pendingjobs')).toEqual([{ page: '2', limit: '5' }]));
    expect(asked('/job-api/unassign')).toEqual([]);
    expect(screen.getByRole('tab', { name: 'Pending jobs' })).toHaveAttribute('aria-selected', 'true');

    // Another tab starts at its first page.
    await userEvent.click(screen.getByRole('tab', { name: 'Completed jobs' }));
    await waitFor(() => expect(asked('/job-api/completedjobs')).toEqual([{ page: '1', limit: '5' }]));
    expect(screen.getByRole('tab', { name: 'Completed jobs' })).toHaveAttribute('aria-selected', 'true');
  });

  it('/admin/lawyers opened on Unverified, page 3, asks for the unverified lawyers of page 3', async () => {
    const asked = stub({ 'GET /api/verifiedlawyers': 'lawyers', 'GET /api/unverifiedlawyers': 'lawyers' });
    renderPage(<AdminLawyersPage />, { path: '/admin/lawyers', at: '/admin/lawyers?tab=unverified&page=3' });
    await waitFor(() => expect(asked('/api/unverifiedlawyers')).toEqual([{ page: '3', limit: '5' }]));
    expect(asked('/api/verifiedlawyers')).toEqual([]);
    expect(screen.getByRole('tab', { name: 'Unverified' })).toHaveAttribute('aria-selected', 'true');
  });

  it('/admin/companies opened on page 4 asks for page 4', async () => {
    const asked = stub({ 'GET /api/companys': 'company' });
    renderPage(<AdminCompaniesPage />, { path: '/admin/companies', at: '/admin/companies?page=4' });
    await waitFor(() => expect(asked('/api/companys')).toEqual([{ page: '4', limit: '5' }]));
  });
});
