import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { confirmResetTokenInput } from '@legalmarket/contracts/auth';
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

type ResetCodeValues = z.input<typeof confirmResetTokenInput>;

export default function OtpPage() {
  const { userEmail = '' } = useParams();
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [error, setError] = useState<string | null>(null);
  const [next, setNext] = useState<string | null>(null);
  // The address comes from the link; the person types the code (the contract's body, both fields).
  const { control, handleSubmit, setValue, watch, formState } = useForm<
    ResetCodeValues,
    unknown,
    z.output<typeof confirmResetTokenInput>
  >({ resolver: zodResolver(confirmResetTokenInput), defaultValues: { officialEmail: userEmail, token: '' } });
  if (!resetFlow.canEnterCode(userEmail) && !next) return <Navigate to={paths.passwordReset()} replace />;

  // Spec: all six digits before the button is active.
  const complete = /^\d{6}$/.test(watch('token'));
  const submit = handleSubmit(async ({ officialEmail, token }) => {
    setError(null);
    try {
      const res = await confirmResetCodeRequest(officialEmail, token);
      resetFlow.codeVerified(res.resetToken);
      setNext(paths.newPassword(res.resetToken, userEmail));
    } catch (err) {
      setError(getErrorMessage(err));
      setValue('token', '');
    }
  });
  return (
    <AuthCard
      title="Enter your code"
      subtitle={<>We emailed a six-digit code to {userEmail}. It expires in 10 minutes.</>}
    >
      {notice && <SuccessNote className="mb-4">{notice}</SuccessNote>}
      <form onSubmit={submit} noValidate className="space-y-5">
        <Controller
          control={control}
          name="token"
          render={({ field }) => (
            <OtpInput
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              label="Password reset code"
              error={formState.errors.token?.message ?? formState.errors.officialEmail?.message}
            />
          )}
        />
        <FormError message={error} />
        <Button type="submit" disabled={!complete} loading={formState.isSubmitting} className="w-full">
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
