import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ContactPage, stubPublicConfig } from '@/test/contact-page';

describe('the Contact pop-up', () => {
  it('is not on the page until first opened; then it opens, closes and opens again as before', async () => {
    stubPublicConfig();
    const { container } = render(<ContactPage />);
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
