import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { PAYMENT_OPTIONS } from '@legalmarket/contracts/commerce';
import { SandboxCheckoutDialog } from './sandbox-checkout-dialog';

const LONG_EMAIL = 'procurement.and.legal.affairs@oluwaseunfunmilayo-agricultural-commodities.com.ng';

describe('the sandbox payment window at 360 px', () => {
  it("shows the customer's long e-mail whole, wrapping instead of cut with an ellipsis", () => {
    render(
      <SandboxCheckoutDialog
        data={{
          reference: 'LM-1',
          amount: 15_000,
          currency: 'NGN',
          title: 'Tenancy agreement',
          paymentOptions: PAYMENT_OPTIONS,
          customer: { email: LONG_EMAIL, phone: '08030000000', name: 'Ada' },
          provider: { name: 'sandbox', testMode: true },
        }}
        onDone={() => {}}
      />,
    );
    const email = screen.getByText(LONG_EMAIL);
    // jsdom lays nothing out: a `truncate` box cuts the text at 360 px, a `wrap-anywhere` one wraps it.
    expect(email.closest('.truncate')).toBeNull();
    expect(email.closest('.wrap-anywhere')).not.toBeNull();
  });
});
