import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/button';
import { FormError } from '@/components/field';
import { paths } from '@/lib/paths';
import { getErrorMessage, isFinalRefusal } from '@/lib/http';
import { clearSession } from '@/lib/session';
import { confirmEmailChangeRequest, undoEmailChangeRequest } from '../api/auth-api';
import { AuthCard } from './auth-card';

const STEPS = {
  confirm: {
    send: confirmEmailChangeRequest,
    askTitle: 'Confirm your new email address',
    ask: 'Press the button to make this address the one you log in with. Nothing changes until you do.',
    button: 'Confirm my new email',
    doneTitle: 'Email address changed',
    failTitle: 'We could not confirm your new email',
    next: { to: paths.login(), label: 'Log in' },
  },
  undo: {
    send: undoEmailChangeRequest,
    askTitle: 'Undo the email change',
    ask: 'Press the button to cancel the change of your sign-in email, or to put this address back if it has already changed. Every device signed in to your account will be logged out, this one too. Nothing changes until you press it.',
    button: 'Undo the change',
    doneTitle: 'Email change undone',
    failTitle: 'We could not undo the email change',
    next: { to: paths.passwordReset(), label: 'Reset your password' },
  },
} as const;

const incomplete = 'This link is incomplete. Please open the link from the email again.';

/**
 * Opened from an e-mailed link about a sign-in address change. Opening it sends nothing: mail scanners
 * open links, some in a browser that runs the page, and an undo they sent would revert the owner's own
 * change (decision 2224). The button POSTs the token; a lost connection may press it again.
 */
export function EmailChangeLink({ step }: { step: keyof typeof STEPS }) {
  const s = STEPS[step];
  const [params] = useSearchParams();
  const token = params.get('token');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(
    token ? null : { ok: false, text: incomplete },
  );
  const [retry, setRetry] = useState<string | null>(null);

  const send = async () => {
    if (!token || sending) return;
    setSending(true);
    setRetry(null);
    try {
      const res = await s.send(token);
      // Undoing ends every session of the account, this browser's too.
      if (step === 'undo') clearSession();
      setResult({ ok: true, text: res.message });
    } catch (err) {
      // The server's refusal (used, expired, address taken) is final; a lost connection, a limit or a
      // failing server is not.
      if (isFinalRefusal(err)) setResult({ ok: false, text: getErrorMessage(err) });
      else setRetry(getErrorMessage(err));
    } finally {
      setSending(false);
    }
  };

  if (!result)
    return (
      <AuthCard title={s.askTitle}>
        <p className="text-sm text-slate-700">{s.ask}</p>
        <div className="mt-4">
          <FormError message={retry} />
        </div>
        <Button
          onClick={send}
          loading={sending}
          variant={step === 'undo' ? 'danger' : 'primary'}
          className="mt-4 w-full"
        >
          {s.button}
        </Button>
      </AuthCard>
    );
  return (
    <AuthCard title={result.ok ? s.doneTitle : s.failTitle}>
      <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'text-emerald-800' : 'text-red-800'}>
        {result.text}
      </p>
      <Link
        to={result.ok ? s.next.to : paths.login()}
        className="mt-4 inline-flex min-h-11 items-center font-semibold text-brand hover:underline"
      >
        {result.ok ? s.next.label : 'Go to log in'}
      </Link>
    </AuthCard>
  );
}
