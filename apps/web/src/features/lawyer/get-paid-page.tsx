import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Pencil } from 'lucide-react';
import { formatOrdinalDate } from '@legalmarket/contracts/format';
import { messages } from '@legalmarket/contracts/messages';
import {
  maskAccountNumber,
  payoutCodeMaybeConfirmed,
  payoutCodeNotConfirmed,
  payoutUpdateUnsure,
  type AccountDetails,
} from '@legalmarket/contracts/lawyers';
import type { EarningsResponse, LawyerEarning } from '@legalmarket/contracts/money';
import type { LawyerPayoutsResponse } from '@legalmarket/contracts/payouts';
import { Button } from '@/components/button';
import { EmptyState, ErrorState, Loading, Naira, SuccessNote } from '@/components/feedback';
import { FormError } from '@/components/field';
import { SectionBoundary } from '@/components/section-boundary';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';
import { api, getErrorMessage, HttpError, isNetworkError } from '@/lib/http';
import { isAnswerLost } from '@/lib/answer-lost';
import { useAddPaymentDetails } from './api/add-payment-details';
import { payoutEditWindow, useEditPaymentDetails } from './api/edit-payment-details';
import { useEarnings } from './api/get-earnings';
import { usePaymentDetails } from './api/get-payment-details';
import { usePayouts } from './api/get-payouts';
import { useSendPayoutCode } from './api/send-otp';
import { PaymentSideMenu, type PaymentSection } from './components/payment-side-menu';
import { PayoutForm } from './components/payout-form';
import { Withdrawals } from './components/withdrawals';
import { ResultModal, type ActionResult } from '@/components/result-modal';
import { BreakableText } from '@/components/breakable-text';

/** /lawyer/get-paid: Payment Details (add, or change through an e-mailed code) and Get Paid (real figures). */
export default function GetPaidPage() {
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const section: PaymentSection = search.get('tab') === 'get-paid' ? 'get-paid' : 'details';
  const setSection = (s: PaymentSection) => setSearch(s === 'get-paid' ? { tab: 'get-paid' } : {}, { replace: true });

  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 md:grid-cols-[14rem_1fr]">
      <PaymentSideMenu section={section} onSection={setSection} lawyerId={session?.userId ?? ''} />
      <SectionBoundary>
        {section === 'details' ? <PaymentDetails /> : <GetPaid onPaymentDetails={() => setSection('details')} />}
      </SectionBoundary>
    </div>
  );
}

type Step = 'view' | 'send-code' | 'update';
type Result = ActionResult | null;

