import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { messages } from '@legalmarket/contracts/messages';
import { payoutCodeNotConfirmed, payoutUpdateUnsure } from '@legalmarket/contracts/lawyers';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { payoutEditWindow } from './api/edit-payment-details';
import GetPaidPage from './get-paid-page';

const before = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' };
const after = { ...before, accountNumber: '9876543210' };

/**
 * An Update whose answer was lost after the server saved it spends the code; the second tap is refused
 * 403 payoutCodeRequired. The page must not then say the details "were not changed" (decision 2312).
 */
function serve(firstEdit: () => { status: number; body: unknown }, { saves }: { saves: boolean }) {
  let held = before;
  let edits = 0;
  const api = jsonFetch({
    'GET /api/get-payment-details': () => ({
      body: {
        status: 'success',
        lawyer: { _id: 'l1', name: 'Chidi', officialEmail: 'chidi@example.com', accountDetails: [held] },
      },
    }),
    'PATCH /api/edit-payment-details': () => {
      if (++edits === 1) {
        if (saves) held = after;
        return firstEdit();
      }
      return { status: 403, body: { status: 'fail', message: messages.payoutCodeRequired } };
    },
  });
  vi.stubGlobal('fetch', api.fn);
  return api;
}

const dropped = () => {
  // The same error as a dropped connection.
  throw new TypeError('Failed to fetch');
};
const gateway = () => ({ status: 504, body: '<html>Gateway Time-out</html>' });

async function updateTwice() {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  payoutEditWindow.open(10);
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={['/lawyer/get-paid']}>
        <Routes>
          <Route path="/lawyer/get-paid" element={<GetPaidPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const number = await screen.findByLabelText('Account Number');
  await userEvent.clear(number);
  await userEvent.type(number, after.accountNumber);
  await userEvent.click(screen.getByRole('button', { name: 'Update' }));
  // The lost answer: an error, and the Update form stays for another try.
  await userEvent.click((await screen.findAllByRole('button', { name: 'Close' }))[0]!);
  await userEvent.click(screen.getByRole('button', { name: 'Update' }));
}

describe('an Update whose answer was lost, tapped again', { timeout: 30_000 }, () => {
  afterEach(() => payoutEditWindow.close());

  it('shows the success when the details read again are what it sent (dropped connection)', async () => {
    serve(dropped, { saves: true });
    await updateTwice();
    expect(await screen.findByText(messages.paymentDetailsUpdated)).toBeInTheDocument();
    expect(screen.queryByText(payoutCodeNotConfirmed)).toBeNull();
    expect(payoutEditWindow.isOpen()).toBe(false);
  });

  it('shows the success after a gateway 504 too', async () => {
    serve(gateway, { saves: true });
    await updateTwice();
    expect(await screen.findByText(messages.paymentDetailsUpdated)).toBeInTheDocument();
    expect(screen.queryByText(payoutCodeNotConfirmed)).toBeNull();
  });

  it('does not claim the details were not changed when they read otherwise', async () => {
    serve(gateway, { saves: false });
    await updateTwice();
    expect(await screen.findByRole('alert')).toHaveTextContent(payoutUpdateUnsure);
    expect(screen.queryByText(/were not changed/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Send code' })).toBeInTheDocument();
    expect(payoutEditWindow.isOpen()).toBe(false);
  });
});
