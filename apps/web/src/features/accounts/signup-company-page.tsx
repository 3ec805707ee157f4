import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { companySignupForm, companySignupStep1, type CompanySignupInput } from '@legalmarket/contracts/auth';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError } from '@/components/field';
import { getErrorMessage } from '@/lib/http';
import { signupRequest } from './api/auth-api';
import { AuthCard } from './components/auth-card';
import { NewPasswordFields, LoginPrompt } from './components/new-password-fields';
import { PhoneField } from './components/phone-field';
import { SignupDoneModal } from './components/signup-done-modal';
import { TermsCheckbox } from './components/terms-checkbox';

const STEP1 = Object.keys(companySignupStep1.shape) as Array<keyof CompanySignupInput>;

export default function SignupCompanyPage() {
  const [step, setStep] = useState<1 | 2>(1);
  const [accepted, setAccepted] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // One form for both steps: step-1 values stay when going back and forth.
  const {
    register,
    handleSubmit,
    trigger,
    formState: { errors, isSubmitting },
  } = useForm<CompanySignupInput>({
    resolver: zodResolver(companySignupForm),
    shouldUnregister: false,
    defaultValues: {
      companyName: '',
      contactName: '',
      phoneNumber: '',
      officialEmail: '',
      officeAddress: '',
      cac: '',
      industry: '',
      password: '',
      passwordConfirm: '',
    },
  });

  const next = async () => {
    if (await trigger(STEP1, { shouldFocus: true })) setStep(2);
  };

  const onSubmit = handleSubmit(
    async (values) => {
      setAlert(null);
      if (!accepted) {
        setAlert(messages.acceptTerms);
        return;
      }
      try {
        await signupRequest('company', values);
        setDone(values.officialEmail);
      } catch (err) {
        setAlert(`${messages.signupProblem}: ${getErrorMessage(err)}`);
      }
    },
    (errs) => {
      // A step-1 error found at submit takes the user back to that step.
      if (STEP1.some((k) => errs[k])) setStep(1);
    },
  );

  return (
    <AuthCard
      wide
      title="Sign up as a company"
      subtitle={
        <>
          Step {step} of 2 · {step === 1 ? 'Company details' : 'Account details'}
        </>
      }
    >
      <ol className="mb-6 flex gap-2" aria-label="Sign-up progress">
        {[1, 2].map((n) => (
          <li
            key={n}
            aria-current={n === step ? 'step' : undefined}
            className={`h-1.5 flex-1 rounded-full ${n <= step ? 'bg-brand' : 'bg-slate-200'}`}
          >
            <span className="sr-only">Step {n}</span>
          </li>
        ))}
      </ol>
      <form onSubmit={onSubmit} noValidate>
        <div className={step === 1 ? 'grid gap-4 sm:grid-cols-2' : 'hidden'}>
          <Field
            label="Company name"
            autoComplete="organization"
            error={errors.companyName?.message}
            {...register('companyName')}
          />
          <Field
            label="Contact name"
            autoComplete="name"
            error={errors.contactName?.message}
            {...register('contactName')}
          />
          <PhoneField
            label="Contact phone number"
            placeholder="08012345678"
            error={errors.phoneNumber?.message}
            {...register('phoneNumber')}
          />
          <Field
            label="Official email"
            type="email"
            autoComplete="email"
            inputMode="email"
            error={errors.officialEmail?.message}
            {...register('officialEmail')}
          />
          <Field
            className="sm:col-span-2"
            label="Office address"
            autoComplete="street-address"
            error={errors.officeAddress?.message}
            {...register('officeAddress')}
          />
          <div className="sm:col-span-2">
            <Button onClick={next} className="w-full">
              Next
            </Button>
          </div>
        </div>
        <div className={step === 2 ? 'grid gap-4 sm:grid-cols-2' : 'hidden'}>
          <Field label="CAC registration number (optional)" error={errors.cac?.message} {...register('cac')} />
          <Field label="Industry" error={errors.industry?.message} {...register('industry')} />
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
          <div className="flex gap-3 sm:col-span-2">
            <Button variant="secondary" onClick={() => setStep(1)} className="flex-1">
              Back
            </Button>
            <Button type="submit" loading={isSubmitting} className="flex-1">
              Sign up
            </Button>
          </div>
        </div>
      </form>
      <LoginPrompt />
      <SignupDoneModal open={done !== null} email={done ?? ''} />
    </AuthCard>
  );
}
