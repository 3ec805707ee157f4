import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { payoutMessages } from '@legalmarket/contracts/payouts';
import { renderPage } from '@/test/render';
import PayoutNotMePage from './payout-not-me-page';

const TOKEN = 'k'.repeat(43);
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('/payment-details-not-me (decision 2244)', { timeout: 30_000 }, () => {
  it('checks the link, changes nothing until confirmed, then sends the owner to the reset code', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
      (init?.method ?? 'GET') === 'GET'
        ? json(200, {
            status: 'success',
            data: {
              bank: 'Zenith Bank',
              accountNumber: '•••• 6781',
              accountName: 'THIEF NAME',
              savedAt: '2026-11-27T09:30:00.000Z',
              expiresAt: '2026-12-04T09:30:00.000Z',
            },
          })
        : json(200, {
            status: 'success',
            message: payoutMessages.notMeDone,
            data: { officialEmail: 'ada@example.ng', payoutsStopped: 1 },
          }),
    );
    vi.stubGlobal('fetch', fetch);
    renderPage(<PayoutNotMePage />, { path: '/payment-details-not-me', at: `/payment-details-not-me?token=${TOKEN}` });
    expect(await screen.findByText(/THIEF NAME, Zenith Bank •••• 6781/)).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'This wasn’t me: secure my account' }));
    expect(await screen.findByText(payoutMessages.notMeDone)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Enter the code' })).toBeInTheDocument();
    expect(fetch.mock.calls[1][1]?.method).toBe('POST');
  });

  it('shows why a link cannot be used', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(409, { status: 'fail', message: payoutMessages.notMeLinkStale })),
    );
    renderPage(<PayoutNotMePage />, { path: '/payment-details-not-me', at: `/payment-details-not-me?token=${TOKEN}` });
    expect(await screen.findByRole('alert')).toHaveTextContent(payoutMessages.notMeLinkStale);
  });
});
