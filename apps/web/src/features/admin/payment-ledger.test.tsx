import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import AdminPaymentPage from './payment-page';

const none = { amount: 0, count: 0 };
const answer = (payments: unknown[], totals = {}) => ({
  status: 'success',
  page: 1,
  limit: 5,
  total: payments.length,
  results: payments.length,
  data: { payments, totals: { paid: none, pending: none, failed: none, expired: none, replaced: none, ...totals } },
});

function open(at: string, body = answer([])) {
  const api = jsonFetch({ 'GET /api/admin/payments': () => ({ body }) });
  vi.stubGlobal('fetch', api.fn);
  const client = testQueryClient();
  client.setQueryData(['admin', 'settlement'], { status: 'success', message: 'OK', data: { account: null } });
  renderPage(<AdminPaymentPage />, { client, path: '/admin/payment', at });
  const asked = () => api.calls.filter((c) => c.url.pathname === '/api/admin/payments').map((c) => c.url.searchParams);
  return { api, asked };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('/admin/payment: the payments list and its filters', () => {
  it('keeps the period, status and page in the address, so a reload shows the same list', async () => {
    const { asked } = open('/admin/payment?period=custom&from=2026-11-01&to=2026-11-15&status=failed&page=2');
    await waitFor(() => expect(asked()).toHaveLength(1));
    const q = asked()[0]!;
    expect(Object.fromEntries(q)).toEqual({
      from: '2026-11-01',
      to: '2026-11-15',
      status: 'failed',
      page: '2',
      limit: '5',
    });
    expect(screen.getByLabelText('Period')).toHaveValue('custom');
    expect(screen.getByLabelText('Status')).toHaveValue('failed');
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-01');
  });

  it('starts a new status from page 1', async () => {
    const { asked } = open('/admin/payment?status=failed&page=3');
    await waitFor(() => expect(asked()).toHaveLength(1));
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'paid');
    await waitFor(() => expect(asked()).toHaveLength(2));
    expect(asked()[1]!.get('status')).toBe('paid');
    expect(asked()[1]!.get('page')).toBe('1');
  });

  it("reads This month as Lagos's month: at 00:30 on 1 December in Lagos it is December", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T23:30:00Z'));
    const { asked } = open('/admin/payment?period=month');
    await waitFor(() => expect(asked()).toHaveLength(1));
    expect(asked()[0]!.get('from')).toBe('2026-12-01');
    expect(asked()[0]!.get('to')).toBe('2026-12-01');
  });

  it('names the status chosen when nothing matches it', async () => {
    open('/admin/payment?status=failed');
    expect(await screen.findByText('No failed payments in this period')).toBeVisible();
  });

  it('shows the totals and amounts with their kobo, as the ledger does', async () => {
    open(
      '/admin/payment',
      answer(
        [
          {
            _id: 'o1',
            reference: 'LM-1',
            provider: 'flutterwave',
            providerTransactionId: null,
            title: 'Contract review',
            amount: 53750.5,
            currency: 'NGN',
            status: 'paid',
            company: { _id: 'c1', companyName: 'Acme Ltd', officialEmail: 'a@acme.ng' },
            createdAt: '2026-11-20T10:00:00.000Z',
            paidAt: '2026-11-20T10:00:00.000Z',
          },
        ],
        { paid: { amount: 53750.5, count: 1 } },
      ),
    );
    const dl = await screen.findByLabelText('Totals for the period');
    expect(within(dl).getByText('₦53,750.50')).toBeVisible();
    expect(screen.getAllByText('₦53,750.50')).toHaveLength(2);
  });
});
