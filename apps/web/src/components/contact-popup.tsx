import { useEffect, useRef, useState } from 'react';
import { loadOnce } from '@/lib/load-once';

type Dialog = typeof import('./contact-dialog').default;
/** One download of the dialog's code; a failed one is forgotten, so the next opening tries again. */
const load = loadOnce<Dialog>(() => import('./contact-dialog').then((m) => m.default));

/** Loads the Contact pop-up's code ahead of its first opening (src/main.tsx, once the page is idle). */
export const preloadContactPopup = () => void load().catch(() => undefined);

export const CONTACT_UNAVAILABLE = 'Contact could not open. Check your connection and try again.';

/**
 * Contact pop-up: Send an Email or Speak to an Agent. Every page has its Contact buttons, few visitors
 * press one: the dialog's code (components/contact-dialog, with the modal) loads when it first opens, not
 * with the first page. Once open it stays mounted, so closing it gives focus back as before. It sits
 * outside the pages' error boundary, so a download that fails (a phone gone offline) must not throw: it
 * says so, closes, and the next press tries again.
 */
export function ContactPopup({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [ContactDialog, setDialog] = useState<Dialog | null>(null);
  const [failed, setFailed] = useState(false);
  // The pages pass a new onClose each render; the download must not restart with it.
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!open || ContactDialog) return;
    let live = true;
    setFailed(false);
    load().then(
      (loaded) => live && setDialog(() => loaded),
      () => {
        if (!live) return;
        setFailed(true);
        close.current();
      },
    );
    return () => {
      live = false;
    };
  }, [open, ContactDialog]);

  if (ContactDialog) return <ContactDialog open={open} onClose={onClose} />;
  if (!failed) return null;
  return (
    <p
      role="alert"
      className="fixed inset-x-4 bottom-4 z-50 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-center text-red-800 shadow-lg"
    >
      {CONTACT_UNAVAILABLE}
    </p>
  );
}
