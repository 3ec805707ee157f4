import { lazy, Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import type { CheckoutData } from '@legalmarket/contracts/commerce';
import { loadFlutterwave } from './flutterwave-loader';
import { flutterwavePaymentResult } from './payment-messages';
import type { PaymentResult } from './payment-result';

// Loaded when a payment starts: the dialog brings zod (the card rules), which the cart page would
// otherwise load before it can show the cart.
const loadSandboxDialog = () => import('./sandbox-checkout-dialog');
const SandboxCheckoutDialog = lazy(() => loadSandboxDialog().then((m) => ({ default: m.SandboxCheckoutDialog })));

/**
 * Opens the payment dialog of the configured provider and resolves once the customer is done:
 * Flutterwave's inline checkout, or our offline sandbox dialog. Render `dialog` somewhere on the page.
 */
/** What the dialog is opened with: a cart's checkout, or a monthly plan's first payment on its payment plan. */
export type PaymentData = Omit<CheckoutData, 'orderId'> & { paymentPlan?: string };

export function usePayment(): { pay: (data: PaymentData) => Promise<PaymentResult>; dialog: ReactNode } {
  const [sandbox, setSandbox] = useState<PaymentData | null>(null);
  const resolver = useRef<((r: PaymentResult) => void) | null>(null);

  const finish = useCallback((r: PaymentResult) => {
    resolver.current?.(r);
    resolver.current = null;
    setSandbox(null);
  }, []);

  const pay = useCallback(async (data: PaymentData): Promise<PaymentResult> => {
    if (data.provider.name === 'sandbox') {
      await loadSandboxDialog();
      return new Promise<PaymentResult>((resolve) => {
        resolver.current = resolve;
        setSandbox(data);
      });
    }
    const checkout = await loadFlutterwave(data.provider.scriptUrl ?? 'https://checkout.flutterwave.com/v3.js');
    return new Promise<PaymentResult>((resolve) => {
      let settled = false;
      const done = (r: PaymentResult) => {
        if (settled) return;
        settled = true;
        resolve(r);
      };
      const modal = checkout({
        public_key: data.provider.publicKey ?? '',
        tx_ref: data.reference,
        amount: data.amount,
        currency: data.currency,
        payment_options: data.paymentOptions,
        ...(data.provider.subaccountId ? { subaccounts: [{ id: data.provider.subaccountId }] } : {}),
        ...(data.paymentPlan ? { payment_plan: data.paymentPlan } : {}),
        customer: { email: data.customer.email, phone_number: data.customer.phone, name: data.customer.name },
        customizations: { title: data.title, description: `Payment for ${data.title}` },
        callback: (payment) => {
          // A decline carries Flutterwave's reason; a cancel is a closed window, as in the sandbox dialog.
          done(flutterwavePaymentResult(payment));
          if (modal && typeof modal.close === 'function') modal.close();
        },
        onclose: () => done({ status: 'cancelled' }),
      });
    });
  }, []);

  const dialog = sandbox ? (
    <Suspense fallback={null}>
      <SandboxCheckoutDialog data={sandbox} onDone={finish} />
    </Suspense>
  ) : null;
  return { pay, dialog };
}
