import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RefundView } from '@legalmarket/contracts/money';
import { setSession } from '@/lib/session';
import { jsonFetch, renderPage } from '@/test/render';
import RefundsPage from './refunds-page';

const refund = (id: string, status: RefundView['status']): RefundView => ({
  _id: id,
  jobId: `job-${id}`,
  orderId: `order-${id}`,
  reference: `LM-1764000000000-${id.padStart(10, '0')}`,
  productName: 'Shareholder agreement',
  companyName: 'Ada Ventures Ltd',
  amount: 25_000,
  status,
  reason: 'The company closed the deal.',
  createdAt: '2026-11-21T10:00:00.000Z',
  settledAt: status === 'completed' ? '2026-11-21T10:01:00.000Z' : null,
});

describe('/admin/refunds', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers Retry on a failed refund only, asks first, and sends it once confirmed', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    let failed = refund('1', 'failed');
    const api = jsonFetch({
      'GET /api/admin/refunds': () => ({ body: { status: 'success', refunds: [failed, refund('2', 'completed')] } }),
      'POST /api/admin/refunds/1/retry': () => {
        failed = { ...failed, status: 'completed', settledAt: '2026-11-21T11:00:00.000Z' };
        return { body: { status: 'success', refund: failed } };
      },
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<RefundsPage />);
    const items = await screen.findAllByTestId('refund');
    expect(items).toHaveLength(2);
    expect(within(items[0]).getByText('Failed: money still due')).toBeInTheDocument();
    expect(within(items[1]).getByText('Completed')).toBeInTheDocument();
    expect(within(items[1]).queryByRole('button', { name: 'Retry' })).toBeNull();

    const user = userEvent.setup();
    await user.click(within(items[0]).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Send this refund again?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.click(within(items[0]).getByRole('button', { name: 'Retry' }));
    await user.click(await screen.findByRole('button', { name: 'Send the refund' }));
    expect(await screen.findByText(`The refund on ${failed.reference} is completed.`)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual([
      '/api/admin/refunds/1/retry',
    ]);
    await vi.waitFor(() => expect(screen.getAllByText('Completed')).toHaveLength(2));
  });

  it('says when there are no refunds', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/admin/refunds': () => ({ body: { status: 'success', refunds: [] } }) }).fn,
    );
    renderPage(<RefundsPage />);
    expect(await screen.findByText(/No refunds yet/)).toBeInTheDocument();
  });
});
