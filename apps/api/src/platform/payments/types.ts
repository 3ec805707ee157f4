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
  /**
   * What the customer was actually charged (Flutterwave's `charged_amount`), kobo, when the answer says:
   * the amount plus any fee passed on; a payment charged less than it is refused.
   */
  chargedAmount?: number;
  currency: string;
  /** How the customer paid, as the provider names it (Flutterwave's `payment_type`: card, ussd, bank_transfer...). */
  paymentType?: string;
  /** When the provider recorded it (ISO), where the answer says. */
  createdAt?: string;
  /**
   * The provider's fee on it (Flutterwave's `app_fee`), kobo, when the answer says: kept from what it
   * settles when the merchant bears it, added to the charge when the customer does (see `merchantFee`).
   */
  fee?: number;
  /** What reaches the merchant's balance (Flutterwave's `amount_settled`), kobo, when the answer says. */
  settledAmount?: number;
  /** The provider's payment plan the charge was made on (Flutterwave's `payment_plan`), when it was. */
  paymentPlan?: string;
  /** The saved card's token for later charges (Flutterwave's `card.token`), when the answer gives one. */
  cardToken?: string;
  /** The customer's e-mail (Flutterwave's `customer.email`), when the answer gives one. */
  customerEmail?: string;
}

/** A monthly payment plan at the provider (Flutterwave: POST /v3/payment-plans). */
export interface PaymentPlanRequest {
  name: string;
  /** Kobo a month. */
  amount: number;
  interval: 'monthly';
}

/**
 * A renewal charge on a payment plan: the saved card charged with our reference (Flutterwave:
 * POST /v3/tokenized-charges with `payment_plan`); the same reference never charges twice. Like the first
 * charge, it subscribes the card to the plan at the provider, which the plans then cancel (decision 1900).
 */
export interface PlanChargeRequest {
  planId: string;
  /** The card token from the first charge. */
  token: string | null;
  email: string;
  /** Kobo. */
  amount: number;
  reference: string;
}

/** A refund as the provider reports it (Flutterwave: POST /v3/transactions/{id}/refund, GET /v3/refunds/{id}). */
export interface ProviderRefund {
  id: string;
  /** The refunded payment's provider transaction id. */
  transactionId: string;
  /** `completed`, `failed`, or `pending` for anything still in progress. */
  status: 'completed' | 'failed' | 'pending';
  /** Kobo. */
  amount: number;
  /** When the provider recorded it (ISO), where the answer says. */
  createdAt?: string;
}

/** Days (YYYY-MM-DD, inclusive) to list a provider's records for, as Flutterwave's list endpoints take them. */
export interface ProviderPeriod {
  from: string;
  to: string;
}

/** A transfer to a bank account as the provider reports it (Flutterwave: POST /v3/transfers, GET /v3/transfers/{id}). */
export interface ProviderTransfer {
  id: string;
  /** Ours: the payout id, so a repeated send names the same transfer. */
  reference: string;
  /**
   * `successful`, `failed` (Flutterwave's FAILED, and REVERSED: paid, then sent back by the bank), or
   * `pending` for anything still in progress (NEW and PENDING).
   */
  status: 'successful' | 'failed' | 'pending';
  /** Kobo. */
  amount: number;
  /** Upper-case: what the beneficiary was sent (ours are always NGN). */
  currency: string;
  /** The provider's reason, for a failed one. */
  message: string | null;
  /** What the provider charges for it (Flutterwave's `fee`), kobo, when the answer says. */
  fee?: number;
  /** The provider's own word, lower case (Flutterwave's NEW, PENDING, SUCCESSFUL, FAILED, REVERSED). */
  providerStatus?: string;
  /** When the provider made it (ISO), where the answer says. */
  createdAt?: string;
}

interface TransferRequest {
  reference: string;
  /** Kobo. */
  amount: number;
  bankCode: string;
  accountNumber: string;
  narration: string;
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
  /** Refunds part or all of a payment to where it came from; kobo. */
  refund(transactionId: string, amount: number, comments: string): Promise<ProviderRefund>;
  /** The refund with this provider id, or null when the provider does not know it. */
  fetchRefund(id: string): Promise<ProviderRefund | null>;
  /** Every transaction recorded in the period, whatever its status (Flutterwave: GET /v3/transactions, paged). */
  listTransactions(period: ProviderPeriod): Promise<ProviderTransaction[]>;
  /** Every refund recorded in the period (Flutterwave: GET /v3/refunds, paged). */
  listRefunds(period: ProviderPeriod): Promise<ProviderRefund[]>;
  /**
   * Every transfer made in the period, whatever its status (Flutterwave: GET /v3/transfers, paged, newest
   * first; it takes no dates, so pages are read until one holds only older transfers).
   */
  listTransfers(period: ProviderPeriod): Promise<ProviderTransfer[]>;
  /** The bank's name for the account (Flutterwave: POST /v3/accounts/resolve), or null when it has no such account. */
  resolveAccount(accountNumber: string, bankCode: string): Promise<{ accountName: string } | null>;
  /** Sends money to a bank account; the same reference never pays twice (TransferRefused for a refusal). */
  transfer(req: TransferRequest): Promise<ProviderTransfer>;
  /** The transfer with this provider id, or null when the provider does not know it. */
  fetchTransfer(id: string): Promise<ProviderTransfer | null>;
  /**
   * The transfer made with this reference, or null when the provider has none (Flutterwave:
   * GET /v3/transfers?reference=), for a send whose answer was lost.
   */
  findTransfer(reference: string): Promise<ProviderTransfer | null>;
  /** Makes a monthly payment plan; answers its id. */
  createPaymentPlan(plan: PaymentPlanRequest): Promise<{ id: string }>;
  /**
   * Charges a renewal on a payment plan; a repeated reference answers the charge already made. ChargeRefused
   * when the provider refuses it and has no charge under the reference.
   */
  chargePlan(req: PlanChargeRequest): Promise<ProviderTransaction>;
  /**
   * Stops the provider's subscriptions of this customer on this plan (Flutterwave: GET /v3/subscriptions
   * ?plan=&email=, then PUT /v3/subscriptions/{id}/cancel); cancelling again changes nothing.
   */
  cancelPlanSubscription(planId: string, email: string): Promise<void>;
  /** True only when the webhook request carries the provider's signature. */
  authenticWebhook(req: WebhookRequest): boolean;
}

/** The provider could not be reached or answered something unexpected; try again later. */
export class ProviderUnavailable extends Error {}

/** The provider refused the refund itself (an unknown payment, more than is left to refund). */
export class RefundRefused extends Error {}

/** The provider refused the transfer itself (a bad account, an insufficient balance, a duplicate reference). */
export class TransferRefused extends Error {}

/**
 * The provider refused a plan charge outright and made no charge under its reference (no saved card, an
 * expired or unknown card token): the renewal is unpaid, as a declined card's is, not an outage to wait out.
 */
export class ChargeRefused extends Error {}
