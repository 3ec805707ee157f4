import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { LIMITS } from '@legalmarket/contracts/constants';
import {
  payoutMessages,
  type PayoutNotMeCheckResponse,
  type PayoutNotMeResponse,
} from '@legalmarket/contracts/payouts';
import { Button } from '@/components/button';
import { Loading, SuccessNote } from '@/components/feedback';
import { FormError } from '@/components/field';
import { api, getErrorMessage, isFinalRefusal } from '@/lib/http';
import { paths } from '@/lib/paths';
import { clearSession } from '@/lib/session';
import { AuthCard } from './components/auth-card';
import { resetFlow } from './reset-flow';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

function Refused({ message }: { message: string }) {
  return (
    <AuthCard title="This link cannot be used">
      <p role="alert" className="text-red-800">
        {message}
      </p>
      <p className="mt-4 flex flex-wrap gap-x-6">
        <Link
          to={paths.passwordReset()}
          className="inline-flex min-h-11 items-center font-semibold text-brand hover:underline"
        >
          Reset your password
        </Link>
      </p>
    </AuthCard>
  );
}

/**
 * /payment-details-not-me?token=: the "This wasn't me" link of the payout-details e-mails (decision 2244).
 * Opening it only checks the link (mail scanners open links); the button confirms.
 */
export default function PayoutNotMePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const link = useQuery({
    queryKey: ['payout-not-me', token],
    queryFn: ({ signal }) =>
      api<PayoutNotMeCheckResponse>('/api/payment-details/not-me', { query: { token }, signal }).then((r) => r.data),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const confirm = useMutation({
    mutationFn: () => api<PayoutNotMeResponse>('/api/payment-details/not-me', { method: 'POST', body: { token } }),
    onSuccess: (res) => {
      // Every session of the account ended, this browser's too; the reset code page comes next.
      clearSession();
      resetFlow.emailSubmitted(res.data.officialEmail);
    },
  });

  if (!token) return <Refused message={payoutMessages.notMeLinkIncomplete} />;
  if (confirm.isSuccess) {
    const email = confirm.data.data.officialEmail;
    return (
      <AuthCard title="Your account is secured">
        <SuccessNote>{confirm.data.message}</SuccessNote>
        <p className="mt-4 text-sm text-slate-700">
          We emailed a six-digit code to <span className="font-semibold wrap-anywhere">{email}</span>. It expires in{' '}
          {LIMITS.codeTtlMinutes} minutes. Enter it to set a new password, then add your own payment details.
        </p>
        <Link
          to={paths.otp(email)}
          className="mt-6 inline-flex min-h-11 w-full items-center justify-center rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark"
        >
          Enter the code
        </Link>
      </AuthCard>
    );
  }
  if (isFinalRefusal(confirm.error)) return <Refused message={getErrorMessage(confirm.error)} />;
  if (link.isPending) return <Loading label="Checking your link..." />;
  if (link.isError && isFinalRefusal(link.error)) return <Refused message={getErrorMessage(link.error)} />;
  if (link.isError)
    return (
      <AuthCard title="We could not check your link">
        <FormError message={getErrorMessage(link.error)} />
        <Button onClick={() => void link.refetch()} loading={link.isFetching} className="mt-4 w-full">
          Try again
        </Button>
      </AuthCard>
    );

  const d = link.data;
  return (
    <AuthCard title="Were these payment details not saved by you?">
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          These payment details were saved to your account on <span className="font-semibold">{when(d.savedAt)}</span>:{' '}
          <span className="font-semibold wrap-anywhere">
            {d.accountName}, {d.bank} {d.accountNumber}
          </span>
          . If you did not save them, someone may be signed in to your account.
        </p>
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700" aria-label="When you confirm, we will:">
          <li>remove these payment details,</li>
          <li>stop withdrawals waiting to go to them (the money stays in your balance),</li>
          <li>log out every device signed in to your account, this one too,</li>
          <li>stop your current password from working and email you a code to set a new one.</li>
        </ul>
        <p className="text-sm text-slate-700">
          If you saved them yourself, close this page: nothing changes until you press the button. This link works once,
          until {when(d.expiresAt)}.
        </p>
        <FormError message={confirm.error ? getErrorMessage(confirm.error) : null} />
        <Button variant="danger" loading={confirm.isPending} className="w-full" onClick={() => confirm.mutate()}>
          This wasn’t me: secure my account
        </Button>
      </div>
    </AuthCard>
  );
}