function PaymentDetails() {
  const navigate = useNavigate();
  const details = usePaymentDetails();
  const add = useAddPaymentDetails();
  const edit = useEditPaymentDetails();
  const send = useSendPayoutCode();
  const [step, setStep] = useState<Step>(() => (payoutEditWindow.isOpen() ? 'update' : 'view'));
  const [result, setResult] = useState<Result>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  // Update was refused for want of a confirmed code: the send-code step says so, or, when an earlier
  // Update of the window lost its answer, that it cannot tell whether that one went through (2312).
  const [codeNeeded, setCodeNeeded] = useState<null | 'not-changed' | 'unsure'>(null);
  const saved: AccountDetails | undefined = details.data?.lawyer.accountDetails[0];

  if (details.isLoading) return <Loading label="Loading payment details..." />;
  if (details.isError) return <ErrorState message={getErrorMessage(details.error)} onRetry={() => details.refetch()} />;

  const sendCode = () => {
    setSendError(null);
    send.mutate(undefined, {
      // The code page says the code went out (spec: "OTP sent successfully"), on the first send too.
      onSuccess: (res) => navigate(paths.lawyerOtp(), { state: { notice: res.message || messages.otpSent } }),
      onError: (err) => setSendError(getErrorMessage(err)),
    });
  };

  return (
    <section
      aria-labelledby="payment-details-title"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h1 id="payment-details-title" className="heading-title mb-4 text-ink">
        Payment Details
      </h1>
      {!saved ? (
        <>
          <p className="mb-4 text-sm text-slate-600">Add the Nigerian bank account your earnings are paid into.</p>
          <PayoutForm
            submitLabel="Add Payment Details"
            busy={add.isPending}
            onSubmit={(v) =>
              add.mutate(v, {
                onSuccess: (res) => setResult({ ok: true, text: res.message }),
                onError: (err) => setResult({ ok: false, text: getErrorMessage(err) }),
              })
            }
          />
        </>
      ) : step === 'update' ? (
        <>
          {/* The update step opens only after a right code (payoutEditWindow): the spec's "OTP confirmed",
              or, when its answer was lost, that it probably was (decision 2312). */}
          {payoutEditWindow.isUnsure() ? (
            <p role="status" className="mb-3 text-sm text-slate-700">
              {payoutCodeMaybeConfirmed}
            </p>
          ) : (
            <SuccessNote className="mb-3">{messages.otpConfirmed}</SuccessNote>
          )}
          <p className="mb-4 text-sm text-slate-600">Enter your new payment details.</p>
          <PayoutForm
            initial={saved}
            submitLabel="Update"
            busy={edit.isPending}
            onCancel={() => {
              payoutEditWindow.close();
              setStep('view');
            }}
            onSubmit={(v) =>
              edit.mutate(v, {
                onSuccess: (res) => {
                  payoutEditWindow.close();
                  setStep('view');
                  setResult({ ok: true, text: res.message });
                },
                onError: (err) => {
                  // The server may have saved it and spent the code: remember, so a later 403 is not
                  // read as "nothing changed" (decision 2312).
                  if (isNetworkError(err) || isAnswerLost(err)) payoutEditWindow.noteLostUpdate(v);
                  // No confirmed code (never confirmed, over or spent): say so and offer a new code.
                  if (err instanceof HttpError && err.status === 403) {
                    const lost = payoutEditWindow.hadLostUpdate();
                    if (err.message === messages.payoutCodeRequired && lost) {
                      // An earlier Update may have spent the code: read what is held before saying anything.
                      void details.refetch().then((read) => {
                        const held = read.isError ? undefined : read.data?.lawyer.accountDetails[0];
                        const landed = payoutEditWindow.lostUpdateSaved(held);
                        payoutEditWindow.close();
                        if (landed) {
                          setStep('view');
                          setResult({ ok: true, text: messages.paymentDetailsUpdated });
                        } else {
                          setCodeNeeded('unsure');
                          setStep('send-code');
                        }
                      });
                      return;
                    }
                    payoutEditWindow.close();
                    if (err.message === messages.payoutCodeRequired) {
                      setCodeNeeded('not-changed');
                      setStep('send-code');
                      return;
                    }
                    setStep('view');
                  }
                  setResult({ ok: false, text: getErrorMessage(err) });
                },
              })
            }
          />
        </>
      ) : step === 'send-code' ? (
        <div className="space-y-4">
          <p>
            To protect your earnings, changing payment details needs a one-time code. We will e-mail a six-digit code to{' '}
            <strong>
              <BreakableText text={details.data?.lawyer.officialEmail ?? ''} />
            </strong>
            .
          </p>
          <FormError
            message={
              sendError ?? (codeNeeded === 'unsure' ? payoutUpdateUnsure : codeNeeded ? payoutCodeNotConfirmed : null)
            }
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="ghost"
              onClick={() => {
                setCodeNeeded(null);
                setStep('view');
              }}
            >
              Cancel
            </Button>
            <Button onClick={sendCode} loading={send.isPending}>
              Send code
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex items-start justify-between gap-4">
          <dl className="space-y-2">
            <div>
              <dt className="text-sm text-slate-600">Account Number</dt>
              <dd className="font-semibold text-ink" aria-label={`Account number ${saved.accountNumber}`}>
                {saved.accountNumber}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-slate-600">Account Name (as your bank holds it)</dt>
              <dd className="font-semibold text-ink">{saved.accountName}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-600">Bank</dt>
              <dd className="font-semibold text-ink">{saved.bank}</dd>
            </div>
          </dl>
          <button
            type="button"
            onClick={() => {
              setCodeNeeded(null);
              setStep('send-code');
            }}
            className="flex size-11 items-center justify-center rounded-full text-brand hover:bg-brand/10"
            aria-label={`Edit payment details (${maskAccountNumber(saved.accountNumber)})`}
          >
            <Pencil className="size-5" aria-hidden />
          </button>
        </div>
      )}
      <ResultModal result={result} onClose={() => setResult(null)} />
    </section>
  );
}

