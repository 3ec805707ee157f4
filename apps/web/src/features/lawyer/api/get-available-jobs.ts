import { useInfiniteQuery } from '@tanstack/react-query';
import type { JobSort, LawyerJob } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

const AVAILABLE_PAGE_SIZE = 20;

export const getAvailableJobs = (sort: JobSort, page: number, limit = AVAILABLE_PAGE_SIZE) =>
  api<LawyerJob[]>('/job-api/jobs', { query: { sort, page, limit } });

/** Open jobs, a page at a time; "Show more jobs" fetches the next page. */
export function useAvailableJobs(sort: JobSort) {
  return useInfiniteQuery({
    queryKey: lawyerKeys.availableJobs(sort),
    queryFn: ({ pageParam }) => getAvailableJobs(sort, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.length === AVAILABLE_PAGE_SIZE ? pages.length + 1 : undefined),
  });
}
