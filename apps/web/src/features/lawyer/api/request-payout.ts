import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayoutResponse } from '@legalmarket/contracts/payouts';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

/** Asks for a withdrawal of `amount` naira to the saved payout details. */
const requestPayout = (amount: number) =>
  api<PayoutResponse>('/api/lawyer/payouts', { method: 'POST', body: { amount } });

export function useRequestPayout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: requestPayout,
    // A failed request may mean the balance moved: both figures are read again either way.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: lawyerKeys.payouts() }),
        qc.invalidateQueries({ queryKey: lawyerKeys.earnings() }),
      ]),
  });
}
