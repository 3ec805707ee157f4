import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordInput } from '@legalmarket/contracts/auth';
import { DELAYS_MS } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { FormError } from '@/components/field';
import { Modal } from '@/components/modal';
import { paths } from '@/lib/paths';
import { getErrorMessage } from '@/lib/http';
import { resetPasswordRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { NewPasswordFields } from './components/new-password-fields';
import { useRedirectAfter } from './components/use-redirect-after';
import { resetFlow } from './reset-flow';

interface Values {
  password: string;
  passwordConfirm: string;
}

export default function NewPasswordPage() {
  const { token = '', userEmail = '' } = useParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(resetPasswordInput),
    defaultValues: { password: '', passwordConfirm: '' },
  });
  useRedirectAfter(done, paths.login(), DELAYS_MS.afterSuccess);
  if (!done && !resetFlow.canSetPassword(token)) return <Navigate to={paths.otp(userEmail)} replace />;

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await resetPasswordRequest(userEmail, token, values);
      resetFlow.done();
      setDone(true);
    } catch (err) {
      setError(getErrorMessage(err));
    }
  });
  return (
    <AuthCard
      title="Set a new password"
      subtitle="At least 8 characters with an uppercase, a lowercase, a number and one of @$!%*?&."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <NewPasswordFields
          password={register('password')}
          confirm={register('passwordConfirm')}
          passwordError={errors.password?.message}
          confirmError={errors.passwordConfirm?.message}
          passwordLabel="New password"
        />
        <FormError message={error} />
        <Button type="submit" loading={isSubmitting} className="w-full">
          Change Password
        </Button>
      </form>
      <Modal
        open={done}
        tone="success"
        title={messages.passwordResetSuccessfully}
        onClose={() => navigate(paths.login())}
      >
        <p>You can now log in with your new password.</p>
      </Modal>
    </AuthCard>
  );
}
