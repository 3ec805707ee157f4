import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LawyerJob } from '@legalmarket/contracts/lawyers';
import { apiList } from '@/lib/http';
import { lawyerKeys } from './keys';

export type ProjectStatus = 'pending' | 'completed';

/** Projects per page on the dashboard and the Get Paid table (the server allows up to 50). */
export const PROJECTS_PAGE_SIZE = 10;

/** A UI shape: one page of the contract's job list with the X-Total-Count header beside it. */
interface ProjectsPage {
  jobs: LawyerJob[];
  /** Every project in this state (X-Total-Count), for the page numbers. */
  total: number;
}

/** One page of the signed-in lawyer's projects, paged on the server (docs/decisions/0900-spec-gaps-found-by-an-audit.md, item 4). */
const getProjects = (status: ProjectStatus, page = 1, limit = PROJECTS_PAGE_SIZE): Promise<ProjectsPage> =>
  apiList<LawyerJob>(`/job-api/lawyer/${status}jobs`, { query: { page, limit } }).then(({ items, total }) => ({
    jobs: items,
    total: total ?? (page - 1) * limit + items.length,
  }));

export const useProjects = (
  status: ProjectStatus,
  page = 1,
  { enabled = true, limit = PROJECTS_PAGE_SIZE }: { enabled?: boolean; limit?: number } = {},
) =>
  useQuery({
    queryKey: [...lawyerKeys.projects(status), page, limit],
    queryFn: () => getProjects(status, page, limit),
    enabled,
    placeholderData: keepPreviousData,
  });
