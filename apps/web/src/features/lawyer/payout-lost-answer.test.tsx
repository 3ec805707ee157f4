import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { messages } from '@legalmarket/contracts/messages';
import { payoutCodeMaybeConfirmed, payoutCodeNotConfirmed } from '@legalmarket/contracts/lawyers';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { payoutEditWindow } from './api/edit-payment-details';
import GetPaidPage from './get-paid-page';
import LawyerOtpPage from './otp-page';

const saved = { accountNumber: '0123456789', accountName: 'Chidi Okeke', bank: 'Zenith Bank' };
const boxes = () => screen.getAllByRole('textbox', { name: /^Digit \d of 6$/ });

/**
 * The confirm's answer lost (decision 2312): the server keeps a code single-use, so the same code sent
 * again answers "invalid code" although the first try may have stored the grant. The web goes on to
 * Update; if the server refuses the change for want of a grant, it says so and offers a new code.
 */
function flakyConfirm(edit: () => { status?: number; body: unknown }) {
  let confirms = 0;
  const api = jsonFetch({
    'POST /api/confirm-otp': () => {
      // The first answer never arrives (the same error as a dropped connection or the 30 s limit).
      if (++confirms === 1) throw new TypeError('Failed to fetch');
      return { status: 400, body: { status: 'fail', message: messages.codeInvalid } };
    },
    'GET /api/get-payment-details': () => ({
      body: {
        status: 'success',
        lawyer: { _id: 'l1', name: 'Chidi', officialEmail: 'chidi@example.com', accountDetails: [saved] },
      },
    }),
    'PATCH /api/edit-payment-details': edit,
    'POST /api/send-otp': () => ({ body: { status: 'success', message: messages.otpSent } }),
  });
  vi.stubGlobal('fetch', api.fn);
  return api;
}

function renderCodePage() {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={['/lawyer/otp']}>
        <Routes>
          <Route path="/lawyer/otp" element={<LawyerOtpPage />} />
          <Route path="/lawyer/get-paid" element={<GetPaidPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Types the code, confirms (no answer), confirms again (used code): the page goes on to Update. */
async function confirmTwiceAfterLostAnswer() {
  await userEvent.click(boxes()[0]);
  await userEvent.paste('123456');
  await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByRole('alert')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByRole('button', { name: 'Update' })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent(payoutCodeMaybeConfirmed);
  expect(screen.queryByText(messages.otpConfirmed)).toBeNull();
}

describe('a payout code whose confirmation answer was lost', { timeout: 30_000 }, () => {
  afterEach(() => payoutEditWindow.close());

  it('goes on to Update after the retry finds the code used, and the change goes through', async () => {
    const api = flakyConfirm(() => ({
      body: {
        status: 'success',
        message: messages.paymentDetailsUpdated,
        lawyerUpdate: { _id: 'l1', accountDetails: [saved] },
      },
    }));
    renderCodePage();
    await confirmTwiceAfterLostAnswer();
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(messages.paymentDetailsUpdated)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST' && c.url.pathname === '/api/confirm-otp')).toHaveLength(2);
  });

  it('says the code was not confirmed and offers a new one when Update is refused', async () => {
    const api = flakyConfirm(() => ({
      status: 403,
      body: { status: 'fail', message: messages.payoutCodeRequired },
    }));
    renderCodePage();
    await confirmTwiceAfterLostAnswer();
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(payoutCodeNotConfirmed);
    const section = alert.closest('section')!;
    await userEvent.click(within(section).getByRole('button', { name: 'Send code' }));
    // The new code goes out and the code page opens again, with a fresh start.
    expect(await screen.findByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/send-otp')).toBe(true);
    expect(payoutEditWindow.isOpen()).toBe(false);
  });

  it('keeps a used code refused without a lost answer on the code page', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const api = jsonFetch({
      'POST /api/confirm-otp': () => ({ status: 400, body: { status: 'fail', message: messages.codeInvalid } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderCodePage();
    await userEvent.click(boxes()[0]);
    await userEvent.paste('123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.codeInvalid);
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.codeInvalid);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(payoutEditWindow.isOpen()).toBe(false);
  });
});

describe("a payout code whose confirmation got a gateway's 502 or 504", { timeout: 30_000 }, () => {
  afterEach(() => payoutEditWindow.close());

  it.each([502, 504])('goes on to Update after a %i and the retry finds the code used', async (status) => {
    let confirms = 0;
    const api = jsonFetch({
      'POST /api/confirm-otp': () =>
        // nginx answered for an instance that took the code and stalled or died (decision 2306).
        ++confirms === 1
          ? { status, body: '<html>Bad Gateway</html>' }
          : { status: 400, body: { status: 'fail', message: messages.codeInvalid } },
      'GET /api/get-payment-details': () => ({
        body: {
          status: 'success',
          lawyer: { _id: 'l1', name: 'Chidi', officialEmail: 'chidi@example.com', accountDetails: [saved] },
        },
      }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderCodePage();
    await confirmTwiceAfterLostAnswer();
    expect(payoutEditWindow.isUnsure()).toBe(true);
  });
});
