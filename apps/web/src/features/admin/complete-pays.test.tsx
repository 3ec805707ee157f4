import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminRowLawyer, pressBeforePayee, shareTransferRow } from '@/test/complete-fixture';
import { heldFetch } from '@/test/held-fetch';
import { jsonFetch, renderPage } from '@/test/render';
import AdminJobsPage from './jobs-page';

// An admin's Mark as Completed pays the job's present lawyer; after a hand-over that lawyer may have
// delivered nothing. The confirmation names whom it pays and how much, from the one-job answer (decision 2322).
const JOB_ID = '55555555-5555-4555-8555-555555555555';
const SECOND = adminRowLawyer('l2', 'Bola Second');
const row = shareTransferRow(JOB_ID, SECOND, 'changes_requested');

function openConfirmation(payOnComplete: { amount: number; delivered: boolean }) {
  const api = jsonFetch({
    'GET /job-api/unassign': () => ({ body: { status: 'success', page: 1, limit: 5, total: 0, results: 0, jobs: [] } }),
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
            assignedTo: [{ ...SECOND, verified: true }],
            payOnComplete: { lawyerId: SECOND._id, name: SECOND.name, ...payOnComplete },
          },
        },
      },
    }),
  });
  vi.stubGlobal('fetch', api.fn);
  renderPage(<AdminJobsPage />, { path: '/admin/jobs', at: '/admin/jobs?tab=pending' });
  return api;
}

afterEach(() => vi.unstubAllGlobals());

describe("the admin's Mark as Completed confirmation (decision 2322)", { timeout: 30_000 }, () => {
  it('names the lawyer it pays and the amount, and warns when that lawyer delivered nothing', async () => {
    const api = openConfirmation({ amount: 40_000.5, delivered: false });
    await userEvent.click(await screen.findByRole('button', { name: 'View more: Share Transfer' }));
    // The row has no payee; the one-job answer (here saying the lawyer is verified) replaces it once loaded.
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: /Pass to another lawyer/ })).toBeNull());
    expect(api.calls.map((c) => c.url.pathname)).toContain(`/job-api/admin/job/${JOB_ID}`);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Mark as Completed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark this job as completed?' });
    expect(dialog).toHaveTextContent(
      'Share Transfer for Ada Ventures Ltd moves to Completed and Bola Second is paid ₦40,000.50 (what is held for the job, less the commission). This cannot be undone.',
    );
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Bola Second has delivered nothing on this job. Only Bola Second is paid: a lawyer who worked on it before a hand-over is not.',
    );
  });

  it('gives no warning when the lawyer it pays has delivered', async () => {
    openConfirmation({ amount: 40_000, delivered: true });
    await userEvent.click(await screen.findByRole('button', { name: 'View more: Share Transfer' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Assigned to Bola Second');
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: /Pass to another lawyer/ })).toBeNull());
    await userEvent.click(screen.getByRole('checkbox', { name: 'Mark as Completed' }));
    const asked = await screen.findByRole('dialog', { name: 'Mark this job as completed?' });
    expect(asked).toHaveTextContent('Bola Second is paid ₦40,000 (what is held for the job, less the commission)');
    expect(within(asked).queryByRole('alert')).toBeNull();
  });
});

describe("the admin jobs list's Mark as Completed on a slow line (decision 2340)", { timeout: 30_000 }, () => {
  it('cannot be pressed until whom it pays has loaded, says why, then sends the pay it shows', async () => {
    const pay = { lawyerId: SECOND._id, name: SECOND.name, amount: 40_000, delivered: true };
    const sent: unknown[] = [];
    const stub = heldFetch(
      {
        'GET /job-api/unassign': () => ({
          body: { status: 'success', page: 1, limit: 5, total: 0, results: 0, jobs: [] },
        }),
        'GET /job-api/pendingjobs': () => ({
          body: { status: 'success', page: 1, limit: 5, total: 1, results: 1, jobs: [row] },
        }),
        [`GET /job-api/admin/job/${JOB_ID}`]: () => ({
          body: { status: 'success', message: 'ok', data: { job: { ...row, payOnComplete: pay } } },
        }),
        [`PUT /job-api/completejob/${JOB_ID}`]: (init) => {
          sent.push(init?.body ? JSON.parse(String(init.body)) : null);
          return { body: { status: 'success', message: 'Job completed', data: row } };
        },
      },
      ({ url }) => url.pathname === `/job-api/admin/job/${JOB_ID}`,
    );
    vi.stubGlobal('fetch', stub.fn);
    renderPage(<AdminJobsPage />, { path: '/admin/jobs', at: '/admin/jobs?tab=pending' });
    await userEvent.click(await screen.findByRole('button', { name: 'View more: Share Transfer' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Mark as Completed' }));
    const asked = await screen.findByRole('dialog', { name: 'Mark this job as completed?' });
    await pressBeforePayee(asked, SECOND.name, stub.release, sent);
    expect(sent[0]).toEqual({ payOnComplete: { lawyerId: SECOND._id, amount: 40_000 } });
  });
});
