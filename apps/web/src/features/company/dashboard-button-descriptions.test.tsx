import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { renderPage, testQueryClient } from '@/test/render';
import CompanyDashboardPage from './dashboard-page';
import { companyKeys } from './api/keys';

const request = (id: string, productName: string) =>
  jobFixture({
    _id: id,
    status: 'pending',
    lawyerRequestedDetail: 'Send the CAC forms, please.',
    productId: { _id: 'p', productName, productImage: '', productPrice: 1000, productDescription: '' },
  });

describe('/company/dashboard Give more details for a screen reader', () => {
  it('describes each Give more details by the job it answers', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const client = testQueryClient();
    client.setQueryData(companyKeys.jobs('pending'), [
      request('11111111-1111-4111-8111-111111111111', 'Company Registration'),
      request('22222222-2222-4222-8222-222222222222', 'Trademark Search'),
    ]);
    client.setQueryData(companyKeys.orders(), []);
    renderPage(<CompanyDashboardPage />, { client });
    const buttons = await screen.findAllByRole('button', { name: 'Give more details' });
    expect(buttons).toHaveLength(2);
    expect(buttons[0]).toHaveAccessibleDescription('Company Registration');
    expect(buttons[1]).toHaveAccessibleDescription('Trademark Search');
  });
});
