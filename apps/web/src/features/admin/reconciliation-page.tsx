import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import {
  DIFFERENCE_WORDS,
  type PayoutDifference as PayoutDifferenceView,
  type ReconciliationDifference,
  type ReconciliationResponse,
} from '@legalmarket/contracts/reconciliation';
import { ErrorState, Loading, Naira } from '@/components/feedback';
import { api, getErrorMessage } from '@/lib/http';
import { paths } from '@/lib/paths';
import { AdminLayout } from './admin-layout';
import { RECONCILE_TIMEOUT_MS } from './api/long-calls';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });
const amount = (n: number | null) =>
  n === null ? <span className="text-slate-500">none</span> : <Naira amount={n} exact />;

/** One difference: what it is, its reference and date, the figures on each side and where to look. */
function DifferenceCard({
  testId,
  title,
  date,
  reference,
  fields,
  footer,
}: {
  testId: string;
  title: string;
  date: string;
  reference: string;
  fields: { label: ReactNode; value: ReactNode; shown?: boolean }[];
  footer: ReactNode;
}) {
  return (
    <li className="rounded-lg border border-amber-300 bg-white p-3 text-sm" data-testid={testId}>
      <p className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold text-ink">{title}</span>
        <span className="text-slate-600">{when(date)}</span>
      </p>
      <p className="mt-1 font-mono break-all text-slate-800">{reference}</p>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
        {fields
          .filter((f) => f.shown !== false)
          .map((f, i) => (
            <div key={i}>
              <dt className="text-xs text-slate-600">{f.label}</dt>
              <dd>{f.value}</dd>
            </div>
          ))}
      </dl>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">{footer}</p>
    </li>
  );
}

const providerAmount = (value: number | null, currency: string | null | undefined) => (
  <>
    {amount(value)}
    {currency && currency !== 'NGN' && ` (${currency})`}
  </>
);

function Difference({ d, providerWord }: { d: ReconciliationDifference; providerWord: string }) {
  const payment = d.subject === 'payment';
  return (
    <DifferenceCard
      testId="difference"
      title={`${DIFFERENCE_WORDS[d.kind].replace('Flutterwave', providerWord)} · ${payment ? 'Payment' : 'Refund'}`}
      date={d.date}
      reference={d.reference}
      fields={[
        { label: `Ledger${payment ? ' (net of fee)' : ''}`, value: amount(d.ledgerAmount) },
        {
          label: `${providerWord}${payment ? ' (settled)' : ''}`,
          value: providerAmount(d.providerAmount, d.providerCurrency),
        },
        { label: `Status at ${providerWord}`, value: d.providerStatus, shown: Boolean(d.providerStatus) },
        { label: 'Paid by', value: d.paymentType?.replace('_', ' '), shown: Boolean(d.paymentType) },
      ]}
      footer={
        <>
          {d.providerId && (
            <span className="break-all">
              {providerWord} id {d.providerId}
            </span>
          )}
          {d.orderId && <span className="break-all">Order {d.orderId}</span>}
          {d.ledgerTransactionId && <span>Ledger transaction {d.ledgerTransactionId}</span>}
          {d.jobId && (
            <Link to={paths.job(d.jobId)} className="min-h-6 font-medium text-brand underline">
              Open the job
            </Link>
          )}
        </>
      }
    />
  );
}

function PayoutDifference({ d, providerWord }: { d: PayoutDifferenceView; providerWord: string }) {
  return (
    <DifferenceCard
      testId="payout-difference"
      title={`${DIFFERENCE_WORDS[d.kind].replace('Flutterwave', providerWord)} · Payout`}
      date={d.date}
      reference={d.reference}
      fields={[
        { label: 'Ledger', value: amount(d.ledgerAmount) },
        { label: `${providerWord} (transfer)`, value: providerAmount(d.providerAmount, d.providerCurrency) },
        { label: 'Status in the ledger', value: d.ledgerStatus, shown: Boolean(d.ledgerStatus) },
        { label: `Status at ${providerWord}`, value: d.providerStatus, shown: Boolean(d.providerStatus) },
      ]}
      footer={
        <>
          {d.providerId && (
            <span className="break-all">
              {providerWord} transfer {d.providerId}
            </span>
          )}
          {d.lawyerName && <span className="break-all">Lawyer {d.lawyerName}</span>}
          {d.ledgerTransactionId && <span>Ledger transaction {d.ledgerTransactionId}</span>}
          {d.payoutId && (
            <Link to={paths.adminPayouts()} className="min-h-6 font-medium text-brand underline">
              Open the payouts
            </Link>
          )}
        </>
      }
    />
  );
}

/** The agreement note a section shows when nothing in it differs. */
function Agree({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      className="flex items-center justify-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-8 text-center text-emerald-800"
    >
      <CheckCircle2 aria-hidden className="size-5 shrink-0" />
      {children}
    </p>
  );
}

