import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** A tab's id and its panel's id under one `Tabs` id: the tab controls the panel, the panel is named by the tab. */
export const tabId = (tabsId: string, tab: string) => `${tabsId}-tab-${tab}`;
export const tabPanelId = (tabsId: string, tab: string) => `${tabsId}-panel-${tab}`;

/** Spread on the panel of `tab` (WAI-ARIA tabs): labelled by its tab, whose aria-controls names it. */
export const tabPanelProps = (tabsId: string, tab: string) => ({
  role: 'tabpanel' as const,
  id: tabPanelId(tabsId, tab),
  'aria-labelledby': tabId(tabsId, tab),
});

interface TabsProps<T extends string> {
  label: string;
  tabs: readonly { id: T; label: string; icon?: ReactNode }[];
  value: T;
  onChange: (id: T) => void;
  /**
   * Given when the page renders panels with `tabPanelProps(id, tab)`: each tab then names its panel
   * (aria-controls). Without it the tabs control no panel (a sort order) and name none.
   */
  id?: string;
  /** Show a <select> instead below the sm breakpoint (spec: lawyer projects). */
  selectOnSmall?: boolean;
  /** The list stands in a column (from sm up in the payment window): Up and Down move too. */
  upDown?: boolean;
  disabled?: boolean;
  /** The look of the list and of a tab, where the page's own differs (the payment window). */
  listClassName?: string;
  tabClassName?: (active: boolean) => string;
}

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs, the active one is the only tab stop. */
export function Tabs<T extends string>({
  label,
  tabs,
  value,
  onChange,
  id,
  selectOnSmall,
  upDown,
  disabled,
  listClassName,
  tabClassName,
}: TabsProps<T>) {
  const ownId = useId();
  const base = id ?? ownId;
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKey = (e: KeyboardEvent, i: number) => {
    const n = tabs.length;
    const forward = e.key === 'ArrowRight' || (upDown && e.key === 'ArrowDown');
    const back = e.key === 'ArrowLeft' || (upDown && e.key === 'ArrowUp');
    const next = forward ? (i + 1) % n : back ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
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
          disabled={disabled}
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
        className={
          listClassName ??
          `mb-4 flex flex-wrap gap-x-1 border-b border-slate-200 ${selectOnSmall ? 'hidden sm:flex' : ''}`
        }
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
              id={tabId(base, t.id)}
              aria-selected={active}
              aria-controls={id ? tabPanelId(id, t.id) : undefined}
              tabIndex={active ? 0 : -1}
              disabled={disabled}
              onClick={() => onChange(t.id)}
              onKeyDown={(e) => onKey(e, i)}
              className={
                tabClassName?.(active) ??
                `min-h-11 whitespace-nowrap border-b-2 px-4 text-sm font-semibold ${active ? 'border-brand text-brand' : 'border-transparent text-slate-600 hover:text-ink'}`
              }
            >
              {t.icon}
              {t.label}
            </button>
          );
        })}
      </div>
    </>
  );
}
