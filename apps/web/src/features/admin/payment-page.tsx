import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Pencil } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { settlementAccountInput, type PaymentsQuery, type SettlementAccountInput } from '@legalmarket/contracts/admin';
import { formatOrdinalDate } from '@legalmarket/contracts/format';
import { Button } from '@/components/button';
import { PdfDownload } from '@/components/pdf-download';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { Field, FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { Pagination } from '@/components/pagination';
import { getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';
import { usePayments } from './api/get-payments';
import { PAGE_SIZE } from './api/keys';
import { useSaveSettlementAccount, useSettlementAccount } from './api/settlement-account';

type Preset = 'month' | '30days' | 'year' | 'all' | 'custom';
const PRESETS: readonly Preset[] = ['all', 'month', '30days', 'year', 'custom'];
const STATUSES = ['paid', 'pending', 'failed', 'expired', 'replaced'] as const;
type Status = (typeof STATUSES)[number];
/** The day in Lagos (UTC+1 all year), as the API reads `from` and `to`: not the UTC day. */
const lagosDay = (t: number) => new Date(t + 3600_000).toISOString().slice(0, 10);
function presetRange(p: Preset): { from?: string; to?: string } {
  const today = lagosDay(Date.now());
  if (p === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  if (p === '30days') return { from: lagosDay(Date.now() - 29 * 86_400_000), to: today };
  if (p === 'year') return { from: `${today.slice(0, 5)}01-01`, to: today };
  return {};
}
const isDay = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);

const STATUS_STYLE: Record<string, string> = {
  paid: 'bg-emerald-100 text-emerald-900',
  pending: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-900',
  expired: 'bg-slate-200 text-slate-700',
  replaced: 'bg-slate-200 text-slate-700',
};

/** The modal's form, mounted on each opening so it starts from the saved account. */
function SettlementAccountForm({
  initial,
  refusal,
  onSave,
}: {
  initial: SettlementAccountInput;
  refusal: string | null;
  onSave: (v: z.output<typeof settlementAccountInput>) => void;
}) {
  const { register, handleSubmit, formState } = useForm<
    SettlementAccountInput,
    unknown,
    z.output<typeof settlementAccountInput>
  >({ resolver: zodResolver(settlementAccountInput), defaultValues: initial });
  const accountNumber = register('accountNumber');
  return (
    <form id="settlement-form" className="space-y-3" noValidate onSubmit={handleSubmit(onSave)}>
      <Field
        label="Account number"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        hint="10-digit NUBAN"
        error={formState.errors.accountNumber?.message}
        {...accountNumber}
        // A NUBAN is digits only: drop anything else as it is typed, as before.
        onChange={(e) => {
          e.target.value = e.target.value.replace(/\D+/g, '');
          return accountNumber.onChange(e);
        }}
      />
      <Field label="Account name" error={formState.errors.accountName?.message} {...register('accountName')} />
      <Field label="Bank" error={formState.errors.bank?.message} {...register('bank')} />
      {/* The server's refusals; the schema's messages sit under their fields. */}
      <FormError message={refusal} />
    </form>
  );
}

function SettlementAccountCard() {
  const q = useSettlementAccount();
  const save = useSaveSettlementAccount();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const account = q.data?.data.account ?? null;
  const open = () => {
    save.reset();
    setEditing(true);
  };
  const rows: Array<[string, string]> = [
    ['Account number', account?.accountNumber ?? '—'],
    ['Account name', account?.accountName ?? '—'],
    ['Bank', account?.bank ?? '—'],
  ];
  return (
    <section aria-labelledby="settlement-title" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-2">
        <h2 id="settlement-title" className="heading-card">
          Settlement account
        </h2>
        <button
          type="button"
          onClick={open}
          aria-label="Edit settlement account"
          className="flex size-11 items-center justify-center rounded-md text-brand hover:bg-brand/5"
        >
          <Pencil aria-hidden className="size-5" />
        </button>
      </div>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          {!account && (
            <p className="mt-1 text-sm text-slate-600">No settlement account yet. Use the pencil to add it.</p>
          )}
          <dl className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-3" data-testid="settlement-account">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt className="text-xs font-medium uppercase text-slate-500">{k}</dt>
                <dd className="font-semibold">{v}</dd>
              </div>
            ))}
          </dl>
          {account && (
            <p className="mt-2 text-xs text-slate-500">Last changed {formatOrdinalDate(account.updatedAt)}</p>
          )}
        </>
      )}
      {notice && (
        <p role="status" className="mt-2 text-sm font-semibold text-emerald-700">
          {notice}
        </p>
      )}
      <Modal
        open={editing}
        title="Edit settlement account"
        onClose={() => setEditing(false)}
        footer={
          <>
            <Button variant="ghost" onClick={() => setEditing(false)}>
              Close
            </Button>
            <Button type="submit" form="settlement-form" loading={save.isPending}>
              Save Changes
            </Button>
          </>
        }
      >
        {editing && (
          <SettlementAccountForm
            refusal={save.isError ? getErrorMessage(save.error) : null}
            initial={{
              accountNumber: account?.accountNumber ?? '',
              accountName: account?.accountName ?? '',
              bank: account?.bank ?? '',
            }}
            onSave={(v) =>
              save.mutate(v, {
                onSuccess: (res) => {
                  setNotice(res.message);
                  setEditing(false);
                },
              })
            }
          />
        )}
      </Modal>
    </section>
  );
}

