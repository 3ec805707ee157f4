import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { adminSignupInput, type AdminSignupInput } from '@legalmarket/contracts/auth';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError } from '@/components/field';
import { getErrorMessage } from '@/lib/http';
import { TERMS_VERSION } from '@legalmarket/contracts/privacy';
import { signupRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { NewPasswordFields, LoginPrompt } from './components/new-password-fields';
import { PhoneField } from './components/phone-field';
import { SignupDoneModal } from './components/signup-done-modal';
import { TermsCheckbox } from './components/terms-checkbox';

/** Admin sign-up: one step, the terms check (consent recorded, decision 2030), and an invite code (an open admin sign-up would hand over the marketplace). */
export default function SignupAdminPage() {
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [accepted, setAccepted] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AdminSignupInput>({
    resolver: zodResolver(adminSignupInput),
    defaultValues: { name: '', phoneNumber: '', officialEmail: '', password: '', passwordConfirm: '', inviteCode: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    if (!accepted) {
      setAlert(messages.acceptTerms);
      return;
    }
    try {
      await signupRequest('admin', { ...values, termsVersion: TERMS_VERSION });
      setDone(values.officialEmail);
    } catch (err) {
      setAlert(`${messages.signupProblem}: ${getErrorMessage(err)}`);
    }
  });
  return (
    <AuthCard
      title="Sign up as an admin"
      subtitle="Admin accounts need the invite code given by the marketplace operator."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Full name" autoComplete="name" error={errors.name?.message} {...register('name')} />
        <PhoneField label="Phone number" error={errors.phoneNumber?.message} {...register('phoneNumber')} />
        <Field
          label="Official email"
          type="email"
          autoComplete="email"
          error={errors.officialEmail?.message}
          {...register('officialEmail')}
        />
        <NewPasswordFields
          password={register('password')}
          confirm={register('passwordConfirm')}
          passwordError={errors.password?.message}
          confirmError={errors.passwordConfirm?.message}
        />
        <Field label="Invite code" autoComplete="off" error={errors.inviteCode?.message} {...register('inviteCode')} />
        <TermsCheckbox checked={accepted} onChange={setAccepted} />
        <FormError message={alert} />
        <Button type="submit" loading={isSubmitting} className="w-full">
          Sign up
        </Button>
      </form>
      <LoginPrompt />
      <SignupDoneModal open={done !== null} email={done ?? ''} />
    </AuthCard>
  );
}
