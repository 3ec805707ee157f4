import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LawyerRecordSort, LawyerRecordsResponse } from '@legalmarket/contracts/lawyer-reviews';
import { api } from '@/lib/http';
import { adminKeys, PAGE_SIZE } from './keys';

/** GET /api/admin/lawyer-records: verified lawyers, or a job's applicants, with their track records. */
export const useLawyerRecords = (q: { jobId?: string; sort: LawyerRecordSort; page: number }) =>
  useQuery({
    queryKey: adminKeys.lawyerRecords(q),
    queryFn: () =>
      api<LawyerRecordsResponse>('/api/admin/lawyer-records', {
        query: { jobId: q.jobId, sort: q.sort, page: q.page, limit: PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
