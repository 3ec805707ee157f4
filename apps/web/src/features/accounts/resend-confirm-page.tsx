import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { emailOnlyInput, type EmailOnlyInput } from '@legalmarket/contracts/auth';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { getErrorMessage } from '@/lib/http';
import { resendConfirmationRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';

export default function ResendConfirmPage() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<EmailOnlyInput>({ resolver: zodResolver(emailOnlyInput), defaultValues: { officialEmail: '' } });
  const onSubmit = handleSubmit(async ({ officialEmail }) => {
    setError(null);
    try {
      await resendConfirmationRequest(officialEmail);
      setSent(true);
    } catch (err) {
      setError(getErrorMessage(err));
    }
  });
  const typed = watch('officialEmail');
  // Spec: the button is enabled only when the field is non-empty.
  const empty = !typed.trim();
  return (
    <AuthCard
      title="Resend verification email"
      subtitle="Enter the email address you signed up with and we will send a new confirmation link."
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
        <Button type="submit" disabled={empty} loading={isSubmitting} className="w-full">
          Resend Verification Email
        </Button>
      </form>
      <Modal open={sent} tone="success" title={messages.confirmationEmailSent} onClose={() => setSent(false)}>
        <p>
          If {typed} has an account waiting for confirmation, a new link is on its way. Check your inbox and spam
          folder.
        </p>
      </Modal>
    </AuthCard>
  );
}
