import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { MessageCircle } from 'lucide-react';
import { formatOrdinalDate, previewWords } from '@legalmarket/contracts/format';
import { allowedJobActions, stageOf } from '@legalmarket/contracts/job-lifecycle';
import { LAWYER_LIST_MAX, requestDetailsInput, type LawyerJob } from '@legalmarket/contracts/lawyers';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { FormError, TextArea } from '@/components/field';
import { Modal } from '@/components/modal';
import { Pagination } from '@/components/pagination';
import { SectionBoundary } from '@/components/section-boundary';
import { Tabs, tabPanelProps } from '@/components/tabs';
import { getErrorMessage } from '@/lib/http';
import { useFormDraft } from '@/lib/drafts';
import { paths } from '@/lib/paths';
import { useListParams } from '@/lib/use-list-params';
import { useSession } from '@/lib/use-session';
import { PROJECTS_PAGE_SIZE, useProjects, type ProjectStatus } from './api/get-projects';
import { useRequestMoreDetails } from './api/request-details';
import { useLawyerProfile } from './api/get-lawyer-profile';
import { JobFile } from './components/job-file';
import { ResultModal, type ActionResult } from '@/components/result-modal';
import { VerificationBanner } from './components/verification-banner';

const TABS = [
  { id: 'pending', label: 'Pending projects' },
  { id: 'completed', label: 'Completed projects' },
] as const;

/** /lawyer/dashboard: the lawyer's pending and completed projects, and notifications on pending ones. */
export default function LawyerDashboardPage() {
  const tabsId = useId();
  // In the address: Back from a job page, or a reload, keeps the tab and page the lawyer was on.
  const { tab, page, setTab, setPage } = useListParams<ProjectStatus>(
    TABS.map((t) => t.id),
    'pending',
  );
  // One query per tab, so a tab never shows the other's list while its own page loads.
  const pending = useProjects('pending', tab === 'pending' ? page : 1);
  const completed = useProjects('completed', tab === 'completed' ? page : 1, { enabled: tab === 'completed' });
  // Notifications read the latest pending projects whatever page the list is on.
  const latestPending = useProjects('pending', 1, { limit: LAWYER_LIST_MAX });
  const current = tab === 'pending' ? pending : completed;
  const [asking, setAsking] = useState<LawyerJob | null>(null);
  const changeTab = setTab;
  // A lawyer whose verification was withdrawn reads its projects but asks nothing on them: the API
  // refuses its request with 403, as the job page offers it no action (decision 2310).
  const session = useSession();
  const profile = useLawyerProfile(session?.userType === 'lawyer' ? session.userId : undefined, false);
  // Only once the profile says verified: while it loads, or after its read failed, the lawyer may be
  // one the API refuses, and a button it answers 403 to is worse than one shown a moment later.
  const mayAsk = profile.data?.verified === true;
  const profileError = profile.isError && !profile.data ? getErrorMessage(profile.error) : null;
  // A page emptied meanwhile (a job completed): step back to the last page that has projects.
  const data = current.data;
  useEffect(() => {
    if (data && data.jobs.length === 0 && page > 1) setPage(Math.max(1, Math.ceil(data.total / PROJECTS_PAGE_SIZE)));
  }, [data, page, setPage]);

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="projects-title" className="min-w-0">
        <h1 id="projects-title" className="heading-title mb-4 text-ink">
          Projects
        </h1>
        <VerificationBanner />
        {profileError && (
          <div className="mb-6">
            <ErrorState
              message={`Your verification could not be checked, so Request more details is not offered. ${profileError}`}
              onRetry={() => void profile.refetch()}
            />
          </div>
        )}
        <Tabs id={tabsId} label="Projects" tabs={TABS} value={tab} onChange={changeTab} selectOnSmall />
        <div {...tabPanelProps(tabsId, tab)}>
          <SectionBoundary>
            {current.isLoading ? (
              <Loading label="Loading projects..." />
            ) : current.isError ? (
              <ErrorState message={getErrorMessage(current.error)} onRetry={() => current.refetch()} />
            ) : !current.data?.jobs.length ? (
              <EmptyState>No projects</EmptyState>
            ) : (
              <>
                <ul
                  className="space-y-3"
                  aria-label={tab === 'pending' ? 'Pending projects' : 'Completed projects'}
                  aria-busy={current.isPlaceholderData || undefined}
                >
                  {current.data.jobs.map((job) => (
                    <ProjectItem
                      key={job._id}
                      job={job}
                      // Only while the table lets the lawyer ask (not on a delivery waiting for the company).
                      onAsk={
                        mayAsk && allowedJobActions(stageOf(job), 'assigned_lawyer').includes('request_details')
                          ? () => setAsking(job)
                          : undefined
                      }
                    />
                  ))}
                </ul>
                <Pagination page={page} total={current.data.total} pageSize={PROJECTS_PAGE_SIZE} onChange={setPage} />
              </>
            )}
          </SectionBoundary>
        </div>
      </section>
      <SectionBoundary>
        <Notifications
          jobs={latestPending.data?.jobs ?? []}
          loading={latestPending.isLoading}
          error={latestPending.isError && !latestPending.data ? getErrorMessage(latestPending.error) : null}
          onRetry={() => void latestPending.refetch()}
        />
      </SectionBoundary>
      <RequestDetailsModal job={asking} onClose={() => setAsking(null)} />
    </div>
  );
}

