import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { UserRound } from 'lucide-react';
import { rejectLawyerInput, type AdminLawyer } from '@legalmarket/contracts/admin';
import { formatOrdinalDate } from '@legalmarket/contracts/format';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import { messages } from '@legalmarket/contracts/messages';
import { useDraft } from '@/lib/drafts';
import { paths } from '@/lib/paths';
import { Button } from '@/components/button';
import { FormError, TextArea } from '@/components/field';
import { Modal } from '@/components/modal';
import { getErrorMessage } from '@/lib/http';
import { useRejectLawyer } from './api/reject-lawyer';
import { useVerifyLawyer } from './api/verify-lawyer';
import { BreakableText } from '@/components/breakable-text';

/** A lawyer in the admin lists: a job's applicant (contracts' jobView) or a listed lawyer, which carries more. */
export type LawyerSummary = JobViewResponse['appliedLawer'][number] & Partial<AdminLawyer>;

export function Avatar({ url, name, size = 'size-10' }: { url?: string | null; name: string; size?: string }) {
  return url ? (
    <img src={url} alt="" className={`${size} shrink-0 rounded-full object-cover`} loading="lazy" />
  ) : (
    <span
      aria-hidden
      className={`${size} flex shrink-0 items-center justify-center rounded-full bg-brand/10 text-brand`}
      title={name}
    >
      <UserRound className="size-5" />
    </span>
  );
}

/** A lawyer whose verification an admin refused, until the lawyer changes the profile (decision 1860). */
export function DeclinedBadge() {
  return (
    <span className="shrink-0 rounded-full bg-rose-100 px-2 py-0.5 text-xs font-semibold text-rose-900">Declined</span>
  );
}

/**
 * View more: the lawyer's details, Go to profile and, while unverified, Verify Lawyer and Reject. Both
 * ask first (the modal turns into the question): a verification e-mails the lawyer and opens jobs to
 * them, a rejection e-mails the reason; neither is taken back by closing a window.
 */
