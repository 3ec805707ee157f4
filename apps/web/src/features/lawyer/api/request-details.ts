import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkMessage } from '@legalmarket/contracts/common';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

const requestMoreDetails = (jobId: string, detail: string) =>
  api<OkMessage>(`/job-api/requestmorejobdetails/${encodeURIComponent(jobId)}`, { method: 'POST', body: { detail } });

export function useRequestMoreDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { jobId: string; detail: string }) => requestMoreDetails(v.jobId, v.detail),
    onSuccess: () => qc.invalidateQueries({ queryKey: lawyerKeys.projects('pending') }),
  });
}
