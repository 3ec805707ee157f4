import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { messages } from '@legalmarket/contracts/messages';
import { jsonFetch } from '@/test/render';
import OtpPage from './otp-page';
import PasswordResetPage from './password-reset-page';

describe('/password-reset', { timeout: 30_000 }, () => {
  it('says "Password reset email sent" on the code page it leads to', async () => {
    const { fn, calls } = jsonFetch({
      'POST /api/forgot-password': () => ({ body: { status: 'success', message: messages.passwordResetEmailSent } }),
    });
    vi.stubGlobal('fetch', fn);
    render(
      <MemoryRouter initialEntries={['/password-reset']}>
        <Routes>
          <Route path="/password-reset" element={<PasswordResetPage />} />
          <Route path="/otp/:userEmail" element={<OtpPage />} />
        </Routes>
      </MemoryRouter>,
    );
    await userEvent.type(screen.getByLabelText('Email address'), 'ada@example.ng');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByRole('heading', { name: 'Enter your code' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Password reset email sent');
    expect(calls).toHaveLength(1);
  });
});
