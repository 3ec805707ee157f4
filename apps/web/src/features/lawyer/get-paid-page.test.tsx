import { expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { EarningsResponse } from '@legalmarket/contracts/money';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import GetPaidPage from './get-paid-page';

const earnings: EarningsResponse = {
  status: 'success',
  data: {
    total: 150_001.57,
    count: 1,
    currency: 'NGN',
    available: 0,
    pending: 120_001.26,
    commissionPercent: 20,
    holdDays: 7,
    jobs: [
      {
        jobId: 'j1',
        productName: 'Trademark Registration',
        companyName: 'Kola Pay Ltd',
        amount: 150_001.57,
        commission: 30_000.31,
        earned: 120_001.26,
        completedAt: '2026-11-20T10:00:00.000Z',
        availableAt: '2026-11-27T10:00:00.000Z',
      },
    ],
  },
};

it("Get Paid shows the ledger's available and pending share, to the kobo, and each job's split", async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn } = jsonFetch({ 'GET /job-api/lawyer/earnings': () => ({ body: earnings }) });
  vi.stubGlobal('fetch', fn);
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={['/lawyer/get-paid?tab=get-paid']}>
        <GetPaidPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const row = (await screen.findByRole('cell', { name: /Trademark Registration/ })).closest('tr')!;
  expect(within(row).getByText('₦150,001.57')).toBeInTheDocument();
  expect(within(row).getByText('₦30,000.31')).toBeInTheDocument();
  expect(within(row).getByText('₦120,001.26')).toBeInTheDocument();
  expect(screen.getByText('Available to withdraw').nextElementSibling).toHaveTextContent('₦0');
  expect(screen.getByText('Pending').nextElementSibling).toHaveTextContent('₦120,001.26');
  expect(screen.getByText(/less the 20% platform commission/)).toHaveTextContent('7 days after completion');
});
