import { forwardRef, type ChangeEvent, type FocusEvent } from 'react';
import { localPhoneNumber, PHONE_PATTERN, phoneInputText } from '@legalmarket/contracts/common';
import { Field, type FieldProps } from '@/components/field';

/**
 * A Nigerian phone number, typed locally (0803 123 4567) or internationally (+234 803 123 4567).
 * Nothing typed is cut: on leaving the field a number that has an 11-digit local form shows it, and
 * any other is refused by the form's rule (packages/contracts localPhoneNumber).
 */
export const PhoneField = forwardRef<HTMLInputElement, FieldProps>(function PhoneField(
  { onChange, onBlur, ...rest },
  ref,
) {
  return (
    <Field
      ref={ref}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      onChange={(e: ChangeEvent<HTMLInputElement>) => {
        e.target.value = phoneInputText(e.target.value);
        onChange?.(e);
      }}
      onBlur={(e: FocusEvent<HTMLInputElement>) => {
        const local = localPhoneNumber(e.target.value);
        if (local !== e.target.value && PHONE_PATTERN.test(local)) {
          e.target.value = local;
          onChange?.(e as unknown as ChangeEvent<HTMLInputElement>);
        }
        onBlur?.(e);
      }}
      {...rest}
    />
  );
});
