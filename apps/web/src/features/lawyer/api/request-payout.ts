import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER } from '@legalmarket/contracts/constants';
import type { PayoutResponse } from '@legalmarket/contracts/payouts';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

/**
 * Asks for a withdrawal of `amount` naira to the saved payout details; under `key` the API makes it
 * once, however often it is sent (decision 2241).
 */
const requestPayout = ({ amount, key }: { amount: number; key: string }) =>
  api<PayoutResponse>('/api/lawyer/payouts', {
    method: 'POST',
    body: { amount },
    headers: { [IDEMPOTENCY_KEY_HEADER]: key },
  });

export function useRequestPayout() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: lawyerKeys.requestPayout(),
    mutationFn: requestPayout,
    // A failed request may mean the balance moved: both figures are read again either way.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: lawyerKeys.payouts() }),
        qc.invalidateQueries({ queryKey: lawyerKeys.earnings() }),
      ]),
  });
}
