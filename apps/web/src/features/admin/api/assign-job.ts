import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssignJobInput, OneJobResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const assignJob = (input: AssignJobInput) => api<OneJobResponse>('/job-api/assign', { method: 'POST', body: input });

export function useAssignJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: assignJob,
    // A refusal (409/404) means another admin acted first: read the lists again either way.
    // Not awaited: a refusal (409) shows at once, not after every admin list is read again.
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}
