import { Link } from 'react-router';
import { Briefcase, Building2, CreditCard, FileText, PlusCircle, Scale, Star, type LucideIcon } from 'lucide-react';
import { AUDIT_ACTION_LABELS, type AuditEntry } from '@legalmarket/contracts/admin';
import { paths } from '@/lib/paths';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';
import { useDashboard } from './api/get-dashboard';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

function describe(e: AuditEntry) {
  const d = e.details ?? {};
  const text = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
  const what = AUDIT_ACTION_LABELS[e.action] ?? e.action;
  const subject = text('productName') ?? text('name') ?? text('reviewTitle');
  const to = e.action === 'job.assign' && text('lawyerName') ? ` to ${text('lawyerName')}` : '';
  return subject ? `${what}: ${subject}${to}` : what;
}

/** A white dashboard tile; the counted tiles and the Remuneration Order link share it. */
function Tile(props: { to: string; icon: LucideIcon; label: string; detail: string; detailTestId?: string }) {
  const { to, icon: Icon, label, detail, detailTestId } = props;
  return (
    <li>
      <Link
        to={to}
        className="flex min-h-24 items-center gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand focus-visible:outline-2 focus-visible:outline-accent"
      >
        <span className="flex size-12 items-center justify-center rounded-lg bg-brand/10 text-brand">
          <Icon aria-hidden className="size-6" />
        </span>
        <span>
          <span className="block text-lg font-semibold text-ink">{label}</span>
          <span className="block text-sm text-slate-600" data-testid={detailTestId}>
            {detail}
          </span>
        </span>
      </Link>
    </li>
  );
}

export default function AdminDashboardPage() {
  const q = useDashboard();
  const c = q.data?.data.counts;
  const tiles = [
    { label: 'Jobs', to: paths.adminJobs(), icon: Briefcase, count: c?.openJobs, unit: ['open job', 'open jobs'] },
    {
      label: 'Lawyers',
      // Each counted tile opens the list its count is of: the unverified lawyers, the paid payments.
      to: `${paths.adminLawyers()}?tab=unverified`,
      icon: Scale,
      count: c?.unverifiedLawyers,
      unit: ['awaiting verification', 'awaiting verification'],
    },
    {
      label: 'Companies',
      to: paths.adminCompanies(),
      icon: Building2,
      count: c?.companies,
      unit: ['company', 'companies'],
    },
    {
      label: 'Payment',
      to: `${paths.adminPayment()}?status=paid`,
      icon: CreditCard,
      count: c?.payments,
      unit: ['payment received', 'payments received'],
    },
    { label: 'Ratings', to: paths.adminRatings(), icon: Star, count: c?.reviews, unit: ['review', 'reviews'] },
  ];
  return (
    <AdminLayout title="Dashboard">
      {q.isError ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {tiles.map(({ label, to, icon, count, unit }) => (
            <Tile
              key={label}
              to={to}
              icon={icon}
              label={label}
              detail={count === undefined ? '…' : `${count.toLocaleString('en-NG')} ${unit[count === 1 ? 0 : 1]}`}
              detailTestId={`tile-${label.toLowerCase()}`}
            />
          ))}
          <Tile
            to={paths.adminRemunerationOrder()}
            icon={FileText}
            label="Remuneration Order"
            detail="Upload or replace the PDF visitors read"
          />
          <li>
            <Link
              to={paths.adminNewProduct()}
              className="flex min-h-24 items-center gap-4 rounded-xl bg-brand p-4 text-white shadow-sm hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-accent"
            >
              <span className="flex size-12 items-center justify-center rounded-lg bg-white/10">
                <PlusCircle aria-hidden className="size-6" />
              </span>
              <span>
                <span className="block text-lg font-semibold">Create Product</span>
                <span className="block text-sm text-white/80">Add a legal service to the catalogue</span>
              </span>
            </Link>
          </li>
        </ul>
      )}

      <section aria-labelledby="recent-activity" className="mt-8">
        <h2 id="recent-activity" className="heading-card mb-3">
          Recent activity
        </h2>
        {q.isPending ? (
          <Loading />
        ) : q.isError ? null : q.data.data.recentActivity.length === 0 ? (
          <EmptyState>No admin activity yet</EmptyState>
        ) : (
          <ol className="divide-y divide-slate-200 rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            {q.data.data.recentActivity.map((e) => (
              <li key={e._id} className="flex flex-col gap-0.5 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-3">
                <time dateTime={e.createdAt} className="shrink-0 text-xs text-slate-500 sm:w-40">
                  {when(e.createdAt)}
                </time>
                <p className="text-sm">
                  <span className="font-semibold">{e.actor?.name ?? 'A removed admin'}</span> {describe(e)}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </AdminLayout>
  );
}
