import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { editJobDetailsInput, fileReference } from '@legalmarket/contracts/admin';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import { allowedJobActions, stageOf } from '@legalmarket/contracts/job-lifecycle';
import { messages } from '@legalmarket/contracts/messages';
import { useFormDraft } from '@/lib/drafts';
import { paths } from '@/lib/paths';
import { Button } from '@/components/button';
import { DocumentLink } from '@/components/document-link';
import { Naira } from '@/components/feedback';
import { FormError, TextArea } from '@/components/field';
import { FileUpload, type UploadedFile } from '@/components/file-upload';
import { Modal } from '@/components/modal';
import { getErrorMessage } from '@/lib/http';
import { completedJobId, useCompleteJob } from './api/complete-job';
import { useEditJobDetails } from './api/edit-job-details';
import { NotDeliveredAlert, PayeeReason } from './complete-payee';

/** View more: product, details and files; Assign on open jobs, Mark as Completed on pending ones. */
export function JobModal({
  job,
  onClose,
  onDone,
  payee,
}: {
  job: JobViewResponse | null;
  onClose: () => void;
  onDone: (message: string) => void;
  /**
   * The one-job answer that names whom Mark as Completed pays, while it is on its way or failed: the
   * completion waits for it, as pressed before it carried no check (decision 2340).
   */
  payee?: { pending: boolean; error: unknown; retry: () => void };
}) {
  const complete = useCompleteJob();
  // The job whose box was ticked: another job's dialog opened after it starts unticked.
  const [tickedFor, setTickedFor] = useState<string | null>(null);
  // Completing pays the lawyer's share and closes the job for good: the tick asks first.
  const [asking, setAsking] = useState(false);
  // The job shown now: a completion answered after the dialog moved on speaks only to its own job.
  const shownFor = useRef<string | null>(null);
  shownFor.current = job?._id ?? null;
  const mine = Boolean(job) && completedJobId(complete.variables) === job?._id;
  const actions = job ? allowedJobActions(stageOf(job), 'admin') : [];
  const close = () => {
    // A completion on its way stays attached through a close (decision 2281): only a finished one resets.
    if (!complete.isPending) complete.reset();
    setTickedFor(null);
    setAsking(false);
    onClose();
  };
  const lawyer = job?.assignedTo[0];
  // Only the one-job answer says it (the jobs page loads it for View more); the list's row does not.
  const pay = job?.payOnComplete;
  const payeeMissing = !pay && (payee?.pending || Boolean(payee?.error));
  if (job && asking)
    return (
      <Modal
        open
        title="Mark this job as completed?"
        onClose={() => setAsking(false)}
        footer={
          <>
            <Button variant="ghost" onClick={() => setAsking(false)} disabled={complete.isPending}>
              Cancel
            </Button>
            <Button
              loading={complete.isPending}
              disabled={payeeMissing}
              aria-describedby={payeeMissing ? 'complete-payee-reason' : undefined}
              onClick={() => {
                setTickedFor(job._id);
                const id = job._id;
                // The payee and amount this dialog names: paid as shown, or refused if changed meanwhile (2340).
                complete.mutate(pay ? { id, lawyerId: pay.lawyerId, amount: pay.amount } : id, {
                  onSuccess: (res) => {
                    onDone(res.message || messages.jobCompleted);
                    if (shownFor.current === id || shownFor.current === null) close();
                  },
                  onError: () => {
                    if (shownFor.current !== id) return;
                    setTickedFor(null);
                    setAsking(false);
                  },
                });
              }}
            >
              Mark as Completed
            </Button>
          </>
        }
      >
        {payeeMissing && <PayeeReason id="complete-payee-reason" error={payee?.error} retry={payee?.retry} />}
        {pay ? (
          // Whom the completion pays and how much, from the one-job answer: after a hand-over it pays the
          // present lawyer, who may have delivered nothing (decision 2322).
          <>
            <p>
              <strong>{job.productId.productName}</strong> for {job.companyId.companyName} moves to Completed and{' '}
              <strong>{pay.name}</strong> is paid <Naira amount={pay.amount} exact /> (what is held for the job, less
              the commission). This cannot be undone.
            </p>
            {!pay.delivered && <NotDeliveredAlert name={pay.name} />}
          </>
        ) : (
          <p>
            <strong>{job.productId.productName}</strong> for {job.companyId.companyName} moves to Completed
            {lawyer ? ` and ${lawyer.name} is paid their share` : ''}. This cannot be undone.
          </p>
        )}
      </Modal>
    );
  return (
    <Modal open={Boolean(job)} title={job?.productId.productName ?? 'Job'} onClose={close}>
      {job && (
        <div className="space-y-3">
          <p>
            <Naira amount={job.productId.productPrice} />
            {job.quantity > 1 && <span className="text-slate-500"> × {job.quantity}</span>} ·{' '}
            {job.companyId.companyName}
          </p>
          <p className="whitespace-pre-line">{job.productId.productDescription}</p>
          {/* The company's text and its file are shown each on its own: a file sent without text is still reachable. */}
          {(job.companyDetail || job.detail || job.companyFile) && (
            <div>
              <h3 className="font-semibold text-ink">Company details</h3>
              {(job.companyDetail || job.detail) && (
                <p className="whitespace-pre-line">{job.companyDetail || job.detail}</p>
              )}
              {job.companyFile && <DocumentLink url={job.companyFile} name={job.companyFileName} />}
            </div>
          )}
          {job.lawyerRequestedDetail && (
            <div>
              <h3 className="font-semibold text-ink">Lawyer asked for</h3>
              <p className="whitespace-pre-line">{job.lawyerRequestedDetail}</p>
            </div>
          )}
          {(job.adminDetail || job.adminFile) && (
            <div>
              <h3 className="font-semibold text-ink">Admin details</h3>
              {job.adminDetail && <p className="whitespace-pre-line">{job.adminDetail}</p>}
              {job.adminFile && <DocumentLink url={job.adminFile} name={job.adminFileName} />}
            </div>
          )}
          {actions.includes('assign') && (
            <Link
              to={paths.adminAssignJob(job._id)}
              className="inline-flex min-h-11 items-center rounded-md bg-brand px-4 text-sm font-semibold text-white hover:bg-brand-dark"
            >
              Assign
            </Link>
          )}
          {job.status !== 'unassigned' && lawyer && <p className="font-semibold">Assigned to {lawyer.name}</p>}
          {/* A job at work is passed on from the assign page only once its lawyer lost verification (2316).
              The admin answers carry `verified` (2333); one that leaves it out gets a link that says when
              it applies instead of offering a hand-over the assign page would refuse. */}
          {lawyer && lawyer.verified !== true && ['in_progress', 'changes_requested'].includes(stageOf(job)) && (
            <Link
              to={paths.adminAssignJob(job._id)}
              className="inline-flex min-h-11 items-center font-semibold underline"
            >
              {lawyer.verified === false
                ? 'Pass to another lawyer'
                : `Pass to another lawyer if ${lawyer.name} lost verification`}
            </Link>
          )}
          {actions.includes('complete') && (
            <label className="flex min-h-11 items-center gap-2 font-medium">
              <input
                type="checkbox"
                className="size-5 accent-brand"
                disabled={complete.isPending || (mine && complete.isSuccess)}
                // Ticked from the click until the modal closes; unticked again if completing fails.
                checked={(mine && (complete.isPending || complete.isSuccess)) || tickedFor === job._id}
                onChange={(e) => {
                  if (e.target.checked) setAsking(true);
                }}
              />
              Mark as Completed
            </label>
          )}
          <FormError message={mine && complete.isError ? getErrorMessage(complete.error) : null} />
        </div>
      )}
    </Modal>
  );
}

