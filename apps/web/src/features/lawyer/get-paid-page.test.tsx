import { expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { EarningsResponse } from '@legalmarket/contracts/money';
import { setSession } from '@/lib/session';
import userEvent from '@testing-library/user-event';
import type { LawyerPayoutsResponse, PayoutView } from '@legalmarket/contracts/payouts';
import { heldFetch, type Holds } from '@/test/held-fetch';
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

const showGetPaid = () =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={['/lawyer/get-paid?tab=get-paid']}>
        <GetPaidPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );

it("Get Paid shows the ledger's available and pending share, to the kobo, and each job's split", async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn } = jsonFetch({
    'GET /job-api/lawyer/earnings': () => ({ body: earnings }),
    'GET /api/lawyer/payouts': () => ({
      body: { status: 'success', withdrawable: 0, detailsResolved: true, payouts: [] },
    }),
  });
  vi.stubGlobal('fetch', fn);
  showGetPaid();
  const row = (await screen.findByRole('cell', { name: /Trademark Registration/ })).closest('tr')!;
  expect(within(row).getByText('₦150,001.57')).toBeInTheDocument();
  expect(within(row).getByText('₦30,000.31')).toBeInTheDocument();
  expect(within(row).getByText('₦120,001.26')).toBeInTheDocument();
  expect(screen.getByText('Available to withdraw').nextElementSibling).toHaveTextContent('₦0');
  expect(screen.getByText('Pending').nextElementSibling).toHaveTextContent('₦120,001.26');
  expect(screen.getByText(/less the 20% platform commission/)).toHaveTextContent('7 days after completion');
});

const payout = (over: Partial<PayoutView>): PayoutView => ({
  _id: 'p1',
  lawyerId: 'l1',
  lawyerName: 'Chidi',
  amount: 5_000.5,
  status: 'paid',
  bank: 'Zenith Bank',
  accountNumber: '•••• 6789',
  accountName: 'CHIDI OKEKE',
  failure: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  approvedAt: null,
  settledAt: '2026-11-21T10:00:00.000Z',
  detailsAddedAt: null,
  ...over,
});

/** The lawyer's ₦20,000 available, `payouts`, and the saved account that Payment Details shows. */
const withdrawalRoutes = (payouts: LawyerPayoutsResponse) => ({
  'GET /job-api/lawyer/earnings': () => ({ body: { ...earnings, data: { ...earnings.data, available: 20_000 } } }),
  'GET /api/lawyer/payouts': () => ({ body: payouts }),
  'GET /api/get-payment-details': () => ({
    body: { status: 'success', lawyer: { officialEmail: 'chidi@example.com', accountDetails: [] } },
  }),
});

/** Get Paid with `onPost` answering withdrawals; those `holds` picks wait until `release`. */
function renderGetPaid(payouts: LawyerPayoutsResponse, onPost = vi.fn(), holds: Holds = () => false) {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn, calls, release } = heldFetch(
    {
      ...withdrawalRoutes(payouts),
      'POST /api/lawyer/payouts': (init) => onPost(JSON.parse(String(init?.body))),
    },
    holds,
  );
  vi.stubGlobal('fetch', fn);
  showGetPaid();
  return { calls, release };
}

const canWithdraw: LawyerPayoutsResponse = {
  status: 'success',
  withdrawable: 20_000,
  detailsResolved: true,
  payouts: [],
};

/** The answer to a withdrawal the server took. */
const taken = () => ({
  status: 201,
  body: {
    status: 'success',
    message: 'Your withdrawal request was sent.',
    payout: payout({ status: 'requested' }),
  },
});

/** Asks for `typed` naira and confirms with the button `label`; returns the confirmation dialog. */
async function confirmWithdrawal(typed: string, label: string) {
  const amount = await screen.findByLabelText('Amount (₦)');
  await userEvent.clear(amount);
  await userEvent.type(amount, typed);
  await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
  const dialog = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
  await userEvent.click(within(dialog).getByRole('button', { name: label }));
  return dialog;
}

it('Withdraw asks for the available balance by default, after a confirmation, and lists withdrawals', async () => {
  const onPost = vi.fn(taken);
  const { calls } = renderGetPaid(
    {
      status: 'success',
      withdrawable: 20_000,
      detailsResolved: true,
      payouts: [payout({}), payout({ _id: 'p2', status: 'failed', failure: 'Beneficiary account is dormant' })],
    },
    onPost,
  );
  const amount = await screen.findByLabelText('Amount (₦)');
  expect(amount).toHaveValue('20000');
  expect(screen.getByText('Paid')).toBeInTheDocument();
  expect(screen.getByText('Failed, returned to your balance')).toBeInTheDocument();
  expect(screen.getByText('Beneficiary account is dormant')).toBeInTheDocument();

  // Above the balance: refused before anything is sent.
  await userEvent.clear(amount);
  await userEvent.type(amount, '20000.01');
  await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
  expect(await screen.findByText('You can withdraw at most ₦20,000 now.')).toBeInTheDocument();
  expect(onPost).not.toHaveBeenCalled();

  await userEvent.clear(amount);
  await userEvent.type(amount, '12,500.5');
  await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
  const dialog = await screen.findByRole('dialog', { name: 'Confirm withdrawal' });
  expect(dialog).toHaveTextContent('Withdraw ₦12,500.50 to your saved account?');
  expect(onPost).not.toHaveBeenCalled();
  await userEvent.click(within(dialog).getByRole('button', { name: 'Withdraw ₦12,500.50' }));
  expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('Your withdrawal request was sent.');
  expect(onPost).toHaveBeenCalledWith({ amount: 12_500.5 });
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
});

