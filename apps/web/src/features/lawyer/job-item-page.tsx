import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { LIMITS } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import type { LawyerJob } from '@legalmarket/contracts/lawyers';
import { Button } from '@/components/button';
import { ErrorState, Loading, Naira } from '@/components/feedback';
import { Modal } from '@/components/modal';
import { SectionBoundary } from '@/components/section-boundary';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';
import { getErrorMessage } from '@/lib/http';
import { useApplyForJob } from './api/apply-for-job';
import { getAvailableJobs } from './api/get-available-jobs';
import { useJob } from './api/get-job';
import { BriefWithheld, JobFile } from './components/job-file';
import { LawyerSideCard } from './components/lawyer-side-card';

/** /lawyer/available-job-item/{jobId}?lawyerId=: one job, Apply now, and up to two similar open jobs. */
export default function JobItemPage() {
  const { jobId = '' } = useParams();
  const [search] = useSearchParams();
  const session = useSession();
  const lawyerId = session?.userType === 'lawyer' ? session.userId : (search.get('lawyerId') ?? '');
  const job = useJob(jobId);

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 md:grid-cols-[1fr_18rem]">
      <div className="min-w-0 space-y-6">
        <SectionBoundary>
          {job.isLoading ? (
            <Loading label="Loading job..." />
          ) : job.isError ? (
            <ErrorState message={getErrorMessage(job.error)} onRetry={() => job.refetch()} />
          ) : job.data ? (
            <JobDetail job={job.data} lawyerId={lawyerId} canApply={session?.userType === 'lawyer'} />
          ) : null}
        </SectionBoundary>
        <SectionBoundary>
          <SimilarJobs jobId={jobId} lawyerId={lawyerId} />
        </SectionBoundary>
      </div>
      <SectionBoundary>
        <LawyerSideCard />
      </SectionBoundary>
    </div>
  );
}

function JobDetail({ job, lawyerId, canApply }: { job: LawyerJob; lawyerId: string; canApply: boolean }) {
  const apply = useApplyForJob(job._id, lawyerId);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const open = job.status === 'unassigned' && job.assignedTo.length === 0;
  const mine = job.assignedTo.some((a) => a._id === lawyerId);
  const detail = job.detail || job.companyDetail;

  const onApply = () =>
    apply.mutate(undefined, {
      onSuccess: (res) => setResult({ ok: true, text: res.message }),
      onError: (err) => setResult({ ok: false, text: getErrorMessage(err) }),
    });

  return (
    <article aria-labelledby="job-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h1 id="job-title" className="heading-title text-ink">
        {job.productId.productName}
      </h1>
      <p className="mt-1 text-xl font-semibold text-brand">
        <Naira amount={job.amount} />
      </p>
      <h2 className="heading-label mt-4 text-slate-500">Description</h2>
      <p className="mt-1 whitespace-pre-line text-slate-800">{job.productId.productDescription}</p>
      {detail && (
        <>
          <h2 className="heading-label mt-4 text-slate-500">Details</h2>
          <p className="mt-1 whitespace-pre-line text-slate-800">{detail}</p>
        </>
      )}
      {job.briefWithheld && <BriefWithheld />}
      {(job.companyFile || job.companyFileName) && (
        <p className="mt-3">
          <JobFile url={job.companyFile} name={job.companyFileName} readable={mine || !canApply} />
        </p>
      )}
      {canApply && open && (
        <div className="mt-6">
          {job.applied ? (
            <p className="font-semibold text-emerald-700" role="status">
              You have applied for this job. An admin will assign it.
            </p>
          ) : (
            <Button onClick={onApply} loading={apply.isPending}>
              Apply now
            </Button>
          )}
        </div>
      )}
      {!open && mine && (
        <p className="mt-6 text-sm text-slate-700">
          This job is assigned to you. See it on your{' '}
          <Link to={paths.lawyerDashboard()} className="font-semibold text-brand underline">
            dashboard
          </Link>
          .
        </p>
      )}
      <Modal
        open={result !== null}
        title={result?.ok ? 'Success' : 'Could not apply'}
        tone={result?.ok ? 'success' : 'error'}
        onClose={() => setResult(null)}
        footer={<Button onClick={() => setResult(null)}>Close</Button>}
      >
        <p>{result?.text}</p>
        {result && !result.ok && result.text === messages.unverifiedCannotApply && (
          <p className="mt-2">Admins verify new lawyers after checking their SCN.</p>
        )}
      </Modal>
    </article>
  );
}

/** Up to two other open jobs, shown only when there are other open jobs. */
function SimilarJobs({ jobId, lawyerId }: { jobId: string; lawyerId: string }) {
  const similar = useQuery({
    queryKey: ['lawyer', 'similar-jobs', jobId],
    queryFn: () => getAvailableJobs('recent', 1, LIMITS.similarJobs + 1),
  });
  const others = (similar.data ?? []).filter((j) => j._id !== jobId).slice(0, LIMITS.similarJobs);
  if (others.length === 0) return null;
  return (
    <section aria-labelledby="similar-jobs-title">
      <h2 id="similar-jobs-title" className="heading-section mb-3 text-ink">
        Similar Jobs
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2">
        {others.map((j) => (
          <li key={j._id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <Link
              to={paths.lawyerJob(j._id, lawyerId)}
              className="font-semibold text-brand underline-offset-2 hover:underline"
            >
              {j.productId.productName}
            </Link>
            <p className="text-sm font-semibold text-ink">
              <Naira amount={j.amount} />
            </p>
            {(j.companyFile || j.companyFileName) && (
              <p className="mt-2">
                <JobFile url={j.companyFile} name={j.companyFileName} readable={false} />
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
