import { useId, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';

/**
 * Six single-digit boxes; non-digits are stripped, pasting a whole code fills every box. The value is
 * the code as one string, a space standing for an empty box, so a form schema checks it whole.
 */
export function OtpInput({
  value,
  onChange,
  length = 6,
  label = 'One-time code',
  error,
  inputRef,
}: {
  value: string;
  onChange: (v: string) => void;
  length?: number;
  label?: string;
  /** Shown under the boxes and tied to them, as `Field` does. */
  error?: string;
  /** Receives the first box, so a form can focus it on an error. */
  inputRef?: (el: HTMLInputElement | null) => void;
}) {
  const refs = useRef<Array<HTMLInputElement | null>>([]);
  const errorId = `${useId()}-error`;
  const boxes = Array.from({ length }, (_, i) => (value[i] ?? '').trim());
  const emit = (next: string[]) => onChange(next.map((d) => d || ' ').join(''));
  const set = (i: number, raw: string) => {
    const digits = raw.replace(/\D+/g, '');
    const next = [...boxes];
    if (digits.length > 1) {
      digits
        .slice(0, length - i)
        .split('')
        .forEach((d, k) => (next[i + k] = d));
      emit(next);
      refs.current[Math.min(i + digits.length, length - 1)]?.focus();
      return;
    }
    next[i] = digits;
    emit(next);
    if (digits && i < length - 1) refs.current[i + 1]?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>, i: number) => {
    if (e.key === 'Backspace' && !boxes[i] && i > 0) refs.current[i - 1]?.focus();
    if (e.key === 'ArrowLeft' && i > 0) refs.current[i - 1]?.focus();
    if (e.key === 'ArrowRight' && i < length - 1) refs.current[i + 1]?.focus();
  };
  const onPaste = (e: ClipboardEvent, i: number) => {
    e.preventDefault();
    set(i, e.clipboardData.getData('text'));
  };
  return (
    <fieldset>
      <legend className="sr-only">{label}</legend>
      {/* Six equal columns of at most 3rem: the boxes shrink to the card on a 360 px phone instead of overflowing it. */}
      <div className="mx-auto grid max-w-[20.5rem] grid-cols-6 gap-1.5 sm:gap-2">
        {Array.from({ length }, (_, i) => (
          <input
            key={i}
            ref={(el) => {
              refs.current[i] = el;
              if (i === 0) inputRef?.(el);
            }}
            value={boxes[i]}
            onChange={(e) => set(i, e.target.value)}
            onKeyDown={(e) => onKey(e, i)}
            onPaste={(e) => onPaste(e, i)}
            inputMode="numeric"
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            maxLength={length}
            aria-label={`Digit ${i + 1} of ${length}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="h-12 w-full min-w-0 rounded-md border border-slate-300 text-center text-xl font-semibold focus:border-brand focus:outline-2 focus:outline-brand/30 aria-[invalid=true]:border-red-600"
          />
        ))}
      </div>
      {error && (
        <p id={errorId} role="alert" className="mt-2 text-center text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
