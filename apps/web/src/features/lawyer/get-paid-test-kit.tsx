import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { EarningsResponse, LawyerEarning } from '@legalmarket/contracts/money';
import { testQueryClient } from '@/test/render';
import GetPaidPage from './get-paid-page';

/** Earning `n`: job `jn`, "Deed n" for Kola Pay Ltd, ₦10,000 less ₦2,000 commission, available a week on. */
export const earningFixture = (n: number): LawyerEarning => ({
  jobId: `j${n}`,
  productName: `Deed ${n}`,
  companyName: 'Kola Pay Ltd',
  amount: 10_000,
  commission: 2_000,
  earned: 8_000,
  completedAt: '2026-11-20T10:00:00.000Z',
  availableAt: '2026-11-27T10:00:00.000Z',
});

/** A page of the earnings answer with the lawyer's `totals`, at 20% commission and a 7-day hold. */
export const earningsPage = (
  jobs: LawyerEarning[],
  older: string | undefined,
  totals: { total: number; count: number; available: number },
): EarningsResponse => ({
  status: 'success',
  data: {
    total: totals.total,
    count: totals.count,
    currency: 'NGN',
    available: totals.available,
    pending: 0,
    commissionPercent: 20,
    holdDays: 7,
    jobs,
    ...(older ? { older } : {}),
  },
});

/** The Get Paid tab of /lawyer/get-paid, on `client`. */
export const renderGetPaid = (client = testQueryClient()) =>
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/lawyer/get-paid?tab=get-paid']}>
        <GetPaidPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