function ProjectItem({ job, onAsk }: { job: LawyerJob; onAsk?: () => void }) {
  const company = job.companyId;
  const contact =
    'inline-flex min-h-11 items-center gap-1 rounded-md px-2 text-sm font-semibold text-brand hover:bg-brand/5';
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`project-${job._id}-product`} className="heading-card text-ink">
          {job.productId.productName}
        </h2>
        <p className="font-semibold">
          <Naira amount={job.amount} />
        </p>
      </div>
      <p className="text-sm text-slate-600">{company.companyName}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Link to={paths.job(job._id)} className={contact} aria-label={`Messages and files with ${company.companyName}`}>
          <MessageCircle className="size-4" aria-hidden /> Messages and files
        </Link>
        {job.dueAt && job.status === 'pending' && (
          <span className="text-sm text-slate-600">
            Due {formatOrdinalDate(job.dueAt)}
            {job.late && <span className="ml-1 font-bold text-red-700">Late</span>}
          </span>
        )}
        {onAsk && (
          // One per project: its description names the project it asks about.
          <Button
            variant="secondary"
            className="ml-auto"
            aria-describedby={`project-${job._id}-product`}
            onClick={onAsk}
          >
            Request more details
          </Button>
        )}
      </div>
      {/* Whatever the verification: a request already sent stays the lawyer's to read. */}
      {job.lawyerRequestedDetail && (
        // The request keeps its line breaks, as the job page shows it.
        <p className="mt-2 text-sm whitespace-pre-line text-slate-600">
          <span className="font-medium text-slate-800">Your last request: </span>
          {job.lawyerRequestedDetail}
        </p>
      )}
    </li>
  );
}

type RequestDetailsValues = z.input<typeof requestDetailsInput>;

