import { expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LawyerEarning } from '@legalmarket/contracts/money';
import { setSession } from '@/lib/session';
import { jsonFetch, testQueryClient } from '@/test/render';
import { lawyerKeys } from './api/keys';
import { earningFixture, earningsPage, renderGetPaid } from './get-paid-test-kit';

const job = earningFixture;
const page = (jobs: LawyerEarning[], older?: string) =>
  earningsPage(jobs, older, { total: 40_000, count: 4, available: 32_000 });

const rows = () => screen.getAllByRole('cell', { name: /Deed \d/ }).map((c) => c.textContent);

/**
 * The first page read again after a new earning (a withdrawal refetches it) ends one job earlier: the
 * older rows shown below it were asked after its old end, so kept they would skip the job in between.
 */
it('Get Paid drops the older earnings shown when the first page is read again with another end', async () => {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  let newEarning = false;
  const stub = jsonFetch({
    'GET /job-api/lawyer/earnings': (_init, url) => {
      const before = url.searchParams.get('before');
      if (!before) return { body: newEarning ? page([job(4), job(3)], '103') : page([job(3), job(2)], '102') };
      if (before === '102') return { body: page([job(1)]) };
      if (before === '103') return { body: page([job(2), job(1)]) };
      throw new Error(`unexpected before=${before}`);
    },
    'GET /api/lawyer/payouts': () => ({
      body: { status: 'success', withdrawable: 32_000, detailsResolved: true, payouts: [] },
    }),
  });
  vi.stubGlobal('fetch', stub.fn);
  const client = testQueryClient();
  renderGetPaid(client);
  await screen.findByRole('cell', { name: /Deed 3/ });
  await userEvent.click(screen.getByRole('button', { name: 'Show older' }));
  await screen.findByRole('cell', { name: /Deed 1/ });
  expect(rows()).toEqual(['Deed 3Kola Pay Ltd', 'Deed 2Kola Pay Ltd', 'Deed 1Kola Pay Ltd']);
  // A new earning, and the first page read again: it now ends at Deed 3.
  newEarning = true;
  await act(() => client.invalidateQueries({ queryKey: lawyerKeys.earnings() }));
  await screen.findByRole('cell', { name: /Deed 4/ });
  expect(rows()).toEqual(['Deed 4Kola Pay Ltd', 'Deed 3Kola Pay Ltd']);
  await userEvent.click(screen.getByRole('button', { name: 'Show older' }));
  await screen.findByRole('cell', { name: /Deed 1/ });
  expect(rows()).toEqual(['Deed 4Kola Pay Ltd', 'Deed 3Kola Pay Ltd', 'Deed 2Kola Pay Ltd', 'Deed 1Kola Pay Ltd']);
  vi.unstubAllGlobals();
});
