// Its own module so that use-payment.tsx (which lazy-loads the sandbox dialog) and the dialog both
// import it without importing each other.
export interface PaymentResult {
  /** What the dialog says; the server still verifies before anything is fulfilled. */
  status: 'successful' | 'failed' | 'cancelled';
  transactionId?: string;
  /** Why the provider declined, in its words (Flutterwave's `processor_response`), when it failed. */
  reason?: string;
}
