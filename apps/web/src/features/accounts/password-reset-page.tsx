import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { emailOnlyInput, type EmailOnlyInput } from '@legalmarket/contracts/auth';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError } from '@/components/field';
import { paths } from '@/lib/paths';
import { getErrorMessage } from '@/lib/http';
import { forgotPasswordRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { resetFlow } from './reset-flow';

export default function PasswordResetPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<EmailOnlyInput>({ resolver: zodResolver(emailOnlyInput), defaultValues: { officialEmail: '' } });
  const onSubmit = handleSubmit(async ({ officialEmail }) => {
    setError(null);
    const email = officialEmail.trim().toLowerCase();
    try {
      const res = await forgotPasswordRequest(email);
      resetFlow.emailSubmitted(email);
      // The code page says the mail went out (spec section 8: "Password reset email sent").
      navigate(paths.otp(email), { state: { notice: res.message || messages.passwordResetEmailSent } });
    } catch (err) {
      setError(getErrorMessage(err));
    }
  });
  return (
    <AuthCard
      title="Forgot password"
      subtitle="Enter the email address of your account and we will email you a six-digit code."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field
          label="Email address"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.officialEmail?.message}
          {...register('officialEmail')}
        />
        <FormError message={error} />
        <Button type="submit" loading={isSubmitting} className="w-full">
          Send OTP
        </Button>
      </form>
    </AuthCard>
  );
}
