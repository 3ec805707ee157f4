import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminCompany } from '@legalmarket/contracts/admin';
import { formatOrdinalDate } from '@legalmarket/contracts/format';
import { paths } from '@/lib/paths';
import { BreakableText } from '@/components/breakable-text';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { Modal } from '@/components/modal';
import { Pagination } from '@/components/pagination';
import { getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';
import { useCompanies } from './api/get-companies';
import { PAGE_SIZE } from './api/keys';
import { Avatar } from './lawyer-modal';
import { useClampPage } from './use-clamp-page';
import { useListParams } from '@/lib/use-list-params';

const nameOf = (c: AdminCompany) => c.companyName ?? c.name;

function CompanyModal({ company, onClose }: { company: AdminCompany | null; onClose: () => void }) {
  const rows: Array<[string, string | null | undefined]> = company
    ? [
        ['Contact', company.contactName],
        ['Email', company.officialEmail],
        ['Phone', company.phoneNumber],
        ['Industry', company.industry],
        ['Office address', company.officeAddress],
        ['CAC', company.cac],
        ['Website', company.website],
        ['Joined', formatOrdinalDate(company.createdAt)],
      ]
    : [];
  return (
    <Modal
      open={Boolean(company)}
      title={company ? nameOf(company) : 'Company'}
      onClose={onClose}
      footer={
        company && (
          <Link
            to={paths.companyProfile(company._id)}
            className="inline-flex min-h-11 items-center rounded-md bg-brand px-4 text-sm font-semibold text-white hover:bg-brand-dark"
          >
            Go to profile
          </Link>
        )
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-medium text-slate-500">{k}</dt>
              <dd className="wrap-anywhere">{v}</dd>
            </div>
          ))}
      </dl>
      {company?.yourBio && <p className="mt-3">{company.yourBio}</p>}
    </Modal>
  );
}

/** Admin companies, headed Clients: 5 per page, paged on the server. */
export default function AdminCompaniesPage() {
  const { page, setPage } = useListParams(['all'], 'all');
  const [open, setOpen] = useState<AdminCompany | null>(null);
  const q = useCompanies(page);
  useClampPage(page, setPage, q.data);
  return (
    <AdminLayout title="Clients">
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : q.data.company.length === 0 ? (
        <EmptyState>No companies available</EmptyState>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">
            {q.data.total.toLocaleString('en-NG')} {q.data.total === 1 ? 'company' : 'companies'}
          </p>
          <ul
            className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
            aria-busy={q.isPlaceholderData || undefined}
          >
            {q.data.company.map((c) => (
              <li key={c._id} className="flex items-center gap-3 px-4 py-3">
                <Avatar url={c.profileImage?.url} name={nameOf(c)} />
                <div className="min-w-0 flex-1">
                  {/* Wrapped, never cut: a long name or address stays whole on a 360 px phone. */}
                  <p className="font-semibold wrap-anywhere">{nameOf(c)}</p>
                  <BreakableText className="block text-sm wrap-anywhere text-slate-600" text={c.officialEmail} />
                </div>
                <Button variant="secondary" onClick={() => setOpen(c)} aria-label={`View more about ${nameOf(c)}`}>
                  View more
                </Button>
              </li>
            ))}
          </ul>
          <Pagination page={page} total={q.data.total} pageSize={PAGE_SIZE} onChange={setPage} />
        </>
      )}
      <CompanyModal company={open} onClose={() => setOpen(null)} />
    </AdminLayout>
  );
}
