import { useQuery } from '@tanstack/react-query';
import type { LawyerJob } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

export const getJob = (id: string) => api<LawyerJob>(`/job-api/job/${encodeURIComponent(id)}`);

export const useJob = (id: string) => useQuery({ queryKey: lawyerKeys.job(id), queryFn: () => getJob(id) });
