/**
 * One interface for every payment provider. The server, never the browser, decides that an order is
 * paid: it asks the provider for the transaction and compares status, currency, amount and reference.
 */
export interface ProviderTransaction {
  /** The provider's transaction id. */
  id: string;
  txRef: string;
  /** Lower-case provider status: `successful`, `failed`, `pending`, ... */
  status: string;
  /** Amount in kobo. */
  amount: number;
  currency: string;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'flutterwave';
  /** What the browser needs to open the provider's dialog (never a secret). */
  publicSettings(): { publicKey?: string; subaccountId?: string; scriptUrl?: string; testMode: boolean };
  /** The transaction with this provider id, or null when the provider does not know it. */
  verifyById(id: string): Promise<ProviderTransaction | null>;
  /** The most relevant transaction for this reference (a successful one when there is one), or null. */
  verifyByReference(txRef: string): Promise<ProviderTransaction | null>;
  /** True only when the webhook request carries the provider's signature. */
  authenticWebhook(req: WebhookRequest): boolean;
}

/** The provider could not be reached or answered something unexpected; try again later. */
export class ProviderUnavailable extends Error {}
