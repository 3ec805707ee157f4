import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import type { JobStatus } from '@legalmarket/contracts/jobs';
import { allowedJobActions, stageOf } from '@legalmarket/contracts/job-lifecycle';
import { formatOrdinalDate } from '@legalmarket/contracts/format';
import { Link } from 'react-router';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { Pagination } from '@/components/pagination';
import { Tabs, tabPanelProps } from '@/components/tabs';
import { getErrorMessage } from '@/lib/http';
import { paths } from '@/lib/paths';
import { AdminLayout } from './admin-layout';
import { useJobs } from './api/get-jobs';
import { getJob } from './api/get-job';
import { PAGE_SIZE, adminKeys } from './api/keys';
import { AddDetailsModal, JobModal } from './job-modals';
import { useClampPage } from './use-clamp-page';
import { useListParams } from '@/lib/use-list-params';

const TABS = [
  { id: 'unassigned', label: 'Unassigned Jobs' },
  { id: 'pending', label: 'Pending jobs' },
  { id: 'completed', label: 'Completed jobs' },
] as const satisfies ReadonlyArray<{ id: JobStatus; label: string }>;

/** Admin jobs: three state tabs, 5 per page; View more and Add details per row. */
export default function AdminJobsPage() {
  const tabsId = useId();
  const { tab, page, setTab, setPage } = useListParams<JobStatus>(
    TABS.map((t) => t.id),
    'unassigned',
  );
  const [viewing, setViewing] = useState<JobViewResponse | null>(null);
  const [editing, setEditing] = useState<JobViewResponse | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const q = useJobs(tab, page);
  // A pending job's View more shows its one-job answer once loaded: it names whom Mark as Completed pays
  // and how much (decision 2322), and whether the lawyer is still verified (2316); the row until then.
  const one = useQuery({
    queryKey: adminKeys.job(viewing?._id ?? ''),
    queryFn: () => getJob(viewing!._id),
    enabled: viewing?.status === 'pending',
    // Money shown before it is paid: read afresh at each opening, never an earlier opening's answer.
    staleTime: 0,
    gcTime: 0,
  });
  const viewed = viewing && one.data?.data.job._id === viewing._id ? one.data.data.job : viewing;
  useClampPage(page, setPage, q.data);
  const changeTab = (t: JobStatus) => {
    setTab(t);
    setNotice(null);
  };
  return (
    <AdminLayout title="Jobs">
      {notice && (
        <p role="status" className="mb-3 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-800">
          {notice}
        </p>
      )}
      <Tabs id={tabsId} label="Jobs" tabs={TABS} value={tab} onChange={changeTab} />
      <div {...tabPanelProps(tabsId, tab)}>
        {q.isPending ? (
          <Loading />
        ) : q.isError ? (
          <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
        ) : q.data.jobs.length === 0 ? (
          <EmptyState>No projects</EmptyState>
        ) : (
          <>
            <ul
              className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
              aria-busy={q.isPlaceholderData || undefined}
            >
              {q.data.jobs.map((job) => (
                <li key={job._id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="admin-job-row">
                  <img
                    src={job.productId.productImage}
                    alt=""
                    className="size-14 shrink-0 rounded-md bg-sand object-cover"
                    loading="lazy"
                  />
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold">{job.productId.productName}</p>
                    <p className="text-sm text-slate-600">
                      <Naira amount={job.productId.productPrice} /> · {job.companyId.companyName}
                      {job.status === 'pending' && job.dueAt && <> · due {formatOrdinalDate(job.dueAt)}</>}
                      {job.late && <span className="ml-1 font-bold text-red-700">Late</span>}
                    </p>
                    {/* The list says whose lawyer lost verification: those jobs need passing on (decision 2333). */}
                    {job.status === 'pending' && job.assignedTo[0]?.verified === false && (
                      <p className="mt-1 text-sm">
                        <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900">
                          {job.assignedTo[0].name} lost verification
                        </span>
                        {['in_progress', 'changes_requested'].includes(stageOf(job)) && (
                          <Link
                            to={paths.adminAssignJob(job._id)}
                            className="ml-2 font-semibold text-brand underline"
                            aria-label={`Pass to another lawyer: ${job.productId.productName}`}
                          >
                            Pass to another lawyer
                          </Link>
                        )}
                      </p>
                    )}
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Link
                      to={paths.job(job._id)}
                      className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-semibold text-brand underline"
                      aria-label={`Open the job page: ${job.productId.productName}`}
                    >
                      Job page
                    </Link>
                    <Button
                      variant="secondary"
                      onClick={() => setViewing(job)}
                      aria-label={`View more: ${job.productId.productName}`}
                    >
                      View more
                    </Button>
                    {allowedJobActions(stageOf(job), 'admin').includes('add_details') && (
                      <Button
                        variant="ghost"
                        onClick={() => setEditing(job)}
                        aria-label={`Add details: ${job.productId.productName}`}
                      >
                        Add details
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
            <Pagination page={page} total={q.data.total} pageSize={PAGE_SIZE} onChange={setPage} />
          </>
        )}
      </div>
      <JobModal
        job={viewed}
        onClose={() => setViewing(null)}
        onDone={setNotice}
        payee={
          viewing?.status === 'pending' && viewed === viewing
            ? { pending: !one.isError, error: one.isError ? one.error : null, retry: () => void one.refetch() }
            : undefined
        }
      />
      <AddDetailsModal job={editing} onClose={() => setEditing(null)} onDone={setNotice} />
    </AdminLayout>
  );
}
