import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonFetch } from '@/test/render';
import { CONTACT_UNAVAILABLE, ContactPopup } from './contact-popup';

// The dialog's code is fetched on the first opening: the first fetch fails here, as on a phone gone offline.
const loads = vi.hoisted(() => ({ tries: 0 }));
vi.mock('./contact-dialog', async (importOriginal) => {
  if (++loads.tries === 1) throw new Error('Failed to fetch dynamically imported module');
  return importOriginal();
});

function Page() {
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

describe('the Contact pop-up when its code cannot be fetched', () => {
  it('keeps the page, says so, and opens on the next press', async () => {
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
    render(<Page />);

    await userEvent.click(screen.getByRole('button', { name: 'Contact' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CONTACT_UNAVAILABLE);
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Contact' }));
    expect(await screen.findByRole('dialog', { name: 'Contact us' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
