import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Button } from '@/components/button';
import { Naira } from '@/components/feedback';
import { getErrorMessage } from '@/lib/http';
import { getJob } from './api/get-job';
import { adminKeys } from './api/keys';

/** Said when the lawyer a completion pays has delivered nothing on the job, as after a hand-over (decision 2322). */
export const notDeliveredWarning = (name: string) =>
  `${name} has delivered nothing on this job. Only ${name} is paid: a lawyer who worked on it before a hand-over is not.`;

/** The alert under an admin's Mark as Completed question when its payee delivered nothing. */
export function NotDeliveredAlert({ name }: { name: string }) {
  return (
    <p role="alert" className="mt-2 font-semibold text-amber-800">
      {notDeliveredWarning(name)}
    </p>
  );
}

/**
 * Whom and how much the open question shows it pays, read from the query it shows: sent with the
 * completion so the API refuses (409) to pay another lawyer or amount (decision 2340).
 */
export function shownPay(qc: QueryClient, jobId: string) {
  const pay = qc.getQueryData<Awaited<ReturnType<typeof getJob>>>(adminKeys.job(jobId))?.data.job.payOnComplete;
  return pay ? { lawyerId: pay.lawyerId, amount: pay.amount } : undefined;
}

/** Said beside the job page's Mark as Completed, kept unpressable, until whom it pays has loaded. */
export const payeeLoading = 'Loading whom this completion pays and how much…';

/**
 * Whom the job page's admin Mark as Completed pays, from the admin's one-job answer, read afresh when the
 * question opens (money shown before it is paid; decision 2322). Until it is there the completion would
 * carry no check (decision 2340), so its button waits on it.
 */
export function usePayee(jobId: string, enabled: boolean) {
  const qc = useQueryClient();
  // Dropped as the question closes: its caller stays mounted, and a reopening would show (and send) the
  // figure read at the last opening while the fresh one is on its way.
  useEffect(() => {
    if (!enabled) qc.removeQueries({ queryKey: adminKeys.job(jobId), exact: true });
  }, [enabled, qc, jobId]);
  return useQuery({
    queryKey: adminKeys.job(jobId),
    queryFn: () => getJob(jobId),
    staleTime: 0,
    gcTime: 0,
    enabled,
  });
}

/** Why Mark as Completed cannot be pressed yet: whom it pays is loading, or failed to load (with Try again). */
export function PayeeReason({ id, error, retry }: { id: string; error: unknown; retry?: () => void }) {
  if (!error)
    return (
      <p id={id} role="status" className="mt-2 text-slate-700">
        {payeeLoading}
      </p>
    );
  return (
    <div id={id} className="mt-2">
      <p role="alert" className="text-red-700">
        Could not load whom this completion pays: {getErrorMessage(error)} Try again before marking it completed.
      </p>
      {retry && (
        <Button variant="secondary" className="mt-2" onClick={retry}>
          Try again
        </Button>
      )}
    </div>
  );
}

/** The job page's admin Mark as Completed question: whom it pays and how much, or why it cannot be pressed yet. */
export function CompletePayee({ query, reasonId }: { query: ReturnType<typeof usePayee>; reasonId: string }) {
  const pay = query.data?.data.job.payOnComplete;
  if (query.isError) return <PayeeReason id={reasonId} error={query.error} retry={() => void query.refetch()} />;
  if (!pay) {
    if (query.isPending || query.isFetching) return <PayeeReason id={reasonId} error={null} />;
    return (
      <p id={reasonId} role="status" className="mt-2 text-slate-700">
        This job has no lawyer to pay now: reload the page to see where it stands.
      </p>
    );
  }
  return (
    <>
      <p className="mt-2">
        <strong>{pay.name}</strong> is paid <Naira amount={pay.amount} exact /> (what is held for the job, less the
        commission).
      </p>
      {!pay.delivered && <NotDeliveredAlert name={pay.name} />}
    </>
  );
}
