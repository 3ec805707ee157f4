import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditJobDetailsInput, OneJobAnswer } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

export const editJobDetails = ({ id, ...body }: EditJobDetailsInput & { id: string }) =>
  api<OneJobAnswer>(`/job-api/editjobdetails/${id}`, { method: 'PUT', body });

export function useEditJobDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: editJobDetails,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.jobsAll() }),
  });
}
