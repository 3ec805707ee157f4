import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { previewWords } from '@legalmarket/contracts/format';
import { JOB_SORTS, type JobSort } from '@legalmarket/contracts/lawyers';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { SectionBoundary } from '@/components/section-boundary';
import { Tabs } from '@/components/tabs';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';
import { getErrorMessage } from '@/lib/http';
import { useAvailableJobs } from './api/get-available-jobs';
import { BriefWithheld } from './components/job-file';
import { LawyerSideCard } from './components/lawyer-side-card';
import { VerificationBanner } from './components/verification-banner';

/** /lawyer/available-jobs/{lawyerId}: open jobs, Best fit or Recent jobs, with the lawyer's side card. */
export default function AvailableJobsPage() {
  const { lawyerId } = useParams();
  const session = useSession();
  const me = session?.userType === 'lawyer' ? session.userId : (lawyerId ?? '');
  const [sort, setSort] = useState<JobSort>('bestfit');
  const jobs = useAvailableJobs(sort);
  const list = jobs.data?.pages.flat() ?? [];

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 md:grid-cols-[1fr_18rem]">
      <section aria-labelledby="available-jobs-title" className="min-w-0">
        <h1 id="available-jobs-title" className="heading-title mb-4 text-ink">
          Available Jobs
        </h1>
        <VerificationBanner />
        <Tabs label="Sort jobs" tabs={JOB_SORTS} value={sort} onChange={setSort} />
        <SectionBoundary>
          {/* A failed background re-read keeps the jobs shown: say so above them, with a retry. */}
          {jobs.isRefetchError && (
            <div
              role="alert"
              className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
            >
              <p>{getErrorMessage(jobs.error)} The list below may be out of date.</p>
              <button
                type="button"
                className="min-h-11 rounded-md px-3 font-semibold underline disabled:opacity-60"
                disabled={jobs.isRefetching}
                onClick={() => jobs.refetch()}
              >
                Try again
              </button>
            </div>
          )}
          {jobs.isLoading ? (
            <Loading label="Loading jobs..." />
          ) : jobs.isError && !jobs.data ? (
            <ErrorState message={getErrorMessage(jobs.error)} onRetry={() => jobs.refetch()} />
          ) : list.length === 0 ? (
            <EmptyState>No jobs</EmptyState>
          ) : (
            <>
              <ul className="space-y-3" aria-label="Open jobs">
                {list.map((job) => (
                  <li key={job._id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <h2 className="heading-card">
                        <Link
                          to={paths.lawyerJob(job._id, me)}
                          className="text-brand underline-offset-2 hover:underline"
                        >
                          {job.productId.productName}
                        </Link>
                      </h2>
                      <p className="font-semibold text-ink">
                        <Naira amount={job.amount} />
                      </p>
                    </div>
                    <p className="mt-2 text-sm text-slate-700">{previewWords(job.productId.productDescription)}</p>
                    {job.detail && (
                      <p className="mt-1 text-sm text-slate-600">
                        <span className="font-medium text-slate-800">Job detail: </span>
                        {previewWords(job.detail)}
                      </p>
                    )}
                    {job.briefWithheld && <BriefWithheld />}
                    {job.applied && <p className="mt-2 text-xs font-semibold text-emerald-700">You applied</p>}
                  </li>
                ))}
              </ul>
              {/* A failed "Show more jobs" keeps the jobs already shown; the error and its retry go below them. */}
              {jobs.isFetchNextPageError && !jobs.isFetchingNextPage ? (
                <div className="mt-4">
                  <ErrorState message={getErrorMessage(jobs.error)} onRetry={() => jobs.fetchNextPage()} />
                </div>
              ) : (
                jobs.hasNextPage && (
                  <div className="mt-4 text-center">
                    <Button variant="secondary" loading={jobs.isFetchingNextPage} onClick={() => jobs.fetchNextPage()}>
                      Show more jobs
                    </Button>
                  </div>
                )
              )}
            </>
          )}
        </SectionBoundary>
      </section>
      <SectionBoundary>
        <LawyerSideCard />
      </SectionBoundary>
    </div>
  );
}
