import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Naira } from '@/components/feedback';
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

/**
 * The job page's admin Mark as Completed question: whom it pays and how much, from the admin's one-job
 * answer, read afresh when the question opens (money shown before it is paid; decision 2322).
 */
export function CompletePayee({ jobId }: { jobId: string }) {
  const one = useQuery({ queryKey: adminKeys.job(jobId), queryFn: () => getJob(jobId), staleTime: 0, gcTime: 0 });
  const pay = one.data?.data.job.payOnComplete;
  if (!pay) return null;
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
