import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '@legalmarket/contracts/constants';
import { Button } from '@/components/button';
import { Loading, SuccessNote } from '@/components/feedback';
import { FormError } from '@/components/field';
import { getErrorMessage, isFinalRefusal } from '@/lib/http';
import { paths } from '@/lib/paths';
import { AuthCard } from './auth-card';

/** A link's times as the e-mail wrote them: Lagos time. */
export const whenInLagos = (iso: string) =>
  new Date(iso).toLocaleString('en-NG', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Lagos' });

const linkClass = 'inline-flex min-h-11 items-center font-semibold text-brand hover:underline';

/** The link cannot be used: the server's words say why (unknown, used, expired, no longer applies). */
function Refused({ message }: { message: string }) {
  return (
    <AuthCard title="This link cannot be used">
      <p role="alert" className="text-red-800">
        {message}
      </p>
      <p className="mt-4 flex flex-wrap gap-x-6">
        <Link to={paths.passwordReset()} className={linkClass}>
          Reset your password
        </Link>
        <Link to={paths.login()} className={linkClass}>
          Go to log in
        </Link>
      </p>
    </AuthCard>
  );
}

type Confirmed = { message: string; data: { officialEmail: string } };

/**
 * The states every "This wasn't me" page shares (decisions 2220, 2244): no token, checking the link, a
 * refusal, a check to try again, and the account secured with the reset code mailed. `children` draws
 * the link's own question once it checked out.
 */
export function NotMeLinkStates<T>({
  token,
  incomplete,
  link,
  confirm,
  afterReset,
  children,
}: {
  token: string;
  incomplete: string;
  link: {
    isPending: boolean;
    isError: boolean;
    isFetching: boolean;
    error: unknown;
    data: T | undefined;
    refetch: () => unknown;
  };
  confirm: { isSuccess: boolean; data: Confirmed | undefined; error: unknown };
  /** What the reset code is for, after "Enter it to set a new password, then ". */
  afterReset: string;
  children: (data: T) => ReactNode;
}) {
  if (!token) return <Refused message={incomplete} />;
  if (confirm.isSuccess && confirm.data) {
    const email = confirm.data.data.officialEmail;
    return (
      <AuthCard title="Your account is secured">
        <SuccessNote>{confirm.data.message}</SuccessNote>
        <p className="mt-4 text-sm text-slate-700">
          We emailed a six-digit code to <span className="font-semibold wrap-anywhere">{email}</span>. It expires in{' '}
          {LIMITS.codeTtlMinutes} minutes. Enter it to set a new password, then {afterReset}.
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
  if (link.isError || link.data === undefined)
    return (
      <AuthCard title="We could not check your link">
        <FormError message={getErrorMessage(link.error)} />
        <Button onClick={() => void link.refetch()} loading={link.isFetching} className="mt-4 w-full">
          Try again
        </Button>
      </AuthCard>
    );
  return <>{children(link.data)}</>;
}
