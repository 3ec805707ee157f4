import { messages } from '@legalmarket/contracts/messages';
import type { FlutterwavePayment } from './payment-messages';

/** The part of Flutterwave's inline v3.js we use. */
interface FlutterwaveConfig {
  public_key: string;
  tx_ref: string;
  amount: number;
  currency: string;
  payment_options: string;
  subaccounts?: Array<{ id: string }>;
  /** A monthly plan's payment plan id: the charge then recurs (decision 1900). */
  payment_plan?: string;
  customer: { email: string; phone_number: string; name: string };
  customizations: { title: string; description?: string; logo?: string };
  callback: (payment: FlutterwavePayment) => void;
  onclose: (incomplete?: boolean) => void;
}
export type FlutterwaveCheckout = (config: FlutterwaveConfig) => { close: () => void } | void;

declare global {
  interface Window {
    FlutterwaveCheckout?: FlutterwaveCheckout;
  }
}

let loading: Promise<FlutterwaveCheckout> | null = null;

/**
 * Loads Flutterwave's inline checkout script once (our own loader, no wrapper library: the React
 * wrapper reports the public key to a tracking address and fires its callback for failed payments).
 * Rejects with `Unable to load flutterwave payment modal` when the script cannot load.
 */
export function loadFlutterwave(src: string, timeoutMs = 20_000): Promise<FlutterwaveCheckout> {
  if (window.FlutterwaveCheckout) return Promise.resolve(window.FlutterwaveCheckout);
  if (loading) return loading;
  loading = new Promise<FlutterwaveCheckout>((resolve, reject) => {
    const fail = () => {
      script.remove();
      loading = null;
      reject(new Error(messages.flutterwaveUnavailable));
    };
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    const timer = window.setTimeout(fail, timeoutMs);
    script.onload = () => {
      window.clearTimeout(timer);
      if (window.FlutterwaveCheckout) resolve(window.FlutterwaveCheckout);
      else fail();
    };
    script.onerror = () => {
      window.clearTimeout(timer);
      fail();
    };
    document.head.appendChild(script);
  });
  return loading;
}
