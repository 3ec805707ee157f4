import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import type { UserProfileResponse } from '@legalmarket/contracts/admin';
import type { LawyerJob } from '@legalmarket/contracts/lawyers';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { verifiedLawyer } from '@/test/lawyer-profile';
import { jsonFetch, testQueryClient } from '@/test/render';
import AvailableJobsPage from './available-jobs-page';
import JobItemPage from './job-item-page';

const profile: UserProfileResponse = { ...verifiedLawyer, userType: 'lawyer' };

describe('Apply now, then back to the available jobs', { timeout: 30_000 }, () => {
  it('marks the job "You applied" in the list read before applying', async () => {
    let applied = false;
    const job = (): LawyerJob => ({ ...jobFixture(), applied }) as LawyerJob;
    const stub = jsonFetch({
      'GET /job-api/jobs': () => ({ body: [job()] }),
      'GET /job-api/job/job-1': () => ({ body: job() }),
      'POST /job-api/applyforjob/job-1': () => {
        applied = true;
        return { body: { status: 'success', message: 'You have applied for this job' } };
      },
      'GET /api/userprofile': () => ({ body: profile }),
    });
    vi.stubGlobal('fetch', stub.fn);
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    // The app's own cache settings: answers stay fresh for 30 s, as in the browser.
    const client = testQueryClient();
    client.setDefaultOptions({ queries: { staleTime: 30_000, retry: false } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/lawyer/available-jobs/l1']}>
          <Routes>
            <Route
              element={
                <>
                  <Link to="/lawyer/available-jobs/l1">Jobs</Link>
                  <Outlet />
                </>
              }
            >
              <Route path="/lawyer/available-jobs/:lawyerId" element={<AvailableJobsPage />} />
              <Route path="/lawyer/available-job-item/:jobId" element={<JobItemPage />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Open jobs' });
    expect(within(list).queryByText('You applied')).not.toBeInTheDocument();

    await user.click(within(list).getByRole('link', { name: 'A job' }));
    await user.click(await screen.findByRole('button', { name: 'Apply now' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toBeInTheDocument();
    await user.click(
      within(screen.getByRole('dialog', { name: 'Success' })).getAllByRole('button', { name: 'Close' })[0],
    );

    await user.click(screen.getByRole('link', { name: 'Jobs' }));
    const again = await screen.findByRole('list', { name: 'Open jobs' });
    expect(await within(again).findByText('You applied')).toBeInTheDocument();
  });
});
