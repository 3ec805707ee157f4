import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { payoutCodeStillValid } from '@legalmarket/contracts/lawyers';
import { setSession } from '@/lib/session';
import { jsonFetch, renderPage } from '@/test/render';
import LawyerOtpPage from './otp-page';

const boxes = () => screen.getAllByRole('textbox', { name: /^Digit \d of 6$/ });

describe('/lawyer/otp (react-hook-form with the contract schema)', { timeout: 30_000 }, () => {
  it('puts the schema message under the boxes, sends nothing, and clears it once the code is whole', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const api = jsonFetch({
      'POST /api/confirm-otp': () => ({ body: { status: 'success', message: messages.otpConfirmed } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<LawyerOtpPage />, { path: '/lawyer/otp', at: '/lawyer/otp' });
    await userEvent.type(boxes()[0], '123');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Please enter the 6-digit code')).toBeVisible();
    expect(boxes()[0]).toHaveAttribute('aria-invalid', 'true');
    expect(boxes()[0]).toHaveAccessibleDescription('Please enter the 6-digit code');
    expect(api.calls).toHaveLength(0);

    await userEvent.type(boxes()[3], '456');
    expect(boxes()[0]).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Please enter the 6-digit code')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(JSON.parse(String(api.calls[0]?.init?.body))).toEqual({ otp: '123456' });
  });

  it("shows the server's refusal until the code is edited", async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/confirm-otp': () => ({ status: 400, body: { status: 'fail', message: 'The code is wrong' } }),
      }).fn,
    );
    renderPage(<LawyerOtpPage />, { path: '/lawyer/otp', at: '/lawyer/otp' });
    await userEvent.click(boxes()[0]);
    await userEvent.paste('999999');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is wrong');
    await userEvent.type(boxes()[5], '{backspace}');
    expect(screen.queryByText('The code is wrong')).toBeNull();
  });

  it('says the earlier code still works, and keeps it typed, when a new one was asked for too soon', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const api = jsonFetch({
      // Nothing sent: the spec's 200, with Retry-After (decision 2312).
      'POST /api/send-otp': () => ({
        body: { status: 'success', message: messages.otpSent },
        headers: { 'retry-after': '42' },
      }),
      'POST /api/confirm-otp': () => ({ body: { status: 'success', message: messages.otpConfirmed } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<LawyerOtpPage />, { path: '/lawyer/otp', at: '/lawyer/otp' });
    await userEvent.click(boxes()[0]);
    await userEvent.paste('123456');
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByRole('status')).toHaveTextContent(payoutCodeStillValid(42));
    expect(screen.queryByText(messages.otpSent)).toBeNull();
    expect(
      boxes()
        .map((b) => (b as HTMLInputElement).value)
        .join(''),
    ).toBe('123456');
  });
});
