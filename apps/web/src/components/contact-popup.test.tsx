import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch } from '@/test/render';
import { ContactPopup } from './contact-popup';

function Page() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Contact
      </button>
      <ContactPopup open={open} onClose={() => setOpen(false)} />
    </>
  );
}

describe('the Contact pop-up', () => {
  it('is not on the page until first opened; then it opens, closes and opens again as before', async () => {
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
    const { container } = render(<Page />);
    // Its code (the dialog and the modal) loads on the first opening, not with the page.
    expect(container.querySelector('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact us' });
    expect(await screen.findByRole('link', { name: 'Send an Email' })).toHaveAttribute(
      'href',
      'mailto:help@legalmarket.ng',
    );
    expect(screen.getByRole('link', { name: 'Speak to an Agent' }).getAttribute('href')).toMatch(
      /^https:\/\/wa\.me\/2348012345678\?text=/,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Closed, not taken away: the browser gives focus back to what opened it.
    expect(container.querySelector('dialog')).toBe(dialog);

    await userEvent.click(screen.getByRole('button', { name: 'Contact' }));
    expect(screen.getByRole('dialog', { name: 'Contact us' })).toBe(dialog);
  });
});
