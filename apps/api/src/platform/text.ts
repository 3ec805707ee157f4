/** A trimmed text, or null when nothing but blanks was sent (optional form fields saved as NULL). */
export const blankToNull = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);
