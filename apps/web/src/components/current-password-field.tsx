import { PasswordField } from './field';

/** Whether the typed sign-in address differs from the current one (the server compares them lower-cased). */
export function emailChanging(current: string, typed: string) {
  const next = typed.trim().toLowerCase();
  return next !== '' && next !== current.trim().toLowerCase();
}

/**
 * Shown on a profile form once the sign-in address is edited: the server needs the current password
 * for that, then confirms the new address by a link (docs/decisions/0210).
 */
export function CurrentPasswordField({
  value,
  onChange,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <div className={className}>
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="mt-1 text-xs text-slate-500">
        Needed to change your sign-in email. We send a link to the new address; your email changes only when you open
        it.
      </p>
    </div>
  );
}
