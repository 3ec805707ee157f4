import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { LIMITS } from '@legalmarket/contracts/constants';
import { twoFactorMessages, twoFactorNotMeInput, type TwoFactorNotMeInput } from '@legalmarket/contracts/two-factor';
import { Button } from '@/components/button';
import { Loading, SuccessNote } from '@/components/feedback';
import { FormError } from '@/components/field';
import { getErrorMessage, isFinalRefusal } from '@/lib/http';
import { paths } from '@/lib/paths';
import { clearSession } from '@/lib/session';
import { useConfirmNotMe, useNotMeLink } from './api/two-factor-not-me-api';
import { AuthCard } from './components/auth-card';
import { resetFlow } from './reset-flow';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

const linkClass = 'inline-flex min-h-11 items-center font-semibold text-brand hover:underline';

/** Where to go when the link cannot be used. */
function WayOut() {
  return (
    <p className="mt-4 flex flex-wrap gap-x-6">
      <Link to={paths.passwordReset()} className={linkClass}>
        Reset your password
      </Link>
      <Link to={paths.login()} className={linkClass}>
        Go to log in
      </Link>
    </p>
  );
}

/** The link cannot be used: the server's words say why (unknown, used, expired, no longer applies). */
function Refused({ message }: { message: string }) {
  return (
    <AuthCard title="This link cannot be used">
      <p role="alert" className="text-red-800">
        {message}
      </p>
      <WayOut />
    </AuthCard>
  );
}

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

  if (!token) return <Refused message={twoFactorMessages.notMeLinkIncomplete} />;
  if (confirm.isSuccess) {
    const email = confirm.data.data.officialEmail;
    return (
      <AuthCard title="Your account is secured">
        <SuccessNote>{confirm.data.message}</SuccessNote>
        <p className="mt-4 text-sm text-slate-700">
          We emailed a six-digit code to <span className="font-semibold wrap-anywhere">{email}</span>. It expires in{' '}
          {LIMITS.codeTtlMinutes} minutes. Enter it to set a new password, then log in with it.
        </p>
        <Link
          to={paths.otp(email)}
          className="mt-6 inline-flex min-h-11 w-full items-center justify-center rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          Enter the code
        </Link>
      </AuthCard>
    );
  }
  // A refusal of the confirmation itself (used meanwhile, expired...) ends here; a lost connection, a
  // limit or a failing server may try again.
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

  return (
    <AuthCard title="Was this not you?">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Turn off two-factor authentication">
        <p className="text-sm text-slate-700">
          Two-factor authentication was turned on for your account on{' '}
          <span className="font-semibold">{when(link.data.enabledAt)}</span>. If you did not do this, someone knows your
          password and has put their own authenticator app on your account.
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
          once, until {when(link.data.expiresAt)}.
        </p>
        <FormError message={confirm.error ? getErrorMessage(confirm.error) : null} />
        <Button type="submit" variant="danger" loading={form.formState.isSubmitting} className="w-full">
          This wasn’t me: secure my account
        </Button>
      </form>
    </AuthCard>
  );
}
