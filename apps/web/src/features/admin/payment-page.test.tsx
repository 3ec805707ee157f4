import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import AdminPaymentPage from './payment-page';

const none = { amount: 0, count: 0 };
const noPayments = {
  status: 'success',
  page: 1,
  limit: 5,
  total: 0,
  results: 0,
  data: { payments: [], totals: { paid: none, pending: none, failed: none, expired: none, replaced: none } },
};
const saved = {
  accountNumber: '0123456789',
  accountName: 'LegalMarket Ltd',
  bank: 'GTBank',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

function open(account: typeof saved | null, put?: Parameters<typeof jsonFetch>[0][string]) {
  const api = jsonFetch({
    'GET /api/admin/payments': () => ({ body: noPayments }),
    ...(put && { 'PUT /api/admin/settlement-account': put }),
  });
  vi.stubGlobal('fetch', api.fn);
  const client = testQueryClient();
  client.setQueryData(['admin', 'settlement'], { status: 'success', message: 'OK', data: { account } });
  renderPage(<AdminPaymentPage />, { client });
  return api;
}

const puts = (api: ReturnType<typeof jsonFetch>) => api.calls.filter((c) => c.method === 'PUT');

describe('/admin/payment: settlement account form (react-hook-form with the contract schema)', () => {
  it('puts the schema messages under their fields, sends nothing, and clears each once it is fixed', async () => {
    const api = open(null);
    await userEvent.click(screen.getByRole('button', { name: 'Edit settlement account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit settlement account' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    const number = within(dialog).getByLabelText('Account number');
    const name = within(dialog).getByLabelText('Account name');
    const bank = within(dialog).getByLabelText('Bank');
    expect(await within(dialog).findByText('Account number must be the 10-digit NUBAN account number')).toBeVisible();
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(number).toHaveAccessibleDescription(
      'Account number must be the 10-digit NUBAN account number 10-digit NUBAN',
    );
    expect(name).toHaveAccessibleDescription('Please enter the account name');
    expect(bank).toHaveAccessibleDescription('Please enter the bank');
    expect(puts(api)).toHaveLength(0);

    // Non-digits are still dropped as they are typed.
    await userEvent.type(number, '01-2345 6789');
    expect(number).toHaveValue('0123456789');
    expect(number).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).queryByText('Account number must be the 10-digit NUBAN account number')).toBeNull();
    await userEvent.type(name, '   ');
    expect(name).toHaveAccessibleDescription('Please enter the account name');
    await userEvent.type(name, 'LegalMarket Ltd');
    expect(name).not.toHaveAttribute('aria-invalid');
    await userEvent.type(bank, 'GTBank');
    expect(bank).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('opens with the saved account, sends the trimmed values and shows the answer', async () => {
    const api = open(saved, () => ({
      body: {
        status: 'success',
        message: 'Settlement account saved',
        data: { account: { ...saved, bank: 'Access Bank' } },
      },
    }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit settlement account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit settlement account' });
    expect(within(dialog).getByLabelText('Account number')).toHaveValue('0123456789');
    expect(within(dialog).getByLabelText('Account name')).toHaveValue('LegalMarket Ltd');
    const bank = within(dialog).getByLabelText('Bank');
    await userEvent.clear(bank);
    await userEvent.type(bank, '  Access Bank  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Settlement account saved');
    expect(JSON.parse(String(puts(api)[0]?.init?.body))).toEqual({
      accountNumber: '0123456789',
      accountName: 'LegalMarket Ltd',
      bank: 'Access Bank',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('settlement-account')).toHaveTextContent('Access Bank');
  });

  it("shows the server's refusal in the alert and keeps the form open", async () => {
    open(saved, () => ({ status: 400, body: { status: 'fail', message: 'bank must be at most 120 characters' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit settlement account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit settlement account' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('bank must be at most 120 characters');
    expect(within(dialog).getByLabelText('Bank')).toHaveValue('GTBank');
  });
});
