import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LawyerJob } from '@legalmarket/contracts/lawyers';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import AvailableJobsPage from './available-jobs-page';
import { lawyerKeys } from './api/keys';

/** Twenty jobs fill a page, so the page offers "Show more jobs". */
const page = (n: number) =>
  Array.from({ length: n === 1 ? 20 : 3 }, (_, i) => {
    const base = jobFixture() as LawyerJob;
    return { ...base, _id: `job-${n}-${i}`, productId: { ...base.productId, productName: `Job ${n}-${i}` } };
  });

describe('Show more jobs that fails', { timeout: 30_000 }, () => {
  it('keeps the jobs shown and puts the error and its retry below them', async () => {
    let failNext = true;
    const stub = jsonFetch({
      'GET /job-api/jobs': (_init, url) => {
        const n = Number(url.searchParams.get('page'));
        if (n === 2 && failNext) {
          failNext = false;
          return { status: 500, body: { status: 'error', message: 'Something went wrong' } };
        }
        return { body: page(n) };
      },
      'GET /api/userprofile': () => ({ status: 404, body: { status: 'fail', message: 'Not found' } }),
    });
    vi.stubGlobal('fetch', stub.fn);
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    renderPage(<AvailableJobsPage />, { path: '/lawyer/available-jobs/:lawyerId', at: '/lawyer/available-jobs/l1' });
    const list = await screen.findByRole('list', { name: 'Open jobs' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);

    await userEvent.click(screen.getByRole('button', { name: 'Show more jobs' }));
    const retry = await screen.findByRole('button', { name: 'Try again' });
    // The twenty jobs are still there, above the error.
    const shown = screen.getByRole('list', { name: 'Open jobs' });
    expect(within(shown).getAllByRole('listitem')).toHaveLength(20);
    expect(shown.compareDocumentPosition(retry) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more jobs' })).toBeNull();

    await userEvent.click(retry);
    await vi.waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Open jobs' })).getAllByRole('listitem')).toHaveLength(23),
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByText('Job 1-0')).toBeInTheDocument();
  });
});

describe('a background re-read of the jobs that fails', { timeout: 30_000 }, () => {
  it('keeps the jobs shown and says so above them, with Try again', async () => {
    let fail = false;
    const stub = jsonFetch({
      'GET /job-api/jobs': (_init, url) =>
        fail
          ? { status: 500, body: { status: 'error', message: 'Something went wrong' } }
          : { body: page(Number(url.searchParams.get('page'))) },
      'GET /api/userprofile': () => ({ status: 404, body: { status: 'fail', message: 'Not found' } }),
    });
    vi.stubGlobal('fetch', stub.fn);
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const { client } = renderPage(<AvailableJobsPage />, {
      path: '/lawyer/available-jobs/:lawyerId',
      at: '/lawyer/available-jobs/l1',
    });
    const section = screen.getByRole('region', { name: 'Available Jobs' });
    expect(
      within(await within(section).findByRole('list', { name: 'Open jobs' })).getAllByRole('listitem'),
    ).toHaveLength(20);

    fail = true;
    await act(() => client.invalidateQueries({ queryKey: lawyerKeys.availableJobs('bestfit') }));
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    const shown = within(section).getByRole('list', { name: 'Open jobs' });
    expect(within(shown).getAllByRole('listitem')).toHaveLength(20);
    expect(alert.compareDocumentPosition(shown) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(within(section).queryByRole('alert')).toBeNull());
    expect(within(section).getAllByRole('listitem')).toHaveLength(20);
  });
});
