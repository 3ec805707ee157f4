import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { SuccessNote } from '@/components/feedback';
import { FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { OtpInput } from '@/components/otp-input';
import { paths } from '@/lib/paths';
import { getErrorMessage } from '@/lib/http';
import { confirmResetCodeRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { resetFlow } from './reset-flow';

export default function OtpPage() {
  const { userEmail = '' } = useParams();
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [digits, setDigits] = useState<string[]>(Array(6).fill(''));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [next, setNext] = useState<string | null>(null);
  if (!resetFlow.canEnterCode(userEmail) && !next) return <Navigate to={paths.passwordReset()} replace />;

  const complete = digits.every((d) => /^\d$/.test(d));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!complete) return;
    setBusy(true);
    setError(null);
    try {
      const res = await confirmResetCodeRequest(userEmail, digits.join(''));
      resetFlow.codeVerified(res.resetToken);
      setNext(paths.newPassword(res.resetToken, userEmail));
    } catch (err) {
      setError(getErrorMessage(err));
      setDigits(Array(6).fill(''));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard
      title="Enter your code"
      subtitle={<>We emailed a six-digit code to {userEmail}. It expires in 10 minutes.</>}
    >
      {notice && <SuccessNote className="mb-4">{notice}</SuccessNote>}
      <form onSubmit={submit} className="space-y-5">
        <OtpInput value={digits} onChange={setDigits} label="Password reset code" />
        <FormError message={error} />
        <Button type="submit" disabled={!complete} loading={busy} className="w-full">
          Enter
        </Button>
      </form>
      <p className="mt-4 text-center">
        <Link
          to={paths.passwordReset()}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand hover:underline"
        >
          Resend OTP?
        </Link>
      </p>
      <Modal
        open={next !== null}
        tone="success"
        title={messages.otpConfirmedReset}
        onClose={() => next && navigate(next)}
        footer={<Button onClick={() => next && navigate(next)}>Continue</Button>}
      >
        <p>Now choose a new password.</p>
      </Modal>
    </AuthCard>
  );
}
