import { useState } from 'react';
import type { Review } from '@legalmarket/contracts/catalogue';
import { formatOrdinalDate, starLabel } from '@legalmarket/contracts/format';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading } from '@/components/feedback';
import { ConfirmDialog } from '@/components/modal';
import { Stars } from '@/components/stars';
import { getErrorMessage } from '@/lib/http';
import { AdminLayout } from './admin-layout';
import { useDeleteRating } from './api/delete-rating';
import { useRatings } from './api/get-ratings';

/** Admin ratings: every review with date, title, text, stars and company; abusive ones can be removed. */
export default function AdminRatingsPage() {
  const q = useRatings();
  const remove = useDeleteRating();
  const [target, setTarget] = useState<Review | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <AdminLayout title="Ratings">
      {notice && (
        <p role="status" className="mb-3 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-800">
          {notice}
        </p>
      )}
      {remove.isError && (
        <p role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {getErrorMessage(remove.error)}
        </p>
      )}
      {q.isPending ? (
        <Loading label="Loading reviews..." />
      ) : q.isError ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState>No reviews yet</EmptyState>
      ) : (
        <ul className="space-y-3">
          {q.data.map((r) => (
            <li
              key={r._id}
              className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
              data-testid="admin-review"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <time dateTime={r.date} className="text-xs text-slate-500">
                    {formatOrdinalDate(r.date)}
                  </time>
                  <h2 className="heading-card text-ink">{r.reviewTitle}</h2>
                </div>
                <span className="flex items-center gap-2">
                  <Stars value={r.status} size="sm" />
                  <span className="text-sm font-semibold text-ink" data-testid="star-label">
                    {starLabel(r.status)}
                  </span>
                </span>
              </div>
              <p className="mt-2 whitespace-pre-line text-sm">{r.review}</p>
              <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-slate-600">
                  {r.companyId.companyName}
                  {r.productName && <> · {r.productName}</>}
                </p>
                <Button variant="danger" onClick={() => setTarget(r)} aria-label={`Remove review “${r.reviewTitle}”`}>
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={Boolean(target)}
        title="Remove this review?"
        body={
          target && (
            <p>
              “{target.reviewTitle}” by {target.companyId.companyName} will be removed from the marketplace. This cannot
              be undone.
            </p>
          )
        }
        confirmLabel="Remove review"
        busy={remove.isPending}
        onCancel={() => setTarget(null)}
        onConfirm={() =>
          target &&
          remove.mutate(target._id, {
            onSuccess: (res) => {
              setNotice(res.message);
              setTarget(null);
            },
            onError: () => setTarget(null),
          })
        }
      />
    </AdminLayout>
  );
}
