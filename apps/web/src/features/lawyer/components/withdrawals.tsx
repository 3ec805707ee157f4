import { useId, useState } from 'react';
import { useIsMutating, useMutationState } from '@tanstack/react-query';
import { formatOrdinalDate } from '@legalmarket/contracts/format';
import { formatNairaExact } from '@legalmarket/contracts/format';
import { MIN_PAYOUT, PAYOUT_STATUS_WORDS, type PayoutStatus, type PayoutView } from '@legalmarket/contracts/payouts';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { Field, FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { useSendKey } from '@/lib/drafts';
import { getErrorMessage } from '@/lib/http';
import { usePayouts } from '../api/get-payouts';
import { useRequestPayout } from '../api/request-payout';
import { useCancelPayout } from '../api/cancel-payout';
import { lawyerKeys } from '../api/keys';

const STATUS_STYLE: Record<PayoutStatus, string> = {
  requested: 'bg-amber-100 text-amber-900',
  sending: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
  rejected: 'bg-slate-200 text-slate-900',
};

function PayoutStatusBadge({ status, cancelled }: { status: PayoutStatus; cancelled?: boolean }) {
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[status]}`}>
      {cancelled ? 'Cancelled, returned to your balance' : PAYOUT_STATUS_WORDS[status]}
    </span>
  );
}

/** What a payout's status means for the lawyer's money, and what the lawyer may do about it. */
function NextStep({ payout: p, onPaymentDetails }: { payout: PayoutView; onPaymentDetails: () => void }) {
  const note = 'text-xs text-slate-600';
  switch (p.status) {
    case 'requested':
      return <p className={note}>An administrator will review it. Until then its amount is held from your balance.</p>;
    case 'sending':
      return (
        <p className={note}>
          Approved{p.approvedAt ? ` ${formatOrdinalDate(p.approvedAt)}` : ''}; the bank transfer is on its way. You will
          be e-mailed when it is paid.
        </p>
      );
    case 'failed':
      return (
        <p className={note}>
          The amount is back in your balance. Check the account under Payment Details, then withdraw again.{' '}
          <button type="button" className="font-semibold text-brand underline" onClick={onPaymentDetails}>
            Check Payment Details
          </button>
        </p>
      );
    case 'rejected':
      return (
        <p className={note}>
          {p.cancelled ? 'You cancelled it before approval. ' : ''}The amount is back in your balance and may be
          withdrawn again.
        </p>
      );
    default:
      return null;
  }
}

/** Naira typed with at most two decimals ("12,500.50" and "12500.5" alike), or null. */
function parseNaira(text: string): number | null {
  const clean = text.replace(/[₦,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  return Number(clean);
}

/**
 * Withdraw (amount defaulting to everything withdrawable, confirmed in a dialog) and the lawyer's
 * withdrawals with their status. The server decides what may be withdrawn; the form only helps.
 */
export function Withdrawals({ onPaymentDetails }: { onPaymentDetails: () => void }) {
  const payouts = usePayouts();
  const request = useRequestPayout();
  const cancel = useCancelPayout();
  // The waiting withdrawal the lawyer asked to cancel, shown in a dialog until confirmed (decision 2344).
  const [cancelling, setCancelling] = useState<PayoutView | null>(null);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const amountId = useId();
  const [amount, setAmount] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // What is wrong with the amount typed: shown under the field and tied to it (aria-invalid and
  // aria-describedby), where the server's refusals stay below the form.
  const [amountError, setAmountError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // One key per withdrawal: the same amount confirmed again after a lost answer is the same request,
  // taken once by the API (decision 2241). Kept in memory only: after a reload the list shows the payout.
  const payoutKey = useSendKey(null);
  // Also one sent before the lawyer left this tab and came back: its key was in the memory of the
  // section left, so a withdrawal confirmed now would go under a new key and be made twice.
  const onItsWay = useIsMutating({ mutationKey: lawyerKeys.requestPayout() }) > 0;
  // Failed while the lawyer was away (a lost answer the server may have taken): the same amount
  // confirmed now goes under that send's key, not the new section's fresh one.
  const lastSend = useMutationState({
    filters: { mutationKey: lawyerKeys.requestPayout() },
    select: (m) => ({ status: m.state.status, variables: m.state.variables as { amount: number; key: string } }),
  }).at(-1);

  if (payouts.isLoading) return <Loading label="Loading withdrawals..." />;
  if (payouts.isError) return <ErrorState message={getErrorMessage(payouts.error)} onRetry={() => payouts.refetch()} />;
  const d = payouts.data!;
  const typed = amount ?? (d.withdrawable > 0 ? String(d.withdrawable) : '');

  const review = (e: React.FormEvent) => {
    e.preventDefault();
    const value = parseNaira(typed);
    setError(null);
    if (value === null) return setAmountError('Enter an amount in naira, with at most 2 decimals.');
    if (value < MIN_PAYOUT) return setAmountError(`The smallest withdrawal is ${formatNairaExact(MIN_PAYOUT)}.`);
    if (value > d.withdrawable)
      return setAmountError(`You can withdraw at most ${formatNairaExact(d.withdrawable)} now.`);
    setAmountError(null);
    setConfirming(value);
  };
  const confirm = () => {
    if (confirming === null) return;
    request.mutate(
      {
        amount: confirming,
        key:
          lastSend?.status === 'error' && lastSend.variables.amount === confirming
            ? lastSend.variables.key
            : payoutKey.keyFor(confirming),
      },
      {
        onSuccess: (res) => {
          payoutKey.done();
          setConfirming(null);
          setAmount(null);
          setDone(res.message);
        },
        onError: (err) => {
          setConfirming(null);
          setError(getErrorMessage(err));
        },
      },
    );
  };

  const confirmCancel = () => {
    if (!cancelling || cancel.isPending) return;
    setCancelError(null);
    cancel.mutate(cancelling._id, {
      onSuccess: (res) => {
        setCancelling(null);
        setDone(res.message);
      },
      onError: (err) => setCancelError(getErrorMessage(err)),
    });
  };
  const closeCancel = () => {
    if (cancel.isPending) return;
    setCancelling(null);
    setCancelError(null);
  };

  return (
    <div className="space-y-4">
      <h2 className="heading-card text-ink">Withdraw</h2>
      {!d.detailsResolved ? (
        <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p>
            Before you withdraw, your payment details must be checked with your bank. Add them, or submit the same
            details again, under Payment Details.
          </p>
          <Button variant="ghost" className="mt-2" onClick={onPaymentDetails}>
            Go to Payment Details
          </Button>
        </div>
      ) : d.withdrawable <= 0 ? (
        <p className="text-sm text-slate-600">Nothing is available to withdraw right now.</p>
      ) : (
        <form onSubmit={review} noValidate className="flex flex-wrap items-end gap-3">
          <Field
            id={amountId}
            label="Amount (₦)"
            inputMode="decimal"
            autoComplete="off"
            value={typed}
            error={amountError ?? undefined}
            onChange={(e) => {
              setAmount(e.target.value);
              setAmountError(null);
            }}
            hint={
              <>
                Up to <Naira amount={d.withdrawable} exact /> is available now.
              </>
            }
            className="min-w-0 flex-1 sm:max-w-xs"
          />
          <Button type="submit" className="mb-5" loading={onItsWay}>
            Withdraw
          </Button>
        </form>
      )}
      <FormError message={error} />

      <h2 className="heading-card text-ink">Withdrawals</h2>
      {!d.payouts.length ? (
        <EmptyState>No withdrawals yet</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
          {d.payouts.map((p) => (
            <li key={p._id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
              <div className="min-w-0">
                <p className="font-semibold text-ink">
                  <Naira amount={p.amount} exact />
                </p>
                <p className="wrap-anywhere text-slate-600">
                  {p.bank} {p.accountNumber} · asked {formatOrdinalDate(p.createdAt)}
                  {p.settledAt && p.status === 'paid' ? ` · paid ${formatOrdinalDate(p.settledAt)}` : ''}
                </p>
                {p.failure && <p className="wrap-anywhere text-red-700">{p.failure}</p>}
                <NextStep payout={p} onPaymentDetails={onPaymentDetails} />
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <PayoutStatusBadge status={p.status} cancelled={p.cancelled} />
                {p.status === 'requested' && (
                  <Button
                    variant="secondary"
                    aria-label={`Cancel withdrawal of ${formatNairaExact(p.amount)} asked ${formatOrdinalDate(p.createdAt)}`}
                    onClick={() => {
                      setCancelError(null);
                      setCancelling(p);
                    }}
                  >
                    Cancel withdrawal
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}

      <Modal
        open={confirming !== null}
        title="Confirm withdrawal"
        onClose={() => setConfirming(null)}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button onClick={confirm} loading={request.isPending || onItsWay}>
              Withdraw {confirming !== null ? formatNairaExact(confirming) : ''}
            </Button>
          </>
        }
      >
        <p>
          Withdraw {confirming !== null ? formatNairaExact(confirming) : ''} to your saved account? An administrator
          approves withdrawals; you will be e-mailed when the money is on its way. This cannot be undone.
        </p>
      </Modal>
      <Modal
        open={cancelling !== null}
        title="Cancel withdrawal?"
        onClose={closeCancel}
        closeOnOutsideTap={!cancel.isPending}
        footer={
          <>
            <Button variant="ghost" onClick={closeCancel} disabled={cancel.isPending}>
              Keep it
            </Button>
            <Button variant="danger" onClick={confirmCancel} loading={cancel.isPending}>
              Cancel withdrawal
            </Button>
          </>
        }
      >
        {cancelling && (
          <div className="space-y-3">
            <p className="wrap-anywhere">
              Cancel your withdrawal of {formatNairaExact(cancelling.amount)} to {cancelling.bank}{' '}
              {cancelling.accountNumber}? Nothing will be sent, and the amount goes back to your available balance.
            </p>
            <p>
              This cannot be undone: a cancelled withdrawal cannot be restarted. To get the money, ask for a new
              withdrawal; it goes to your saved payment details.
            </p>
            <FormError message={cancelError} />
          </div>
        )}
      </Modal>
      <Modal
        open={done !== null}
        title="Success"
        tone="success"
        onClose={() => setDone(null)}
        footer={<Button onClick={() => setDone(null)}>Close</Button>}
      >
        <p>{done}</p>
      </Modal>
    </div>
  );
}
