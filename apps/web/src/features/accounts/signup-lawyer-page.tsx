import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { lawyerSignupForm, type LawyerSignupInput } from '@legalmarket/contracts/auth';
import { EXPERTISE } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError } from '@/components/field';
import { getErrorMessage } from '@/lib/http';
import { TERMS_VERSION } from '@legalmarket/contracts/privacy';
import { signupRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { NewPasswordFields, LoginPrompt } from './components/new-password-fields';
import { ExpertisePicker } from './components/expertise-picker';
import { PhoneField } from './components/phone-field';
import { SignupDoneModal } from './components/signup-done-modal';
import { TermsCheckbox } from './components/terms-checkbox';

const EMPTY: LawyerSignupInput = {
  name: '',
  officialEmail: '',
  phoneNumber: '',
  areasOfPractise: [],
  scn: '',
  cac: '',
  lawFirmName: '',
  lawFirmAddress: '',
  password: '',
  passwordConfirm: '',
};

/**
 * What was typed, kept for this tab in sessionStorage as the company's sign-up does, so a reload or a
 * tab the phone dropped loses nothing of ten fields; never the passwords.
 */
const DRAFT_KEY = 'lawyerSignupDraft';
const KEPT = ['name', 'officialEmail', 'phoneNumber', 'scn', 'cac', 'lawFirmName', 'lawFirmAddress'] as const;

function readDraft(): LawyerSignupInput {
  try {
    const raw = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? '{}') as Record<string, unknown>;
    const kept = Object.fromEntries(KEPT.flatMap((k) => (typeof raw[k] === 'string' ? [[k, raw[k]]] : [])));
    // Only areas still offered: a draft from an older page may name one no longer on the list.
    const areas = Array.isArray(raw.areasOfPractise)
      ? EXPERTISE.filter((e) => (raw.areasOfPractise as unknown[]).includes(e))
      : [];
    return { ...EMPTY, ...kept, areasOfPractise: areas };
  } catch {
    return EMPTY;
  }
}

function dropDraft() {
  try {
    sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Storage refused (private mode): the account is created all the same; only the draft stays in the tab.
  }
}

function writeDraft(values: Partial<LawyerSignupInput>) {
  try {
    const kept = Object.fromEntries(KEPT.map((k) => [k, values[k] ?? '']));
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ ...kept, areasOfPractise: values.areasOfPractise ?? [] }));
  } catch {
    // Storage full or refused (private mode): the form still works, only a reload forgets it.
  }
}

export default function SignupLawyerPage() {
  const [accepted, setAccepted] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [draft] = useState(readDraft);
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<LawyerSignupInput>({
    resolver: zodResolver(lawyerSignupForm),
    defaultValues: draft,
  });

  useEffect(() => {
    const sub = watch((values) => writeDraft(values as Partial<LawyerSignupInput>));
    return () => sub.unsubscribe();
  }, [watch]);

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    if (!accepted) {
      setAlert(messages.acceptTerms);
      return;
    }
    try {
      await signupRequest('lawyer', { ...values, termsVersion: TERMS_VERSION });
      dropDraft();
      setDone(values.officialEmail);
    } catch (err) {
      setAlert(`${messages.signupProblem}: ${getErrorMessage(err)}`);
    }
  });

  return (
    <AuthCard
      wide
      title="Sign up as a lawyer"
      subtitle="Join LegalMarket as a legal practitioner. An admin verifies your details before you can apply for jobs."
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
        <Field label="Full name" autoComplete="name" error={errors.name?.message} {...register('name')} />
        <Field
          label="Official email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.officialEmail?.message}
          {...register('officialEmail')}
        />
        <PhoneField
          label="Phone number"
          placeholder="08012345678"
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        <Field label="Supreme Court Number (SCN)" error={errors.scn?.message} {...register('scn')} />
        <div className="sm:col-span-2">
          <Controller
            control={control}
            name="areasOfPractise"
            render={({ field }) => (
              <ExpertisePicker
                ref={field.ref}
                value={field.value as string[]}
                onChange={field.onChange}
                error={errors.areasOfPractise?.message}
              />
            )}
          />
        </div>
        <Field label="CAC number (optional)" error={errors.cac?.message} {...register('cac')} />
        <Field
          label="Law firm name (optional)"
          autoComplete="organization"
          error={errors.lawFirmName?.message}
          {...register('lawFirmName')}
        />
        <Field
          className="sm:col-span-2"
          label="Law firm address (optional)"
          error={errors.lawFirmAddress?.message}
          {...register('lawFirmAddress')}
        />
        <NewPasswordFields
          password={register('password')}
          confirm={register('passwordConfirm')}
          passwordError={errors.password?.message}
          confirmError={errors.passwordConfirm?.message}
        />
        <div className="sm:col-span-2">
          <TermsCheckbox checked={accepted} onChange={setAccepted} />
        </div>
        <div className="sm:col-span-2">
          <FormError message={alert} />
        </div>
        <Button type="submit" loading={isSubmitting} className="sm:col-span-2">
          Sign up
        </Button>
      </form>
      <LoginPrompt />
      <SignupDoneModal open={done !== null} email={done ?? ''} />
    </AuthCard>
  );
}