it('Withdraw sends the lawyer to Payment Details when they were never checked with the bank', async () => {
  renderGetPaid({ status: 'success', withdrawable: 20_000, detailsResolved: false, payouts: [] });
  expect(await screen.findByText(/must be checked with your bank/)).toBeInTheDocument();
  expect(screen.queryByLabelText('Amount (₦)')).not.toBeInTheDocument();
  expect(screen.getByText('No withdrawals yet')).toBeInTheDocument();
});

it('a withdrawal waiting for approval is not shown as available to withdraw again', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn } = jsonFetch({
    'GET /job-api/lawyer/earnings': () => ({ body: { ...earnings, data: { ...earnings.data, available: 28_000 } } }),
    'GET /api/lawyer/payouts': () => ({
      body: {
        status: 'success',
        withdrawable: 0,
        detailsResolved: true,
        payouts: [payout({ amount: 28_000, status: 'requested' })],
      },
    }),
  });
  vi.stubGlobal('fetch', fn);
  showGetPaid();
  expect(await screen.findByText('Nothing is available to withdraw right now.')).toBeInTheDocument();
  expect(screen.getByText('Available to withdraw').nextElementSibling).toHaveTextContent(/^₦0$/);
});

it('a withdrawal confirmed again after a lost answer goes under the same key; the next one under a new key (decision 2241)', async () => {
  let posts = 0;
  const onPost = vi.fn(() => {
    // The first reaches the server, which reserves the money; its answer is lost on the way back.
    if (++posts === 1) throw new TypeError('Failed to fetch');
    return taken();
  });
  const { calls } = renderGetPaid(canWithdraw, onPost);
  await confirmWithdrawal('5000', 'Withdraw ₦5,000');
  expect(await screen.findByText('Session timeout, please login again')).toBeInTheDocument();
  await confirmWithdrawal('5000', 'Withdraw ₦5,000');
  const success = await screen.findByRole('dialog', { name: 'Success' });
  await userEvent.click(within(success).getAllByRole('button')[0]);
  await confirmWithdrawal('5000', 'Withdraw ₦5,000');
  await vi.waitFor(() => expect(onPost).toHaveBeenCalledTimes(3));
  const keys = calls
    .filter((c) => c.method === 'POST')
    .map((c) => (c.init?.headers as Record<string, string>)['idempotency-key']);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[2]).not.toBe(keys[0]);
});

it('a withdrawal still on its way when the lawyer leaves Get Paid and comes back cannot be asked for again', async () => {
  const onPost = vi.fn(taken);
  // Held until the test lets it answer: a slow phone network.
  const { release } = renderGetPaid(canWithdraw, onPost, ({ method }) => method === 'POST');
  const dialog = await confirmWithdrawal('5000', 'Withdraw ₦5,000');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

  // To Payment Details and back: a new Get Paid section, with the first request still waiting.
  await userEvent.click(screen.getByRole('button', { name: 'Payment Details' }));
  await screen.findByRole('heading', { name: 'Payment Details' });
  await userEvent.click(screen.getByRole('button', { name: 'Get Paid' }));
  await screen.findByLabelText('Amount (₦)');
  const withdraw = screen.getByRole('button', { name: 'Withdraw' });
  expect(withdraw).toBeDisabled();
  expect(withdraw).toHaveAttribute('aria-busy', 'true');

  await act(async () => release());
  await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Withdraw' })).toBeEnabled());
  expect(onPost).toHaveBeenCalledTimes(1);
});

it('a withdrawal whose answer was lost while the lawyer was away goes under the same key when confirmed again', async () => {
  let posts = 0;
  const keys: string[] = [];
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn, release: fail } = heldFetch(
    {
      ...withdrawalRoutes(canWithdraw),
      'POST /api/lawyer/payouts': (init) => {
        keys.push((init?.headers as Record<string, string>)['idempotency-key']);
        if (++posts === 1) throw new TypeError('Failed to fetch');
        return taken();
      },
    },
    // The first reaches the server, which may take it; its answer is lost while the lawyer is elsewhere.
    ({ method }) => method === 'POST' && posts === 0,
  );
  vi.stubGlobal('fetch', fn);
  showGetPaid();
  const dialog = await confirmWithdrawal('5000', 'Withdraw ₦5,000');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await userEvent.click(screen.getByRole('button', { name: 'Payment Details' }));
  await screen.findByRole('heading', { name: 'Payment Details' });
  await act(async () => fail());
  await userEvent.click(screen.getByRole('button', { name: 'Get Paid' }));
  await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Withdraw' })).toBeEnabled());

  await confirmWithdrawal('5000', 'Withdraw ₦5,000');
  const success = await screen.findByRole('dialog', { name: 'Success' });
  await userEvent.click(within(success).getAllByRole('button')[0]);
  await confirmWithdrawal('5000', 'Withdraw ₦5,000');
  await vi.waitFor(() => expect(keys).toHaveLength(3));
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(keys[2]).not.toBe(keys[0]);
});
