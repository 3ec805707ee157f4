import { afterEach, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { payoutMessages, type LawyerPayoutsResponse, type PayoutView } from '@legalmarket/contracts/payouts';
import { setSession } from '@/lib/session';
import { heldFetch } from '@/test/held-fetch';
import { payoutFixture } from '@/test/payout-fixture';
import { earningsPage, renderGetPaid } from './get-paid-test-kit';

afterEach(() => vi.unstubAllGlobals());

const waiting = payoutFixture('p1', { lawyerId: 'l1', amount: 15_000 });
const listOf = (payouts: PayoutView[], withdrawable: number): LawyerPayoutsResponse => ({
  status: 'success',
  withdrawable,
  detailsResolved: true,
  payouts,
});

/** Get Paid with one waiting ₦15,000 withdrawal; `answer` answers the cancel, held until released when `hold`. */
function showWithWaiting(answer: () => { status?: number; body: unknown }, hold = false) {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  let cancelled = false;
  const onCancel = vi.fn(() => {
    const a = answer();
    if ((a.status ?? 200) === 200) cancelled = true;
    return a;
  });
  const { fn, calls, release } = heldFetch(
    {
      'GET /job-api/lawyer/earnings': () => ({
        body: earningsPage([], undefined, { total: 25_000, count: 1, available: 20_000 }),
      }),
      'GET /api/lawyer/payouts': () => ({
        body: cancelled
          ? listOf(
              [{ ...waiting, status: 'rejected', cancelled: true, failure: payoutMessages.cancelledReason }],
              20_000,
            )
          : listOf([waiting], 5_000),
      }),
      'POST /api/lawyer/payouts/p1/cancel': onCancel,
    },
    ({ method }) => hold && method === 'POST',
  );
  vi.stubGlobal('fetch', fn);
  renderGetPaid();
  return { onCancel, calls, release };
}

const cancelledAnswer = () => ({
  body: {
    status: 'success',
    message: payoutMessages.cancelled,
    payout: { ...waiting, status: 'rejected', cancelled: true, failure: payoutMessages.cancelledReason },
  },
});

it('a waiting withdrawal is cancelled after a confirmation saying what cannot be undone; the list is read again', async () => {
  const { onCancel, release } = showWithWaiting(cancelledAnswer, true);
  await userEvent.click(await screen.findByRole('button', { name: /^Cancel withdrawal of ₦15,000/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel withdrawal?' });
  expect(dialog).toHaveTextContent(/₦15,000(\.00)? to Zenith Bank •••• 6789/);
  expect(dialog).toHaveTextContent('This cannot be undone');
  expect(onCancel).not.toHaveBeenCalled();
  const confirm = within(dialog).getByRole('button', { name: 'Cancel withdrawal' });
  await userEvent.click(confirm);
  // Busy while the answer is on its way: a second tap sends nothing more.
  await waitFor(() => expect(confirm).toBeDisabled());
  await userEvent.click(confirm);
  expect(onCancel).toHaveBeenCalledTimes(1);
  release();
  expect(await screen.findByText(payoutMessages.cancelled)).toBeInTheDocument();
  expect(await screen.findByText('Cancelled, returned to your balance')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /^Cancel withdrawal of/ })).not.toBeInTheDocument();
  expect(onCancel).toHaveBeenCalledTimes(1);
}, 20_000);

it('"Keep it" closes the dialog and sends nothing', async () => {
  const { onCancel } = showWithWaiting(cancelledAnswer);
  await userEvent.click(await screen.findByRole('button', { name: /^Cancel withdrawal of/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel withdrawal?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel withdrawal?' })).not.toBeInTheDocument());
  expect(onCancel).not.toHaveBeenCalled();
});

it('approved meanwhile: the server’s reason is shown in the dialog and the list is read again', async () => {
  const { calls } = showWithWaiting(() => ({
    status: 409,
    body: { status: 'fail', message: payoutMessages.cancelTooLate },
  }));
  await userEvent.click(await screen.findByRole('button', { name: /^Cancel withdrawal of/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel withdrawal?' });
  const reads = calls.filter((c) => c.url.pathname === '/api/lawyer/payouts').length;
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel withdrawal' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(payoutMessages.cancelTooLate);
  await waitFor(() =>
    expect(calls.filter((c) => c.url.pathname === '/api/lawyer/payouts').length).toBeGreaterThan(reads),
  );
});

it('only a waiting withdrawal offers the cancel', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const { fn } = heldFetch(
    {
      'GET /job-api/lawyer/earnings': () => ({
        body: earningsPage([], undefined, { total: 25_000, count: 1, available: 20_000 }),
      }),
      'GET /api/lawyer/payouts': () => ({
        body: listOf(
          (['sending', 'paid', 'failed', 'rejected'] as const).map((status, i) => payoutFixture(`p${i}`, { status })),
          20_000,
        ),
      }),
    },
    () => false,
  );
  vi.stubGlobal('fetch', fn);
  renderGetPaid();
  expect(await screen.findByText('Approved, sending')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /Cancel withdrawal/ })).not.toBeInTheDocument();
});
