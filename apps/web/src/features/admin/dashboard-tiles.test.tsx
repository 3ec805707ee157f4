import { expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { DashboardResponse } from '@legalmarket/contracts/admin';
import { setSession } from '@/lib/session';
import { renderPage, testQueryClient } from '@/test/render';
import { adminKeys } from './api/keys';
import AdminDashboardPage from './dashboard-page';

it('each counted dashboard tile opens the list its count is of', () => {
  setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
  const client = testQueryClient();
  const answer: DashboardResponse = {
    status: 'success',
    data: {
      counts: {
        openJobs: 4,
        pendingJobs: 2,
        completedJobs: 9,
        unverifiedLawyers: 3,
        verifiedLawyers: 12,
        companies: 7,
        payments: 11,
        reviews: 5,
      },
      recentActivity: [],
    },
  };
  client.setQueryData(adminKeys.dashboard(), answer);
  renderPage(<AdminDashboardPage />, { client });
  const tile = (testId: string) => screen.getByTestId(testId).closest('a');
  // "3 awaiting verification" opens the Unverified tab, not the Verified one the lawyers page starts on.
  expect(screen.getByTestId('tile-lawyers')).toHaveTextContent('3 awaiting verification');
  expect(tile('tile-lawyers')).toHaveAttribute('href', '/admin/lawyers?tab=unverified');
  // "11 payments received" opens the paid payments, not every order whatever its status.
  expect(screen.getByTestId('tile-payment')).toHaveTextContent('11 payments received');
  expect(tile('tile-payment')).toHaveAttribute('href', '/admin/payment?status=paid');
  expect(tile('tile-jobs')).toHaveAttribute('href', '/admin/jobs');
});
