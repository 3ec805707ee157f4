import type { ButtonHTMLAttributes } from 'react';
import { Loader2 } from 'lucide-react';
import { useHydrated } from '@/lib/use-hydrated';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';
const styles: Record<Variant, string> = {
  primary: 'bg-brand text-white hover:bg-brand-dark aria-disabled:bg-brand/40',
  secondary: 'border border-brand text-brand bg-white hover:bg-brand/5 aria-disabled:opacity-50',
  danger: 'bg-red-700 text-white hover:bg-red-800 aria-disabled:opacity-50',
  ghost: 'text-brand hover:bg-brand/5 aria-disabled:opacity-50',
};

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  loading?: boolean;
}

/**
 * A disabled or busy button is aria-disabled and ignores presses, rather than natively disabled: a
 * browser drops focus to the page when the focused button turns disabled (as a send starts), and a
 * keyboard or screen-reader user lost their place. A press, or Enter in its form, does nothing (2354).
 */
export function Button({
  variant = 'primary',
  loading,
  className = '',
  children,
  disabled,
  type = 'button',
  onClick,
  ...rest
}: ButtonProps) {
  const off = Boolean(disabled || loading);
  // In the server's HTML, before the page's code runs, a disabled button is natively so: a tap then
  // (a submit's above all) would go to the browser with no handler to stop it.
  const hydrated = useHydrated();
  return (
    <button
      type={type}
      className={`inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed aria-disabled:cursor-not-allowed ${styles[variant]} ${className}`}
      {...rest}
      disabled={off && !hydrated}
      aria-disabled={off || undefined}
      aria-busy={loading || undefined}
      onClick={(e) => {
        // Also stops the form's submit: a submit button's press, or the Enter that stands for one.
        if (off) return e.preventDefault();
        onClick?.(e);
      }}
    >
      {loading && <Loader2 aria-hidden className="size-4 animate-spin" />}
      {children}
    </button>
  );
}
