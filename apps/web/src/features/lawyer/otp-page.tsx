import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { LIMITS } from '@legalmarket/contracts/constants';
import { payoutOtpForm } from '@legalmarket/contracts/lawyers';
import { Button } from '@/components/button';
import { FormError } from '@/components/field';
import { OtpInput } from '@/components/otp-input';
import { paths } from '@/lib/paths';
import { getErrorMessage, HttpError, isNetworkError } from '@/lib/http';
import { isAnswerLost } from '@/lib/answer-lost';
import { useConfirmPayoutCode } from './api/confirm-otp';
import { payoutEditWindow } from './api/edit-payment-details';
import { useSendPayoutCode } from './api/send-otp';

type PayoutOtpValues = z.input<typeof payoutOtpForm>;

/** /lawyer/otp: the six-digit code e-mailed for changing payout details; a right code opens the Update form. */
export default function LawyerOtpPage() {
  const navigate = useNavigate();
  // "OTP sent successfully" from the first send (the Get Paid page), or from Send a new code here.
  const sent = (useLocation().state as { notice?: string } | null)?.notice ?? null;
  // The server's refusal of a code or of a new send; the schema's message sits under the boxes.
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(sent);
  // The code whose confirmation got no answer: the server may have taken it (decision 2312).
  const [lost, setLost] = useState<string | null>(null);
  const confirm = useConfirmPayoutCode();
  const resend = useSendPayoutCode();
  const { control, handleSubmit, reset, formState } = useForm<PayoutOtpValues, unknown, z.output<typeof payoutOtpForm>>(
    {
      resolver: zodResolver(payoutOtpForm),
      defaultValues: { otp: '' },
    },
  );

  const submit = handleSubmit(
    ({ otp }) => {
      setNotice(null);
      confirm.mutate(otp, {
        onSuccess: () => {
          payoutEditWindow.open(LIMITS.codeTtlMinutes);
          navigate(paths.lawyerGetPaid());
        },
        onError: (err) => {
          // A code works once: the same code refused after a lost answer was most likely used by that
          // answer. Go on to Update, which the server refuses (and the page offers a new code) if not.
          if (err instanceof HttpError && err.status === 400 && lost === otp) {
            payoutEditWindow.open(LIMITS.codeTtlMinutes, { unsure: true });
            navigate(paths.lawyerGetPaid());
            return;
          }
          // A gateway's 502/504 is a lost answer too: the API behind it may have taken the code.
          setLost(isNetworkError(err) || isAnswerLost(err) ? otp : null);
          setError(getErrorMessage(err));
        },
      });
    },
    () => setNotice(null),
  );

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <form onSubmit={submit} noValidate className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="heading-title text-ink">Enter your code</h1>
        <p className="mt-2 text-sm text-slate-600">
          We e-mailed you a six-digit code. It expires in {LIMITS.codeTtlMinutes} minutes and works once.
        </p>
        <div className="mt-6">
          <Controller
            control={control}
            name="otp"
            render={({ field }) => (
              <OtpInput
                value={field.value}
                onChange={(v) => {
                  field.onChange(v);
                  setError(null);
                }}
                inputRef={field.ref}
                label="Six-digit code"
                error={formState.errors.otp?.message}
              />
            )}
          />
        </div>
        <div className="mt-4 space-y-2">
          <FormError message={error} />
          {notice && (
            <p role="status" className="text-sm text-emerald-700">
              {notice}
            </p>
          )}
        </div>
        <Button type="submit" className="mt-6 w-full" loading={confirm.isPending}>
          Confirm
        </Button>
        <div className="mt-3 flex flex-wrap justify-between gap-2">
          <Button variant="ghost" onClick={() => navigate(paths.lawyerGetPaid())}>
            Cancel
          </Button>
          <Button
            variant="ghost"
            loading={resend.isPending}
            onClick={() =>
              resend.mutate(undefined, {
                onSuccess: (res) => {
                  // Nothing new was sent: the code being typed is still the one to use. A new code
                  // kills the old one, so a lost answer of the old one no longer matters.
                  if (!res.codeStillValid) {
                    reset();
                    setLost(null);
                  }
                  setError(null);
                  setNotice(res.message);
                },
                onError: (err) => setError(getErrorMessage(err)),
              })
            }
          >
            Send a new code
          </Button>
        </div>
      </form>
    </div>
  );
}
