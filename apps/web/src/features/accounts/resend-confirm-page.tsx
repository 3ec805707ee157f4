import { useState, type FormEvent } from 'react';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { getErrorMessage } from '@/lib/http';
import { resendConfirmationRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';

export default function ResendConfirmPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) {
      setError(messages.enterEmail);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await resendConfirmationRequest(email.trim());
      setSent(true);
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard
      title="Resend verification email"
      subtitle="Enter the email address you signed up with and we will send a new confirmation link."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="Email address"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <FormError message={error} />
        <Button type="submit" disabled={!email.trim()} loading={busy} className="w-full">
          Resend Verification Email
        </Button>
      </form>
      <Modal open={sent} tone="success" title={messages.confirmationEmailSent} onClose={() => setSent(false)}>
        <p>
          If {email} has an account waiting for confirmation, a new link is on its way. Check your inbox and spam
          folder.
        </p>
      </Modal>
    </AuthCard>
  );
}
