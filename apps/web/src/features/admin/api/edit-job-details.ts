import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditJobDetailsInput, OneJobResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const editJobDetails = ({ id, ...body }: EditJobDetailsInput & { id: string }) =>
  api<OneJobResponse>(`/job-api/editjobdetails/${id}`, { method: 'PUT', body });

export function useEditJobDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: editJobDetails,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.jobsAll() }),
  });
}
