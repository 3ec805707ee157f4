import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RefundStatus, RefundView, RefundsResponse } from '@legalmarket/contracts/money';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira, SuccessNote } from '@/components/feedback';
import { ConfirmDialog } from '@/components/modal';
import { PdfDownload } from '@/components/pdf-download';
import { api, getErrorMessage } from '@/lib/http';
import { paths } from '@/lib/paths';
import { AdminLayout } from './admin-layout';

const STATUS_WORDS: Record<RefundStatus, string> = {
  pending: 'Pending at the provider',
  completed: 'Completed',
  failed: 'Failed: money still due',
};
const STATUS_STYLE: Record<RefundStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  completed: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-900',
};
const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

/** /admin/refunds: refunds of cancelled jobs with their status; a failed one can be sent again. */
export default function RefundsPage() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['admin-refunds'],
    queryFn: ({ signal }) => api<RefundsResponse>('/api/admin/refunds', { signal }),
    refetchOnMount: 'always',
  });
  const [asking, setAsking] = useState<RefundView | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const retry = useMutation({
    mutationFn: (id: string) =>
      api<{ status: 'success'; refund: RefundView }>(`/api/admin/refunds/${id}/retry`, { method: 'POST' }),
    onSuccess: (res) => {
      setAsking(null);
      setNote(
        res.refund.status === 'completed'
          ? `The refund on ${res.refund.reference} is completed.`
          : res.refund.status === 'failed'
            ? `The provider refused the refund on ${res.refund.reference} again.`
            : `The refund on ${res.refund.reference} was sent; the provider is processing it.`,
      );
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['admin-refunds'] }),
  });

  return (
    <AdminLayout title="Refunds">
      <p className="mb-4 max-w-prose text-sm text-slate-700">
        A refund is opened when a paid job is cancelled and sent to the payment provider. A failed refund keeps the
        money due to the company until it is sent again.
      </p>
      {note && <SuccessNote className="mb-3">{note}</SuccessNote>}
      {list.isPending ? (
        <Loading label="Loading refunds..." />
      ) : list.isError ? (
        <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : list.data.refunds.length === 0 ? (
        <EmptyState>No refunds yet. Cancelling a paid job with a refund opens one.</EmptyState>
      ) : (
        <ol className="space-y-3" aria-label="Refunds">
          {list.data.refunds.map((r) => (
            <li key={r._id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="refund">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-semibold wrap-anywhere text-ink">{r.productName}</p>
                  <p className="wrap-anywhere text-slate-700">{r.companyName}</p>
                </div>
                <p className="text-lg font-bold text-ink">
                  <Naira amount={r.amount} exact />
                </p>
              </div>
              <p className="mt-2 flex flex-wrap items-center gap-2">
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[r.status]}`}>
                  {STATUS_WORDS[r.status]}
                </span>
                <span className="text-slate-600">
                  Opened {when(r.createdAt)}
                  {r.settledAt && ` · completed ${when(r.settledAt)}`}
                </span>
              </p>
              <p className="mt-1 font-mono text-xs break-all text-slate-600">Payment {r.reference}</p>
              {r.reason && <p className="mt-1 wrap-anywhere text-slate-700">Reason: {r.reason}</p>}
              <div className="mt-2 flex flex-wrap items-center gap-3">
                {r.jobId && (
                  <Link to={paths.job(r.jobId)} className="min-h-6 font-medium text-brand underline">
                    Open the job
                  </Link>
                )}
                {r.status === 'completed' && (
                  <PdfDownload
                    path={`/api/refunds/${r._id}/credit-note.pdf`}
                    filename="credit-note.pdf"
                    label={`Credit note for the refund of ${r.productName}, payment ${r.reference}`}
                  >
                    Credit note
                  </PdfDownload>
                )}
                {r.status === 'failed' && (
                  <Button
                    variant="secondary"
                    onClick={() => {
                      retry.reset();
                      setAsking(r);
                    }}
                  >
                    Retry
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={!!asking}
        title="Send this refund again?"
        busy={retry.isPending}
        body={
          asking && (
            <div className="space-y-2 text-sm">
              <p>
                <Naira amount={asking.amount} exact /> goes back to {asking.companyName} for {asking.productName}{' '}
                (payment <span className="font-mono break-all">{asking.reference}</span>). Money sent cannot be taken
                back.
              </p>
              {retry.isError && (
                <p role="alert" className="text-red-700">
                  {getErrorMessage(retry.error)}
                </p>
              )}
            </div>
          )
        }
        confirmLabel={retry.isPending ? 'Sending...' : 'Send the refund'}
        onConfirm={() => asking && retry.mutate(asking._id)}
        onCancel={() => setAsking(null)}
      />
    </AdminLayout>
  );
}
