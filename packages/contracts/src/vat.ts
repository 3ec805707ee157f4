/** Nigeria's VAT, in percent. Prices include it: the cart's "Tax (incl)" and the receipt show the same figure. */
export const VAT_RATE_PERCENT = 7.5;

/**
 * The VAT inside a VAT-inclusive amount, both in kobo: amount × 7.5 / 107.5, to the nearest kobo (a half
 * kobo rounds up). Integer arithmetic, so the cart and the receipt can never disagree by a rounding.
 * Here, free of zod, for the web's /cart; money.ts re-exports it.
 */
export const vatIncludedKobo = (kobo: number) => Math.floor((kobo * 150 + 1075) / 2150);
