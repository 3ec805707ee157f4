import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ConfirmDialog } from './modal';

describe('ConfirmDialog', () => {
  it('says its confirm button is busy while the action is on its way', () => {
    const onConfirm = vi.fn();
    const { rerender } = render(
      <ConfirmDialog
        open
        title="Clear your cart?"
        confirmLabel="Clear Cart"
        onConfirm={onConfirm}
        onCancel={vi.fn()}
      />,
    );
    const confirm = screen.getByRole('button', { name: 'Clear Cart' });
    expect(confirm).toBeEnabled();
    expect(confirm).not.toHaveAttribute('aria-busy');

    rerender(
      <ConfirmDialog
        open
        title="Clear your cart?"
        confirmLabel="Clear Cart"
        busy
        onConfirm={onConfirm}
        onCancel={vi.fn()}
      />,
    );
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAttribute('aria-busy', 'true');
  });

  it('gives its Close button a 44 px tap target, like every other button', () => {
    render(
      <ConfirmDialog open title="Delete your review?" confirmLabel="Delete" onConfirm={vi.fn()} onCancel={vi.fn()} />,
    );
    expect(screen.getByRole('button', { name: 'Close' })).toHaveClass('size-11');
  });
});
