import { companyKeys } from './keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';

/** PUT /job-api/company/editjobdetails/{jobId}. */
export function useEditJobDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { jobId: string; detail: string; file?: string; fileName?: string }) =>
      api<{ message: string }>(`/job-api/company/editjobdetails/${encodeURIComponent(v.jobId)}`, {
        method: 'PUT',
        body: { detail: v.detail, ...(v.file ? { file: v.file, fileName: v.fileName } : {}) },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: companyKeys.jobsAll() }),
  });
}
