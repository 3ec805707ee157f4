import { useQuery } from '@tanstack/react-query';
import type { LawyerJob } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

export type ProjectStatus = 'pending' | 'completed';

/** The signed-in lawyer's projects (the 50 latest; see docs/decisions/0301). */
export const getProjects = (status: ProjectStatus) => api<LawyerJob[]>(`/job-api/lawyer/${status}jobs`);

export const useProjects = (status: ProjectStatus, enabled = true) =>
  useQuery({ queryKey: lawyerKeys.projects(status), queryFn: () => getProjects(status), enabled });
