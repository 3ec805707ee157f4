import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';

/** Six single-digit boxes; non-digits are stripped, pasting a whole code fills every box. */
export function OtpInput({
  value,
  onChange,
  length = 6,
  label = 'One-time code',
}: {
  value: string[];
  onChange: (v: string[]) => void;
  length?: number;
  label?: string;
}) {
  const refs = useRef<Array<HTMLInputElement | null>>([]);
  const set = (i: number, raw: string) => {
    const digits = raw.replace(/\D+/g, '');
    const next = [...value];
    if (digits.length > 1) {
      digits
        .slice(0, length - i)
        .split('')
        .forEach((d, k) => (next[i + k] = d));
      onChange(next);
      refs.current[Math.min(i + digits.length, length - 1)]?.focus();
      return;
    }
    next[i] = digits;
    onChange(next);
    if (digits && i < length - 1) refs.current[i + 1]?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>, i: number) => {
    if (e.key === 'Backspace' && !value[i] && i > 0) refs.current[i - 1]?.focus();
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
      <div className="flex justify-center gap-2">
        {Array.from({ length }, (_, i) => (
          <input
            key={i}
            ref={(el) => {
              refs.current[i] = el;
            }}
            value={value[i] ?? ''}
            onChange={(e) => set(i, e.target.value)}
            onKeyDown={(e) => onKey(e, i)}
            onPaste={(e) => onPaste(e, i)}
            inputMode="numeric"
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            maxLength={length}
            aria-label={`Digit ${i + 1} of ${length}`}
            className="size-12 rounded-md border border-slate-300 text-center text-xl font-semibold focus:border-brand focus:outline-2 focus:outline-brand/30"
          />
        ))}
      </div>
    </fieldset>
  );
}
