import { companyKeys } from './keys';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/http';

/** A job as the company sees it: the one job shape of the API. */
export type CompanyJob = JobViewResponse;

export type JobTab = 'pending' | 'completed';

/** GET /job-api/company/pendingjobs and /completedjobs. */
const companyJobsQuery = (tab: JobTab, enabled = true) =>
  queryOptions({
    queryKey: companyKeys.jobs(tab),
    enabled,
    queryFn: ({ signal }) => api<CompanyJob[]>(`/job-api/company/${tab}jobs`, { signal }),
  });

export const useCompanyJobs = (tab: JobTab, enabled = true) => useQuery(companyJobsQuery(tab, enabled));
