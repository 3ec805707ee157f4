/** ₦1,234,567 — naira with thousands separators. */
export function formatNaira(amount: number): string {
  return `₦${Math.round(amount).toLocaleString('en-NG')}`;
}

/** Naira with kobo when there are any, as two digits: ₦12,345.67, ₦5,000.50, ₦500. */
export function formatNairaExact(amount: number): string {
  return Number.isInteger(amount)
    ? formatNaira(amount)
    : `₦${amount.toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
