import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { companySignupForm, companySignupStep1, type CompanySignupInput } from '@legalmarket/contracts/auth';
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

const STEP1 = Object.keys(companySignupStep1.shape) as Array<keyof CompanySignupInput>;

const EMPTY: CompanySignupInput = {
  companyName: '',
  contactName: '',
  phoneNumber: '',
  officialEmail: '',
  officeAddress: '',
  cac: '',
  industry: '',
  password: '',
  passwordConfirm: '',
};

/** What was typed, kept for this tab in sessionStorage so a refresh loses nothing; never the passwords. */
const DRAFT_KEY = 'companySignupDraft';
const KEPT = [
  'companyName',
  'contactName',
  'phoneNumber',
  'officialEmail',
  'officeAddress',
  'cac',
  'industry',
] as const;

function readDraft(): CompanySignupInput {
  try {
    const raw = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? '{}') as Record<string, unknown>;
    const kept = Object.fromEntries(KEPT.flatMap((k) => (typeof raw[k] === 'string' ? [[k, raw[k]]] : [])));
    return { ...EMPTY, ...kept };
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

function writeDraft(values: Partial<CompanySignupInput>) {
  try {
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify(Object.fromEntries(KEPT.map((k) => [k, values[k] ?? '']))));
  } catch {
    // Storage full or refused (private mode): the form still works, only a refresh forgets it.
  }
}

export default function SignupCompanyPage() {
  // Step 2 is a history entry (?step=2): the browser's Back returns to step 1 with its values.
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const step: 1 | 2 = params.get('step') === '2' ? 2 : 1;
  const pushedStep2 = (location.state as { fromStep1?: boolean } | null)?.fromStep1 === true;
  const setStep = (n: 1 | 2) => {
    if (n === 2) setParams({ step: '2' }, { state: { fromStep1: true } });
    else if (pushedStep2) navigate(-1);
    else setParams({}, { replace: true });
  };
  const [accepted, setAccepted] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [draft] = useState(readDraft);
  // One form for both steps: step-1 values stay when going back and forth.
  const {
    register,
    handleSubmit,
    trigger,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<CompanySignupInput>({
    resolver: zodResolver(companySignupForm),
    shouldUnregister: false,
    defaultValues: draft,
  });

  useEffect(() => {
    const sub = watch((values) => writeDraft(values));
    return () => sub.unsubscribe();
  }, [watch]);

  // Step 2 opened with step 1 incomplete (a shared link, a draft from another tab): back to step 1.
  useEffect(() => {
    if (step !== 2) return;
    void trigger(STEP1).then((ok) => {
      if (!ok) setParams({}, { replace: true });
    });
  }, [step, trigger, setParams]);

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
        await signupRequest('company', { ...values, termsVersion: TERMS_VERSION });
        dropDraft();
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
