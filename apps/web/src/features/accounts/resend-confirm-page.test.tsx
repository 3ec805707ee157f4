import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { jsonFetch, renderPage } from '@/test/render';
import ResendConfirmPage from './resend-confirm-page';

describe('/resend-confirm (react-hook-form with the contract schema)', { timeout: 30_000 }, () => {
  it('keeps the button off while the field is empty', async () => {
    renderPage(<ResendConfirmPage />);
    const button = screen.getByRole('button', { name: 'Resend Verification Email' });
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Email address'), '   ');
    expect(button).toBeDisabled();
  });

  it('puts the schema message under the field, sends nothing, and clears it once the address is fixed', async () => {
    const api = jsonFetch({
      'POST /api/resendconfirmemail': () => ({ body: { status: 'success', message: messages.confirmationEmailSent } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<ResendConfirmPage />);
    const email = screen.getByLabelText('Email address');
    await userEvent.type(email, 'ada-at-example.ng');
    await userEvent.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter a valid email address');
    expect(api.calls).toHaveLength(0);

    await userEvent.clear(email);
    await userEvent.type(email, ' Ada@Example.ng ');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByRole('heading', { name: messages.confirmationEmailSent })).toBeVisible();
    expect(JSON.parse(String(api.calls[0]?.init?.body))).toEqual({ officialEmail: 'ada@example.ng' });
  });
});