export function LawyerModal({
  lawyer,
  onClose,
  onVerified,
}: {
  lawyer: LawyerSummary | null;
  onClose: () => void;
  onVerified?: (message: string) => void;
}) {
  const verify = useVerifyLawyer();
  const reject = useRejectLawyer();
  const [mode, setMode] = useState<'view' | 'verify' | 'reject'>('view');
  // The reason is kept per lawyer while written: closing the window or a reload loses nothing (decision 2226).
  const [reason, setReason, clearReason] = useDraft<string>(lawyer ? `reject-lawyer:${lawyer._id}` : null, '');
  const [reasonError, setReasonError] = useState<string | null>(null);
  // The lawyer whose dialog is open, read by an answer that comes after a close or a reopen.
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    shownFor.current = lawyer?._id ?? null;
  }, [lawyer]);
  const elsewhere = (sentFor: string) => shownFor.current !== null && shownFor.current !== sentFor;
  // The sends are shared by every lawyer: each result shows only in its own lawyer's dialog.
  const verifyHere = lawyer !== null && verify.variables === lawyer._id;
  const rejectHere = lawyer !== null && reject.variables?.id === lawyer._id;
  const close = () => {
    // Never a send on its way: a reset() detaches it, so opened again the dialog would offer it afresh
    // and its answer would say nothing (decision 2281).
    if (!verify.isPending) verify.reset();
    if (!reject.isPending) reject.reset();
    setMode('view');
    setReasonError(null);
    onClose();
  };
  const verified = lawyer?.verified || (verify.isSuccess && verifyHere);
  const rejection = verified ? null : lawyer?.verificationRejection;
  if (lawyer && mode === 'verify')
    return (
      <Modal
        open
        title={`Verify ${lawyer.name}?`}
        onClose={() => setMode('view')}
        footer={
          <>
            <Button variant="ghost" onClick={() => setMode('view')}>
              Cancel
            </Button>
            <Button
              loading={verify.isPending}
              onClick={() =>
                verify.mutate(lawyer._id, {
                  onSuccess: (res, sentFor) => {
                    // Opened meanwhile for another lawyer: that dialog stays as it is.
                    if (elsewhere(sentFor)) return;
                    setMode('view');
                    onVerified?.(res.message);
                  },
                })
              }
            >
              Verify Lawyer
            </Button>
          </>
        }
      >
        <p>
          {lawyer.name} will be told by e-mail and can apply for jobs at once. Check the SCN (
          {lawyer.scn ?? 'none given'}) against the NBA roll first.
        </p>
        <FormError message={verify.isError && verifyHere ? getErrorMessage(verify.error) : null} />
      </Modal>
    );
  if (lawyer && mode === 'reject')
    return (
      <Modal
        open
        title={`Reject ${lawyer.name}'s verification`}
        onClose={() => setMode('view')}
        tone={reject.isSuccess && rejectHere ? 'success' : 'neutral'}
        footer={
          reject.isSuccess && rejectHere ? (
            <Button onClick={close}>Close</Button>
          ) : (
            <>
              <Button variant="ghost" onClick={() => setMode('view')}>
                Cancel
              </Button>
              <Button
                variant="danger"
                loading={reject.isPending}
                onClick={() => {
                  const parsed = rejectLawyerInput.safeParse({ reason });
                  if (!parsed.success) return setReasonError(parsed.error.issues[0].message);
                  reject.mutate({ id: lawyer._id, reason: parsed.data.reason }, { onSuccess: clearReason });
                }}
              >
                Reject and e-mail the reason
              </Button>
            </>
          )
        }
      >
        {reject.isSuccess && rejectHere ? (
          <p role="status" className="font-semibold text-emerald-700">
            {reject.data.message}
          </p>
        ) : (
          <TextArea
            label="Reason the lawyer will read"
            placeholder="For example: your SCN does not match the NBA roll; please send your call certificate."
            maxLength={1000}
            value={reason}
            error={reasonError ?? undefined}
            onChange={(e) => {
              setReason(e.target.value);
              setReasonError(null);
            }}
          />
        )}
        <FormError message={reject.isError && rejectHere ? getErrorMessage(reject.error) : null} />
      </Modal>
    );
  return (
    <Modal
      open={Boolean(lawyer)}
      title={lawyer?.name ?? 'Lawyer'}
      onClose={close}
      tone={verify.isSuccess && verifyHere ? 'success' : 'neutral'}
      footer={
        lawyer && (
          <>
            <Link
              to={paths.lawyerProfile(lawyer._id)}
              className="inline-flex min-h-11 items-center rounded-md border border-brand px-4 text-sm font-semibold text-brand hover:bg-brand/5"
            >
              Go to profile
            </Link>
            {!verified && !(reject.isSuccess && rejectHere) && (
              <>
                {/* Busy while a send is on its way, as in the question it was sent from. */}
                <Button variant="danger" loading={reject.isPending} onClick={() => setMode('reject')}>
                  Reject
                </Button>
                <Button loading={verify.isPending} onClick={() => setMode('verify')}>
                  Verify Lawyer
                </Button>
              </>
            )}
          </>
        )
      }
    >
      {lawyer && (
        <div className="space-y-3">
          <div className="flex items-center gap-3">
            <Avatar url={lawyer.profileImage?.url} name={lawyer.name} size="size-14" />
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="font-medium text-slate-500">SCN</dt>
              <dd>{lawyer.scn ?? '—'}</dd>
              {lawyer.officialEmail && (
                <>
                  <dt className="font-medium text-slate-500">Email</dt>
                  <dd>
                    <BreakableText text={lawyer.officialEmail} />
                  </dd>
                </>
              )}
              {lawyer.phoneNumber && (
                <>
                  <dt className="font-medium text-slate-500">Phone</dt>
                  <dd>{lawyer.phoneNumber}</dd>
                </>
              )}
              {lawyer.lawFirmName && (
                <>
                  <dt className="font-medium text-slate-500">Law firm</dt>
                  <dd>{lawyer.lawFirmName}</dd>
                </>
              )}
              {lawyer.yearOfCall && (
                <>
                  <dt className="font-medium text-slate-500">Year of call</dt>
                  <dd>{lawyer.yearOfCall}</dd>
                </>
              )}
              <dt className="font-medium text-slate-500">Joined</dt>
              <dd>{formatOrdinalDate(lawyer.createdAt)}</dd>
              <dt className="font-medium text-slate-500">Status</dt>
              <dd>
                {verified
                  ? 'Verified'
                  : rejection
                    ? `Declined on ${formatOrdinalDate(rejection.rejectedAt)}`
                    : 'Unverified'}
              </dd>
            </dl>
          </div>
          {rejection && (
            <div className="rounded-lg bg-rose-50 p-3 text-sm text-rose-950">
              <p className="font-semibold">Reason the lawyer was sent</p>
              <p className="mt-1 whitespace-pre-line">{rejection.reason}</p>
              <p className="mt-1 text-rose-900">It stays until the lawyer changes their profile.</p>
            </div>
          )}
          {lawyer.areasOfPractise && lawyer.areasOfPractise.length > 0 && (
            <ul className="flex flex-wrap gap-1" aria-label="Areas of practise">
              {lawyer.areasOfPractise.map((a) => (
                <li key={a} className="rounded-full bg-sand px-2 py-0.5 text-xs">
                  {a}
                </li>
              ))}
            </ul>
          )}
          {verify.isSuccess && verifyHere && (
            <p role="status" className="font-semibold text-emerald-700">
              {verify.data.message || messages.verificationSuccessful}
            </p>
          )}
          {/* A rejection answered after its dialog was closed says so when the lawyer is opened again. */}
          {reject.isSuccess && rejectHere && (
            <p role="status" className="font-semibold text-emerald-700">
              {reject.data.message}
            </p>
          )}
          <FormError message={verify.isError && verifyHere ? getErrorMessage(verify.error) : null} />
        </div>
      )}
    </Modal>
  );
}
