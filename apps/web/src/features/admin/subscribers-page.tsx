import { PLAN_CREDIT_KINDS, PLAN_CREDIT_WORDS, PLAN_TIER_INFO, type PlanStatus } from '@legalmarket/contracts/plans';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { getErrorMessage } from '@/lib/http';
import { useSubscribers } from '@/features/plans/plans-api';
import { AdminLayout } from './admin-layout';

const STATUS_STYLE: Record<PlanStatus, string> = {
  active: 'bg-emerald-100 text-emerald-900',
  grace: 'bg-amber-100 text-amber-900',
  ended: 'bg-slate-100 text-slate-800',
  lapsed: 'bg-red-100 text-red-900',
};
const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-NG', { dateStyle: 'medium', timeZone: 'Africa/Lagos' });

/** /admin/subscribers: every monthly plan with its tier, status, renewal date and credits used. */
export default function SubscribersPage() {
  const list = useSubscribers();
  return (
    <AdminLayout title="Subscribers">
      {list.isPending ? (
        <Loading label="Loading subscribers..." />
      ) : list.isError ? (
        <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState>No company has subscribed to a plan yet.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label="Subscribers">
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <th className="py-2 pr-3">Company</th>
                <th className="pr-3">Tier</th>
                <th className="pr-3">Status</th>
                <th className="pr-3">Renewal date</th>
                <th>Credits used this month</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((s) => (
                <tr key={s._id} className="border-b border-slate-100 align-top" data-testid="subscriber">
                  <td className="py-2 pr-3 wrap-anywhere">{s.companyName}</td>
                  <td className="pr-3">
                    {PLAN_TIER_INFO[s.tier].name}
                    {s.nextTier && (
                      <span className="block text-xs text-slate-600">then {PLAN_TIER_INFO[s.nextTier].name}</span>
                    )}
                  </td>
                  <td className="pr-3">
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[s.status]}`}>
                      {s.status}
                    </span>
                    {s.cancelAtPeriodEnd && <span className="block text-xs text-slate-600">cancelled</span>}
                  </td>
                  <td className="pr-3">{day(s.renewsAt)}</td>
                  <td>
                    {PLAN_CREDIT_KINDS.filter((k) => s.included[k] > 0)
                      .map((k) => `${PLAN_CREDIT_WORDS[k]} ${s.creditsUsed[k]}/${s.included[k]}`)
                      .join(' · ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminLayout>
  );
}
