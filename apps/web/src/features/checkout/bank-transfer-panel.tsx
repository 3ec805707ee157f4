import { useEffect, useState, type ReactNode } from 'react';
import { Check, Copy } from 'lucide-react';
import type { SandboxVirtualAccount } from '@legalmarket/contracts/commerce';
import { Loading, Naira } from '@/components/feedback';
import { getErrorMessage } from '@/lib/http';
import { sandboxVirtualAccount } from './api/sandbox-virtual-account';

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-NG', { hour: '2-digit', minute: '2-digit', timeZone: 'Africa/Lagos' });

/** One detail to type into the banking app, with a button that copies it. */
function CopyRow({ label, value, shown }: { label: string; value: string; shown?: ReactNode }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard refused (an old browser, no permission): the value is on screen to select.
      setState('failed');
    }
  };
  return (
    <div className="flex items-center justify-between gap-3 border-t border-slate-200 py-2 first:border-t-0">
      <div className="min-w-0">
        <dt className="text-xs text-slate-600">{label}</dt>
        <dd className="font-mono text-base font-semibold break-all text-ink select-all">{shown ?? value}</dd>
      </div>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={`Copy ${label.toLowerCase()}`}
        className="inline-flex min-h-11 shrink-0 items-center gap-1 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-orange-400"
      >
        {state === 'copied' ? (
          <Check aria-hidden className="size-4 text-emerald-600" />
        ) : (
          <Copy aria-hidden className="size-4" />
        )}
        <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select it' : 'Copy'}</span>
      </button>
    </div>
  );
}

/**
 * The sandbox's bank transfer, like Flutterwave's: the server gives a temporary account for this order's
 * exact amount; the company transfers from its bank and says so; the server then verifies it like any payment.
 */
export function BankTransferPanel({
  reference,
  onAccount,
}: {
  reference: string;
  onAccount: (a: SandboxVirtualAccount | null) => void;
}) {
  const [account, setAccount] = useState<SandboxVirtualAccount | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const ctl = new AbortController();
    setError(null);
    sandboxVirtualAccount(reference, ctl.signal)
      .then((a) => {
        setAccount(a);
        onAccount(a);
      })
      .catch((err: unknown) => {
        if (!ctl.signal.aborted) setError(getErrorMessage(err));
      });
    return () => ctl.abort();
  }, [reference, attempt, onAccount]);

  if (error)
    return (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
        <p>{error}</p>
        <button
          type="button"
          className="mt-1 min-h-11 font-semibold underline"
          onClick={() => setAttempt((n) => n + 1)}
        >
          Try again
        </button>
      </div>
    );
  if (!account) return <Loading label="Preparing your transfer account..." />;
  return (
    <div data-testid="bank-transfer">
      <p className="text-sm font-semibold text-ink">
        Transfer exactly <Naira amount={account.amount} exact /> to this account
      </p>
      <dl className="mt-2 rounded-md border border-slate-200 bg-slate-50 px-3">
        <CopyRow label="Account number" value={account.accountNumber} />
        <CopyRow label="Bank name" value={account.bankName} />
        <CopyRow label="Amount" value={account.amount.toFixed(2)} shown={<Naira amount={account.amount} exact />} />
        <CopyRow label="Reference" value={account.reference} />
      </dl>
      <p className="mt-2 text-sm text-slate-700">
        Account name: <span className="font-semibold">{account.accountName}</span>. Put the reference in the
        transfer&apos;s narration. This account accepts the transfer until{' '}
        <time dateTime={account.expiresAt}>{time(account.expiresAt)}</time> (Lagos time). A different amount will not
        pay the order.
      </p>
    </div>
  );
}
