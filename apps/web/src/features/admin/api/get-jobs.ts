import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminJobsPageResponse } from '@legalmarket/contracts/admin';
import type { JobStatus } from '@legalmarket/contracts/jobs';
import { api } from '@/lib/http';
import { adminKeys, PAGE_SIZE } from './keys';

const JOB_LIST_PATHS: Record<JobStatus, string> = {
  unassigned: '/job-api/unassign',
  pending: '/job-api/pendingjobs',
  completed: '/job-api/completedjobs',
};

/** With `page` the server answers the paged form (`jobs`, `total`...); without it a bare array. */
const getJobs = (status: JobStatus, page: number) =>
  api<AdminJobsPageResponse>(JOB_LIST_PATHS[status], { query: { page, limit: PAGE_SIZE } });

export const useJobs = (status: JobStatus, page: number) =>
  useQuery({
    queryKey: adminKeys.jobs(status, page),
    queryFn: () => getJobs(status, page),
    placeholderData: keepPreviousData,
  });
