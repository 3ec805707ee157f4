import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkMessage } from '@legalmarket/contracts/common';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

const applyForJob = (jobId: string, lawyerId: string) =>
  api<OkMessage>(`/job-api/applyforjob/${encodeURIComponent(jobId)}`, { method: 'POST', body: { lawyerId } });

export function useApplyForJob(jobId: string, lawyerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => applyForJob(jobId, lawyerId),
    // The open jobs list marks the jobs applied for: the one read before applying is out of date too.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: lawyerKeys.job(jobId) }),
        qc.invalidateQueries({ queryKey: lawyerKeys.availableJobsAll() }),
      ]),
  });
}
