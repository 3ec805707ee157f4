import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { headingSkips } from '@/test/heading-order';
import { renderPage, testQueryClient } from '@/test/render';
import CompanyDashboardPage from './dashboard-page';
import { companyKeys } from './api/keys';

/** Company c1's dashboard with one pending job, for `productName`, and no orders. */
function openWithPendingJob(productName: string) {
  setSession({ userToken: 't', userType: 'company', userId: 'c1' });
  const client = testQueryClient();
  client.setQueryData(companyKeys.jobs('pending'), [
    jobFixture({
      _id: '11111111-1111-4111-8111-111111111111',
      status: 'pending',
      productId: { _id: 'p', productName, productImage: '', productPrice: 1000, productDescription: '' },
    }),
  ]);
  client.setQueryData(companyKeys.orders(), []);
  renderPage(<CompanyDashboardPage />, { client });
}

describe('/company/dashboard headings for a screen reader', () => {
  it("skips no level between the page's title and each job", async () => {
    openWithPendingJob('Company Registration');
    expect(await screen.findByRole('heading', { name: 'Company Registration' })).toBeInTheDocument();
    expect(headingSkips()).toEqual([]);
  });

  it('keeps each job name at the base size it had as an h3, bold', async () => {
    openWithPendingJob('Registration of a Company Limited by Guarantee with the CAC');
    const name = await screen.findByRole('heading', {
      level: 2,
      name: 'Registration of a Company Limited by Guarantee with the CAC',
    });
    // heading-item is the base size, semibold (styles.css); heading-card's text-lg wrapped long names more.
    expect(name).toHaveClass('heading-item');
    expect(name).not.toHaveClass('heading-card');
  });
});
