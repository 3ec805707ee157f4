import { expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { renderGetPaid } from './get-paid-test-kit';

it('ties a refused withdrawal amount to its field, and lets it go once the amount is edited', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn, calls } = jsonFetch({
    'GET /job-api/lawyer/earnings': () => ({
      body: {
        status: 'success',
        data: {
          total: 0,
          count: 0,
          currency: 'NGN',
          available: 20_000,
          pending: 0,
          commissionPercent: 20,
          holdDays: 7,
          jobs: [],
        },
      },
    }),
    'GET /api/lawyer/payouts': () => ({
      body: { status: 'success', withdrawable: 20_000, detailsResolved: true, payouts: [] },
    }),
    'GET /api/get-payment-details': () => ({
      body: { status: 'success', lawyer: { officialEmail: 'chidi@example.com', accountDetails: [] } },
    }),
  });
  vi.stubGlobal('fetch', fn);
  renderGetPaid(testQueryClient());
  const amount = await screen.findByLabelText('Amount (₦)');
  await userEvent.clear(amount);
  await userEvent.type(amount, '12.345');
  await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
  const said = 'Enter an amount in naira, with at most 2 decimals.';
  expect(await screen.findByRole('alert')).toHaveTextContent(said);
  expect(amount).toHaveAttribute('aria-invalid', 'true');
  expect(amount).toHaveAccessibleDescription(expect.stringContaining(said));
  await userEvent.type(amount, '{backspace}');
  expect(amount).not.toHaveAttribute('aria-invalid');
  expect(screen.queryByText(said)).toBeNull();
  expect(calls.some((c) => c.method === 'POST')).toBe(false);
});
