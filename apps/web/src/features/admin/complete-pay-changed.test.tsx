import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminRowLawyer, COMMISSION_CHANGED, shareTransferRow } from '@/test/complete-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import AdminJobsPage from './jobs-page';

// The confirmation names whom Mark as Completed pays and how much (2322); it sends that, so a commission
// or hand-over another admin made meanwhile is refused with a 409 saying so, not paid unseen (2340).
const JOB_ID = '66666666-6666-4666-8666-666666666666';
const LAWYER = adminRowLawyer('l1', 'Ada Lawyer');
const row = shareTransferRow(JOB_ID, LAWYER, 'in_progress');
const CHANGED = COMMISSION_CHANGED;

afterEach(() => vi.unstubAllGlobals());

describe('Mark as Completed sends the pay it showed (decision 2340)', { timeout: 30_000 }, () => {
  it("sends the shown payee and amount, and shows the server's 409 when another admin changed them", async () => {
    const api = jsonFetch({
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
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<AdminJobsPage />, { path: '/admin/jobs', at: '/admin/jobs?tab=pending' });
    await userEvent.click(await screen.findByRole('button', { name: 'View more: Share Transfer' }));
    const dialog = await screen.findByRole('dialog');
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: /Pass to another lawyer/ })).toBeNull());
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Mark as Completed' }));
    const asked = await screen.findByRole('dialog', { name: 'Mark this job as completed?' });
    expect(asked).toHaveTextContent('Ada Lawyer is paid ₦40,000');
    await userEvent.click(within(asked).getByRole('button', { name: 'Mark as Completed' }));
    expect(await screen.findByText(CHANGED)).toBeVisible();
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({ payOnComplete: { lawyerId: 'l1', amount: 40_000 } });
  });
});
