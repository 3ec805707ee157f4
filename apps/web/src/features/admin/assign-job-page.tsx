import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DELAYS_MS } from '@legalmarket/contracts/constants';
import { formatOrdinalDate } from '@legalmarket/contracts/format';
import { allowedJobActions, stageOf } from '@legalmarket/contracts/job-lifecycle';
import { messages } from '@legalmarket/contracts/messages';
import type { LawyerRecord, LawyerRecordSort } from '@legalmarket/contracts/lawyer-reviews';
import { paths } from '@/lib/paths';
import { Button } from '@/components/button';
import { DocumentLink } from '@/components/document-link';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { Pagination } from '@/components/pagination';
import { Tabs, tabPanelProps } from '@/components/tabs';
import { getErrorMessage } from '@/lib/http';
import { STAGE_LABELS } from '@/features/jobs/words';
import { AdminLayout } from './admin-layout';
import { useAssignJob } from './api/assign-job';
import { useJob } from './api/get-job';
import { useLawyerRecords } from './api/get-lawyer-records';
import { PAGE_SIZE } from './api/keys';
import { Avatar, LawyerModal, type LawyerSummary } from './lawyer-modal';

type Tab = 'applied' | 'verified';
const TABS = [
  { id: 'applied', label: 'Applied Lawyers' },
  { id: 'verified', label: 'Verified Lawyers' },
] as const;

const SORTS: ReadonlyArray<{ id: LawyerRecordSort; label: string }> = [
  { id: 'newest', label: 'Newest' },
  { id: 'rating', label: 'Average rating' },
  { id: 'reviews', label: 'Number of reviews' },
  { id: 'completed', label: 'Completed jobs' },
  { id: 'onTime', label: 'On-time rate' },
];

/** "4.3 ★ (3 reviews) · 5 completed · 80% on time": the track record the admin assigns by. */
function TrackRecord({ l }: { l: LawyerRecord }) {
  return (
    <span className="block text-sm text-slate-700" data-testid="track-record">
      <span className="font-semibold">{l.average === null ? 'No rating' : `${l.average.toFixed(1)} ★`}</span> (
      {l.reviews} {l.reviews === 1 ? 'review' : 'reviews'}) · {l.completedJobs} completed ·{' '}
      {l.onTimeRate === null ? 'no on-time record' : `${Math.round(l.onTimeRate * 100)}% on time`}
    </span>
  );
}

