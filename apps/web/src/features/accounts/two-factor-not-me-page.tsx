import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSearchParams } from 'react-router';
import { twoFactorMessages, twoFactorNotMeInput, type TwoFactorNotMeInput } from '@legalmarket/contracts/two-factor';
import { Button } from '@/components/button';
import { FormError } from '@/components/field';
import { getErrorMessage } from '@/lib/http';
import { clearSession } from '@/lib/session';
import { useConfirmNotMe, useNotMeLink } from './api/two-factor-not-me-api';
import { AuthCard } from './components/auth-card';
import { NotMeLinkStates, whenInLagos } from './components/not-me-link';
import { resetFlow } from './reset-flow';

/**
 * /two-factor-not-me?token=: the "This wasn't me" link of the e-mail sent when two-factor is turned on
 * (decision 2220). Opening it only checks the link (mail scanners open links); the button confirms.
 */
export default function TwoFactorNotMePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const link = useNotMeLink(token);
  const confirm = useConfirmNotMe();
  const form = useForm<TwoFactorNotMeInput>({ resolver: zodResolver(twoFactorNotMeInput), values: { token } });
  const onSubmit = form.handleSubmit(async (body) => {
    const res = await confirm.mutateAsync(body).catch(() => null);
    if (!res) return;
    // Every session of the account ended, this browser's too; the reset code page comes next.
    clearSession();
    resetFlow.emailSubmitted(res.data.officialEmail);
  });

  return (
    <NotMeLinkStates
      token={token}
      incomplete={twoFactorMessages.notMeLinkIncomplete}
      link={link}
      confirm={confirm}
      afterReset="log in with it"
    >
      {(d) => (
        <AuthCard title="Was this not you?">
          <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Turn off two-factor authentication">
            <p className="text-sm text-slate-700">
              Two-factor authentication was turned on for your account on{' '}
              <span className="font-semibold">{whenInLagos(d.enabledAt)}</span>. If you did not do this, someone knows
              your password and has put their own authenticator app on your account.
            </p>
            <p className="text-sm text-slate-700" id="not-me-what-happens">
              When you confirm, we will:
            </p>
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700" aria-labelledby="not-me-what-happens">
              <li>turn two-factor authentication off,</li>
              <li>log out every device signed in to your account, this one too,</li>
              <li>stop your current password from working,</li>
              <li>email you a code to set a new password.</li>
            </ul>
            <p className="text-sm text-slate-700">
              If you turned it on yourself, close this page: nothing changes until you press the button. This link works
              once, until {whenInLagos(d.expiresAt)}.
            </p>
            <FormError message={confirm.error ? getErrorMessage(confirm.error) : null} />
            <Button type="submit" variant="danger" loading={form.formState.isSubmitting} className="w-full">
              This wasn’t me: secure my account
            </Button>
          </form>
        </AuthCard>
      )}
    </NotMeLinkStates>
  );
}
