import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import {
  PLAN_CREDIT_KINDS,
  PLAN_CREDIT_WORDS,
  PLAN_TIERS,
  PLAN_TIER_INFO,
  planMessages,
  planRequestInput,
  type PlanRequestInput,
  type PlanStatus,
  type PlanTier,
  type PlanView,
} from '@legalmarket/contracts/plans';
import { Button } from '@/components/button';
import { ErrorState, Loading, Naira, SuccessNote } from '@/components/feedback';
import { FormError, TextArea } from '@/components/field';
import { FormDocumentField } from '@/components/form-document-field';
import { ConfirmDialog } from '@/components/modal';
import { getErrorMessage } from '@/lib/http';
import { useFormDraft, useSendKey } from '@/lib/drafts';
import { paths } from '@/lib/paths';
import { paymentNotMade } from '@/features/checkout/payment-messages';
import { usePayment } from '@/features/checkout/use-payment';
import { confirmPlan, planKeys, startPlan, useMyPlan, usePlanActions } from './plans-api';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-NG', { dateStyle: 'medium', timeZone: 'Africa/Lagos' });
const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

const STATUS_WORDS: Record<PlanStatus, string> = {
  active: 'Active',
  grace: 'Renewal failed',
  ended: 'Ended',
  lapsed: 'Lapsed',
};

/** /company/plan: subscribe to a tier, or use the live plan (credits, requests, tier, cancel, timeline). */
export default function PlanPage() {
  const plan = useMyPlan();
  const live = plan.data && (plan.data.status === 'active' || plan.data.status === 'grace') ? plan.data : null;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="heading-title text-ink">Your plan</h1>
      {plan.isPending ? (
        <Loading label="Loading your plan..." />
      ) : plan.isError ? (
        <ErrorState message={getErrorMessage(plan.error)} onRetry={() => void plan.refetch()} />
      ) : live ? (
        <LivePlan plan={live} />
      ) : (
        <Subscribe last={plan.data ?? null} />
      )}
    </div>
  );
}

