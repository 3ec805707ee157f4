import { useState } from 'react';
import { Modal } from '@/components/modal';
import { PrivacyPolicy, TermsOfUse } from '@/features/legal/terms';

/** The terms and privacy checkbox with its two modals. */
export function TermsCheckbox({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  const [open, setOpen] = useState<'terms' | 'privacy' | null>(null);
  return (
    <div className="flex items-start gap-3">
      <input
        id="accept-terms"
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 size-5 accent-brand"
      />
      <label htmlFor="accept-terms" className="text-sm text-slate-700">
        I am 18 or older and I accept the{' '}
        <button type="button" className="font-semibold text-brand underline" onClick={() => setOpen('terms')}>
          Terms of use
        </button>{' '}
        and the{' '}
        <button type="button" className="font-semibold text-brand underline" onClick={() => setOpen('privacy')}>
          Privacy policy
        </button>
        .
      </label>
      <Modal open={open === 'terms'} onClose={() => setOpen(null)} title="Terms of use">
        <TermsOfUse />
      </Modal>
      <Modal open={open === 'privacy'} onClose={() => setOpen(null)} title="Privacy policy">
        <PrivacyPolicy />
      </Modal>
    </div>
  );
}
