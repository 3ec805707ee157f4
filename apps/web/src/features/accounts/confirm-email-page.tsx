import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DELAYS_MS } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { Loading } from '@/components/feedback';
import { Modal } from '@/components/modal';
import { paths } from '@/lib/paths';
import { getErrorMessage } from '@/lib/http';
import { confirmEmailRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { useRedirectAfter } from './components/use-redirect-after';

/**
 * Opened from the e-mailed link: confirms the address (or says it already is, for a link opened
 * twice), then goes to /login on close or after 5 s.
 */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [state, setState] = useState<'working' | 'done' | 'failed'>(token ? 'working' : 'done');
  const [error, setError] = useState<string | null>(null);
  const [already, setAlready] = useState(false);
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true; // once, even under StrictMode's double effects: links work once
    confirmEmailRequest(token)
      .then((res) => {
        setAlready(res.message === messages.emailAlreadyConfirmed);
        setState('done');
      })
      .catch((err) => {
        setError(getErrorMessage(err));
        setState('failed');
      });
  }, [token]);
  useRedirectAfter(state === 'done', paths.login(), DELAYS_MS.emailConfirmed);

  if (state === 'working') return <Loading label="Confirming your email address..." />;
  if (state === 'failed')
    return (
      <AuthCard title="We could not confirm your email">
        <p role="alert" className="text-red-800">
          {error}
        </p>
        <Link
          to={paths.resendConfirm()}
          className="mt-4 inline-flex min-h-11 items-center font-semibold text-brand hover:underline"
        >
          Resend Verification Email
        </Link>
      </AuthCard>
    );
  return (
    <section className="min-h-[50vh]">
      <Modal
        open
        tone="success"
        title={already ? 'Already confirmed' : messages.emailConfirmed}
        onClose={() => navigate(paths.login())}
      >
        <p>{already ? messages.emailAlreadyConfirmed : messages.youCanNowLogIn}</p>
      </Modal>
    </section>
  );
}
