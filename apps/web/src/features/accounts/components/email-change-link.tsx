import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Loading } from '@/components/feedback';
import { paths } from '@/lib/paths';
import { getErrorMessage } from '@/lib/http';
import { clearSession } from '@/lib/session';
import { confirmEmailChangeRequest, undoEmailChangeRequest } from '../api/auth-api';
import { AuthCard } from './auth-card';

const STEPS = {
  confirm: {
    send: confirmEmailChangeRequest,
    working: 'Confirming your new email address...',
    doneTitle: 'Email address changed',
    failTitle: 'We could not confirm your new email',
    next: { to: paths.login(), label: 'Log in' },
  },
  undo: {
    send: undoEmailChangeRequest,
    working: 'Undoing the email change...',
    doneTitle: 'Email change undone',
    failTitle: 'We could not undo the email change',
    next: { to: paths.passwordReset(), label: 'Reset your password' },
  },
} as const;

/**
 * Opened from an e-mailed link about a sign-in address change: POSTs the token once (a GET that acts
 * would be used up by mail scanners), then says what happened and what to do next.
 */
export function EmailChangeLink({ step }: { step: keyof typeof STEPS }) {
  const s = STEPS[step];
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(
    token ? null : { ok: false, text: 'This link is incomplete. Please open the link from the email again.' },
  );
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true; // once, even under StrictMode's double effects: links work once
    s.send(token)
      .then((res) => {
        // Undoing ends every session of the account, this browser's too.
        if (step === 'undo') clearSession();
        setState({ ok: true, text: res.message });
      })
      .catch((err) => setState({ ok: false, text: getErrorMessage(err) }));
  }, [token, s, step]);

  if (!state) return <Loading label={s.working} />;
  return (
    <AuthCard title={state.ok ? s.doneTitle : s.failTitle}>
      <p role={state.ok ? 'status' : 'alert'} className={state.ok ? 'text-emerald-800' : 'text-red-800'}>
        {state.text}
      </p>
      <Link
        to={state.ok ? s.next.to : paths.login()}
        className="mt-4 inline-flex min-h-11 items-center font-semibold text-brand hover:underline"
      >
        {state.ok ? s.next.label : 'Go to log in'}
      </Link>
    </AuthCard>
  );
}
