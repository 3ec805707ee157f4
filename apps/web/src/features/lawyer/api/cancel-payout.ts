import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PayoutResponse } from '@legalmarket/contracts/payouts';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

/** Cancels one of the lawyer's withdrawals still waiting for approval (decision 2344); safe to send again. */
const cancelPayout = (id: string) =>
  api<PayoutResponse>(`/api/lawyer/payouts/${encodeURIComponent(id)}/cancel`, { method: 'POST', body: {} });

export function useCancelPayout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelPayout,
    // Refused (approved meanwhile) or not, the list and the balance are read again.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: lawyerKeys.payouts() }),
        qc.invalidateQueries({ queryKey: lawyerKeys.earnings() }),
      ]),
  });
}
