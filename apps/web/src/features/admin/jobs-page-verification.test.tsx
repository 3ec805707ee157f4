import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import { jobFixture } from '@/test/job-fixture';
import { jsonFetch, renderPage } from '@/test/render';
import AdminJobsPage from './jobs-page';

const pending = (id: string, name: string, stage: JobViewResponse['stage'], verified: boolean): JobViewResponse => ({
  ...jobFixture({
    _id: id,
    status: 'pending',
    assignedTo: [{ _id: `lawyer-${id}`, name, officialEmail: '', phoneNumber: '', verified }],
  }),
  productId: { _id: 'p', productName: `Job ${id}`, productImage: '/p.png', productPrice: 1000, productDescription: '' },
  stage,
  late: false,
});

afterEach(() => vi.unstubAllGlobals());

/** Decision 2333: the admin sees from the list which jobs' lawyers lost verification. */
describe('/admin/jobs, Pending tab', { timeout: 30_000 }, () => {
  it('marks a job whose lawyer lost verification and links its hand-over; a verified one stays plain', async () => {
    const jobs = [
      pending('1', 'Ada First', 'in_progress', false),
      pending('2', 'Bola Second', 'in_progress', true),
      pending('3', 'Chi Third', 'delivered', false),
    ];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /job-api/pendingjobs': () => ({
          body: { status: 'success', page: 1, limit: 5, total: 3, results: 3, jobs },
        }),
      }).fn,
    );
    renderPage(<AdminJobsPage />, { path: '/admin/jobs', at: '/admin/jobs?tab=pending' });
    const rows = await screen.findAllByTestId('admin-job-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]).getByText('Ada First lost verification')).toBeVisible();
    expect(within(rows[0]).getByRole('link', { name: 'Pass to another lawyer: Job 1' })).toHaveAttribute(
      'href',
      '/admin/assign-job/1',
    );
    expect(within(rows[1]).queryByText(/lost verification/)).toBeNull();
    expect(within(rows[1]).queryByRole('link', { name: /Pass to another lawyer/ })).toBeNull();
    // A delivery waits for the company: the assign page refuses a hand-over then, so only the mark shows.
    expect(within(rows[2]).getByText('Chi Third lost verification')).toBeVisible();
    expect(within(rows[2]).queryByRole('link', { name: /Pass to another lawyer/ })).toBeNull();
  });
});
