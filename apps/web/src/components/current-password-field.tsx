import { forwardRef } from 'react';
import { PasswordField, type FieldProps } from './field';

/**
 * Shown on a profile form once the sign-in address is edited: the server needs the current password
 * for that, then confirms the new address by a link (docs/decisions/0210).
 */
export const CurrentPasswordField = forwardRef<HTMLInputElement, Omit<FieldProps, 'label'>>(
  function CurrentPasswordField({ className, ...rest }, ref) {
    return (
      <div className={className}>
        <PasswordField ref={ref} label="Current password" autoComplete="current-password" {...rest} />
        <p className="mt-1 text-xs text-slate-500">
          Needed to change your sign-in email. We send a link to the new address; your email changes only when you open
          it.
        </p>
      </div>
    );
  },
);
