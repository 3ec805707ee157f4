import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messages } from '@legalmarket/contracts/messages';
import {
  TWO_FACTOR,
  twoFactorCodeInput,
  twoFactorEnableInput,
  type TwoFactorCodeInput,
  type TwoFactorEnableInput,
  type TwoFactorEnableResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatusResponse,
} from '@legalmarket/contracts/two-factor';
import type { OkMessage } from '@legalmarket/contracts/common';
import { Button } from '@/components/button';
import { ErrorState, Loading, SuccessNote } from '@/components/feedback';
import { Field, FormError, PasswordField } from '@/components/field';
import { QrCode } from '@/components/qr-code';
import { api, getErrorMessage } from '@/lib/http';
import { AuthCard } from './components/auth-card';
import { OtherDevices } from './other-devices';

const passwordInput = z.object({
  password: z.string({ error: messages.enterPassword }).min(1, messages.enterPassword).max(128),
});
type PasswordInput = z.input<typeof passwordInput>;
const STATUS_KEY = ['two-factor'];

/** Step one: the password, then the secret to add to the app, shown this once. */
function StartSetup({ onStarted }: { onStarted: (s: TwoFactorSetupResponse['data']) => void }) {
  const form = useForm<PasswordInput>({ resolver: zodResolver(passwordInput), defaultValues: { password: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const res = await api<TwoFactorSetupResponse>('/api/two-factor/setup', {
        method: 'POST',
        body,
        allowUnauthorized: true,
      });
      onStarted(res.data);
    } catch (err) {
      setFailure(getErrorMessage(err));
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Start two-factor set-up">
      <p className="text-sm text-slate-700">
        Two-factor authentication asks for a code from an authenticator app (Google Authenticator, Microsoft
        Authenticator, 1Password, Authy...) each time you log in, and before actions on money.
      </p>
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        error={form.formState.errors.password?.message}
        {...form.register('password')}
      />
      <FormError message={failure} />
      <Button type="submit" loading={form.formState.isSubmitting}>
        Set up an authenticator app
      </Button>
    </form>
  );
}

/** Step two: the secret in text (and as a link for a phone), and the first code. */
function ConfirmSetup({
  setup,
  onEnabled,
}: {
  setup: TwoFactorSetupResponse['data'];
  onEnabled: (codes: string[]) => void;
}) {
  const form = useForm<TwoFactorEnableInput>({
    resolver: zodResolver(twoFactorEnableInput),
    defaultValues: { code: '' },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const res = await api<TwoFactorEnableResponse>('/api/two-factor/enable', { method: 'POST', body });
      onEnabled(res.data.recoveryCodes);
    } catch (err) {
      setFailure(getErrorMessage(err));
    }
  });
  const grouped = setup.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Confirm two-factor set-up">
      <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
        <li>
          Scan this code with your authenticator app:
          <span className="mt-2 block">
            <QrCode value={setup.otpauthUri} label="QR code of the authenticator set-up" />
          </span>
        </li>
        <li>
          Or add an account by hand and type this key (time-based, 6 digits, 30 seconds):
          <code
            data-testid="two-factor-secret"
            className="mt-1 block rounded bg-slate-100 p-2 font-mono text-base wrap-anywhere"
          >
            {grouped}
          </code>
        </li>
        <li>
          On this phone, you can open the setup link instead:{' '}
          <a className="font-semibold text-brand wrap-anywhere hover:underline" href={setup.otpauthUri}>
            add to authenticator app
          </a>
          <span data-testid="two-factor-uri" className="mt-1 block text-xs text-slate-500 wrap-anywhere">
            {setup.otpauthUri}
          </span>
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <Field
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        error={form.formState.errors.code?.message}
        {...form.register('code')}
      />
      <FormError message={failure} />
      <Button type="submit" loading={form.formState.isSubmitting}>
        Turn on two-factor authentication
      </Button>
    </form>
  );
}

function Disable({ onDone }: { onDone: () => void }) {
  const form = useForm<TwoFactorCodeInput>({ resolver: zodResolver(twoFactorCodeInput), defaultValues: { code: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await api<OkMessage>('/api/two-factor/disable', { method: 'POST', body });
      onDone();
    } catch (err) {
      setFailure(getErrorMessage(err));
    }
  });
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="mt-6 space-y-3 border-t border-slate-200 pt-4"
      aria-label="Turn off"
    >
      <h2 className="heading-card">Turn it off</h2>
      <Field
        label="Code from the app, or a recovery code"
        autoComplete="one-time-code"
        error={form.formState.errors.code?.message}
        {...form.register('code')}
      />
      <FormError message={failure} />
      <Button type="submit" variant="danger" loading={form.formState.isSubmitting}>
        Turn off two-factor authentication
      </Button>
    </form>
  );
}

/** /account/two-factor: enrol an authenticator app, see the recovery codes once, or turn it off (decision 2020). */
export default function TwoFactorPage() {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => api<TwoFactorStatusResponse>('/api/two-factor', { signal }),
  });
  const [setup, setSetup] = useState<TwoFactorSetupResponse['data'] | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const refresh = useMutation({ mutationFn: () => queryClient.invalidateQueries({ queryKey: STATUS_KEY }) });

  let body;
  if (status.isPending) body = <Loading />;
  else if (status.isError)
    body = <ErrorState message={getErrorMessage(status.error)} onRetry={() => void status.refetch()} />;
  else if (recoveryCodes)
    body = (
      <div className="space-y-4">
        <SuccessNote>Two-factor authentication is on.</SuccessNote>
        <p className="text-sm text-slate-700">
          Keep these {recoveryCodes.length} recovery codes somewhere safe (print them or store them in a password
          manager). Each works once in place of a code if you lose your phone. <strong>They are shown only now.</strong>
        </p>
        <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
          {recoveryCodes.map((c) => (
            <li key={c} className="rounded bg-slate-100 px-2 py-1">
              {c}
            </li>
          ))}
        </ul>
        <Button
          onClick={() => {
            setRecoveryCodes(null);
            refresh.mutate();
          }}
        >
          I have saved my recovery codes
        </Button>
      </div>
    );
  else if (status.data.data.enabled)
    body = (
      <div>
        {note && <SuccessNote className="mb-3">{note}</SuccessNote>}
        <p className="text-sm text-slate-700" data-testid="two-factor-status">
          Two-factor authentication is <strong>on</strong>. {status.data.data.recoveryCodesLeft} recovery codes left.
          Actions on money ask for a code again after {TWO_FACTOR.stepUpMinutes} minutes.
        </p>
        <Disable
          onDone={() => {
            setNote(null);
            refresh.mutate();
          }}
        />
      </div>
    );
  else if (setup)
    body = (
      <ConfirmSetup
        setup={setup}
        onEnabled={(codes) => {
          setSetup(null);
          setRecoveryCodes(codes);
        }}
      />
    );
  else
    body = (
      <div className="space-y-4">
        <p className="text-sm text-slate-700" data-testid="two-factor-status">
          Two-factor authentication is <strong>off</strong>.
        </p>
        <StartSetup onStarted={setSetup} />
      </div>
    );

  return (
    <AuthCard title="Two-factor authentication" subtitle="A code from your phone as well as your password." wide>
      {body}
      <OtherDevices />
    </AuthCard>
  );
}
