import { afterEach, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { AdminPayoutsResponse } from '@legalmarket/contracts/payouts';
import { payoutFixture } from '@/test/payout-fixture';
import { renderPage, testQueryClient } from '@/test/render';
import { setSession } from '@/lib/session';
import { adminKeys } from './api/keys';
import PayoutsPage from './payouts-page';

const payout = (id: string) => payoutFixture(id, { amount: 1_000 });

afterEach(() => vi.unstubAllGlobals());

function show(answer: AdminPayoutsResponse) {
  setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
  const client = testQueryClient();
  client.setQueryData(adminKeys.payouts(), answer);
  vi.stubGlobal('fetch', vi.fn());
  renderPage(<PayoutsPage />, { client });
}

it('counts every waiting payout beside their total, and says when the list shows only the newest', () => {
  // The server sums 301 waiting payouts; its list stops before that.
  show({ status: 'success', waitingTotal: 301_000, waitingCount: 301, payouts: [payout('p1'), payout('p2')] });
  expect(screen.getByRole('heading', { name: /Waiting for approval/ })).toHaveTextContent(
    'Waiting for approval (301, ₦301,000)',
  );
  expect(screen.getByText('The newest 2 of 301 are listed; approve or reject these to see the rest.')).toBeVisible();
});

it('says nothing more when every waiting payout is listed', () => {
  show({ status: 'success', waitingTotal: 2_000, waitingCount: 2, payouts: [payout('p1'), payout('p2')] });
  expect(screen.getByRole('heading', { name: /Waiting for approval/ })).toHaveTextContent(
    'Waiting for approval (2, ₦2,000)',
  );
  expect(screen.queryByText(/are listed; approve or reject/)).toBeNull();
});
