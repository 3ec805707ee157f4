import type { Ref } from 'react';
import { EXPERTISE } from '@legalmarket/contracts/constants';

/** The expertise toggles: the spec's seven (lawyer-and-admin spec, section 3), then the areas we sell (decision 2010). */
export function ExpertisePicker({
  value,
  onChange,
  error,
  ref,
}: {
  value: string[];
  onChange: (v: string[]) => void;
  error?: string;
  /** Given the first toggle, so a form can focus the picker when no area is chosen. */
  ref?: Ref<HTMLButtonElement>;
}) {
  const toggle = (e: string) => onChange(value.includes(e) ? value.filter((x) => x !== e) : [...value, e]);
  return (
    <fieldset aria-describedby={error ? 'expertise-error' : undefined}>
      <legend className="mb-2 text-sm font-medium text-slate-800">Areas of practise</legend>
      <div className="flex flex-wrap gap-2">
        {EXPERTISE.map((e, i) => {
          const on = value.includes(e);
          return (
            <button
              key={e}
              ref={i === 0 ? ref : undefined}
              type="button"
              aria-pressed={on}
              onClick={() => toggle(e)}
              className={`min-h-11 rounded-full border px-4 text-sm font-medium ${on ? 'border-brand bg-brand text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-brand'}`}
            >
              {e}
            </button>
          );
        })}
      </div>
      {error && (
        <p id="expertise-error" role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
