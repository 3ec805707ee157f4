import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminRowLawyer, COMMISSION_CHANGED, shareTransferRow } from '@/test/complete-fixture';
import { heldFetch } from '@/test/held-fetch';
import { renderPage } from '@/test/render';
import AdminJobsPage from './jobs-page';

// A refused completion (409) is shown at once: the admin lists read again after it may be slow, and the
// message must not wait for them.
const JOB_ID = '66666666-6666-4666-8666-666666666666';
const LAWYER = adminRowLawyer('l1', 'Ada Lawyer');
const row = shareTransferRow(JOB_ID, LAWYER, 'in_progress');
const CHANGED = COMMISSION_CHANGED;

afterEach(() => vi.unstubAllGlobals());

describe('a refused completion shows while the lists are read again', { timeout: 30_000 }, () => {
  it('shows the 409 message while the list refetch is still held', async () => {
    let holdLists = false;
    const api = heldFetch(
      {
        'GET /job-api/unassign': () => ({
          body: { status: 'success', page: 1, limit: 5, total: 0, results: 0, jobs: [] },
        }),
        'GET /job-api/pendingjobs': () => ({
          body: { status: 'success', page: 1, limit: 5, total: 1, results: 1, jobs: [row] },
        }),
        [`GET /job-api/admin/job/${JOB_ID}`]: () => ({
          body: {
            status: 'success',
            message: 'ok',
            data: {
              job: {
                ...row,
                assignedTo: [{ ...LAWYER, verified: true }],
                payOnComplete: { lawyerId: LAWYER._id, name: LAWYER.name, amount: 40_000, delivered: true },
              },
            },
          },
        }),
        [`PUT /job-api/completejob/${JOB_ID}`]: () => ({ status: 409, body: { status: 'fail', message: CHANGED } }),
      },
      ({ method }) => holdLists && method === 'GET',
    );
    vi.stubGlobal('fetch', api.fn);
    renderPage(<AdminJobsPage />, { path: '/admin/jobs', at: '/admin/jobs?tab=pending' });
    await userEvent.click(await screen.findByRole('button', { name: 'View more: Share Transfer' }));
    const dialog = await screen.findByRole('dialog');
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: /Pass to another lawyer/ })).toBeNull());
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Mark as Completed' }));
    const asked = await screen.findByRole('dialog', { name: 'Mark this job as completed?' });
    expect(asked).toHaveTextContent('Ada Lawyer is paid ₦40,000');
    holdLists = true;
    await userEvent.click(within(asked).getByRole('button', { name: 'Mark as Completed' }));
    await vi.waitFor(() => expect(api.sent.length).toBeGreaterThan(0));
    expect(await screen.findByText(CHANGED)).toBeVisible();
    await act(async () => api.releaseAll());
  });
});
