import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  TWO_FACTOR,
  twoFactorCodeInput,
  twoFactorMessages,
  type TwoFactorCodeInput,
} from '@legalmarket/contracts/two-factor';
import type { OkMessage } from '@legalmarket/contracts/common';
import { api, getErrorMessage } from '@/lib/http';
import { Button } from './button';
import { Field, FormError } from './field';
import { Modal } from './modal';

/** The code prompt's dialog, loaded when an action on money first answers 428 (step-up-prompt.tsx). */
export default function StepUpDialog({ onFinish }: { onFinish: (ok: boolean) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorCodeInput>({ resolver: zodResolver(twoFactorCodeInput), defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await api<OkMessage>('/api/two-factor/verify', { method: 'POST', body: { code }, steppedUp: true });
      onFinish(true);
    } catch (err) {
      setFailure(getErrorMessage(err));
    }
  });

  return (
    <Modal open onClose={() => onFinish(false)} title="Confirm it is you">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <p className="text-sm text-slate-700">
          {twoFactorMessages.stepUpRequired}. Actions on money ask again after {TWO_FACTOR.stepUpMinutes} minutes.
        </p>
        <Field
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          hint="6 digits from your app, or a recovery code"
          error={errors.code?.message}
          {...register('code')}
        />
        <FormError message={failure} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onFinish(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Confirm
          </Button>
        </div>
      </form>
    </Modal>
  );
}
