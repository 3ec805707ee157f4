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
 * How far below amount − `app_fee` a plausible `amount_settled` may be, kobo: ₦100 covers the ₦50 stamp
 * duty (EMTL) and the VAT on the fee that the settlement takes on top of `app_fee` (decision 2348).
 */
const SETTLED_TOLERANCE_KOBO = 10_000;

type FeeFigures = Pick<ProviderTransaction, 'amount' | 'chargedAmount' | 'fee' | 'settledAmount'>;

/**
 * The fee the merchant bore on a payment, kobo: what it leaves short of its amount (decision 2348). When
 * the customer bears the fee (`charged_amount` = amount + `app_fee`, `amount_settled` = amount) it is 0.
 * Settled is `amount_settled` when plausible (above 0, at most the amount plus what was charged on top, at
 * least the amount less `app_fee` less a tolerance), else `charged_amount` less `app_fee`, else the amount
 * less `app_fee`; with none of them, 0. Never negative and always below the amount: a fee that takes the
 * whole payment is bad data (a placeholder 0, test mode, another settlement currency), not a cost, so
 * `implausible` hears the raw figures whenever one was passed over.
 */
export function merchantFee(tx: FeeFigures, implausible?: (figures: FeeFigures & { posted: number }) => void) {
  const { amount } = tx;
  const charged = tx.chargedAmount ?? amount;
  const fee = tx.fee ?? 0;
  const candidates = [
    tx.settledAmount,
    tx.fee === undefined || tx.chargedAmount === undefined ? undefined : tx.chargedAmount - tx.fee,
    tx.fee === undefined ? undefined : amount - tx.fee,
  ].filter((s): s is number => s !== undefined);
  const plausible = (s: number) =>
    s > 0 && s <= Math.max(amount, charged) && s >= amount - fee - SETTLED_TOLERANCE_KOBO;
  const settled = candidates.find(plausible);
  const posted = settled === undefined ? 0 : Math.max(0, amount - settled);
  if (candidates.length > 0 && settled !== candidates[0]) implausible?.({ ...tx, posted });
  return posted;
}
