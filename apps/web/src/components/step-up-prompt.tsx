import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  TWO_FACTOR,
  twoFactorCodeInput,
  twoFactorMessages,
  type TwoFactorCodeInput,
} from '@legalmarket/contracts/two-factor';
import type { OkMessage } from '@legalmarket/contracts/common';
import { api, getErrorMessage, setStepUpHandler } from '@/lib/http';
import { Button } from './button';
import { Field, FormError } from './field';
import { Modal } from './modal';

/**
 * The code prompt of actions on money (decision 2020): when one answers 428, this asks for a code,
 * proves it with POST /api/two-factor/verify, and the action is sent again by lib/http.ts.
 */
export function StepUpPrompt() {
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const settle = useRef<((ok: boolean) => void) | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorCodeInput>({ resolver: zodResolver(twoFactorCodeInput), defaultValues: { code: '' } });

  useEffect(() => {
    setStepUpHandler(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current?.(false);
          settle.current = resolve;
          reset({ code: '' });
          setFailure(null);
          setOpen(true);
        }),
    );
    return () => setStepUpHandler(null);
  }, [reset]);

  const finish = (ok: boolean) => {
    setOpen(false);
    settle.current?.(ok);
    settle.current = null;
  };

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await api<OkMessage>('/api/two-factor/verify', { method: 'POST', body: { code }, steppedUp: true });
      finish(true);
    } catch (err) {
      setFailure(getErrorMessage(err));
    }
  });

  return (
    <Modal open={open} onClose={() => finish(false)} title="Confirm it is you">
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
          <Button variant="secondary" onClick={() => finish(false)}>
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
