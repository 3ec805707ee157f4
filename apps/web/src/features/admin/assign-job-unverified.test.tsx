import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { LawyerRecord, LawyerRecordsResponse } from '@legalmarket/contracts/lawyer-reviews';
import { jobFixture } from '@/test/job-fixture';
import { renderPage, testQueryClient } from '@/test/render';
import AdminAssignJobPage from './assign-job-page';
import { adminKeys } from './api/keys';

const JOB_ID = '11111111-1111-4111-8111-111111111111';
const LONG_NAME = 'Oluwaseunfunmilayo Adebayo-Ogunleye-Akintola-Oyelaran Esq.';
const applied: LawyerRecord = {
  _id: '33333333-3333-4333-8333-333333333333',
  name: LONG_NAME,
  scn: 'SCN002',
  verified: false,
  profileImage: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  average: null,
  reviews: 0,
  completedJobs: 0,
  onTimeJobs: 0,
  onTimeRate: null,
};

describe('/admin/assign-job/{jobId} lawyer rows at 360 px', () => {
  it('keeps "Unverified" out of the long name that is cut with an ellipsis', async () => {
    const client = testQueryClient();
    client.setQueryData(adminKeys.job(JOB_ID), {
      status: 'success',
      message: '',
      data: { job: jobFixture({ _id: JOB_ID, status: 'unassigned' }) },
    });
    const records: LawyerRecordsResponse = {
      status: 'success',
      lawyers: [applied],
      total: 1,
      results: 1,
      page: 1,
      limit: 5,
    };
    client.setQueryData(adminKeys.lawyerRecords({ jobId: JOB_ID, sort: 'newest', page: 1 }), records);
    renderPage(<AdminAssignJobPage />, { path: '/admin/assign-job/:jobId', at: `/admin/assign-job/${JOB_ID}`, client });
    const row = (await screen.findByRole('checkbox', { name: `Select ${LONG_NAME}` })).closest('li')!;
    const badge = within(row).getByText('Unverified');
    // A text inside a `truncate` box is cut off (overflow hidden, ellipsis) once the name fills the line.
    expect(badge.closest('.truncate')).toBeNull();
    expect(within(row).getByText(LONG_NAME)).toHaveClass('truncate');
  });
});
