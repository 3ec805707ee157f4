import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { loginInput, type LoginInput, type LoginResponse } from '@legalmarket/contracts/auth';
import { twoFactorCodeInput, twoFactorMessages, type TwoFactorCodeInput } from '@legalmarket/contracts/two-factor';
import { DELAYS_MS } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, PasswordField } from '@/components/field';
import { Modal } from '@/components/modal';
import { paths } from '@/lib/paths';
import { getErrorMessage, HttpError } from '@/lib/http';
import { setSession } from '@/lib/session';
import { dropDraftsOfOthers } from '@/lib/drafts';
import { hasReservations } from '@/features/cart/move-reservations';
import { takePlanTier } from '@/features/plans/plan-intent';
import { loginCodeRequest, loginRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { useRedirectAfter } from './components/use-redirect-after';

type Result =
  | { kind: 'success'; to: string }
  | { kind: 'error'; text: string }
  | { kind: 'unconfirmed' }
  | { kind: 'unknown-type' };

function destinationFor(userType: string, userId: string): string | null {
  if (userType === 'admin') return paths.adminDashboard();
  // A visitor who reserved and pressed Purchase finds the reserved lines in the cart (decision 1800).
  if (userType === 'company') {
    // A visitor who pressed Buy on a package comes back to that tier (issue 19).
    const tier = takePlanTier();
    if (tier) return paths.companyPlan(tier);
    return hasReservations() ? paths.cart() : paths.products();
  }
  if (userType === 'lawyer') return paths.lawyerAvailableJobs(userId);
  return null;
}

/**
 * The page a session ended on (app/app.tsx passes it when a request answers 401), for its own user
 * only: another account signing in on the phone goes where the spec sends it (decision 2240).
 */
function returnPath(state: unknown, userId: string): string | null {
  const { back, backFor } = (state ?? {}) as { back?: unknown; backFor?: unknown };
  return typeof back === 'string' && back.startsWith('/') && !back.startsWith('//') && backFor === userId ? back : null;
}

export default function LoginPage() {
  const navigate = useNavigate();
  const { state } = useLocation();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<Result | null>(null);
  /** Set when the password was right and the account asks for its authenticator code (decision 2020). */
  const [challenge, setChallenge] = useState<string | null>(null);
  const codeForm = useForm<TwoFactorCodeInput>({
    resolver: zodResolver(twoFactorCodeInput),
    defaultValues: { code: '' },
  });
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginInput), defaultValues: { officialEmail: '', password: '' } });
  const filled = Boolean(watch('officialEmail')) && Boolean(watch('password'));
  useRedirectAfter(result?.kind === 'success', result?.kind === 'success' ? result.to : null, DELAYS_MS.afterLogin);

  const signIn = (res: LoginResponse) => {
    const { _id, userType } = res.data.user;
    const spec = destinationFor(userType, _id);
    if (!spec) {
      setResult({ kind: 'unknown-type' });
      return;
    }
    const to = returnPath(state, _id) ?? spec;
    queryClient.clear();
    dropDraftsOfOthers(_id);
    setSession({ userToken: res.token, userType, userId: _id });
    setResult({ kind: 'success', to });
  };

  const onCode = codeForm.handleSubmit(async ({ code }) => {
    try {
      signIn(await loginCodeRequest({ challengeToken: challenge!, code }));
    } catch (err) {
      // A dead challenge (expired, too many wrong codes) means starting again with the password.
      if (err instanceof HttpError && err.status === 401 && err.message !== twoFactorMessages.codeWrong)
        setChallenge(null);
      codeForm.reset({ code: '' });
      setResult({ kind: 'error', text: getErrorMessage(err) });
    }
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const res = await loginRequest(values);
      if ('twoFactorRequired' in res) {
        setChallenge(res.challengeToken);
        return;
      }
      signIn(res);
    } catch (err) {
      if (err instanceof HttpError && err.message === messages.unconfirmedEmail) setResult({ kind: 'unconfirmed' });
      else setResult({ kind: 'error', text: getErrorMessage(err) });
    }
  });

  const close = () => {
    if (result?.kind === 'success') navigate(result.to);
    setResult(null);
  };

  return (
    <AuthCard title="Log in" subtitle="Welcome to LegalMarket. Log in to continue.">
      {challenge ? (
        <form onSubmit={onCode} noValidate className="space-y-4" aria-label="Authentication code">
          <p className="text-sm text-slate-700">{twoFactorMessages.codeRequired}.</p>
          <Field
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            hint="Lost your phone? Enter one of your recovery codes instead."
            error={codeForm.formState.errors.code?.message}
            {...codeForm.register('code')}
          />
          <Button type="submit" loading={codeForm.formState.isSubmitting} className="w-full">
            Verify and log in
          </Button>
          <Button variant="ghost" className="w-full" onClick={() => setChallenge(null)}>
            Back
          </Button>
        </form>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <Field
            label="Email address"
            type="email"
            autoComplete="email"
            inputMode="email"
            error={errors.officialEmail?.message}
            {...register('officialEmail')}
          />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <div className="text-right">
            <Link
              to={paths.passwordReset()}
              className="inline-flex min-h-11 items-center text-sm font-semibold text-brand hover:underline"
            >
              Forgot password?
            </Link>
          </div>
          <Button type="submit" loading={isSubmitting} className={`w-full ${filled ? '' : 'opacity-80'}`}>
            Log in
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        New to LegalMarket?{' '}
        <Link className="font-semibold text-brand hover:underline" to={paths.signupCompany()}>
          Sign up as a company
        </Link>{' '}
        or{' '}
        <Link className="font-semibold text-brand hover:underline" to={paths.signupLawyer()}>
          as a lawyer
        </Link>
      </p>

      <Modal open={result?.kind === 'success'} onClose={close} tone="success" title={messages.welcomeBack}>
        <p>You are logged in. Taking you to your page...</p>
      </Modal>
      <Modal open={result?.kind === 'error'} onClose={close} tone="error" title={messages.loginProblem}>
        <p>{result?.kind === 'error' ? result.text : ''}</p>
      </Modal>
      <Modal open={result?.kind === 'unknown-type'} onClose={close} tone="error" title={messages.loginProblem}>
        <p>{messages.unknownUserType}</p>
      </Modal>
      <Modal
        open={result?.kind === 'unconfirmed'}
        onClose={close}
        tone="error"
        title={messages.loginProblem}
        footer={<Button onClick={() => navigate(paths.resendConfirm())}>Resend Confirmation Email</Button>}
      >
        <p>{messages.unconfirmedEmail}</p>
      </Modal>
    </AuthCard>
  );
}
