import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { PAYMENT_OPTIONS } from '@legalmarket/contracts/commerce';
import { PLAN_PAYMENT_OPTIONS } from '@legalmarket/contracts/plans';
import { SandboxCheckoutDialog } from './sandbox-checkout-dialog';

const opened = (paymentOptions: string) => ({
  reference: 'PLAN-1',
  amount: 80_000,
  currency: 'NGN' as const,
  title: 'Silver plan (monthly)',
  paymentOptions,
  customer: { email: 'co@example.ng', phone: '08030000000', name: 'Ada' },
  provider: { name: 'sandbox' as const, testMode: true },
});

const tabs = () =>
  within(screen.getByRole('tablist', { name: 'Payment method' }))
    .getAllByRole('tab')
    .map((t) => t.textContent);

describe('the sandbox payment window', () => {
  it("offers only a card for a monthly plan, as Flutterwave's window does for payment plans", () => {
    render(<SandboxCheckoutDialog data={opened(PLAN_PAYMENT_OPTIONS)} onDone={() => {}} />);
    expect(tabs()).toEqual(['Card']);
    expect(screen.getByLabelText('Card number')).toBeInTheDocument();
  });

  it("offers a cart's checkout every method, whatever the spacing of the list", () => {
    const { unmount } = render(<SandboxCheckoutDialog data={opened(PAYMENT_OPTIONS)} onDone={() => {}} />);
    expect(tabs()).toEqual(['Card', 'Mobile Money', 'USSD', 'Bank Transfer']);
    unmount();
    render(<SandboxCheckoutDialog data={opened('ussd, banktransfer')} onDone={() => {}} />);
    expect(tabs()).toEqual(['USSD', 'Bank Transfer']);
  });
});
