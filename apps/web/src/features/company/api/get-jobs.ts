import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/http';

/** A job as the company sees it (the shared job shape of the API, the fields this page reads). */
export interface CompanyJob {
  _id: string;
  status: 'unassigned' | 'pending' | 'completed';
  productId: {
    _id: string;
    productName: string;
    productImage: string;
    productPrice: number;
    productDescription: string;
  };
  quantity: number;
  amount: number;
  detail: string | null;
  companyDetail: string | null;
  companyFile: string | null;
  companyFileName: string | null;
  lawyerRequestedDetail: string | null;
  adminDetail: string | null;
  adminFile: string | null;
  adminFileName: string | null;
  assignedTo: Array<{ _id: string; name: string }>;
  createdAt: string;
  updatedAt: string;
}

export type JobTab = 'pending' | 'completed';

/** GET /job-api/company/pendingjobs and /completedjobs. */
export const companyJobsQuery = (tab: JobTab, enabled = true) =>
  queryOptions({
    queryKey: ['company-jobs', tab],
    enabled,
    queryFn: ({ signal }) => api<CompanyJob[]>(`/job-api/company/${tab}jobs`, { signal }),
  });

export const useCompanyJobs = (tab: JobTab, enabled = true) => useQuery(companyJobsQuery(tab, enabled));
