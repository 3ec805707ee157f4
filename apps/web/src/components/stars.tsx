import { useId, type KeyboardEvent, type Ref } from 'react';
import { Star } from 'lucide-react';

const MAX = 5;
const clamp = (v: number) => Math.max(0, Math.min(MAX, Number.isFinite(v) ? v : 0));

/**
 * Read-only stars (capped at 5), partly filled for averages such as 4.3.
 * Screen readers hear "4.3 out of 5 stars" once instead of five icons.
 */
export function Stars({
  value,
  size = 'md',
  className = '',
}: {
  value: number;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}) {
  const v = clamp(value);
  const px = size === 'sm' ? 'size-4' : size === 'lg' ? 'size-7' : 'size-5';
  return (
    <span
      role="img"
      aria-label={`${v} out of ${MAX} stars`}
      className={`inline-flex items-center gap-0.5 ${className}`}
    >
      {Array.from({ length: MAX }, (_, i) => {
        const fill = Math.max(0, Math.min(1, v - i));
        return (
          <span key={i} className={`relative inline-block ${px}`} aria-hidden>
            <Star className={`absolute inset-0 ${px} text-slate-300`} strokeWidth={1.5} />
            {fill > 0 && (
              <span className="absolute inset-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
                <Star className={`${px} fill-accent text-amber-500`} strokeWidth={1.5} />
              </span>
            )}
          </span>
        );
      })}
    </span>
  );
}

interface StarsInputProps {
  label: string;
  value: number;
  onChange: (stars: number) => void;
  error?: string;
  disabled?: boolean;
  /** Given the star that holds the tab stop, so a form can focus the group when no star is chosen. */
  ref?: Ref<HTMLButtonElement>;
}

/**
 * Choosing 1 to 5 stars: a radio group (arrow keys move, Space/Enter picks), one tab stop,
 * each star announced as "3 stars".
 */
export function StarsInput({ label, value, onChange, error, disabled, ref }: StarsInputProps) {
  const id = useId();
  const onKey = (e: KeyboardEvent) => {
    let next = -1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowUp') next = Math.min(MAX, (value || 0) + 1);
    if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') next = Math.max(1, (value || 1) - 1);
    if (e.key === 'Home') next = 1;
    if (e.key === 'End') next = MAX;
    if (next < 0) return;
    e.preventDefault();
    onChange(next);
    document.getElementById(`${id}-star-${next}`)?.focus();
  };
  return (
    <div>
      <span id={`${id}-label`} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </span>
      <div
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-invalid={error ? true : undefined}
        className="flex gap-1"
        onKeyDown={onKey}
      >
        {Array.from({ length: MAX }, (_, i) => {
          const n = i + 1;
          const checked = value === n;
          const lit = n <= value;
          const tabStop = checked || (value === 0 && n === 1);
          return (
            <button
              key={n}
              ref={tabStop ? ref : undefined}
              id={`${id}-star-${n}`}
              type="button"
              role="radio"
              aria-checked={checked}
              aria-label={`${n} ${n === 1 ? 'star' : 'stars'}`}
              tabIndex={tabStop ? 0 : -1}
              disabled={disabled}
              onClick={() => onChange(n)}
              className="flex size-11 items-center justify-center rounded-md hover:bg-amber-50 disabled:opacity-50"
            >
              <Star
                aria-hidden
                className={`size-7 ${lit ? 'fill-accent text-amber-500' : 'text-slate-400'}`}
                strokeWidth={1.5}
              />
            </button>
          );
        })}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
