import { expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LawyerEarning } from '@legalmarket/contracts/money';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { earningFixture, earningsPage, renderGetPaid } from './get-paid-test-kit';

const job = earningFixture;
const page = (jobs: LawyerEarning[], older?: string) =>
  earningsPage(jobs, older, { total: 30_000, count: 3, available: 24_000 });

/** The earnings table pages as the notifications do: "Show older" asks for the page before the last. */
it('Get Paid shows older earnings with Show older until none remain', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const stub = jsonFetch({
    'GET /job-api/lawyer/earnings': (_init, url) => {
      const before = url.searchParams.get('before');
      if (!before) return { body: page([job(3), job(2)], '102') };
      if (before === '102') return { body: page([job(1)]) };
      throw new Error(`unexpected before=${before}`);
    },
    'GET /api/lawyer/payouts': () => ({
      body: { status: 'success', withdrawable: 24_000, detailsResolved: true, payouts: [] },
    }),
  });
  vi.stubGlobal('fetch', stub.fn);
  renderGetPaid(testQueryClient());
  await screen.findByRole('cell', { name: /Deed 3/ });
  expect(screen.queryByRole('cell', { name: /Deed 1/ })).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Show older' }));
  expect(await screen.findByRole('cell', { name: /Deed 1/ })).toBeInTheDocument();
  expect(screen.getAllByRole('cell', { name: /Deed \d/ }).map((c) => c.textContent)).toEqual([
    'Deed 3Kola Pay Ltd',
    'Deed 2Kola Pay Ltd',
    'Deed 1Kola Pay Ltd',
  ]);
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull());
  vi.unstubAllGlobals();
});
