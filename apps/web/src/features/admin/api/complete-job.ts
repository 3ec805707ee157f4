import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OneJobResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

/**
 * A job id, or the id with whom and how much the confirmation said it pays (payOnComplete): the server
 * then pays that or answers 409 naming what another admin changed meanwhile (decision 2340).
 */
export type CompleteJobVariables = string | { id: string; lawyerId: string; amount: number };

export const completedJobId = (v: CompleteJobVariables | undefined) => (typeof v === 'string' ? v : v?.id);

const completeJob = (v: CompleteJobVariables) =>
  typeof v === 'string'
    ? api<OneJobResponse>(`/job-api/completejob/${v}`, { method: 'PUT' })
    : api<OneJobResponse>(`/job-api/completejob/${v.id}`, {
        method: 'PUT',
        body: { payOnComplete: { lawyerId: v.lawyerId, amount: v.amount } },
      });

export function useCompleteJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: completeJob,
    // A refusal (409/404) means another admin acted first: read the lists again either way.
    // Not awaited: a refusal (409) shows at once, not after every admin list is read again.
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