function GetPaid({ onPaymentDetails }: { onPaymentDetails: () => void }) {
  const earnings = useEarnings();
  const payouts = usePayouts();
  const d = earnings.data?.data;
  // A withdrawal waiting for approval holds its money back: the card shows what Withdraw may still take.
  const withdrawable = d ? (payouts.data?.withdrawable ?? d.available) : undefined;
  const figure = (value: number | undefined) =>
    value !== undefined ? <Naira amount={value} exact /> : earnings.isError ? '—' : '...';
  // Older earnings, asked for with "Show older" as the notifications are (`before` = the last `older`),
  // each kept with the first page's `older` they follow (`after`).
  const [olderRows, setOlder] = useState<{ after?: string; jobs: LawyerEarning[]; next?: string } | null>(null);
  const [olderError, setOlderError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  // The first page read again with another end (a new earning after a withdrawal): the rows asked after
  // its old end would skip the jobs in between, so they are dropped and asked for again.
  const older = olderRows && olderRows.after === d?.older ? olderRows : null;
  const cursor = older ? older.next : d?.older;
  // The first page read again (after a withdrawal) may hold a job shown below already: listed once.
  const shown = d ? [...d.jobs, ...(older?.jobs ?? []).filter((j) => !d.jobs.some((x) => x.jobId === j.jobId))] : [];
  async function showOlder() {
    if (!cursor || loadingOlder) return;
    const after = d?.older;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const r = await api<EarningsResponse>('/job-api/lawyer/earnings', { query: { before: cursor } });
      setOlder((old) => ({
        after,
        jobs: [...(old && old.after === after ? old.jobs : []), ...r.data.jobs],
        next: r.data.older,
      }));
    } catch (err) {
      setOlderError(getErrorMessage(err));
    } finally {
      setLoadingOlder(false);
    }
  }
  return (
    <section aria-labelledby="get-paid-title" className="space-y-4">
      <h1 id="get-paid-title" className="heading-title text-ink">
        Get Paid
      </h1>
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-xl bg-brand p-5 text-white shadow-sm">
          <p className="text-sm opacity-90">Available to withdraw</p>
          <p className="mt-1 text-3xl font-bold wrap-anywhere">{figure(withdrawable)}</p>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <p className="text-sm text-slate-600">Pending</p>
          <p className="mt-1 text-3xl font-bold wrap-anywhere text-ink">{figure(d?.pending)}</p>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <p className="text-sm text-slate-600">Completed jobs</p>
          <p className="mt-1 text-3xl font-bold text-ink">{d?.count ?? (earnings.isError ? '—' : '...')}</p>
        </div>
      </div>
      {d && (
        <p className="text-sm text-slate-600">
          Your share of each completed job is what the company paid less the {d.commissionPercent}% platform commission.
          It becomes available {d.holdDays === 0 ? 'at once' : `${d.holdDays} days after completion`}, and is paid into
          the account under Payment Details.
        </p>
      )}
      {payouts.data?.totals && (
        <BalanceBreakdown totals={payouts.data.totals} withdrawable={payouts.data.withdrawable} />
      )}
      <Withdrawals onPaymentDetails={onPaymentDetails} />
      <h2 className="heading-card text-ink">Earnings per job</h2>
      {earnings.isLoading ? (
        <Loading />
      ) : earnings.isError ? (
        <ErrorState message={getErrorMessage(earnings.error)} onRetry={() => earnings.refetch()} />
      ) : !d?.jobs.length ? (
        <EmptyState>No completed jobs yet</EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">
              Completed jobs with what the company paid, the commission and your share
            </caption>
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Job
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Completed
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Paid by company
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Commission
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Your share
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Available from
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {shown.map((j) => (
                <tr key={j.jobId}>
                  <td className="px-4 py-2 text-ink">
                    {j.productName}
                    <span className="block text-xs text-slate-600">{j.companyName}</span>
                  </td>
                  <td className="px-4 py-2 text-slate-700">{j.completedAt ? formatOrdinalDate(j.completedAt) : '—'}</td>
                  <td className="px-4 py-2 text-right">
                    <Naira amount={j.amount} exact />
                  </td>
                  <td className="px-4 py-2 text-right text-slate-700">
                    <Naira amount={j.commission} exact />
                  </td>
                  <td className="px-4 py-2 text-right font-semibold">
                    <Naira amount={j.earned} exact />
                  </td>
                  <td className="px-4 py-2 text-slate-700">{j.availableAt ? formatOrdinalDate(j.availableAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {olderError && (
        <p role="alert" className="text-sm text-red-700">
          {olderError}
        </p>
      )}
      {d && d.jobs.length > 0 && cursor && (
        <div className="text-center">
          <Button variant="secondary" loading={loadingOlder} onClick={() => void showOlder()}>
            Show older
          </Button>
        </div>
      )}
    </section>
  );
}

/**
 * Why the withdrawable amount is what it is (decision 2314): everything earned, less what is still held,
 * paid out, on its way and waiting for approval. The sums are the server's, over every job and payout.
 */
function BalanceBreakdown({
  totals,
  withdrawable,
}: {
  totals: NonNullable<LawyerPayoutsResponse['totals']>;
  withdrawable: number;
}) {
  const rows: Array<[label: string, amount: number]> = [
    ['still held (Pending), available after the holding period', totals.held],
    ['paid to your bank', totals.paid],
    ['being sent to your bank', totals.sending],
    ['withdrawals awaiting approval', totals.requested],
  ];
  return (
    <section aria-labelledby="balance-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="balance-title" className="heading-card mb-3 text-ink">
        How your balance adds up
      </h2>
      <dl className="space-y-1 text-sm">
        <div className="flex justify-between gap-4">
          <dt>Earned from completed jobs (your share)</dt>
          <dd className="font-semibold whitespace-nowrap">
            <Naira amount={totals.earned} exact />
          </dd>
        </div>
        {rows.map(([label, amount]) => (
          <div key={label} className="flex justify-between gap-4 text-slate-700">
            <dt>less {label}</dt>
            <dd className="whitespace-nowrap">
              {amount > 0 ? '−' : ''}
              <Naira amount={amount} exact />
            </dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-1 font-semibold text-ink">
          <dt>Available to withdraw now</dt>
          <dd className="whitespace-nowrap">
            <Naira amount={withdrawable} exact />
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-600">
        A withdrawal that failed, was rejected or was reversed by the bank is back in your balance, so it is not taken
        off.
      </p>
    </section>
  );
}
