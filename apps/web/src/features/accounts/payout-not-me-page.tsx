import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import {
  payoutMessages,
  type PayoutNotMeCheckResponse,
  type PayoutNotMeResponse,
} from '@legalmarket/contracts/payouts';
import { Button } from '@/components/button';
import { FormError } from '@/components/field';
import { api, getErrorMessage } from '@/lib/http';
import { clearSession } from '@/lib/session';
import { AuthCard } from './components/auth-card';
import { NotMeLinkStates, whenInLagos } from './components/not-me-link';
import { resetFlow } from './reset-flow';

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

  return (
    <NotMeLinkStates
      token={token}
      incomplete={payoutMessages.notMeLinkIncomplete}
      link={link}
      confirm={confirm}
      afterReset="add your own payment details"
    >
      {(d) => (
        <AuthCard title="Were these payment details not saved by you?">
          <div className="space-y-4">
            <p className="text-sm text-slate-700">
              These payment details were saved to your account on{' '}
              <span className="font-semibold">{whenInLagos(d.savedAt)}</span>:{' '}
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
              If you saved them yourself, close this page: nothing changes until you press the button. This link works
              once, until {whenInLagos(d.expiresAt)}.
            </p>
            <FormError message={confirm.error ? getErrorMessage(confirm.error) : null} />
            <Button variant="danger" loading={confirm.isPending} className="w-full" onClick={() => confirm.mutate()}>
              This wasn’t me: secure my account
            </Button>
          </div>
        </AuthCard>
      )}
    </NotMeLinkStates>
  );
}
