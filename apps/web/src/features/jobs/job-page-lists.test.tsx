import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import type { JobPageResponse, JobViewResponse } from '@legalmarket/contracts/jobs';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, testQueryClient } from '@/test/render';
import CompanyDashboardPage from '@/features/company/dashboard-page';
import JobPage from './job-page';

const lawyer = { _id: 'lawyer-1', name: 'Tunde Bakare', officialEmail: '', phoneNumber: '' };
const delivered: JobViewResponse = {
  ...jobFixture({ status: 'pending', assignedTo: [lawyer] }),
  stage: 'delivered',
  late: false,
};
const page = (job: JobViewResponse, actions: JobPageResponse['actions']): JobPageResponse => ({
  job,
  viewer: 'company',
  actions,
  events: [],
  earlier: false,
  lastReadEventId: '0',
  planCredit: false,
  deliveries: 1,
});

describe('the lists a job appears in, after an action on its page', { timeout: 30_000 }, () => {
  it('shows an accepted job under Completed when the company goes back to its dashboard', async () => {
    let accepted = false;
    const completed = { ...delivered, status: 'completed' as const, stage: 'completed' as const };
    const stub = jsonFetch({
      'GET /job-api/company/pendingjobs': () => ({ body: accepted ? [] : [delivered] }),
      'GET /job-api/company/completedjobs': () => ({ body: accepted ? [completed] : [] }),
      'GET /api/orders': () => ({ body: { data: [] } }),
      'GET /api/refunds': () => ({ body: { refunds: [] } }),
      'GET /api/public-config': () => ({
        body: { supportPhone: '234', supportEmail: 'a@b.c', paymentProvider: 'sandbox', socialLinks: [] },
      }),
      'GET /job-api/jobs/job-1': () => ({ body: page(accepted ? completed : delivered, accepted ? [] : ['accept']) }),
      'POST /job-api/jobs/job-1/actions/accept': () => {
        accepted = true;
        return { body: page(completed, []) };
      },
    });
    vi.stubGlobal('fetch', stub.fn);
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    // The app's own cache settings: answers stay fresh for 30 s, as in the browser.
    const client = testQueryClient();
    client.setDefaultOptions({ queries: { staleTime: 30_000, retry: false } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/company/dashboard']}>
          <Routes>
            <Route
              element={
                <>
                  <Link to="/company/dashboard">Dashboard</Link>
                  <Outlet />
                </>
              }
            >
              <Route path="/company/dashboard" element={<CompanyDashboardPage />} />
              <Route path="/jobs/:jobId" element={<JobPage />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    expect(await screen.findByText(/Delivered: please review/)).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Chat with a lawyer' }));
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Accept' }));
    await vi.waitFor(() => expect(accepted).toBe(true));
    expect(await screen.findByText('Completed')).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByText('No jobs')).toBeInTheDocument();
    expect(screen.queryByText(/Delivered: please review/)).not.toBeInTheDocument();
  });
});
