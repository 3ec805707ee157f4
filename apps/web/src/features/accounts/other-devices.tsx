import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { LogoutOthersResponse } from '@legalmarket/contracts/auth';
import { Button } from '@/components/button';
import { SuccessNote } from '@/components/feedback';
import { FormError } from '@/components/field';
import { ConfirmDialog } from '@/components/modal';
import { api, getErrorMessage } from '@/lib/http';

const endedNote = (n: number) =>
  n === 0 ? 'No other device was signed in.' : `Signed out of ${n} other ${n === 1 ? 'device' : 'devices'}.`;

/**
 * "Sign out of all other devices" (decision 2245): every other session of the account ends, this one
 * stays. Asked in a dialog first; part of the account's security page, every role's.
 */
export function OtherDevices() {
  const [asking, setAsking] = useState(false);
  const end = useMutation({
    mutationFn: () => api<LogoutOthersResponse>('/api/logout/others', { method: 'POST' }),
    onSettled: () => setAsking(false),
  });
  return (
    <section className="mt-6 space-y-3 border-t border-slate-200 pt-4" aria-labelledby="other-devices-heading">
      <h2 id="other-devices-heading" className="heading-card">
        Other devices
      </h2>
      <p className="text-sm text-slate-700">
        Signed in on a computer you no longer use, or think someone else is using your account? Sign out everywhere but
        here. If someone else may know your password, change it too.
      </p>
      {end.isSuccess && <SuccessNote>{endedNote(end.data.data.ended)}</SuccessNote>}
      <FormError message={end.error ? getErrorMessage(end.error) : null} />
      <Button variant="danger" onClick={() => setAsking(true)} loading={end.isPending}>
        Sign out of all other devices
      </Button>
      <ConfirmDialog
        open={asking}
        title="Sign out of all other devices?"
        body={
          <p className="text-sm text-slate-700">
            Every other phone, computer or browser signed in to your account is signed out at once. You stay signed in
            here.
          </p>
        }
        confirmLabel="Sign out other devices"
        busy={end.isPending}
        onConfirm={() => end.mutate()}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