function RequestDetailsModal({ job, onClose }: { job: LawyerJob | null; onClose: () => void }) {
  const formId = useId();
  const [result, setResult] = useState<ActionResult | null>(null);
  const send = useRequestMoreDetails();
  const form = useForm<RequestDetailsValues, unknown, z.output<typeof requestDetailsInput>>({
    resolver: zodResolver(requestDetailsInput),
    defaultValues: { detail: '' },
  });
  const { register, handleSubmit, reset, formState } = form;
  // Closing the dialog (a tap beside it, Back) empties the form, not the job's draft: opening it again
  // for the job finds the request as typed (decision 2226).
  const clearDraft = useFormDraft(job ? `details-request:${job._id}` : null, form, ['detail']);
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    shownFor.current = job?._id ?? null;
  }, [job]);
  const close = () => {
    reset();
    // A request still on its way is not forgotten: opened again the dialog waits for it, and its
    // answer still says Success and drops the draft, where a reset would have silenced both.
    if (!send.isPending) send.reset();
    onClose();
  };
  const submit = handleSubmit((v) => {
    if (!job) return;
    const sentFor = job._id;
    send.mutate(
      { jobId: sentFor, detail: v.detail },
      {
        onSuccess: (res) => {
          clearDraft();
          // Opened meanwhile for another job: what is typed there stays, and no Success covers it.
          if (shownFor.current !== null && shownFor.current !== sentFor) return;
          close();
          setResult({ ok: true, text: res.message });
        },
      },
    );
  });
  return (
    <>
      <Modal
        open={job !== null}
        title="Request more details"
        onClose={close}
        footer={
          <Button type="submit" form={formId} loading={send.isPending}>
            Send
          </Button>
        }
      >
        <form id={formId} noValidate onSubmit={submit} className="space-y-3">
          <p>
            Ask the company what you need for <strong>{job?.productId.productName}</strong>. They will see it in their
            notifications and by e-mail.
          </p>
          <TextArea
            label="What details do you need?"
            maxLength={2000}
            error={formState.errors.detail?.message}
            // A refusal from the server goes once the request is edited, as the old form did. Only a
            // refusal: resetting a request on its way would detach it and let a second one go out.
            {...register('detail', {
              onChange: () => {
                if (send.isError) send.reset();
              },
            })}
          />
          {/* Only this job's refusal: the request may have been sent from the dialog for another job. */}
          <FormError message={send.isError && send.variables.jobId === job?._id ? getErrorMessage(send.error) : null} />
        </form>
      </Modal>
      <ResultModal result={result} onClose={() => setResult(null)} />
    </>
  );
}

/** Pending jobs on which the company or an admin added details. */
function Notifications({
  jobs,
  loading,
  error,
  onRetry,
}: {
  jobs: LawyerJob[];
  loading: boolean;
  /** The read failed: said so with a retry, never "No notifications yet." over details that may be waiting. */
  error: string | null;
  onRetry: () => void;
}) {
  const [open, setOpen] = useState<LawyerJob | null>(null);
  const withNews = jobs.filter(
    (j) => j.status === 'pending' && (j.companyDetail || j.companyFile || j.adminDetail || j.adminFile),
  );
  return (
    <aside aria-labelledby="notifications-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="notifications-title" className="heading-card text-ink">
        Notifications
      </h2>
      {loading ? (
        <Loading />
      ) : error ? (
        <div className="mt-3">
          <ErrorState message={`Notifications could not be loaded. ${error}`} onRetry={onRetry} />
        </div>
      ) : withNews.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No notifications yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" aria-label="Notifications">
          {withNews.map((j) => (
            <li key={j._id} className="py-3">
              <p id={`news-${j._id}-product`} className="font-semibold text-ink">
                {j.productId.productName}
              </p>
              {j.companyDetail && (
                <p className="mt-1 text-sm text-slate-700">
                  <span className="font-medium">Company: </span>
                  {previewWords(j.companyDetail)}
                </p>
              )}
              {j.adminDetail && (
                <p className="mt-1 text-sm text-slate-700">
                  <span className="font-medium">Admin: </span>
                  {previewWords(j.adminDetail)}
                </p>
              )}
              <Button
                variant="ghost"
                className="-ml-4"
                aria-describedby={`news-${j._id}-product`}
                onClick={() => setOpen(j)}
              >
                View more details
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={open !== null}
        title={open?.productId.productName ?? ''}
        onClose={() => setOpen(null)}
        footer={<Button onClick={() => setOpen(null)}>Close</Button>}
      >
        {open && (
          <div className="space-y-3">
            <p>{open.productId.productDescription}</p>
            {open.lawyerRequestedDetail && (
              <p>
                <span className="font-semibold">You asked: </span>
                {open.lawyerRequestedDetail}
              </p>
            )}
            {(open.companyDetail || open.companyFile) && (
              <div>
                <h3 className="font-semibold">From the company</h3>
                {open.companyDetail && <p className="whitespace-pre-line">{open.companyDetail}</p>}
                <JobFile url={open.companyFile} name={open.companyFileName} readable />
              </div>
            )}
            {(open.adminDetail || open.adminFile) && (
              <div>
                <h3 className="font-semibold">From the admin</h3>
                {open.adminDetail && <p className="whitespace-pre-line">{open.adminDetail}</p>}
                <JobFile url={open.adminFile} name={open.adminFileName} readable />
              </div>
            )}
          </div>
        )}
      </Modal>
    </aside>
  );
}