/** The contract's body with the document required, as the spec asks before Send. */
const addDetailsForm = editJobDetailsInput.extend({ file: fileReference.min(1), fileName: z.string() });
type AddDetailsValues = z.infer<typeof addDetailsForm>;

/** Add details: text and a document, both needed before Send (spec section 5). */
export function AddDetailsModal({
  job,
  onClose,
  onDone,
}: {
  job: JobViewResponse | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  // The send lives here, mounted while the dialog is closed, not in the form that goes with it: a send
  // closed on its way keeps Send busy when opened again, and its answer still ends it (decision 2281).
  const edit = useEditJobDetails();
  // A document on its way: a stray click beside the dialog would take the form away and stop it (decision 2293).
  const [uploading, setUploading] = useState(false);
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    shownFor.current = job?._id ?? null;
  }, [job]);
  const close = () => {
    // Never a send on its way: a reset() detaches it, so Send would be offered again.
    if (!edit.isPending) edit.reset();
    onClose();
  };
  return (
    <Modal
      open={Boolean(job)}
      title={job ? `Add details: ${job.productId.productName}` : 'Add details'}
      onClose={close}
      closeOnOutsideTap={!uploading}
    >
      {job && (
        <AddDetailsForm
          key={job._id}
          job={job}
          edit={edit}
          uploading={uploading}
          onUploadingChange={setUploading}
          isShown={(id) => shownFor.current === null || shownFor.current === id}
          onClose={close}
          onDone={onDone}
        />
      )}
    </Modal>
  );
}

