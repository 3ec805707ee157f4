import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { messages } from '@legalmarket/contracts/messages';
import { jobFixture } from '@/test/job-fixture';
import { renderPage, testQueryClient } from '@/test/render';
import AdminAssignJobPage from './assign-job-page';
import { adminKeys } from './api/keys';

const JOB_ID = '11111111-1111-4111-8111-111111111111';
const lawyer = { _id: 'lawyer-1', name: 'Ada First', officialEmail: '', phoneNumber: '' };

function openFor(over: Parameters<typeof jobFixture>[0]) {
  const client = testQueryClient();
  client.setQueryData(adminKeys.job(JOB_ID), {
    status: 'success',
    message: '',
    data: { job: jobFixture({ _id: JOB_ID, assignedTo: [lawyer], ...over }) },
  });
  renderPage(<AdminAssignJobPage />, { path: '/admin/assign-job/:jobId', at: `/admin/assign-job/${JOB_ID}`, client });
}

describe('/admin/assign-job/{jobId} on a job that cannot be assigned', () => {
  it('names the lawyer a cancelled job had as previously assigned', async () => {
    openFor({ status: 'cancelled' });
    const note = await screen.findByText(new RegExp(messages.jobCancelledNoAssign.replace('.', '\\.')));
    expect(note).toHaveTextContent(`${messages.jobCancelledNoAssign} (Previously assigned to Ada First)`);
  });

  it('names the lawyer of a completed job as assigned', async () => {
    openFor({ status: 'completed', completedAt: '2026-11-25T10:00:00.000Z' });
    const note = await screen.findByText(new RegExp(messages.jobAlreadyCompleted.replace('.', '\\.')));
    expect(note).toHaveTextContent(`${messages.jobAlreadyCompleted} (Assigned to Ada First)`);
    expect(note).not.toHaveTextContent('Previously');
  });
});
