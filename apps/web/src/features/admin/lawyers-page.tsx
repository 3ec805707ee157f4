import { useId, useState } from 'react';
import type { AdminLawyer } from '@legalmarket/contracts/admin';
import { BreakableText } from '@/components/breakable-text';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { Pagination } from '@/components/pagination';
import { Tabs, tabPanelProps } from '@/components/tabs';
import { getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';
import { useLawyers } from './api/get-lawyers';
import { PAGE_SIZE } from './api/keys';
import { Avatar, DeclinedBadge, LawyerModal } from './lawyer-modal';
import { useClampPage } from './use-clamp-page';
import { useListParams } from '@/lib/use-list-params';

type Tab = 'verified' | 'unverified';
const TABS = [
  { id: 'verified', label: 'Verified' },
  { id: 'unverified', label: 'Unverified' },
] as const;

/** Admin lawyers: Verified and Unverified tabs, 5 per page; View more verifies. */
export default function AdminLawyersPage() {
  const tabsId = useId();
  const { tab, page, setTab, setPage } = useListParams<Tab>(
    TABS.map((t) => t.id),
    'verified',
  );
  const [open, setOpen] = useState<AdminLawyer | null>(null);
  const q = useLawyers(tab === 'verified', page);
  useClampPage(page, setPage, q.data);
  const changeTab = setTab;
  return (
    <AdminLayout title="Lawyers">
      <Tabs id={tabsId} label="Lawyers" tabs={TABS} value={tab} onChange={changeTab} />
      <div {...tabPanelProps(tabsId, tab)}>
        {q.isPending ? (
          <Loading />
        ) : q.isError ? (
          <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
        ) : q.data.lawyers.length === 0 ? (
          <EmptyState>No lawyers available</EmptyState>
        ) : (
          <>
            <ul
              className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
              aria-busy={q.isPlaceholderData || undefined}
            >
              {q.data.lawyers.map((l) => (
                <li key={l._id} className="flex items-center gap-3 px-4 py-3">
                  <Avatar url={l.profileImage?.url} name={l.name} />
                  <div className="min-w-0 flex-1">
                    {/* Wrapped, never cut: a long name or address stays whole on a 360 px phone. */}
                    <p className="flex min-w-0 flex-wrap items-center gap-x-2">
                      <span className="min-w-0 font-semibold wrap-anywhere">{l.name}</span>
                      {l.verificationRejection && <DeclinedBadge />}
                    </p>
                    <p className="text-sm wrap-anywhere text-slate-600">
                      SCN {l.scn ?? '—'} · <BreakableText text={l.officialEmail} />
                    </p>
                  </div>
                  <Button variant="secondary" onClick={() => setOpen(l)} aria-label={`View more about ${l.name}`}>
                    View more
                  </Button>
                </li>
              ))}
            </ul>
            <Pagination page={page} total={q.data.total} pageSize={PAGE_SIZE} onChange={setPage} />
          </>
        )}
      </div>
      <LawyerModal lawyer={open} onClose={() => setOpen(null)} />
    </AdminLayout>
  );
}
