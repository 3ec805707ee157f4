import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ContactPage, stubPublicConfig } from '@/test/contact-page';
import { CONTACT_UNAVAILABLE } from './contact-popup';

// The dialog's code is fetched on the first opening: the first fetch fails here, as on a phone gone offline.
const loads = vi.hoisted(() => ({ tries: 0 }));
vi.mock('./contact-dialog', async (importOriginal) => {
  if (++loads.tries === 1) throw new Error('Failed to fetch dynamically imported module');
  return importOriginal();
});

describe('the Contact pop-up when its code cannot be fetched', () => {
  it('keeps the page, says so, and opens on the next press', async () => {
    stubPublicConfig();
    render(<ContactPage />);

    await userEvent.click(screen.getByRole('button', { name: 'Contact' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CONTACT_UNAVAILABLE);
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Contact' }));
    expect(await screen.findByRole('dialog', { name: 'Contact us' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
