import { useState } from 'react';
import { vi } from 'vitest';
import { ContactPopup } from '@/components/contact-popup';
import { jsonFetch } from './render';

/** A page whose Contact button opens the pop-up, as the navbar, the footer and the public pages do. */
export function ContactPage() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <p>the page</p>
      <button type="button" onClick={() => setOpen(true)}>
        Contact
      </button>
      <ContactPopup open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** Answers the support contacts the pop-up shows. */
export function stubPublicConfig() {
  const api = jsonFetch({
    'GET /api/public-config': () => ({
      body: {
        supportPhone: '2348012345678',
        supportEmail: 'help@legalmarket.ng',
        paymentProvider: 'sandbox',
        socialLinks: [],
      },
    }),
  });
  vi.stubGlobal('fetch', api.fn);
  return api;
}
