import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { digitsOnly } from '@legalmarket/contracts/common';
import {
  NIGERIAN_BANKS,
  payoutDetailsInput,
  type AccountDetails,
  type PayoutDetailsInput,
} from '@legalmarket/contracts/lawyers';
import { Button } from '@/components/button';
import { Field, FormError } from '@/components/field';

/** Account number (10 digits), account name and bank; every field required. Used to add and to update. */
export function PayoutForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: AccountDetails;
  submitLabel: string;
  busy: boolean;
  error?: string | null;
  onSubmit: (v: PayoutDetailsInput) => void;
  onCancel?: () => void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PayoutDetailsInput>({
    resolver: zodResolver(payoutDetailsInput),
    // A saved bank outside today's list still shows; the schema asks for a listed one on save.
    defaultValues: (initial ?? { accountNumber: '', accountName: '', bank: '' }) as PayoutDetailsInput,
  });
  const accountNumber = register('accountNumber');
  return (
    <form onSubmit={handleSubmit((v) => onSubmit(v))} noValidate className="space-y-4">
      <Field
        label="Account Number"
        inputMode="numeric"
        autoComplete="off"
        error={errors.accountNumber?.message}
        {...accountNumber}
        onChange={(e) => {
          e.target.value = digitsOnly(e.target.value, 10);
          return accountNumber.onChange(e);
        }}
      />
      <Field
        label="Account Name"
        autoComplete="name"
        error={errors.accountName?.message}
        {...register('accountName')}
      />
      <div>
        <label htmlFor="payout-bank" className="mb-1 block text-sm font-medium text-slate-800">
          Bank
        </label>
        <select
          id="payout-bank"
          aria-invalid={errors.bank ? true : undefined}
          aria-describedby={errors.bank ? 'payout-bank-error' : undefined}
          className="block min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base aria-[invalid=true]:border-red-600"
          {...register('bank')}
        >
          <option value="">Choose your bank</option>
          {NIGERIAN_BANKS.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
        {errors.bank && (
          <p id="payout-bank-error" role="alert" className="mt-1 text-sm text-red-700">
            {errors.bank.message}
          </p>
        )}
      </div>
      <FormError message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
