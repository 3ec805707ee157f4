import { afterEach, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EarningsResponse } from '@legalmarket/contracts/money';
import type { LawyerPayoutsResponse, PayoutView } from '@legalmarket/contracts/payouts';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { renderGetPaid } from './get-paid-test-kit';

const earnings: EarningsResponse = {
  status: 'success',
  data: {
    total: 125_000,
    count: 5,
    currency: 'NGN',
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
  totals: { earned: 100_000, held: 30_000.5, paid: 5_000, sending: 2_000, requested: 2_000 },
};

afterEach(() => vi.unstubAllGlobals());

function show(p: LawyerPayoutsResponse, e: EarningsResponse = earnings) {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn } = jsonFetch({
    'GET /job-api/lawyer/earnings': () => ({ body: e }),
    'GET /api/lawyer/payouts': () => ({ body: p }),
    'GET /api/get-payment-details': () => ({
      body: { status: 'success', lawyer: { officialEmail: 'chidi@example.com', accountDetails: [] } },
    }),
  });
  vi.stubGlobal('fetch', fn);
  renderGetPaid(testQueryClient());
}

it('Get Paid says how the balance adds up: earned less held, paid, sending and waiting is what may be withdrawn', async () => {
  show(payouts);
  const box = await screen.findByRole('region', { name: 'How your balance adds up' });
  const line = (label: RegExp) => within(box).getByText(label).nextElementSibling;
  expect(line(/^Earned from completed jobs/)).toHaveTextContent('₦100,000');
  expect(line(/still held \(Pending\)/)).toHaveTextContent('−₦30,000.50');
  expect(line(/paid to your bank/)).toHaveTextContent('−₦5,000');
  expect(line(/being sent to your bank/)).toHaveTextContent('−₦2,000');
  expect(line(/withdrawals awaiting approval/)).toHaveTextContent('−₦2,000');
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

const payout = (over: Partial<PayoutView>): PayoutView => ({
  _id: 'p1',
  lawyerId: 'l1',
  lawyerName: 'Chidi',
  amount: 5_000,
  status: 'requested',
  bank: 'Zenith Bank',
  accountNumber: '•••• 6789',
  accountName: 'CHIDI OKEKE',
  failure: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  approvedAt: null,
  settledAt: null,
  detailsAddedAt: null,
  ...over,
});

it("says under each withdrawal what its status means for the lawyer's money and what to do next", async () => {
  show({
    ...payouts,
    payouts: [
      payout({ _id: 'w1' }),
      // Approved at 00:30 on 1 December in Lagos.
      payout({ _id: 'w2', status: 'sending', approvedAt: '2026-11-30T23:30:00.000Z' }),
      payout({ _id: 'w3', status: 'failed', failure: 'Beneficiary account is dormant' }),
      payout({ _id: 'w4', status: 'rejected', failure: 'Asked twice' }),
    ],
  });
  const item = async (status: string) => (await screen.findByText(status)).closest('li')!;
  expect(await item('Waiting for approval')).toHaveTextContent(
    'An administrator will review it. Until then its amount is held from your balance.',
  );
  expect(await item('Approved, sending')).toHaveTextContent(
    'Approved 1st December 2026; the bank transfer is on its way. You will be e-mailed when it is paid.',
  );
  const failed = await item('Failed, returned to your balance');
  expect(failed).toHaveTextContent('Check the account under Payment Details, then withdraw again.');
  await userEvent.click(within(failed).getByRole('button', { name: 'Check Payment Details' }));
  expect(await screen.findByRole('heading', { name: 'Payment Details' })).toBeVisible();
  expect(screen.queryByRole('heading', { name: 'Get Paid' })).toBeNull();
});

it('a rejected withdrawal says its money may be withdrawn again', async () => {
  show({ ...payouts, payouts: [payout({ status: 'rejected', failure: 'Asked twice' })] });
  expect((await screen.findByText('Rejected, returned to your balance')).closest('li')).toHaveTextContent(
    'The amount is back in your balance and may be withdrawn again.',
  );
});
