import { useId, useRef, type KeyboardEvent } from 'react';

interface TabsProps<T extends string> {
  label: string;
  tabs: readonly { id: T; label: string }[];
  value: T;
  onChange: (id: T) => void;
  /** Show a <select> instead below the sm breakpoint (spec: lawyer projects). */
  selectOnSmall?: boolean;
}

/** WAI-ARIA tabs: arrow keys move between tabs, the active one is the only tab stop. */
export function Tabs<T extends string>({ label, tabs, value, onChange, selectOnSmall }: TabsProps<T>) {
  const id = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKey = (e: KeyboardEvent, i: number) => {
    const n = tabs.length;
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % n
        : e.key === 'ArrowLeft'
          ? (i - 1 + n) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    onChange(tabs[next].id);
    refs.current[next]?.focus();
  };
  return (
    <>
      {selectOnSmall && (
        <select
          aria-label={label}
          className="mb-4 block min-h-11 w-full rounded-md border border-slate-300 px-3 sm:hidden"
          value={value}
          onChange={(e) => onChange(e.target.value as T)}
        >
          {tabs.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      )}
      <div
        role="tablist"
        aria-label={label}
        className={`mb-4 flex flex-wrap gap-x-1 border-b border-slate-200 ${selectOnSmall ? 'hidden sm:flex' : ''}`}
      >
        {tabs.map((t, i) => {
          const active = t.id === value;
          return (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[i] = el;
              }}
              role="tab"
              type="button"
              id={`${id}-${t.id}`}
              aria-selected={active}
              tabIndex={active ? 0 : -1}
              onClick={() => onChange(t.id)}
              onKeyDown={(e) => onKey(e, i)}
              className={`min-h-11 whitespace-nowrap border-b-2 px-4 text-sm font-semibold ${active ? 'border-brand text-brand' : 'border-transparent text-slate-600 hover:text-ink'}`}
            >
              {t.label}
            </button>
          );
        })}
      </div>
    </>
  );
}
