import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { passwordHint } from '@legalmarket/contracts/common';
import { PasswordField } from '@/components/field';
import { paths } from '@/lib/paths';

/** Password and its confirmation, as every sign-up and the new-password page ask for them. */
export function NewPasswordFields(props: {
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  passwordError?: string;
  confirmError?: string;
  passwordLabel?: string;
}) {
  return (
    <>
      <PasswordField
        label={props.passwordLabel ?? 'Password'}
        autoComplete="new-password"
        error={props.passwordError}
        hint={passwordHint}
        {...props.password}
      />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        error={props.confirmError}
        {...props.confirm}
      />
    </>
  );
}

/** "Already have an account? Log in" under the sign-up forms. */
export function LoginPrompt() {
  return (
    <p className="mt-6 text-center text-sm text-slate-600">
      Already have an account?{' '}
      <Link className="font-semibold text-brand hover:underline" to={paths.login()}>
        Log in
      </Link>
    </p>
  );
}
