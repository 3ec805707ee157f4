import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { Button } from './button';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children?: ReactNode;
  /** "success" or "error" colours the title, as the spec's result modals carry a flag. */
  tone?: 'success' | 'error' | 'neutral';
  footer?: ReactNode;
  /**
   * A tap beside the dialog closes it, unless this is false: set while an upload inside is on its way,
   * which closing would stop (decision 2293). Close and Escape still close it.
   */
  closeOnOutsideTap?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab and Shift+Tab inside a dialog: from its last control to its first and back. A modal
 * <dialog> makes the page behind inert, but Tab still leaves it for the browser's own bar.
 */
export function trapTab(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'Tab') return;
  const all = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
  if (all.length === 0) return;
  const first = all[0];
  const last = all[all.length - 1];
  const at = document.activeElement;
  // Focus on something outside the list (the dialog itself, or its title after a step change, which
  // is tabIndex -1) is treated as the dialog: the browser's next stop from there may be outside it.
  const listed = all.includes(at as HTMLElement);
  if (e.shiftKey && (at === first || !listed)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === last || !listed)) {
    e.preventDefault();
    first.focus();
  }
}

/** An accessible dialog on the native <dialog> element: focus trapped, Escape closes, focus returns. */
export function Modal({
  open,
  title,
  onClose,
  children,
  tone = 'neutral',
  footer,
  closeOnOutsideTap = true,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    } else if (!open && d.open) {
      if (typeof d.close === 'function') d.close();
      else d.removeAttribute('open');
    }
  }, [open]);
  // A step swapped in place while open (a confirmation replacing the view, a result replacing a form):
  // the control that held focus went with the old step and focus fell out of the dialog, to the page.
  // It goes to the new title, which names what is shown now.
  const shown = useRef({ open, title });
  useEffect(() => {
    const before = shown.current;
    shown.current = { open, title };
    const d = ref.current;
    if (!open || !before.open || before.title === title || !d || d.contains(document.activeElement)) return;
    document.getElementById(titleId)?.focus();
  }, [open, title, titleId]);
  const color = tone === 'success' ? 'text-emerald-700' : tone === 'error' ? 'text-red-700' : 'text-ink';
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current && closeOnOutsideTap) onClose();
      }}
      onKeyDown={trapTab}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl bg-white p-0 shadow-xl backdrop:bg-black/50"
    >
      {open && (
        <div className="p-5">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} tabIndex={-1} className={`heading-card ${color}`}>
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              // 44 px square, as every other tap target: a 36 px × on a phone is missed for the backdrop.
              className="-m-3 flex size-11 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-slate-100"
            >
              <X className="size-5" aria-hidden />
            </button>
          </div>
          {children && <div className="mt-3 text-sm text-slate-700">{children}</div>}
          {footer && <div className="mt-5 flex flex-wrap justify-end gap-2">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}

/** Asks before something that cannot be undone. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  body?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  return (
    <Modal
      open={props.open}
      title={props.title}
      onClose={props.onCancel}
      footer={
        <>
          <button
            type="button"
            className="min-h-11 rounded-md px-4 text-sm font-semibold text-slate-700 hover:bg-slate-100"
            onClick={props.onCancel}
          >
            Cancel
          </button>
          {/* Busy while its send is on its way: disabled, with a spinner and aria-busy for screen readers. */}
          <Button variant="danger" onClick={props.onConfirm} loading={props.busy}>
            {props.confirmLabel}
          </Button>
        </>
      }
    >
      {props.body}
    </Modal>
  );
}
