import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LIMITS } from '@legalmarket/contracts/constants';
import { Button } from '@/components/button';
import { FormError } from '@/components/field';
import { OtpInput } from '@/components/otp-input';
import { paths } from '@/lib/paths';
import { getErrorMessage } from '@/lib/http';
import { useConfirmPayoutCode } from './api/confirm-otp';
import { payoutEditWindow } from './api/edit-payment-details';
import { useSendPayoutCode } from './api/send-otp';

/** /lawyer/otp: the six-digit code e-mailed for changing payout details; a right code opens the Update form. */
export default function LawyerOtpPage() {
  const navigate = useNavigate();
  // "OTP sent successfully" from the first send (the Get Paid page), or from Send a new code here.
  const sent = (useLocation().state as { notice?: string } | null)?.notice ?? null;
  const [digits, setDigits] = useState<string[]>(Array(LIMITS.otpDigits).fill(''));
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(sent);
  const confirm = useConfirmPayoutCode();
  const resend = useSendPayoutCode();
  const code = digits.join('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    if (!/^\d{6}$/.test(code)) {
      setError('Please enter the 6-digit code');
      return;
    }
    confirm.mutate(code, {
      onSuccess: () => {
        payoutEditWindow.open(LIMITS.codeTtlMinutes);
        navigate(paths.lawyerGetPaid());
      },
      onError: (err) => setError(getErrorMessage(err)),
    });
  };

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <form onSubmit={submit} noValidate className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-ink">Enter your code</h1>
        <p className="mt-2 text-sm text-slate-600">
          We e-mailed you a six-digit code. It expires in {LIMITS.codeTtlMinutes} minutes and works once.
        </p>
        <div className="mt-6">
          <OtpInput
            value={digits}
            onChange={(v) => {
              setDigits(v);
              setError(null);
            }}
            label="Six-digit code"
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
                  setDigits(Array(LIMITS.otpDigits).fill(''));
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
