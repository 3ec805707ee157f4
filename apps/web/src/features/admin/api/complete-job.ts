import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OneJobResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const completeJob = (id: string) => api<OneJobResponse>(`/job-api/completejob/${id}`, { method: 'PUT' });

export function useCompleteJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: completeJob,
    // A refusal (409/404) means another admin acted first: read the lists again either way.
    onSettled: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
