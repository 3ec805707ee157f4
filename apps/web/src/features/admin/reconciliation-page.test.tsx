import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { ReconciliationResponse } from '@legalmarket/contracts/reconciliation';
import { REQUEST_TIMEOUT_MS, TIMED_OUT_MESSAGE } from '@/lib/http';
import { setSession } from '@/lib/session';
import { jsonFetch, renderPage } from '@/test/render';
import ReconciliationPage from './reconciliation-page';

const answer = (
  differences: ReconciliationResponse['differences'],
  payoutDifferences: ReconciliationResponse['payouts']['differences'] = [],
): ReconciliationResponse => ({
  status: 'success',
  from: '2026-11-18',
  to: '2026-11-24',
  provider: 'flutterwave',
  ledger: { payments: 2, refunds: 0, paid: 50_000, fees: 700, refunded: 0 },
  atProvider: { payments: 2, refunds: 0, paid: 50_000, fees: 700, refunded: 0 },
  differences,
  payouts: {
    ledger: { payouts: 1, paidOut: 5_000, fees: 26.88 },
    atProvider: { payouts: 0, paidOut: 0, fees: 0 },
    differences: payoutDifferences,
  },
});

describe('/admin/reconciliation', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says the ledger and Flutterwave agree when nothing differs', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    const api = jsonFetch({ 'GET /api/admin/reconciliation': () => ({ body: answer([]) }) });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<ReconciliationPage />, { at: '/?from=2026-11-18&to=2026-11-24' });
    expect(await screen.findByText(/Ledger and Flutterwave agree from 2026-11-18 to 2026-11-24/)).toBeInTheDocument();
    expect(api.calls[0].url.search).toBe('?from=2026-11-18&to=2026-11-24');
  });

  it('lists each difference with both amounts and a link to the job', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/admin/reconciliation': () => ({
          body: answer([
            {
              kind: 'amount_differs',
              subject: 'payment',
              reference: 'LM-1764000000000-abcdef0123',
              providerId: '288200108',
              ledgerAmount: 25_000,
              providerAmount: 25_500,
              providerCurrency: 'NGN',
              providerStatus: 'successful',
              paymentType: 'bank_transfer',
              date: '2026-11-21T10:00:00.000Z',
              ledgerTransactionId: '7',
              orderId: 'order-1',
              jobId: 'job-1',
            },
          ]),
        }),
      }).fn,
    );
    renderPage(<ReconciliationPage />);
    expect(await screen.findByRole('heading', { name: '1 difference' })).toBeInTheDocument();
    const item = screen.getByTestId('difference');
    expect(item).toHaveTextContent('Amounts differ · Payment');
    expect(item).toHaveTextContent('LM-1764000000000-abcdef0123');
    expect(item).toHaveTextContent('₦25,000');
    expect(item).toHaveTextContent('₦25,500');
    expect(item).toHaveTextContent('bank transfer');
    expect(screen.getByRole('link', { name: 'Open the job' })).toHaveAttribute('href', '/jobs/job-1');
  });

  it('says the payouts and Flutterwave’s transfers agree when no payout differs', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/admin/reconciliation': () => ({ body: answer([]) }) }).fn);
    renderPage(<ReconciliationPage />);
    expect(
      await screen.findByText(/Payouts and Flutterwave’s transfers agree from 2026-11-18 to 2026-11-24/),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Lawyer payouts' })).toBeInTheDocument();
    expect(screen.queryByTestId('payout-difference')).toBeNull();
  });

  it('lists each payout difference with both amounts, both statuses and a way to the payouts', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/admin/reconciliation': () => ({
          body: answer(
            [],
            [
              {
                kind: 'status_differs',
                reference: '6f1c2a4e-0b1d-4c55-9a0e-3f1f2b3c4d5e',
                providerId: '396461',
                ledgerAmount: 5_000,
                providerAmount: 5_000,
                providerCurrency: 'NGN',
                providerStatus: 'reversed',
                ledgerStatus: 'paid',
                date: '2026-11-21T10:00:00.000Z',
                ledgerTransactionId: '42',
                payoutId: '6f1c2a4e-0b1d-4c55-9a0e-3f1f2b3c4d5e',
                lawyerId: 'lawyer-1',
                lawyerName: 'Chidi Okeke',
              },
            ],
          ),
        }),
      }).fn,
    );
    renderPage(<ReconciliationPage />);
    expect(await screen.findByRole('heading', { name: '1 payout difference' })).toBeInTheDocument();
    // The payments and refunds still agree, and say so apart from the payouts.
    expect(screen.getByText(/Ledger and Flutterwave agree from 2026-11-18 to 2026-11-24/)).toBeInTheDocument();
    expect(screen.queryByText(/Payouts and Flutterwave’s transfers agree/)).toBeNull();
    const item = screen.getByTestId('payout-difference');
    expect(item).toHaveTextContent('Status differs · Payout');
    expect(item).toHaveTextContent('6f1c2a4e-0b1d-4c55-9a0e-3f1f2b3c4d5e');
    expect(item).toHaveTextContent('₦5,000');
    expect(item).toHaveTextContent('reversed');
    expect(item).toHaveTextContent('Chidi Okeke');
    expect(screen.getByRole('link', { name: 'Open the payouts' })).toHaveAttribute('href', '/admin/payouts');
  });

  it('shows the error and a way to try again when the provider cannot be reached', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/admin/reconciliation': () => ({
          status: 503,
          body: { status: 'fail', message: 'Flutterwave could not be reached; try again in a minute' },
        }),
      }).fn,
    );
    renderPage(<ReconciliationPage />);
    expect(await screen.findByText('Flutterwave could not be reached; try again in a minute')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("waits past an ordinary call's 30 s for a long period, then gives up after two minutes (decision 2306)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
      vi.stubGlobal(
        'fetch',
        vi.fn(() => new Promise<Response>(() => {})),
      );
      renderPage(<ReconciliationPage />, { at: '/?from=2026-01-01&to=2026-11-24' });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 1_000);
      });
      expect(screen.queryByRole('alert')).toBeNull();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(120_000 - REQUEST_TIMEOUT_MS);
      });
      expect(await screen.findByRole('alert')).toHaveTextContent(TIMED_OUT_MESSAGE);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
