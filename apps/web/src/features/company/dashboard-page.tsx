import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { companyJobDetailsInput } from '@legalmarket/contracts/commerce';
import { Bell, MessageCircle, Phone } from 'lucide-react';
import { formatOrdinalDate, previewWords } from '@legalmarket/contracts/format';
import { allowedJobActions, stageOf } from '@legalmarket/contracts/job-lifecycle';
import { Link } from 'react-router';
import { usePublicConfig } from '@/lib/public-config';
import { useFormDraft } from '@/lib/drafts';
import { paths } from '@/lib/paths';
import { Button } from '@/components/button';
import { DocumentLink } from '@/components/document-link';
import { PdfDownload } from '@/components/pdf-download';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { FormError, TextArea } from '@/components/field';
import { FormDocumentField } from '@/components/form-document-field';
import { Modal } from '@/components/modal';
import { SectionBoundary } from '@/components/section-boundary';
import { Tabs, tabPanelProps } from '@/components/tabs';
import { getErrorMessage } from '@/lib/http';
import { useEditJobDetails } from './api/edit-job-details';
import { useCompanyJobs, type CompanyJob, type JobTab } from './api/get-jobs';
import { useOrders } from './api/get-orders';
import { useRefunds } from './api/get-refunds';

const TABS = [
  { id: 'pending', label: 'Pending' },
  { id: 'completed', label: 'Completed' },
] as const;

function JobItem({ job, supportPhone }: { job: CompanyJob; supportPhone: string }) {
  const phone = supportPhone.replace(/\D/g, '');
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        {/* Under the page's h1: an h3 here skipped a level in a screen reader's list of headings. The
            base size it had as an h3: heading-card's text-lg wrapped long names more on a 360 px phone. */}
        <h2 className="heading-item text-ink">{job.productId.productName}</h2>
        <p className="text-sm text-slate-600">
          <Naira amount={job.amount} />
          {job.quantity > 1 && <> · quantity {job.quantity}</>}
          {' · '}
          {job.status === 'unassigned'
            ? 'Awaiting a lawyer'
            : job.status === 'pending'
              ? `With ${job.assignedTo[0]?.name ?? 'a lawyer'}`
              : 'Completed'}
          {job.stage === 'delivered' && ' · Delivered: please review'}
          {job.status === 'pending' && job.dueAt && <> · due {formatOrdinalDate(job.dueAt)}</>}
          {job.late && <span className="ml-1 font-bold text-red-700">Late</span>}
        </p>
        {job.adminFile && (
          <p className="mt-1 text-sm">
            <DocumentLink url={job.adminFile} name={job.adminFileName ?? 'Document from LegalMarket'} />
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <a
          href={`tel:+${phone}`}
          className="inline-flex min-h-11 items-center gap-1 rounded-md border border-brand px-3 text-sm font-semibold text-brand hover:bg-brand/5"
        >
          <Phone aria-hidden className="size-4" /> Schedule a call
        </a>
        <Link
          to={paths.job(job._id)}
          className="inline-flex min-h-11 items-center gap-1 rounded-md bg-brand px-3 text-sm font-semibold text-white hover:bg-brand-dark"
        >
          <MessageCircle aria-hidden className="size-4" /> Chat with a lawyer
        </Link>
      </div>
    </li>
  );
}

function GiveDetailsModal({ job, onClose }: { job: CompanyJob | null; onClose: () => void }) {
  // Here, not in the form that closing the dialog takes away: details still on their way when the dialog
  // is closed keep Send busy if it is opened again, and their answer still drops the draft and says so.
  const edit = useEditJobDetails();
  const [done, setDone] = useState<string | null>(null);
  // A document on its way: a stray tap beside the dialog would take the form away and stop it (decision 2293).
  const [uploading, setUploading] = useState(false);
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    shownFor.current = job?._id ?? null;
  }, [job]);
  // Opened meanwhile for another job: that job's dialog stays as it is, its draft as typed.
  const sent = (message: string, jobId: string) => {
    if (shownFor.current === null || shownFor.current === jobId) setDone(message);
  };
  const close = () => {
    setDone(null);
    if (!edit.isPending) edit.reset();
    onClose();
  };
  return (
    <Modal
      open={Boolean(job) || done !== null}
      title={done ? done : 'Give more details'}
      tone={done ? 'success' : 'neutral'}
      onClose={close}
      closeOnOutsideTap={!uploading}
    >
      {job && !done && (
        <GiveDetailsForm
          key={job._id}
          job={job}
          edit={edit}
          onSent={sent}
          uploading={uploading}
          onUploadingChange={setUploading}
        />
      )}
      {done && (
        <div className="flex justify-end">
          <Button onClick={close}>Close</Button>
        </div>
      )}
    </Modal>
  );
}

