import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { jsonFetch, renderPage } from '@/test/render';
import OtpPage from './otp-page';
import { resetFlow } from './reset-flow';

function open(email: string) {
  resetFlow.emailSubmitted(email);
  renderPage(<OtpPage />, { path: '/otp/:userEmail', at: `/otp/${encodeURIComponent(email)}` });
}

const boxes = () => screen.getAllByRole('textbox', { name: /^Digit \d of 6$/ });

describe('/otp/{userEmail} (react-hook-form with the contract schema)', { timeout: 30_000 }, () => {
  it('sends the address and the joined digits once all six are in', async () => {
    const api = jsonFetch({
      'POST /api/confirm-reset-token': () => ({
        body: { status: 'success', message: messages.otpConfirmedReset, resetToken: 'grant-1234567890' },
      }),
    });
    vi.stubGlobal('fetch', api.fn);
    open('ada@example.ng');
    const enter = screen.getByRole('button', { name: 'Enter' });
    await userEvent.type(boxes()[0], '12345');
    expect(enter).toBeDisabled();
    await userEvent.type(boxes()[5], '6');
    expect(enter).toBeEnabled();
    await userEvent.click(enter);
    expect(await screen.findByRole('heading', { name: messages.otpConfirmedReset })).toBeVisible();
    expect(JSON.parse(String(api.calls[0]?.init?.body))).toEqual({ officialEmail: 'ada@example.ng', token: '123456' });
  });

  it("shows the server's refusal and empties the boxes", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/confirm-reset-token': () => ({
          status: 400,
          body: { status: 'fail', message: 'The code is wrong or has expired' },
        }),
      }).fn,
    );
    open('ada@example.ng');
    await userEvent.click(boxes()[0]);
    await userEvent.paste('654321');
    await userEvent.click(screen.getByRole('button', { name: 'Enter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is wrong or has expired');
    expect(boxes().map((b) => (b as HTMLInputElement).value)).toEqual(['', '', '', '', '', '']);
    expect(screen.getByRole('button', { name: 'Enter' })).toBeDisabled();
  });

  it("checks the link's address with the contract before sending, and says so under the boxes", async () => {
    const api = jsonFetch({});
    vi.stubGlobal('fetch', api.fn);
    open('ada-at-example.ng');
    await userEvent.click(boxes()[0]);
    await userEvent.paste('123456');
    await userEvent.click(screen.getByRole('button', { name: 'Enter' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible();
    expect(boxes()[0]).toHaveAttribute('aria-invalid', 'true');
    expect(boxes()[0]).toHaveAccessibleDescription('Please enter a valid email address');
    expect(api.calls).toHaveLength(0);
  });
});
