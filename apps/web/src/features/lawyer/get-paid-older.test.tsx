import { expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { EarningsResponse, LawyerEarning } from '@legalmarket/contracts/money';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import GetPaidPage from './get-paid-page';

const job = (n: number): LawyerEarning => ({
  jobId: `j${n}`,
  productName: `Deed ${n}`,
  companyName: 'Kola Pay Ltd',
  amount: 10_000,
  commission: 2_000,
  earned: 8_000,
  completedAt: '2026-11-20T10:00:00.000Z',
  availableAt: '2026-11-27T10:00:00.000Z',
});

const page = (jobs: LawyerEarning[], older?: string): EarningsResponse => ({
  status: 'success',
  data: {
    total: 30_000,
    count: 3,
    currency: 'NGN',
    available: 24_000,
    pending: 0,
    commissionPercent: 20,
    holdDays: 7,
    jobs,
    ...(older ? { older } : {}),
  },
});

/** The earnings table pages as the notifications do: "Show older" asks for the page before the last. */
it('Get Paid shows older earnings with Show older until none remain', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const stub = jsonFetch({
    'GET /job-api/lawyer/earnings': (_init, url) => {
      const before = url.searchParams.get('before');
      if (!before) return { body: page([job(3), job(2)], '102') };
      if (before === '102') return { body: page([job(1)]) };
      throw new Error(`unexpected before=${before}`);
    },
    'GET /api/lawyer/payouts': () => ({
      body: { status: 'success', withdrawable: 24_000, detailsResolved: true, payouts: [] },
    }),
  });
  vi.stubGlobal('fetch', stub.fn);
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={['/lawyer/get-paid?tab=get-paid']}>
        <GetPaidPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await screen.findByRole('cell', { name: /Deed 3/ });
  expect(screen.queryByRole('cell', { name: /Deed 1/ })).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Show older' }));
  expect(await screen.findByRole('cell', { name: /Deed 1/ })).toBeInTheDocument();
  expect(screen.getAllByRole('cell', { name: /Deed \d/ }).map((c) => c.textContent)).toEqual([
    'Deed 3Kola Pay Ltd',
    'Deed 2Kola Pay Ltd',
    'Deed 1Kola Pay Ltd',
  ]);
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull());
  vi.unstubAllGlobals();
});
