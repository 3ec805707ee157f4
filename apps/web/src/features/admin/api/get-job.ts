import { useQuery } from '@tanstack/react-query';
import type { OneJobResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

export const getJob = (id: string) => api<OneJobResponse>(`/job-api/admin/job/${id}`);

export const useJob = (id: string) => useQuery({ queryKey: adminKeys.job(id), queryFn: () => getJob(id) });