function AddDetailsForm({
  job,
  edit,
  isShown,
  onClose,
  onDone,
  uploading,
  onUploadingChange,
}: {
  job: JobViewResponse;
  edit: ReturnType<typeof useEditJobDetails>;
  /** Whether this job's dialog, or none, is open now: read when an answer comes. */
  isShown: (jobId: string) => boolean;
  onClose: () => void;
  onDone: (message: string) => void;
  uploading: boolean;
  onUploadingChange: (uploading: boolean) => void;
}) {
  const form = useForm<AddDetailsValues>({
    resolver: zodResolver(addDetailsForm),
    defaultValues: {
      detail: job.adminDetail ?? '',
      file: job.adminFile ?? '',
      fileName: job.adminFileName ?? 'Document',
    },
  });
  const { register, handleSubmit, control, formState, setValue, watch } = form;
  // Kept while written: a tap beside the dialog or a reload loses nothing; Cancel drops it (decision 2226).
  const clearDraft = useFormDraft(`admin-details:${job._id}`, form, ['detail']);
  const errorId = useId();
  // Both fields are needed; the spec gives one message for either missing, shown once under the form.
  const invalid = Boolean(formState.errors.detail || formState.errors.file);
  const send = (v: AddDetailsValues) =>
    edit.mutate(
      { id: job._id, detail: v.detail, file: v.file, fileName: v.fileName },
      {
        onSuccess: (res) => {
          clearDraft();
          // Opened meanwhile for another job: what is typed there stays, and no notice covers it.
          if (!isShown(job._id)) return;
          onDone(res.message || messages.editedSuccessfully);
          onClose();
        },
      },
    );
  return (
    <form className="space-y-4" noValidate onSubmit={handleSubmit(send)}>
      <TextArea
        label="Give more details"
        placeholder="Start typing..."
        maxLength={5000}
        aria-invalid={formState.errors.detail ? true : undefined}
        aria-describedby={formState.errors.detail ? errorId : undefined}
        {...register('detail')}
      />
      <Controller
        control={control}
        name="file"
        render={({ field }) => (
          <FileUpload
            label="Document"
            kind="document"
            value={field.value ? { url: field.value, fileName: watch('fileName') || 'Document' } : null}
            onChange={(f: UploadedFile | null) => {
              setValue('fileName', f?.fileName ?? '');
              field.onChange(f?.url ?? '');
            }}
            onBusyChange={onUploadingChange}
          />
        )}
      />
      <div id={errorId}>
        <FormError
          message={
            invalid
              ? messages.kindlyAddDetails
              : edit.isError && edit.variables.id === job._id
                ? getErrorMessage(edit.error)
                : null
          }
        />
      </div>
      <div className="flex justify-end gap-2">
        <Button
          variant="ghost"
          onClick={() => {
            clearDraft();
            onClose();
          }}
        >
          Cancel
        </Button>
        <Button type="submit" loading={edit.isPending} disabled={uploading}>
          Send
        </Button>
      </div>
    </form>
  );
}
