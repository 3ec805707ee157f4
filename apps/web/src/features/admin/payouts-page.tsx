import { useEffect, useRef, useState } from 'react';
import { formatNairaExact } from '@legalmarket/contracts/format';
import {
  PAYOUT_BATCH_MAX,
  PAYOUT_NEW_ACCOUNT_HOURS,
  PAYOUT_STATUS_WORDS,
  type PayoutView,
} from '@legalmarket/contracts/payouts';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { useDraft } from '@/lib/drafts';
import { getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';
import { useApprovePayouts, usePayouts, useRejectPayout } from './api/payouts';
import { ResultModal, type ActionResult } from '@/components/result-modal';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

const STATUS_STYLE: Record<PayoutView['status'], string> = {
  requested: 'bg-amber-100 text-amber-900',
  sending: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
  rejected: 'bg-slate-200 text-slate-900',
};
/**
 * How long the payout's account has been the lawyer's saved details (decision 2244): one saved in the last
 * PAYOUT_NEW_ACCOUNT_HOURS may have been added by whoever holds a stolen session, so it is marked.
 */
function AccountAge({ p }: { p: PayoutView }) {
  if (p.detailsAddedAt === null)
    return (
      <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
        Not the saved account now
      </span>
    );
  const added = Date.parse(p.detailsAddedAt);
  if (Date.now() - added >= PAYOUT_NEW_ACCOUNT_HOURS * 3600_000)
    return <span className="text-slate-600">account saved {when(p.detailsAddedAt)}</span>;
  return (
    <>
      <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">New account</span>{' '}
      <span className="text-slate-600">saved {when(p.detailsAddedAt)}</span>
    </>
  );
}

/** The admin's words: the lawyer's "returned to your balance" is the lawyer's. */
const STATUS_WORDS = {
  ...PAYOUT_STATUS_WORDS,
  failed: 'Failed, returned to the lawyer',
  rejected: 'Rejected, returned to the lawyer',
};

/** /admin/payouts: lawyers' withdrawals waiting for approval (one or a batch, confirmed), and recent ones. */
export default function PayoutsPage() {
  const payouts = usePayouts();
  const approve = useApprovePayouts();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<PayoutView[] | null>(null);
  const [result, setResult] = useState<ActionResult | null>(null);
  const reject = useRejectPayout();
  const [rejecting, setRejecting] = useState<PayoutView | null>(null);
  // The reason is kept per payout while written: closing the window or a reload loses nothing (decision 2226).
  const [reason, setReason, clearReason] = useDraft<string>(rejecting ? `reject-payout:${rejecting._id}` : null, '');
  const [reasonError, setReasonError] = useState<string | null>(null);

  const all = payouts.data?.payouts ?? [];
  const waiting = all.filter((p) => p.status === 'requested');
  const recent = all.filter((p) => p.status !== 'requested');
  const chosen = waiting.filter((p) => selected.has(p._id));
  // The server's count, over every waiting payout like waitingTotal beside it; the list stops at 300.
  const waitingCount = Math.max(payouts.data?.waitingCount ?? 0, waiting.length);
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const total = (list: PayoutView[]) => list.reduce((s, p) => s + Math.round(p.amount * 100), 0) / 100;

  const run = () => {
    if (!confirming) return;
    approve.mutate(
      confirming.map((p) => p._id),
      {
        onSuccess: (res) => {
          setSelected(new Set());
          setResult({ ok: true, text: res.message });
        },
        onError: (err) => setResult({ ok: false, text: getErrorMessage(err) }),
        onSettled: () => setConfirming(null),
      },
    );
  };

  // The payout whose dialog is open, read by a rejection's answer that comes after a reopen.
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    shownFor.current = rejecting?._id ?? null;
  }, [rejecting]);
  const openReject = (p: PayoutView) => {
    setReasonError(null);
    // Only a refusal is cleared: a reset() of a rejection on its way detaches it (decision 2281), so
    // Reject payout would be offered again and its answer never shown.
    if (reject.isError) reject.reset();
    setRejecting(p);
  };
  const runReject = () => {
    if (!rejecting) return;
    if (reason.trim().length < 3) {
      setReasonError('Please give the lawyer a reason (at least 3 characters)');
      return;
    }
    const sentFor = rejecting._id;
    reject.mutate(
      { id: sentFor, reason: reason.trim() },
      {
        onSuccess: (res) => {
          setSelected((s) => {
            const next = new Set(s);
            next.delete(sentFor);
            return next;
          });
          // Bound to the sent payout's draft, whichever dialog is open now.
          clearReason();
          // Opened meanwhile for another payout: its reason stays and no Success covers it.
          if (shownFor.current !== null && shownFor.current !== sentFor) return;
          setResult({ ok: true, text: res.message });
          setRejecting(null);
        },
        // The dialog stays with the reason as typed and says why, so a retry needs no retyping.
      },
    );
  };

  return (
    <AdminLayout title="Payouts">
      {payouts.isLoading ? (
        <Loading label="Loading payouts..." />
      ) : payouts.isError ? (
        <ErrorState message={getErrorMessage(payouts.error)} onRetry={() => payouts.refetch()} />
      ) : (
        <div className="space-y-6">
          <section aria-labelledby="waiting-title" className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="waiting-title" className="heading-card text-ink">
                Waiting for approval{' '}
                <span className="text-sm font-normal text-slate-600">
                  ({waitingCount}, <Naira amount={payouts.data!.waitingTotal} exact />)
                </span>
              </h2>
              {waiting.length > 0 && (
                <Button
                  disabled={chosen.length === 0 || chosen.length > PAYOUT_BATCH_MAX}
                  onClick={() => setConfirming(chosen)}
                >
                  Approve selected ({chosen.length})
                </Button>
              )}
            </div>
            {waitingCount > waiting.length && (
              <p role="status" className="text-sm text-amber-900">
                The newest {waiting.length} of {waitingCount} are listed; approve or reject these to see the rest.
              </p>
            )}
            {chosen.length > PAYOUT_BATCH_MAX && (
              <p role="alert" className="text-sm text-red-700">
                At most {PAYOUT_BATCH_MAX} payouts at once.
              </p>
            )}
            {!waiting.length ? (
              <EmptyState>No payouts are waiting for approval</EmptyState>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
                <li className="px-4 py-2 text-sm">
                  <label className="inline-flex min-h-11 items-center gap-2">
                    <input
                      type="checkbox"
                      className="size-5"
                      checked={chosen.length === waiting.length}
                      onChange={(e) => setSelected(new Set(e.target.checked ? waiting.map((p) => p._id) : []))}
                    />
                    Select all
                  </label>
                </li>
                {waiting.map((p) => (
                  <li key={p._id} className="flex flex-wrap items-center gap-3 px-4 py-3 text-sm">
                    <input
                      type="checkbox"
                      className="size-5"
                      checked={selected.has(p._id)}
                      onChange={() => toggle(p._id)}
                      aria-label={`Select ${formatNairaExact(p.amount)} for ${p.lawyerName}`}
                    />
                    <div className="min-w-0 flex-1">
                      <p className="font-semibold wrap-anywhere text-ink">
                        <Naira amount={p.amount} exact /> · {p.lawyerName}
                      </p>
                      <p className="wrap-anywhere text-slate-600">
                        {p.accountName}, {p.bank} {p.accountNumber} · asked {when(p.createdAt)}
                      </p>
                      <p className="text-sm">
                        <AccountAge p={p} />
                      </p>
                    </div>
                    <Button variant="ghost" onClick={() => setConfirming([p])}>
                      Approve
                      <span className="sr-only">
                        {' '}
                        {formatNairaExact(p.amount)} for {p.lawyerName}
                      </span>
                    </Button>
                    <Button variant="ghost" onClick={() => openReject(p)}>
                      Reject
                      <span className="sr-only">
                        {' '}
                        {formatNairaExact(p.amount)} for {p.lawyerName}
                      </span>
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="recent-title" className="space-y-3">
            <h2 id="recent-title" className="heading-card text-ink">
              Recent payouts
            </h2>
            {!recent.length ? (
              <EmptyState>No payouts approved yet</EmptyState>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
                {recent.map((p) => (
                  <li key={p._id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                    <div className="min-w-0">
                      <p className="font-semibold wrap-anywhere text-ink">
                        <Naira amount={p.amount} exact /> · {p.lawyerName}
                      </p>
                      <p className="wrap-anywhere text-slate-600">
                        {p.bank} {p.accountNumber} ·{' '}
                        {p.status === 'rejected'
                          ? `asked ${when(p.createdAt)}`
                          : `approved ${p.approvedAt ? when(p.approvedAt) : '—'}`}
                        {p.settledAt ? ` · settled ${when(p.settledAt)}` : ''}
                      </p>
                      {p.failure && <p className="wrap-anywhere text-red-700">{p.failure}</p>}
                    </div>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[p.status]}`}>
                      {STATUS_WORDS[p.status]}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}

      <Modal
        open={confirming !== null}
        title="Approve payouts"
        onClose={() => setConfirming(null)}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button onClick={run} loading={approve.isPending}>
              Approve and send
            </Button>
          </>
        }
      >
        <p>
          Send {confirming ? formatNairaExact(total(confirming)) : ''} to{' '}
          {confirming?.length === 1 ? confirming[0].lawyerName : `${confirming?.length ?? 0} lawyers`} by bank transfer
          now? The money leaves the platform&apos;s Flutterwave balance; this cannot be undone.
        </p>
      </Modal>
      <Modal
        open={rejecting !== null}
        title="Reject payout"
        onClose={() => setRejecting(null)}
        footer={
          <>
            <Button variant="ghost" onClick={() => setRejecting(null)}>
              Cancel
            </Button>
            <Button onClick={runReject} loading={reject.isPending}>
              Reject payout
            </Button>
          </>
        }
      >
        <p>
          Turn down {rejecting ? formatNairaExact(rejecting.amount) : ''} for {rejecting?.lawyerName}? Nothing is sent;
          the money goes back to the lawyer&apos;s available balance and the lawyer is e-mailed your reason.
        </p>
        <label htmlFor="reject-reason" className="mt-3 block text-sm font-semibold text-ink">
          Reason for the lawyer
        </label>
        <textarea
          id="reject-reason"
          className="mt-1 w-full rounded-lg border border-slate-300 p-2 text-sm"
          rows={3}
          maxLength={500}
          value={reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? 'reject-reason-error' : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setReasonError(null);
          }}
        />
        {reasonError && (
          <p id="reject-reason-error" role="alert" className="mt-1 text-sm text-red-700">
            {reasonError}
          </p>
        )}
        <div className="mt-3">
          {/* Only this payout's refusal: the rejection may have been sent from another payout's dialog. */}
          <FormError
            message={reject.isError && reject.variables.id === rejecting?._id ? getErrorMessage(reject.error) : null}
          />
        </div>
      </Modal>
      <ResultModal result={result} onClose={() => setResult(null)} />
    </AdminLayout>
  );
}
