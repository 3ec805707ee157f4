import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import type { LawyerRecord, LawyerRecordsResponse } from '@legalmarket/contracts/lawyer-reviews';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import AdminAssignJobPage from './assign-job-page';
import { adminKeys } from './api/keys';
import { JobModal } from './job-modals';

const JOB_ID = '11111111-1111-4111-8111-111111111111';
const OLD = { _id: '22222222-2222-4222-8222-222222222222', name: 'Ada First', officialEmail: '', phoneNumber: '' };
const NEW: LawyerRecord = {
  _id: '33333333-3333-4333-8333-333333333333',
  name: 'Bola Second',
  scn: 'SCN002',
  verified: true,
  profileImage: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  average: null,
  reviews: 0,
  completedJobs: 0,
  onTimeJobs: 0,
  onTimeRate: null,
};

function job(verified: boolean): JobViewResponse {
  return jobFixture({
    _id: JOB_ID,
    status: 'pending',
    stage: 'changes_requested',
    productId: {
      _id: 'p',
      productName: 'Share Transfer',
      productImage: '',
      productPrice: 50000,
      productDescription: '',
    },
    assignedTo: [{ ...OLD, verified }],
  });
}

function open(j: JobViewResponse) {
  const client = testQueryClient();
  client.setQueryData(adminKeys.job(JOB_ID), { status: 'success', message: '', data: { job: j } });
  const records = (lawyers: LawyerRecord[]): LawyerRecordsResponse => ({
    status: 'success',
    lawyers,
    total: lawyers.length,
    results: lawyers.length,
    page: 1,
    limit: 5,
  });
  client.setQueryData(adminKeys.lawyerRecords({ jobId: JOB_ID, sort: 'newest', page: 1 }), records([]));
  client.setQueryData(adminKeys.lawyerRecords({ jobId: undefined, sort: 'newest', page: 1 }), records([NEW]));
  renderPage(<AdminAssignJobPage />, { path: '/admin/assign-job/:jobId', at: `/admin/assign-job/${JOB_ID}`, client });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

// Decision 2316: a job at work whose lawyer lost verification is passed on from the assign page.
describe('/admin/assign-job/{jobId}: passing a job on', { timeout: 30_000 }, () => {
  it('says the lawyer lost verification, confirms naming both lawyers, then assigns', async () => {
    const api = jsonFetch({
      'POST /job-api/assign': () => ({
        body: { status: 'success', message: 'Job assigned', data: { job: job(true) } },
      }),
      // The lists read again after the assignment.
      [`GET /job-api/admin/job/${JOB_ID}`]: () => ({
        body: { status: 'success', message: '', data: { job: job(true) } },
      }),
    });
    vi.stubGlobal('fetch', api.fn);
    open(job(false));
    const notice = await screen.findByText('Ada First has lost verification.');
    expect(notice.closest('[role="status"]')).not.toBeNull();

    await userEvent.click(screen.getByRole('tab', { name: 'Verified Lawyers' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Bola Second' }));
    await userEvent.click(screen.getByRole('button', { name: 'REASSIGN' }));

    // Nothing is sent before the admin confirms.
    expect(api.calls).toHaveLength(0);
    const dialog = screen.getByRole('dialog', { name: 'Pass this job to another lawyer?' });
    expect(dialog).toHaveTextContent('Share Transfer passes from Ada First to Bola Second.');
    expect(dialog).toHaveTextContent(
      'The job keeps its stage (Changes requested) and its thread, files and deliveries.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pass it to Bola Second' }));
    expect(await screen.findByText('Job assigned')).toBeVisible();
    const sent = api.calls.filter((c) => c.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(String(sent[0]?.init?.body))).toEqual({ jobId: JOB_ID, lawyerId: NEW._id });
  });

  it('Cancel in the confirmation sends nothing and leaves the choice as it was', async () => {
    const api = jsonFetch({});
    vi.stubGlobal('fetch', api.fn);
    open(job(false));
    await userEvent.click(await screen.findByRole('tab', { name: 'Verified Lawyers' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Bola Second' }));
    await userEvent.click(screen.getByRole('button', { name: 'REASSIGN' }));
    const dialog = screen.getByRole('dialog', { name: 'Pass this job to another lawyer?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Pass this job to another lawyer?' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select Bola Second' })).toBeChecked();
    expect(api.calls).toHaveLength(0);
  });

  it('offers no reassignment while the lawyer is verified', async () => {
    open(job(true));
    expect(await screen.findByText(/This job is already assigned to a lawyer\./)).toBeVisible();
    expect(screen.queryByText('Ada First has lost verification.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'REASSIGN' })).toBeNull();
  });

  it("the jobs list's View more leads a job at work to the assign page", () => {
    render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <JobModal job={job(false)} onClose={() => undefined} onDone={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('link', { name: 'Pass to another lawyer' })).toHaveAttribute(
      'href',
      `/admin/assign-job/${JOB_ID}`,
    );
  });

  it("the jobs list's View more offers no hand-over while the job's lawyer is verified", () => {
    renderJobModal(job(true));
    expect(screen.queryByRole('link', { name: /Pass to another lawyer/ })).toBeNull();
    expect(screen.getByText('Assigned to Ada First')).toBeInTheDocument();
  });

  it('words the hand-over as conditional when the job answer says nothing of verification', () => {
    // The jobs list's answer leaves `verified` out (decision 2316): only the assign page can tell.
    renderJobModal({ ...job(false), assignedTo: [OLD] });
    expect(screen.queryByRole('link', { name: 'Pass to another lawyer' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Pass to another lawyer if Ada First lost verification' })).toHaveAttribute(
      'href',
      `/admin/assign-job/${JOB_ID}`,
    );
  });
});

function renderJobModal(shown: JobViewResponse) {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter>
        <JobModal job={shown} onClose={() => undefined} onDone={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

// Decision 2337: the assign page said a cancelled job was "already assigned to a lawyer", as the API did.
describe('/admin/assign-job/{jobId}: a cancelled job', { timeout: 30_000 }, () => {
  it('says the job is cancelled and offers no lawyer to assign', async () => {
    open(jobFixture({ _id: JOB_ID, status: 'cancelled', stage: 'cancelled', assignedTo: [] }));
    expect(await screen.findByText(/This job is cancelled: it cannot be assigned\./)).toBeVisible();
    expect(screen.queryByText(/already assigned/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'ASSIGN' })).toBeNull();
  });
});
