import { afterEach, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { EarningsResponse } from '@legalmarket/contracts/money';
import type { LawyerPayoutsResponse } from '@legalmarket/contracts/payouts';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import GetPaidPage from './get-paid-page';

const earnings: EarningsResponse = {
  status: 'success',
  data: {
    total: 125_000,
    count: 5,
    currency: 'NGN',
    earned: 100_000,
    available: 62_999.5,
    pending: 30_000.5,
    commissionPercent: 20,
    holdDays: 7,
    jobs: [],
  },
};
const payouts: LawyerPayoutsResponse = {
  status: 'success',
  withdrawable: 60_999.5,
  detailsResolved: true,
  payouts: [],
  totals: { paid: 5_000, sending: 2_000, requested: 2_000 },
};

afterEach(() => vi.unstubAllGlobals());

function show(p: LawyerPayoutsResponse, e: EarningsResponse = earnings) {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn } = jsonFetch({
    'GET /job-api/lawyer/earnings': () => ({ body: e }),
    'GET /api/lawyer/payouts': () => ({ body: p }),
  });
  vi.stubGlobal('fetch', fn);
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={['/lawyer/get-paid?tab=get-paid']}>
        <GetPaidPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

it('Get Paid says how the balance adds up: earned less held, paid, sending and waiting is what may be withdrawn', async () => {
  show(payouts);
  const box = await screen.findByRole('region', { name: 'How your balance adds up' });
  const line = (label: RegExp) => within(box).getByText(label).nextElementSibling;
  expect(line(/^Earned from completed jobs/)).toHaveTextContent('₦100,000');
  expect(line(/still held \(Pending\)/)).toHaveTextContent('−₦30,000.50');
  expect(line(/paid to your bank/)).toHaveTextContent('−₦5,000');
  expect(line(/being sent to your bank/)).toHaveTextContent('−₦2,000');
  expect(line(/withdrawals waiting for approval/)).toHaveTextContent('−₦2,000');
  expect(line(/^Available to withdraw now/)).toHaveTextContent('₦60,999.50');
  // The same figure as the card at the top.
  expect(screen.getByText('Available to withdraw').nextElementSibling).toHaveTextContent('₦60,999.50');
  expect(within(box).getByText(/failed, was rejected or was reversed/)).toBeVisible();
});

it('shows no breakdown from a server that does not send its figures', async () => {
  const { totals: _, ...withoutTotals } = payouts;
  show(withoutTotals);
  expect(await screen.findByText('Available to withdraw')).toBeVisible();
  await screen.findByText('No withdrawals yet');
  expect(screen.queryByRole('region', { name: 'How your balance adds up' })).toBeNull();
});
