import type { ReactNode } from 'react';
import { formatNaira, formatNairaExact } from '@legalmarket/contracts/naira';

// In a file of its own: the root layout shows it on every page, the first one included, without the rest.
export { Loading } from './loading';

/** Naira in whole units; `exact` keeps the kobo when there are any (earnings, commissions, ledger figures). */
export const Naira = ({ amount, exact = false }: { amount: number; exact?: boolean }) => (
  <>{exact ? formatNairaExact(amount) : formatNaira(amount)}</>
);

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-slate-300 px-4 py-10 text-center text-slate-600">{children}</p>
  );
}

/** A success message the spec lists, announced politely to screen readers. */
export function SuccessNote({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <p
      role="status"
      className={`rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ${className}`}
    >
      {children}
    </p>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-6 text-center text-red-800">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="mt-3 min-h-11 rounded-md px-4 font-semibold underline" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