/** /admin/reconciliation: the ledger's payments, refunds and payouts next to the provider's, and every difference. */
export default function ReconciliationPage() {
  const [search, setSearch] = useSearchParams();
  const query = { from: search.get('from') ?? '', to: search.get('to') ?? '' };
  const result = useQuery({
    queryKey: ['admin-reconciliation', query],
    queryFn: ({ signal }) =>
      api<ReconciliationResponse>('/api/admin/reconciliation', { query, signal, timeoutMs: RECONCILE_TIMEOUT_MS }),
    placeholderData: keepPreviousData,
    retry: false,
    // Each visit compares afresh: money may have moved since the last look.
    refetchOnMount: 'always',
  });
  const set = (name: 'from' | 'to', value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };
  const data = result.data;
  const providerWord = data?.provider === 'sandbox' ? 'the sandbox' : 'Flutterwave';
  const providerName = data?.provider === 'sandbox' ? 'Sandbox' : 'Flutterwave';
  const input = 'mt-1 min-h-11 rounded-md border border-slate-300 px-3';
  return (
    <AdminLayout title="Reconciliation">
      <p className="mb-4 max-w-prose text-sm text-slate-700">
        The ledger’s company payments and refunds of the period, matched one by one with the payment provider’s
        transactions and refunds, and the lawyers’ payouts with its transfers. Anything listed here needs a look: money
        the ledger does not show, or a record the provider does not confirm.
      </p>
      <form className="mb-4 flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        <label className="flex flex-col text-sm font-medium">
          From
          <input
            type="date"
            value={query.from || data?.from || ''}
            onChange={(e) => set('from', e.target.value)}
            className={input}
          />
        </label>
        <label className="flex flex-col text-sm font-medium">
          To
          <input
            type="date"
            value={query.to || data?.to || ''}
            onChange={(e) => set('to', e.target.value)}
            className={input}
          />
        </label>
        {result.isFetching && !result.isPending && (
          <span role="status" className="pb-3 text-sm text-slate-600">
            Comparing...
          </span>
        )}
      </form>
      {result.isPending ? (
        <Loading label="Comparing the ledger with the provider..." />
      ) : result.isError ? (
        <ErrorState message={getErrorMessage(result.error)} onRetry={() => void result.refetch()} />
      ) : !data ? null : (
        <>
          <h2 className="heading-card mb-2 text-ink">Payments and refunds</h2>
          <dl className="mb-4 grid grid-cols-2 gap-3 text-sm lg:grid-cols-6" aria-label="What was compared">
            {(
              [
                [`Payments in the ledger (${data.ledger.payments})`, data.ledger.paid],
                [`Payments at ${providerWord} (${data.atProvider.payments})`, data.atProvider.paid],
                ['Fees in the ledger', data.ledger.fees],
                [`Fees at ${providerWord}`, data.atProvider.fees],
                [`Refunds in the ledger (${data.ledger.refunds})`, data.ledger.refunded],
                [`Refunds at ${providerWord} (${data.atProvider.refunds})`, data.atProvider.refunded],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-lg font-bold wrap-anywhere text-ink">
                  <Naira amount={value} exact />
                </dd>
              </div>
            ))}
          </dl>
          {data.differences.length === 0 ? (
            <Agree>
              Ledger and {providerWord} agree from {data.from} to {data.to}.
            </Agree>
          ) : (
            <>
              <h3 className="heading-card mb-2 text-ink">
                {data.differences.length === 1 ? '1 difference' : `${data.differences.length} differences`}
              </h3>
              <ol className="space-y-3" aria-label="Differences">
                {data.differences.map((d, i) => (
                  <Difference
                    key={`${d.kind}-${d.subject}-${d.providerId ?? d.reference}-${i}`}
                    d={d}
                    providerWord={providerName}
                  />
                ))}
              </ol>
            </>
          )}
          <h2 className="heading-card mt-8 mb-2 text-ink">Lawyer payouts</h2>
          <dl className="mb-4 grid grid-cols-2 gap-3 text-sm lg:grid-cols-4" aria-label="Payouts compared">
            {(
              [
                [`Payouts paid in the ledger (${data.payouts.ledger.payouts})`, data.payouts.ledger.paidOut],
                [`Transfers at ${providerWord} (${data.payouts.atProvider.payouts})`, data.payouts.atProvider.paidOut],
                ['Transfer fees in the ledger', data.payouts.ledger.fees],
                [`Transfer fees at ${providerWord}`, data.payouts.atProvider.fees],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-lg font-bold wrap-anywhere text-ink">
                  <Naira amount={value} exact />
                </dd>
              </div>
            ))}
          </dl>
          {data.payouts.differences.length === 0 ? (
            <Agree>
              Payouts and {providerWord}’s transfers agree from {data.from} to {data.to}.
            </Agree>
          ) : (
            <>
              <h3 className="heading-card mb-2 text-ink">
                {data.payouts.differences.length === 1
                  ? '1 payout difference'
                  : `${data.payouts.differences.length} payout differences`}
              </h3>
              <ol className="space-y-3" aria-label="Payout differences">
                {data.payouts.differences.map((d, i) => (
                  <PayoutDifference
                    key={`${d.kind}-${d.providerId ?? d.reference}-${i}`}
                    d={d}
                    providerWord={providerName}
                  />
                ))}
              </ol>
            </>
          )}
        </>
      )}
    </AdminLayout>
  );
}