function Subscribe({ last }: { last: PlanView | null }) {
  const [params] = useSearchParams();
  const wanted = PLAN_TIERS.find((t) => t === params.get('tier')) ?? 'silver';
  const [tier, setTier] = useState<PlanTier>(wanted);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { pay, dialog } = usePayment();
  const qc = useQueryClient();
  const info = PLAN_TIER_INFO[tier];

  async function subscribe() {
    setError(null);
    setBusy(true);
    try {
      const data = await startPlan(tier);
      const paid = await pay(data);
      if (paid.status !== 'successful') {
        // A decline says why, as at the cart (decision 1820).
        const said = paymentNotMade(paid);
        setError(
          paid.status === 'cancelled' ? 'The payment was not made.' : [said.title, said.body].filter(Boolean).join(' '),
        );
        return;
      }
      const res = await confirmPlan(data.reference, paid.transactionId);
      qc.setQueryData(planKeys.mine(), res.data);
      // The cart's prices change with the plan's discount.
      void qc.invalidateQueries({ queryKey: ['cart'] });
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="mt-4" aria-label="Choose a plan">
      {last && (
        <p className="mb-4 text-sm text-slate-700">
          Your {last.tierName} plan {last.status === 'ended' ? 'ended' : 'lapsed'}. You can start a new one.
        </p>
      )}
      <fieldset>
        <legend className="mb-2 font-semibold text-ink">Choose a monthly plan</legend>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          {PLAN_TIERS.map((t) => {
            const i = PLAN_TIER_INFO[t];
            return (
              <label
                key={t}
                className={`flex cursor-pointer flex-col rounded-xl border p-4 ${t === tier ? 'border-brand ring-2 ring-brand/20' : 'border-slate-200'}`}
              >
                <span className="flex items-center gap-2 font-bold text-ink">
                  <input type="radio" name="tier" value={t} checked={t === tier} onChange={() => setTier(t)} />
                  {i.name}
                </span>
                <span className="mt-1 text-brand">
                  <Naira amount={i.price / 100} /> a month
                </span>
                <span className="mt-2 text-sm text-slate-700">
                  {PLAN_CREDIT_KINDS.filter((k) => i.credits[k])
                    .map((k) => `${i.credits[k]} × ${PLAN_CREDIT_WORDS[k].toLowerCase()}`)
                    .join(', ')}
                  {i.percentOff ? `; ${i.percentOff}% off all single products` : ''}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <p className="mt-3 text-sm text-slate-600">
        Paid monthly by card and renewed automatically until you cancel. {planMessages.noCarryOver}
      </p>
      <Button className="mt-4" onClick={() => void subscribe()} loading={busy}>
        Subscribe to {info.name}: <Naira amount={info.price / 100} /> a month
      </Button>
      <FormError message={error} />
      {dialog}
    </section>
  );
}

function LivePlan({ plan }: { plan: PlanView }) {
  const { changeTier, cancel, request } = usePlanActions();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [nextTier, setNextTier] = useState<PlanTier>(plan.nextTier ?? plan.tier);
  const [note, setNote] = useState<string | null>(null);
  const creditsId = useId();
  return (
    <div className="mt-4 space-y-6">
      <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-label="Plan summary">
        <p className="text-xl font-bold text-ink">
          {plan.tierName} plan · <Naira amount={plan.price} /> a month
        </p>
        <p className="mt-1 text-sm" data-testid="plan-status">
          Status: <strong>{STATUS_WORDS[plan.status]}</strong>
          {plan.status === 'grace' && plan.graceUntil
            ? ` · We could not charge your renewal. Your plan stops on ${day(plan.graceUntil)} unless it is paid.`
            : plan.cancelAtPeriodEnd
              ? ` · Cancelled: ends on ${day(plan.renewsAt)}`
              : ` · Renews on ${day(plan.renewsAt)}`}
        </p>
        {plan.percentOff > 0 && (
          <p className="mt-1 text-sm text-emerald-800">
            {plan.percentOff}% off all single products while it is active.
          </p>
        )}
        {plan.nextTier && (
          <p className="mt-1 text-sm text-slate-700">
            Changes to {PLAN_TIER_INFO[plan.nextTier].name} at the renewal on {day(plan.renewsAt)}.
          </p>
        )}
      </section>
      {note && <SuccessNote>{note}</SuccessNote>}

      <section aria-labelledby={creditsId}>
        <h2 id={creditsId} className="heading-card text-ink">
          This month&apos;s credits
        </h2>
        <table className="mt-2 w-full max-w-xl text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th className="py-2">Kind of work</th>
              <th>Left</th>
              <th>Used</th>
              <th>Included</th>
            </tr>
          </thead>
          <tbody>
            {PLAN_CREDIT_KINDS.filter((k) => plan.included[k] > 0).map((k) => (
              <tr key={k} className="border-b border-slate-100">
                <td className="py-2">{PLAN_CREDIT_WORDS[k]}</td>
                <td data-testid={`credits-left-${k}`}>{plan.credits[k]}</td>
                <td>{plan.creditsUsed[k]}</td>
                <td>{plan.included[k]}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-sm text-slate-600">{planMessages.noCarryOver}</p>
      </section>

      {plan.status === 'active' && (
        <RequestWork plan={plan} busy={request.isPending} onRequest={(body) => request.mutateAsync(body)} />
      )}

      {plan.jobs.length > 0 && (
        <section aria-label="Work from this plan">
          <h2 className="heading-card text-ink">Work from this plan</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {plan.jobs.map((j) => (
              <li key={j._id}>
                <Link className="font-semibold text-brand hover:underline" to={paths.job(j._id)}>
                  {j.kind}
                </Link>{' '}
                · {j.status} · {day(j.createdAt)}
              </li>
            ))}
          </ul>
        </section>
      )}

      {!plan.cancelAtPeriodEnd && plan.status === 'active' && (
        <section aria-label="Change or cancel" className="space-y-3">
          <h2 className="heading-card text-ink">Change or cancel</h2>
          <div className="flex flex-wrap items-end gap-2">
            <label className="text-sm">
              <span className="mb-1 block font-medium text-slate-800">Tier from the next renewal</span>
              <select
                className="min-h-11 rounded-md border border-slate-300 px-3"
                value={nextTier}
                onChange={(e) => setNextTier(e.target.value as PlanTier)}
              >
                {PLAN_TIERS.map((t) => (
                  <option key={t} value={t}>
                    {PLAN_TIER_INFO[t].name} (₦{(PLAN_TIER_INFO[t].price / 100).toLocaleString('en-NG')} a month)
                  </option>
                ))}
              </select>
            </label>
            <Button
              variant="secondary"
              loading={changeTier.isPending}
              onClick={() => changeTier.mutate(nextTier, { onSuccess: (r) => setNote(r.message) })}
            >
              Change tier
            </Button>
            <Button variant="secondary" onClick={() => setConfirmCancel(true)}>
              Cancel plan
            </Button>
          </div>
          <FormError message={changeTier.error ? getErrorMessage(changeTier.error) : null} />
          <FormError message={cancel.error ? getErrorMessage(cancel.error) : null} />
        </section>
      )}

      <section aria-label="Plan timeline">
        <h2 className="heading-card text-ink">Timeline</h2>
        <ol className="mt-2 space-y-1 text-sm text-slate-700">
          {plan.events.map((e, i) => (
            <li key={i}>
              <span className="text-slate-500">{when(e.at)}</span> · {e.note}
            </li>
          ))}
        </ol>
      </section>

      <ConfirmDialog
        open={confirmCancel}
        title="Cancel your plan?"
        body={`It will not renew. You keep its credits and discount until ${day(plan.renewsAt)}.`}
        confirmLabel="Cancel plan"
        busy={cancel.isPending}
        onCancel={() => setConfirmCancel(false)}
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: (r) => {
              setNote(r.message);
              setConfirmCancel(false);
            },
            onError: () => setConfirmCancel(false),
          })
        }
      />
    </div>
  );
}

function RequestWork({
  plan,
  busy,
  onRequest,
}: {
  plan: PlanView;
  busy: boolean;
  onRequest: (body: PlanRequestInput) => Promise<{ message: string; data: { jobId: string } }>;
}) {
  const first = PLAN_CREDIT_KINDS.find((k) => plan.credits[k] > 0) ?? 'draft';
  const [uploading, setUploading] = useState(false);
  const [made, setMade] = useState<{ message: string; jobId: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<PlanRequestInput>({
    resolver: zodResolver(planRequestInput),
    defaultValues: { kind: first, detail: '' },
  });
  const { register, handleSubmit, control, reset, formState } = form;
  // The brief is kept while it is written (decision 2226).
  // The drafted document dropped as uploaded too long ago to send: named under the field.
  const [staleFiles, setStaleFiles] = useState<string[]>([]);
  const clearDraft = useFormDraft('plan-request', form, ['detail', 'file', 'fileName'], (n) => setStaleFiles([n]));
  // One key per piece of work composed: a double click or a retry after a lost answer spends one credit
  // (the API takes a request once per key, decision 2191), after a reload too, as the key is kept with
  // the draft (decision 2240); other work or a request made takes a new one.
  const requestKey = useSendKey('plan-request:key');
  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      const r = await onRequest({ ...values, key: requestKey.keyFor(values) });
      requestKey.done();
      clearDraft();
      setMade({ message: r.message, jobId: r.data.jobId });
      reset({ kind: values.kind, detail: '', file: undefined, fileName: undefined });
    } catch (err) {
      setError(getErrorMessage(err));
    }
  });
  return (
    <section aria-label="Request work" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="heading-card text-ink">Request work with a credit</h2>
      <p className="text-sm text-slate-600">
        It goes to the job workspace like any purchase, with ₦0 to pay: a lawyer is assigned and delivers there.
      </p>
      <form onSubmit={submit} noValidate className="mt-3 space-y-3">
        <label className="block text-sm">
          <span className="mb-1 block font-medium text-slate-800">Kind of work</span>
          <select className="min-h-11 rounded-md border border-slate-300 px-3" {...register('kind')}>
            {PLAN_CREDIT_KINDS.filter((k) => plan.included[k] > 0).map((k) => (
              <option key={k} value={k} disabled={plan.credits[k] <= 0}>
                {PLAN_CREDIT_WORDS[k]} ({plan.credits[k]} left)
              </option>
            ))}
          </select>
        </label>
        <TextArea
          label="Give details"
          maxLength={5000}
          hint="What should the lawyer know? Parties, deadlines, anything special."
          error={formState.errors.detail?.message}
          {...register('detail')}
        />
        <FormDocumentField
          staleFiles={staleFiles}
          control={control}
          label="Upload a document (optional)"
          hint="PDF, Word (DOC, DOCX) or a picture, at most 10 MB."
          onBusyChange={setUploading}
        />
        <FormError message={error} />
        <Button type="submit" loading={busy} disabled={uploading}>
          Request with a credit
        </Button>
      </form>
      {made && (
        <SuccessNote className="mt-3">
          {made.message}:{' '}
          <Link className="font-semibold underline" to={paths.job(made.jobId)}>
            open the job
          </Link>
        </SuccessNote>
      )}
    </section>
  );
}
