import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_TARGET_TYPES,
  type AuditEntry,
  type AuditLogQuery,
  type auditLogResponse,
} from '@legalmarket/contracts/admin';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { Pagination } from '@/components/pagination';
import { api, getErrorMessage } from '@/lib/http';
import { paths } from '@/lib/paths';
import { AdminLayout } from './admin-layout';

type AuditLogResponse = z.infer<typeof auditLogResponse>;
const PAGE_SIZE = 20;
const FILTERS = ['actor', 'action', 'targetType', 'targetId', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];

const TARGET_WORDS: Record<(typeof AUDIT_TARGET_TYPES)[number], string> = {
  job: 'Job',
  lawyer: 'Lawyer',
  company: 'Company',
  product: 'Product',
  review: 'Review',
  payout: 'Payout',
  order: 'Order',
  refund: 'Refund',
  settings: 'Settings',
  holiday: 'Holiday',
  remuneration_order: 'Remuneration Order',
  user: 'Account',
};

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

/** Where the object an entry names is opened (decision 2021). */
function auditTargetLink(e: Pick<AuditEntry, 'action' | 'targetType' | 'targetId'>): string | null {
  const id = e.targetId;
  switch (e.targetType) {
    case 'job':
      return id ? paths.job(id) : null;
    case 'product':
      return id ? paths.preCart(id) : null;
    case 'lawyer':
      return paths.adminLawyers();
    case 'company':
      return paths.adminCompanies();
    case 'payout':
      return paths.adminPayouts();
    case 'order':
      return paths.adminPayment();
    case 'refund':
      return paths.adminRefunds();
    case 'review':
      return paths.adminRatings();
    case 'holiday':
      return paths.adminHolidays();
    case 'remuneration_order':
      return paths.adminRemunerationOrder();
    case 'settings':
      return e.action.startsWith('money_settings') ? paths.adminLedger() : paths.adminPayment();
    default:
      return null;
  }
}

/** /admin/audit: every admin action, filtered by actor, action, object and period, paged on the server. */
export default function AuditPage() {
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const filter = Object.fromEntries(
    FILTERS.map((f) => [f, search.get(f) ?? ''] as const).filter(([, v]) => v),
  ) as Partial<Record<Filter, string>>;
  const query: AuditLogQuery = { ...filter, page, limit: PAGE_SIZE } as AuditLogQuery;
  const list = useQuery({
    queryKey: ['admin-audit', query],
    queryFn: ({ signal }) =>
      api<AuditLogResponse>('/api/admin/audit-log', {
        query: query as Record<string, string | number | undefined>,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  // Typed filters apply on "Filter" (not on every key press over a slow network).
  const [actor, setActor] = useState(filter.actor ?? '');
  const [targetId, setTargetId] = useState(filter.targetId ?? '');

  const apply = (changes: Partial<Record<Filter | 'page', string>>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    setSearch(next, { replace: true });
  };
  const clear = () => {
    setActor('');
    setTargetId('');
    setSearch(new URLSearchParams(), { replace: true });
  };

  const input = 'mt-1 min-h-11 w-full rounded-md border border-slate-300 px-3';
  const entries = list.data?.data.entries ?? [];
  return (
    <AdminLayout title="Audit log">
      <p className="mb-4 max-w-prose text-sm text-slate-700">
        Who did what and when. Filter by the person, the action, the object or the period; each entry opens what it
        names.
      </p>
      <form
        aria-label="Audit filters"
        className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          apply({ actor: actor.trim(), targetId: targetId.trim() });
        }}
      >
        <label className="flex flex-col text-sm font-medium">
          Who (name, e-mail or id)
          <input value={actor} onChange={(e) => setActor(e.target.value)} className={input} maxLength={200} />
        </label>
        <label className="flex flex-col text-sm font-medium">
          Action
          <select
            aria-label="Action"
            value={filter.action ?? ''}
            onChange={(e) => apply({ action: e.target.value })}
            className={input}
          >
            <option value="">Every action</option>
            {Object.entries(AUDIT_ACTION_LABELS).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm font-medium">
          Object
          <select
            aria-label="Object"
            value={filter.targetType ?? ''}
            onChange={(e) => apply({ targetType: e.target.value })}
            className={input}
          >
            <option value="">Any object</option>
            {AUDIT_TARGET_TYPES.map((t) => (
              <option key={t} value={t}>
                {TARGET_WORDS[t]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm font-medium">
          Object id
          <input value={targetId} onChange={(e) => setTargetId(e.target.value)} className={input} maxLength={100} />
        </label>
        <label className="flex flex-col text-sm font-medium">
          From
          <input
            type="date"
            aria-label="From"
            value={filter.from ?? ''}
            onChange={(e) => apply({ from: e.target.value })}
            className={input}
          />
        </label>
        <label className="flex flex-col text-sm font-medium">
          To
          <input
            type="date"
            value={filter.to ?? ''}
            onChange={(e) => apply({ to: e.target.value })}
            className={input}
          />
        </label>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
          <Button type="submit">Filter</Button>
          <Button variant="secondary" onClick={clear}>
            Clear filters
          </Button>
        </div>
      </form>
      {list.isPending ? (
        <Loading label="Loading the audit log..." />
      ) : list.isError ? (
        <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState>No action matches these filters.</EmptyState>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600" data-testid="audit-total">
            {list.data.total} {list.data.total === 1 ? 'entry' : 'entries'}
          </p>
          <ol className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            {entries.map((e) => {
              const to = auditTargetLink(e);
              const what = AUDIT_ACTION_LABELS[e.action] ?? e.action;
              const target = e.targetType
                ? (TARGET_WORDS[e.targetType as keyof typeof TARGET_WORDS] ?? e.targetType)
                : null;
              return (
                <li key={e._id} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="text-sm wrap-anywhere">
                      <span className="font-semibold">{e.actor?.name ?? 'A deleted account'}</span> {what}
                    </p>
                    <p className="text-xs text-slate-500">
                      <time dateTime={e.createdAt}>{when(e.createdAt)}</time>
                      {e.actor ? ` · ${e.actor.officialEmail}` : ''} · <code>{e.action}</code>
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2 text-sm">
                    {target && to && (
                      <Link
                        className="inline-flex min-h-11 items-center font-semibold text-brand hover:underline"
                        to={to}
                      >
                        Open {target.toLowerCase()}
                      </Link>
                    )}
                    {e.targetType && e.targetId && (
                      <button
                        type="button"
                        className="inline-flex min-h-11 items-center text-slate-700 hover:underline"
                        onClick={() => {
                          setTargetId(e.targetId ?? '');
                          apply({ targetType: e.targetType ?? '', targetId: e.targetId ?? '' });
                        }}
                      >
                        History of this {target?.toLowerCase() ?? 'object'}
                      </button>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
          <Pagination
            page={page}
            total={list.data.total}
            pageSize={PAGE_SIZE}
            onChange={(p) => apply({ page: String(p) })}
          />
        </>
      )}
    </AdminLayout>
  );
}