type GiveDetailsValues = z.input<typeof companyJobDetailsInput>;

/** The company's answer to a lawyer's request: text needed, a document optional (the contract's body). */
function GiveDetailsForm({
  job,
  edit,
  onSent,
  uploading,
  onUploadingChange,
}: {
  job: CompanyJob;
  edit: ReturnType<typeof useEditJobDetails>;
  onSent: (message: string, jobId: string) => void;
  uploading: boolean;
  onUploadingChange: (uploading: boolean) => void;
}) {
  const form = useForm<GiveDetailsValues, unknown, z.output<typeof companyJobDetailsInput>>({
    resolver: zodResolver(companyJobDetailsInput),
    defaultValues: { detail: '', file: undefined, fileName: undefined },
  });
  const { register, handleSubmit, control, formState } = form;
  // Kept while written: a tap outside the dialog or a reload loses nothing (decision 2226).
  // The drafted document dropped as uploaded too long ago to send: named under the field.
  const [staleFiles, setStaleFiles] = useState<string[]>([]);
  const clearDraft = useFormDraft(`details:${job._id}`, form, ['detail', 'file', 'fileName'], (n) =>
    setStaleFiles([n]),
  );
  const send = handleSubmit((v) =>
    edit.mutate(
      { jobId: job._id, detail: v.detail, file: v.file, fileName: v.fileName },
      {
        onSuccess: (res) => {
          clearDraft();
          onSent(res.message, job._id);
        },
      },
    ),
  );
  return (
    <form className="space-y-4" noValidate onSubmit={send}>
      <div>
        <p className="text-xs font-semibold text-slate-500 uppercase">Requested details</p>
        <p className="mt-1 whitespace-pre-wrap text-ink">{job.lawyerRequestedDetail}</p>
      </div>
      <TextArea
        label="Your details"
        placeholder="Start typing..."
        maxLength={5000}
        error={formState.errors.detail?.message}
        {...register('detail')}
      />
      <FormDocumentField
        staleFiles={staleFiles}
        control={control}
        label="Attach a document (optional)"
        hint="PDF, Word (DOC, DOCX) or a picture, at most 10 MB."
        onBusyChange={onUploadingChange}
      />
      {/* Only this job's refusal: the mutation is shared with the dialog opened for other jobs. */}
      <FormError message={edit.isError && edit.variables.jobId === job._id ? getErrorMessage(edit.error) : null} />
      <div className="flex justify-end">
        <Button type="submit" loading={edit.isPending} disabled={uploading}>
          Send
        </Button>
      </div>
    </form>
  );
}

const ORDER_STATUS: Record<string, string> = {
  paid: 'Paid',
  pending: 'Awaiting payment',
  failed: 'Failed',
  expired: 'Expired',
  replaced: 'Replaced by a newer checkout',
};

/** The receipt's and credit note's file names, as the API names them. */
const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '_');

