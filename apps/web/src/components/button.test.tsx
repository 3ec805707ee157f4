import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from './button';

describe('Button', () => {
  it('keeps focus when it turns busy as its send starts, and ignores presses meanwhile', async () => {
    const sent = vi.fn();
    function Send() {
      const [busy, setBusy] = useState(false);
      return (
        <Button
          loading={busy}
          onClick={() => {
            sent();
            setBusy(true);
          }}
        >
          Send
        </Button>
      );
    }
    render(<Send />);
    const send = screen.getByRole('button', { name: 'Send' });
    send.focus();
    await userEvent.keyboard('{Enter}');
    expect(send).toHaveAttribute('aria-busy', 'true');
    expect(send).toHaveAttribute('aria-disabled', 'true');
    // Natively disabled, a browser drops focus to the page: a screen reader loses its place.
    expect(send).not.toHaveAttribute('disabled');
    expect(send).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await userEvent.click(send);
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('a disabled submit button does not submit its form, by press or by Enter in a field', async () => {
    const submitted = vi.fn((e: React.FormEvent) => e.preventDefault());
    render(
      <form onSubmit={submitted}>
        <label>
          Code <input />
        </label>
        <Button type="submit" disabled>
          Enter
        </Button>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Enter' }));
    await userEvent.type(screen.getByLabelText('Code'), '123{Enter}');
    expect(submitted).not.toHaveBeenCalled();
  });
});