function Ledger() {
  // The period, status and page live in the address: a reload, or Back from a receipt, shows the same
  // list and totals the admin was reading.
  const [search, setSearch] = useSearchParams();
  const preset: Preset = PRESETS.find((p) => p === search.get('period')) ?? 'all';
  const custom = { from: isDay(search.get('from')), to: isDay(search.get('to')) };
  const status: Status | '' = STATUSES.find((s) => s === search.get('status')) ?? '';
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  const setPage = (p: number) => update({ page: p > 1 ? String(p) : undefined }, false);
  /** Changes some of the filters; any change but the page's starts again from page 1. */
  const update = (changes: Record<string, string | undefined>, resetPage = true) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (resetPage) next.delete('page');
    setSearch(next, { replace: true });
  };
  const range = preset === 'custom' ? custom : presetRange(preset);
  const query: PaymentsQuery = { ...range, status: status || undefined, page, limit: PAGE_SIZE };
  const q = usePayments(query);
  const totals = q.data?.data.totals;
  return (
    <section aria-labelledby="ledger-title" className="mt-6">
      <h2 id="ledger-title" className="heading-card mb-3">
        Payments
      </h2>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Period
          <select
            className="mt-1 block min-h-11 rounded-md border border-slate-300 bg-white px-3"
            value={preset}
            onChange={(e) => {
              const p = e.target.value as Preset;
              update(
                p === 'custom'
                  ? { period: p }
                  : { period: p === 'all' ? undefined : p, from: undefined, to: undefined },
              );
            }}
          >
            <option value="all">All time</option>
            <option value="month">This month</option>
            <option value="30days">Last 30 days</option>
            <option value="year">This year</option>
            <option value="custom">Choose dates</option>
          </select>
        </label>
        {preset === 'custom' && (
          <>
            <label className="text-sm font-medium">
              From
              <input
                type="date"
                className="mt-1 block min-h-11 rounded-md border border-slate-300 px-3"
                value={custom.from ?? ''}
                onChange={(e) => update({ from: e.target.value || undefined })}
              />
            </label>
            <label className="text-sm font-medium">
              To
              <input
                type="date"
                className="mt-1 block min-h-11 rounded-md border border-slate-300 px-3"
                value={custom.to ?? ''}
                onChange={(e) => update({ to: e.target.value || undefined })}
              />
            </label>
          </>
        )}
        <label className="text-sm font-medium">
          Status
          <select
            className="mt-1 block min-h-11 rounded-md border border-slate-300 bg-white px-3"
            value={status}
            onChange={(e) => update({ status: e.target.value || undefined })}
          >
            <option value="">All</option>
            <option value="paid">Paid</option>
            <option value="pending">Pending</option>
            <option value="failed">Failed</option>
            <option value="expired">Expired</option>
            <option value="replaced">Replaced</option>
          </select>
        </label>
      </div>
      {totals && (
        <dl className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Totals for the period">
          {STATUSES.map((s) => (
            <div key={s} className="rounded-lg bg-sand p-3">
              <dt className="text-xs font-medium uppercase text-slate-600">{s}</dt>
              <dd className="text-lg font-bold">
                <Naira amount={totals[s].amount} exact />
              </dd>
              <dd className="text-xs text-slate-600">
                {totals[s].count} {totals[s].count === 1 ? 'order' : 'orders'}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : q.data.data.payments.length === 0 ? (
        // Names the status chosen: "No payments" under a filter would read as if nothing was paid at all.
        <EmptyState>{status ? `No ${status} payments in this period` : 'No payments in this period'}</EmptyState>
      ) : (
        <>
          <ul
            className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
            aria-busy={q.isPlaceholderData || undefined}
          >
            {q.data.data.payments.map((p) => (
              <li key={p._id} className="grid grid-cols-1 gap-1 px-4 py-3 sm:grid-cols-[1fr_auto] sm:items-center">
                <div className="min-w-0">
                  <p className="font-semibold wrap-anywhere">{p.company.companyName}</p>
                  <p className="text-sm wrap-anywhere text-slate-600">
                    <span className="font-mono break-all">{p.reference}</span> · {p.provider} ·{' '}
                    <time dateTime={p.paidAt ?? p.createdAt}>{formatOrdinalDate(p.paidAt ?? p.createdAt)}</time>
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3 sm:justify-end">
                  <span className="font-bold">
                    <Naira amount={p.amount} exact />
                  </span>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[p.status]}`}>
                    {p.status}
                  </span>
                  {p.status === 'paid' && (
                    <PdfDownload
                      path={`/api/orders/${p._id}/receipt.pdf`}
                      filename={`receipt-${p.reference.replace(/[^A-Za-z0-9-]/g, '_')}.pdf`}
                      label={`Receipt for payment ${p.reference}`}
                    >
                      Receipt
                    </PdfDownload>
                  )}
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={page} total={q.data.total} pageSize={PAGE_SIZE} onChange={setPage} />
        </>
      )}
    </section>
  );
}

/** /admin/payment and /admin/get-paid: the settlement account and the real payments ledger. */
export default function AdminPaymentPage() {
  return (
    <AdminLayout title="Payment">
      <SettlementAccountCard />
      <Ledger />
    </AdminLayout>
  );
}
