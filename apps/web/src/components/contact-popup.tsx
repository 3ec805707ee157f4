import { lazy, Suspense, useState } from 'react';

const load = () => import('./contact-dialog');
const ContactDialog = lazy(load);

/** Loads the Contact pop-up's code ahead of its first opening (src/main.tsx, once the page is idle). */
export const preloadContactPopup = () => void load().catch(() => undefined);

/**
 * Contact pop-up: Send an Email or Speak to an Agent. Every page has its Contact buttons, few visitors
 * press one: the dialog's code (components/contact-dialog, with the modal) loads when it first opens, not
 * with the first page. Once open it stays mounted, so closing it gives focus back as before.
 */
export function ContactPopup({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ContactDialog open={open} onClose={onClose} />
    </Suspense>
  );
}
