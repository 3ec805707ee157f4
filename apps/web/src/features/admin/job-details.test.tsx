import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import type { LawyersResponse } from '@legalmarket/contracts/admin';
import type { LawyerRecordsResponse } from '@legalmarket/contracts/lawyer-reviews';
import { jobFixture } from '@/test/job-fixture';
import { renderPage, testQueryClient } from '@/test/render';
import AdminAssignJobPage from './assign-job-page';
import { adminKeys } from './api/keys';
import { JobModal } from './job-modals';

const JOB_ID = '11111111-1111-4111-8111-111111111111';
const FILE = '/uploads/0123456789abcdef0123456789abcdef.pdf';

function job(over: Partial<JobViewResponse> = {}): JobViewResponse {
  return jobFixture({
    _id: JOB_ID,
    productId: {
      _id: 'p1',
      productName: 'Shareholder agreement',
      productImage: '/uploads/p.png',
      productPrice: 25000,
      productDescription: 'A shareholder agreement drafted for you.',
    },
    amount: 25000,
    appliedLawer: [
      {
        _id: 'l1',
        name: 'Chidi Okafor',
        scn: 'SCN001',
        verified: false,
        profileImage: null,
        createdAt: '2026-11-01T10:00:00.000Z',
      },
    ],
    ...over,
  });
}

function openModal(j: JobViewResponse) {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter>
        <JobModal job={j} onClose={() => undefined} onDone={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByRole('dialog');
}

function openAssignPage(j: JobViewResponse) {
  const client = testQueryClient();
  client.setQueryData(adminKeys.job(JOB_ID), { status: 'success', message: '', data: { job: j } });
  const none: LawyersResponse = {
    status: 'success',
    lawyers: [],
    data: { lawyers: [] },
    total: 0,
    results: 0,
    page: 1,
    limit: 5,
  };
  client.setQueryData(adminKeys.lawyers(true, 1), none);
  // The applied tab reads the applicants with their track records (decision 2000).
  const applied: LawyerRecordsResponse = {
    status: 'success',
    lawyers: j.appliedLawer.map((l) => ({
      ...l,
      average: null,
      reviews: 0,
      completedJobs: 0,
      onTimeJobs: 0,
      onTimeRate: null,
    })),
    total: j.appliedLawer.length,
    results: j.appliedLawer.length,
    page: 1,
    limit: 5,
  };
  client.setQueryData(adminKeys.lawyerRecords({ jobId: JOB_ID, sort: 'newest', page: 1 }), applied);
  renderPage(<AdminAssignJobPage />, { path: '/admin/assign-job/:jobId', at: `/admin/assign-job/${JOB_ID}`, client });
}

describe('admin job View more (spec: an attached file link)', { timeout: 30_000 }, () => {
  it('offers the company file when the company gave no text', () => {
    const dialog = openModal(job({ companyFile: FILE, companyFileName: 'brief.pdf' }));
    expect(within(dialog).getByRole('link', { name: 'brief.pdf' })).toHaveAttribute('href', FILE);
  });

  it('shows the text and the file when both are there', () => {
    const dialog = openModal(job({ companyDetail: 'Two founders', companyFile: FILE, companyFileName: 'brief.pdf' }));
    expect(within(dialog).getByText('Two founders')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'brief.pdf' })).toBeInTheDocument();
  });
});

describe('/admin/assign-job/{jobId}', { timeout: 30_000 }, () => {
  it('shows the job detail and the company file, each on its own', async () => {
    openAssignPage(job({ companyFile: FILE, companyFileName: 'brief.pdf' }));
    expect(await screen.findByRole('link', { name: 'brief.pdf' })).toHaveAttribute('href', FILE);
    expect(screen.queryByText('No details yet.')).toBeNull();
  });

  it('shows the detail text when there is no file', async () => {
    openAssignPage(job({ detail: 'Please draft for three founders' }));
    expect(await screen.findByText('Please draft for three founders')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /download file/i })).toBeNull();
  });

  it('says so when the company gave neither text nor file', async () => {
    openAssignPage(job());
    expect(await screen.findByText('No details yet.')).toBeInTheDocument();
  });

  it('has a View more on each lawyer row that opens Verify Lawyer and Go to profile', async () => {
    openAssignPage(job());
    const rows = await screen.findByRole('tabpanel', { name: 'Applied Lawyers' });
    await userEvent.click(within(rows).getByRole('button', { name: /View more/ }));
    const dialog = screen.getByRole('dialog', { name: 'Chidi Okafor' });
    expect(within(dialog).getByRole('button', { name: 'Verify Lawyer' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Go to profile' })).toHaveAttribute('href', '/lawyer/profile/l1');
  });
});
