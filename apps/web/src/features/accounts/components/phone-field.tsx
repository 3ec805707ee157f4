import { forwardRef, type ChangeEvent } from 'react';
import { digitsOnly } from '@legalmarket/contracts/common';
import { LIMITS } from '@legalmarket/contracts/constants';
import { Field, type FieldProps } from '@/components/field';

/** Phone input that keeps digits only, at most 11 (spec section 5). */
export const PhoneField = forwardRef<HTMLInputElement, FieldProps>(function PhoneField({ onChange, ...rest }, ref) {
  return (
    <Field
      ref={ref}
      type="tel"
      inputMode="numeric"
      autoComplete="tel"
      onChange={(e: ChangeEvent<HTMLInputElement>) => {
        e.target.value = digitsOnly(e.target.value, LIMITS.phoneDigits);
        onChange?.(e);
      }}
      {...rest}
    />
  );
});
