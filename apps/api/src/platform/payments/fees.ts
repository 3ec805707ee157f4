import type { ProviderTransaction } from './types.js';

/**
 * Flutterwave's Nigerian fees as the sandbox and the test stand-in charge them (docs/decisions/1700-one-ledger.md):
 * local collections (card, bank transfer, USSD, mobile money) 1.4 % capped at ₦2,000; transfers to a
 * Nigerian bank account the NIP bands ₦10 / ₦25 / ₦50 plus 7.5 % VAT. All figures in kobo.
 */
const COLLECTION_FEE_PERCENT = 1.4;
const COLLECTION_FEE_CAP_KOBO = 200_000;
/** Up to ₦5,000: ₦10.75; up to ₦50,000: ₦26.88; above: ₦53.75. */
const TRANSFER_FEE_BANDS_KOBO: readonly { upTo: number; fee: number }[] = [
  { upTo: 500_000, fee: 1_075 },
  { upTo: 5_000_000, fee: 2_688 },
  { upTo: Number.POSITIVE_INFINITY, fee: 5_375 },
];

/** The `app_fee` of a successful local payment of `amount` kobo. */
export const collectionFee = (amount: number) =>
  Math.min(COLLECTION_FEE_CAP_KOBO, Math.round((amount * COLLECTION_FEE_PERCENT) / 100));

/** The `fee` of a transfer of `amount` kobo to a Nigerian bank account. */
export const transferFee = (amount: number) => TRANSFER_FEE_BANDS_KOBO.find((b) => amount <= b.upTo)!.fee;

/**
 * The fee the merchant bore on a payment, kobo: what it leaves short of its amount (decision 2348). When
 * the customer bears the fee (`charged_amount` = amount + `app_fee`, `amount_settled` = amount) it is 0.
 * Settled is `amount_settled` when the answer says, else `charged_amount` less `app_fee`, else the amount
 * less `app_fee`; with none of them, 0. Never negative, never more than the amount.
 */
export function merchantFee(tx: Pick<ProviderTransaction, 'amount' | 'chargedAmount' | 'fee' | 'settledAmount'>) {
  const settled = tx.settledAmount ?? (tx.fee === undefined ? tx.amount : (tx.chargedAmount ?? tx.amount) - tx.fee);
  return Math.min(tx.amount, Math.max(0, tx.amount - settled));
}