function Payments() {
  const orders = useOrders();
  // Credit notes are extra: the payments list shows without them while they load or if they fail.
  const refunds = useRefunds();
  if (orders.isLoading) return <Loading label="Loading payments..." />;
  if (orders.isError)
    return <ErrorState message={getErrorMessage(orders.error)} onRetry={() => void orders.refetch()} />;
  if (!orders.data?.length) return <p className="mt-3 text-sm text-slate-600">No payments yet</p>;
  return (
    <ul className="mt-3 divide-y divide-slate-100 text-sm">
      {orders.data.map((o) => (
        <li key={o._id} className="py-2">
          <div className="flex justify-between gap-2">
            <span className="font-semibold text-ink">
              <Naira amount={o.amount} />
            </span>
            <span className={o.status === 'paid' ? 'text-emerald-700' : 'text-slate-600'}>
              {ORDER_STATUS[o.status] ?? o.status}
            </span>
          </div>
          <p className="text-xs break-all text-slate-500">
            {formatOrdinalDate(o.paidAt ?? o.createdAt)} · Ref {o.reference}
          </p>
          {o.status === 'paid' && (
            <div className="flex flex-wrap gap-x-4 text-sm">
              <PdfDownload
                path={`/api/orders/${o._id}/receipt.pdf`}
                filename={`receipt-${fileSafe(o.reference)}.pdf`}
                label={`Receipt for payment ${o.reference}`}
              >
                Receipt
              </PdfDownload>
              {(refunds.data ?? [])
                .filter((r) => r.orderId === o._id)
                .map((r) => (
                  <PdfDownload
                    key={r._id}
                    path={`/api/refunds/${r._id}/credit-note.pdf`}
                    filename={`credit-note-${fileSafe(r.reference)}-${r._id.slice(0, 8)}.pdf`}
                    label={`Credit note for the refund of ${r.productName}, payment ${o.reference}`}
                  >
                    Credit note <Naira amount={r.amount} exact />
                  </PdfDownload>
                ))}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** /company/dashboard: the company's jobs (spec screen 13). */
export default function CompanyDashboardPage() {
  const tabsId = useId();
  const [tab, setTab] = useState<JobTab>('pending');
  const { supportPhone } = usePublicConfig();
  const pending = useCompanyJobs('pending');
  const completed = useCompanyJobs('completed', tab === 'completed');
  const current = tab === 'pending' ? pending : completed;
  const [giving, setGiving] = useState<CompanyJob | null>(null);
  // A lawyer's request the company can still answer: the lifecycle table decides (a delivered job takes
  // an acceptance or a request for changes instead, and its details route answers 409).
  const notifications = (pending.data ?? []).filter(
    (j) =>
      j.status === 'pending' &&
      j.lawyerRequestedDetail?.trim() &&
      allowedJobActions(stageOf(j), 'company').includes('give_details'),
  );

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="jobs-title" className="min-w-0">
        <h1 id="jobs-title" className="heading-title mb-4 text-ink">
          Your jobs
        </h1>
        <Tabs id={tabsId} label="Jobs" tabs={TABS} value={tab} onChange={setTab} />
        <div {...tabPanelProps(tabsId, tab)}>
          <SectionBoundary>
            {current.isLoading ? (
              <Loading label="Loading jobs..." />
            ) : current.isError ? (
              <ErrorState message={getErrorMessage(current.error)} onRetry={() => void current.refetch()} />
            ) : !current.data?.length ? (
              <EmptyState>No jobs</EmptyState>
            ) : (
              <ul className="space-y-3">
                {current.data.map((j) => (
                  <JobItem key={j._id} job={j} supportPhone={supportPhone} />
                ))}
              </ul>
            )}
          </SectionBoundary>
        </div>
      </section>

      <aside aria-labelledby="notes-title" className="h-fit rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="notes-title" className="heading-card flex items-center gap-2 text-ink">
          <Bell aria-hidden className="size-5" /> Notifications
        </h2>
        <SectionBoundary>
          {pending.isLoading ? (
            <Loading label="Loading notifications..." />
          ) : pending.isError && !pending.data ? (
            // Not "No notifications": a failed read says nothing about a lawyer's request waiting here.
            <ErrorState
              message={`Notifications could not be loaded. ${getErrorMessage(pending.error)}`}
              onRetry={() => void pending.refetch()}
            />
          ) : notifications.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No notifications</p>
          ) : (
            <ul className="mt-3 space-y-3">
              {notifications.map((j) => (
                <li key={j._id} className="rounded-lg bg-sand/40 p-3">
                  <p id={`request-${j._id}-product`} className="font-semibold text-ink">
                    {j.productId.productName}
                  </p>
                  <p className="mt-1 text-sm text-slate-700">{previewWords(j.lawyerRequestedDetail, 17)}</p>
                  {j.companyDetail && (
                    <p className="mt-1 text-xs text-slate-500">You answered: {previewWords(j.companyDetail, 17)}</p>
                  )}
                  {/* One such button per request: its description names the job it answers. */}
                  <Button
                    variant="secondary"
                    className="mt-2"
                    aria-describedby={`request-${j._id}-product`}
                    onClick={() => setGiving(j)}
                  >
                    Give more details
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </SectionBoundary>
      </aside>
      <aside
        aria-labelledby="payments-title"
        className="h-fit rounded-xl border border-slate-200 bg-white p-4 shadow-sm lg:col-start-2"
      >
        <h2 id="payments-title" className="heading-card text-ink">
          Your payments
        </h2>
        <SectionBoundary>
          <Payments />
        </SectionBoundary>
      </aside>
      <GiveDetailsModal job={giving} onClose={() => setGiving(null)} />
    </div>
  );
}
