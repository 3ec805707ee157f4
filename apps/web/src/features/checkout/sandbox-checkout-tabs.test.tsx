import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PAYMENT_OPTIONS } from '@legalmarket/contracts/commerce';
import { SandboxCheckoutDialog } from './sandbox-checkout-dialog';

const data = {
  reference: 'LM-1',
  amount: 15_000,
  currency: 'NGN' as const,
  title: 'Tenancy agreement',
  paymentOptions: PAYMENT_OPTIONS,
  customer: { email: 'co@example.ng', phone: '08030000000', name: 'Ada' },
  provider: { name: 'sandbox' as const, testMode: true },
};

describe('the sandbox payment window: method tabs (WAI-ARIA tabs pattern)', () => {
  it('ties each method to its panel and moves between methods with the arrow keys, Home and End', async () => {
    render(<SandboxCheckoutDialog data={data} onDone={() => {}} />);
    const list = screen.getByRole('tablist', { name: 'Payment method' });
    const tab = (name: string) => within(list).getByRole('tab', { name });
    const panel = () => screen.getByRole('tabpanel');
    expect(panel()).toHaveAccessibleName('Card');
    expect(tab('Card')).toHaveAttribute('aria-controls', panel().id);
    expect(within(panel()).getByLabelText('Card number')).toBeInTheDocument();
    expect(
      within(list)
        .getAllByRole('tab')
        .map((t) => t.tabIndex),
    ).toEqual([0, -1, -1, -1]);

    tab('Card').focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(tab('Mobile Money')).toHaveFocus();
    expect(panel()).toHaveAccessibleName('Mobile Money');
    expect(within(panel()).getByLabelText('Mobile money number')).toBeInTheDocument();
    // From sm up the list stands in a column: Down and Up move too.
    await userEvent.keyboard('{ArrowDown}');
    expect(tab('USSD')).toHaveFocus();
    expect(tab('USSD')).toHaveAttribute('aria-controls', panel().id);
    await userEvent.keyboard('{End}');
    expect(tab('Bank Transfer')).toHaveFocus();
    expect(tab('Bank Transfer')).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Home}');
    expect(tab('Card')).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(tab('Bank Transfer')).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(tab('USSD')).toHaveFocus();
    expect(
      within(list)
        .getAllByRole('tab')
        .map((t) => t.tabIndex),
    ).toEqual([-1, -1, 0, -1]);
  });
});