function LawyerRows({
  lawyers,
  selected,
  onSelect,
  onView,
}: {
  lawyers: LawyerRecord[];
  selected: LawyerSummary | null;
  onSelect: (l: LawyerSummary | null) => void;
  /** View more: the lawyer modal with Verify Lawyer and Go to profile (spec, admin assign job). */
  onView: (l: LawyerSummary) => void;
}) {
  return (
    <ul className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      {lawyers.map((l) => {
        const checked = selected?._id === l._id;
        return (
          <li key={l._id} className="flex flex-wrap items-center gap-x-2 pr-3 hover:bg-slate-50">
            <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-3 py-3 pl-4">
              <input
                type="checkbox"
                className="size-5 shrink-0 accent-brand"
                checked={checked}
                onChange={() => onSelect(checked ? null : l)}
                aria-label={`Select ${l.name}`}
              />
              <Avatar url={l.profileImage?.url} name={l.name} />
              <span className="min-w-0 flex-1">
                {/* The badge beside the cut name, not in it: on a phone a long name cut off "Unverified". */}
                <span className="flex min-w-0 items-center gap-2">
                  <span className="truncate font-semibold">{l.name}</span>
                  {!l.verified && (
                    <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
                      Unverified
                    </span>
                  )}
                </span>
                <span className="block text-sm text-slate-600">
                  SCN {l.scn ?? '—'} · joined {formatOrdinalDate(l.createdAt)}
                </span>
                <TrackRecord l={l} />
              </span>
            </label>
            <Button variant="ghost" className="ml-auto" onClick={() => onView(l)} aria-label={`View more: ${l.name}`}>
              View more
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Assign a job: pick one lawyer (applied or any verified), ASSIGN, back to the jobs list. A job at work
 * whose lawyer lost verification is passed on the same way, after a confirmation (decisions 2310, 2316).
 */
export default function AdminAssignJobPage() {
  const tabsId = useId();
  const { jobId = '' } = useParams();
  const navigate = useNavigate();
  const job = useJob(jobId);
  const [tab, setTab] = useState<Tab>('applied');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<LawyerSummary | null>(null);
  const [viewing, setViewing] = useState<LawyerSummary | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [sort, setSort] = useState<LawyerRecordSort>('newest');
  const [confirming, setConfirming] = useState(false);
  const lawyers = useLawyerRecords({ jobId: tab === 'applied' ? jobId : undefined, sort, page });
  const assign = useAssignJob();
  const stage = job.data ? stageOf(job.data.data.job) : 'unassigned';
  const current = job.data?.data.job.assignedTo[0];
  // The API passes on only a job at work whose lawyer is no longer verified (decision 2310).
  const replacing =
    (stage === 'in_progress' || stage === 'changes_requested') && current?.verified === false ? current : null;

  useEffect(() => {
    if (!assign.isSuccess) return;
    const t = setTimeout(() => navigate(paths.adminJobs()), DELAYS_MS.afterSuccess);
    return () => clearTimeout(t);
  }, [assign.isSuccess, navigate]);

  const changeTab = (t: Tab) => {
    setTab(t);
    setPage(1);
  };

  const onAssign = () => {
    setAlert(null);
    if (!selected) {
      setAlert(messages.selectLawyer);
      return;
    }
    if (!selected.verified) {
      setViewing(selected);
      return;
    }
    if (replacing) {
      setConfirming(true);
      return;
    }
    assign.mutate({ jobId, lawyerId: selected._id });
  };

  if (job.isPending)
    return (
      <AdminLayout title="Assign job">
        <Loading />
      </AdminLayout>
    );
  if (job.isError)
    return (
      <AdminLayout title="Assign job">
        <ErrorState message={getErrorMessage(job.error)} onRetry={() => void job.refetch()} />
      </AdminLayout>
    );

  const j = job.data.data.job;
  const canAssign = Boolean(replacing) || allowedJobActions(stage, 'admin').includes('assign');

  return (
    <AdminLayout title="Assign job">
      <article className="mb-6 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 className="heading-card">{j.productId.productName}</h2>
        <p className="text-sm text-slate-600">
          <Naira amount={j.productId.productPrice} /> · {j.companyId.companyName}
        </p>
        <h3 className="mt-3 font-semibold">Product description</h3>
        <p className="whitespace-pre-line text-sm">{j.productId.productDescription}</p>
        <h3 className="mt-3 font-semibold">Job detail</h3>
        {/* The company's text and its file each show when present, so a file sent without text is reachable. */}
        {(j.companyDetail || j.detail) && <p className="whitespace-pre-line text-sm">{j.companyDetail || j.detail}</p>}
        {j.companyFile && (
          <p className="text-sm">
            <DocumentLink url={j.companyFile} name={j.companyFileName} />
          </p>
        )}
        {!j.companyDetail && !j.detail && !j.companyFile && <p className="text-sm text-slate-600">No details yet.</p>}
        {(j.adminDetail || j.adminFile) && (
          <>
            <h3 className="mt-3 font-semibold">Admin details</h3>
            {j.adminDetail && <p className="whitespace-pre-line text-sm">{j.adminDetail}</p>}
            {j.adminFile && (
              <p className="text-sm">
                <DocumentLink url={j.adminFile} name={j.adminFileName} />
              </p>
            )}
          </>
        )}
      </article>

      {replacing && !assign.isSuccess && (
        <div role="status" className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-3 text-amber-900">
          <p className="font-semibold">{replacing.name} has lost verification.</p>
          <p className="text-sm">
            Stage: {STAGE_LABELS[stage]}. Choose a verified lawyer to pass the job to: it keeps its stage and its
            thread, files and deliveries.
          </p>
        </div>
      )}
      {assign.isSuccess ? (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-800">
          {assign.data.message || messages.jobAssigned}
        </p>
      ) : !canAssign ? (
        <div role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-3 text-amber-900">
          {stage === 'completed'
            ? messages.jobAlreadyCompleted
            : stage === 'cancelled'
              ? messages.jobCancelledNoAssign
              : messages.jobAlreadyAssigned}
          {/* A cancelled job has no lawyer at work on it any more: the name is of the one it had. */}
          {j.assignedTo[0] && (
            <>
              {' '}
              ({stage === 'cancelled' ? 'Previously assigned' : 'Assigned'} to {j.assignedTo[0].name})
            </>
          )}{' '}
          <Link to={paths.adminJobs()} className="font-semibold underline">
            Back to jobs
          </Link>
        </div>
      ) : (
        <>
          <Tabs id={tabsId} label="Lawyers" tabs={TABS} value={tab} onChange={changeTab} />
          <label className="mt-3 flex items-center gap-2 text-sm">
            <span className="font-medium">Sort by</span>
            <select
              className="min-h-11 rounded-md border border-slate-300 bg-white px-2"
              value={sort}
              onChange={(e) => {
                setSort(e.target.value as LawyerRecordSort);
                setPage(1);
              }}
            >
              {SORTS.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <div {...tabPanelProps(tabsId, tab)} className="mt-3">
            {lawyers.isPending ? (
              <Loading />
            ) : lawyers.isError ? (
              <ErrorState message={getErrorMessage(lawyers.error)} onRetry={() => void lawyers.refetch()} />
            ) : lawyers.data.lawyers.length === 0 ? (
              <EmptyState>No lawyers available</EmptyState>
            ) : (
              <>
                <LawyerRows
                  lawyers={lawyers.data.lawyers}
                  selected={selected}
                  onSelect={setSelected}
                  onView={setViewing}
                />
                <Pagination page={page} total={lawyers.data.total} pageSize={PAGE_SIZE} onChange={setPage} />
              </>
            )}
          </div>

          <div className="mt-4 flex flex-wrap items-center justify-end gap-3">
            {selected && <p className="text-sm text-slate-600">Selected: {selected.name}</p>}
            <Button onClick={onAssign} loading={assign.isPending} disabled={assign.isSuccess}>
              {replacing ? 'REASSIGN' : 'ASSIGN'}
            </Button>
          </div>
          <div className="mt-3">
            <FormError message={alert ?? (assign.isError ? getErrorMessage(assign.error) : null)} />
          </div>
        </>
      )}

      {replacing && selected && (
        <Modal
          open={confirming}
          title="Pass this job to another lawyer?"
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button variant="ghost" onClick={() => setConfirming(false)} disabled={assign.isPending}>
                Cancel
              </Button>
              <Button
                loading={assign.isPending}
                onClick={() => {
                  setConfirming(false);
                  assign.mutate({ jobId, lawyerId: selected._id });
                }}
              >
                Pass it to {selected.name}
              </Button>
            </>
          }
        >
          <p>
            {j.productId.productName} passes from {replacing.name} to {selected.name}.
          </p>
          <p className="mt-2">
            The job keeps its stage ({STAGE_LABELS[stage]}) and its thread, files and deliveries. {replacing.name} will
            no longer see it; {selected.name} and the company are told.
          </p>
        </Modal>
      )}

      <LawyerModal
        lawyer={viewing}
        onClose={() => setViewing(null)}
        onVerified={() => {
          if (selected && viewing && selected._id === viewing._id) setSelected({ ...selected, verified: true });
          void job.refetch();
        }}
      />
    </AdminLayout>
  );
}
