import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog, Modal } from './modal';

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

describe('Modal', () => {
  it('moves focus to the new title when a step replaces the one whose button held focus', async () => {
    function TwoSteps() {
      const [step, setStep] = useState<'view' | 'confirm'>('view');
      return (
        <Modal open title={step === 'view' ? 'Ada Obi' : 'Verify Ada Obi?'} onClose={vi.fn()}>
          {step === 'view' ? (
            <button type="button" onClick={() => setStep('confirm')}>
              Verify Lawyer
            </button>
          ) : (
            <p>Ada Obi will be told by e-mail.</p>
          )}
        </Modal>
      );
    }
    render(<TwoSteps />);
    await userEvent.click(screen.getByRole('button', { name: 'Verify Lawyer' }));
    expect(screen.getByRole('heading', { name: 'Verify Ada Obi?' })).toHaveFocus();
  });

  it('keeps Shift+Tab and Tab inside the dialog from the title a step change focused', async () => {
    function TwoSteps() {
      const [step, setStep] = useState<'view' | 'confirm'>('view');
      return (
        <>
          <button type="button">Behind the dialog</button>
          <Modal
            open
            title={step === 'view' ? 'Ada Obi' : 'Verify Ada Obi?'}
            onClose={vi.fn()}
            footer={step === 'confirm' && <button type="button">Verify</button>}
          >
            {step === 'view' ? (
              <button type="button" onClick={() => setStep('confirm')}>
                Verify Lawyer
              </button>
            ) : (
              <p>Ada Obi will be told by e-mail.</p>
            )}
          </Modal>
        </>
      );
    }
    // jsdom lays nothing out, so no element has an offsetParent: every one is taken as shown.
    const shown = vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.parentElement;
    });
    onTestFinished(() => shown.mockRestore());
    render(<TwoSteps />);
    await userEvent.click(screen.getByRole('button', { name: 'Verify Lawyer' }));
    const title = screen.getByRole('heading', { name: 'Verify Ada Obi?' });
    expect(title).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Verify' })).toHaveFocus();
    title.focus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
  });
});
