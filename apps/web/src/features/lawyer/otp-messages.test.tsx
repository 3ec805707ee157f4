import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { GetPaymentDetailsResponse } from '@legalmarket/contracts/lawyers';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { lawyerKeys } from './api/keys';
import GetPaidPage from './get-paid-page';
import LawyerOtpPage from './otp-page';

const details: GetPaymentDetailsResponse = {
  status: 'success',
  lawyer: {
    _id: 'l1',
    name: 'Chidi Okafor',
    officialEmail: 'chidi@example.ng',
    accountDetails: [{ accountNumber: '0123456789', accountName: 'Chidi Okafor', bank: 'Access Bank' }],
  },
};

describe(
  'changing payout details: the spec\'s "OTP sent successfully" and "OTP confirmed"',
  { timeout: 30_000 },
  () => {
    it('says the code was sent on the first send, then that it was confirmed', async () => {
      setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
      const { fn } = jsonFetch({
        'POST /api/send-otp': () => ({ body: { status: 'success', message: messages.otpSent } }),
        'POST /api/confirm-otp': () => ({ body: { status: 'success', message: messages.otpConfirmed } }),
      });
      vi.stubGlobal('fetch', fn);
      const client = testQueryClient();
      client.setQueryData(lawyerKeys.paymentDetails(), details);
      render(
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={['/lawyer/get-paid']}>
            <Routes>
              <Route path="/lawyer/get-paid" element={<GetPaidPage />} />
              <Route path="/lawyer/otp" element={<LawyerOtpPage />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>,
      );
      await userEvent.click(screen.getByRole('button', { name: /Edit payment details/ }));
      await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
      expect(await screen.findByRole('heading', { name: 'Enter your code' })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('OTP sent successfully');

      await userEvent.click(screen.getAllByRole('textbox')[0]);
      await userEvent.paste('123456');
      await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
      expect(await screen.findByRole('button', { name: 'Update' })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('OTP confirmed');
    });
  },
);
