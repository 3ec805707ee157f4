import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  LEDGER_KINDS,
  LEDGER_KIND_WORDS,
  type LedgerAccount,
  type LedgerKind,
  type LedgerResponse,
} from '@legalmarket/contracts/money';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { Pagination } from '@/components/pagination';
import { api, getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';

const PAGE_SIZE = 50;
const FILTERS = ['from', 'to', 'kind', 'companyId', 'lawyerId'] as const;

const ACCOUNT_WORDS: Record<LedgerAccount, string> = {
  provider_cash: 'Held by Flutterwave',
  held_for_jobs: 'Held for jobs',
  platform_commission: 'Platform commission',
  lawyer_earnings: 'Lawyer earnings',
  payouts_in_transit: 'Payouts in transit',
  refunds_due: 'Refunds due',
  provider_fees: 'Provider fees',
};

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

/** /admin/ledger: every movement of money, the balances it adds up to, filters and a CSV export. */
export default function LedgerPage() {
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const filter = Object.fromEntries(FILTERS.map((f) => [f, search.get(f) ?? ''] as const).filter(([, v]) => v));
  const query = { ...filter, page: String(page), limit: String(PAGE_SIZE) };
  const ledger = useQuery({
    queryKey: ['admin-ledger', query],
    queryFn: ({ signal }) => api<LedgerResponse>('/api/admin/ledger', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const set = (name: (typeof FILTERS)[number] | 'page', value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name !== 'page') next.delete('page');
    setSearch(next, { replace: true });
  };

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const text = await api<string>('/api/admin/ledger.csv', { query: filter });
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `ledger${filter.from ? `-${filter.from}` : ''}${filter.to ? `-to-${filter.to}` : ''}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setExportError(getErrorMessage(err));
    } finally {
      setExporting(false);
    }
  };

  const b = ledger.data?.balances;
  const input = 'mt-1 min-h-11 rounded-md border border-slate-300 px-3';
  return (
    <AdminLayout title="Ledger">
      <p className="mb-4 max-w-prose text-sm text-slate-700">
        Every naira that moves is one transaction here, and each transaction’s entries add up to zero. The balances are
        computed from these entries.
      </p>
      {b && (
        <dl className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-3" aria-label="Balances">
          {(
            [
              ['Held by Flutterwave', b.providerCash],
              ['Held for open jobs', b.heldForJobs],
              ['Platform commission', b.platformCommission],
              ['Owed to lawyers', b.owedToLawyers],
              ['Payouts in transit', b.payoutsInTransit],
              ['Provider fees paid', b.providerFees],
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
      )}
      <form className="mb-4 flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        <label className="flex flex-col text-sm font-medium">
          From
          <input
            type="date"
            value={filter.from ?? ''}
            onChange={(e) => set('from', e.target.value)}
            className={input}
          />
        </label>
        <label className="flex flex-col text-sm font-medium">
          To
          <input type="date" value={filter.to ?? ''} onChange={(e) => set('to', e.target.value)} className={input} />
        </label>
        <label className="flex flex-col text-sm font-medium">
          Kind
          <select value={filter.kind ?? ''} onChange={(e) => set('kind', e.target.value)} className={input}>
            <option value="">All kinds</option>
            {LEDGER_KINDS.map((k) => (
              <option key={k} value={k}>
                {LEDGER_KIND_WORDS[k]}
              </option>
            ))}
          </select>
        </label>
        {(filter.companyId || filter.lawyerId) && (
          <Button
            variant="secondary"
            onClick={() => {
              const next = new URLSearchParams(search);
              next.delete('companyId');
              next.delete('lawyerId');
              next.delete('page');
              setSearch(next, { replace: true });
            }}
          >
            Show every company and lawyer
          </Button>
        )}
        <Button variant="secondary" loading={exporting} onClick={() => void exportCsv()}>
          Export CSV
        </Button>
      </form>
      {exportError && (
        <p role="alert" className="mb-3 text-sm text-red-700">
          {exportError}
        </p>
      )}
      {ledger.isPending ? (
        <Loading label="Loading the ledger..." />
      ) : ledger.isError ? (
        <ErrorState message={getErrorMessage(ledger.error)} onRetry={() => void ledger.refetch()} />
      ) : ledger.data.transactions.length === 0 ? (
        <EmptyState>No money has moved{Object.keys(filter).length ? ' for this filter' : ' yet'}.</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label="Ledger transactions">
          {ledger.data.transactions.map((t) => (
            <li key={t._id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="flex flex-wrap justify-between gap-2">
                <span className="font-semibold text-ink">{LEDGER_KIND_WORDS[t.kind as LedgerKind]}</span>
                <span className="text-slate-600">{when(t.createdAt)}</span>
              </p>
              <p className="wrap-anywhere text-slate-700">{t.memo}</p>
              <table className="mt-2 w-full text-left">
                <caption className="sr-only">Entries of transaction {t._id}</caption>
                <thead className="text-xs text-slate-600">
                  <tr>
                    <th scope="col" className="py-1 font-medium">
                      Account
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Debit
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Credit
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {t.entries.map((e, i) => (
                    <tr key={i} className="border-t border-slate-100">
                      <td className="py-1 wrap-anywhere">
                        {ACCOUNT_WORDS[e.account]}
                        {e.companyId && e.account !== 'platform_commission' && (
                          <button
                            type="button"
                            className="ml-2 min-h-6 text-xs text-brand underline"
                            onClick={() => set('companyId', e.companyId!)}
                          >
                            this company
                          </button>
                        )}
                        {e.lawyerId && (
                          <button
                            type="button"
                            className="ml-2 min-h-6 text-xs text-brand underline"
                            onClick={() => set('lawyerId', e.lawyerId!)}
                          >
                            this lawyer
                          </button>
                        )}
                      </td>
                      <td className="py-1 text-right">{e.amount > 0 && <Naira amount={e.amount} exact />}</td>
                      <td className="py-1 text-right">{e.amount < 0 && <Naira amount={-e.amount} exact />}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
          ))}
        </ol>
      )}
      {ledger.data && (
        <Pagination
          page={page}
          total={ledger.data.total}
          pageSize={PAGE_SIZE}
          onChange={(p) => set('page', String(p))}
        />
      )}
    </AdminLayout>
  );
}
