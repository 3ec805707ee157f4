// In a file of their own, so the pages that show prices take them without the dates and labels below.
export { formatNaira, formatNairaExact } from './naira.js';

/** Cuts a text to `words` words followed by "..." when longer. */
export function previewWords(text: string | null | undefined, words = 17): string {
  const parts = (text ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length <= words) return parts.join(' ');
  return `${parts.slice(0, words).join(' ')}...`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/**
 * "21st November 2026", the day in Lagos (UTC+1 all year, no summer time), whatever the browser's
 * zone: a payout asked at 00:30 Lagos on 1 December is asked on the 1st, not on 30th November (UTC).
 * A bare day ("2026-11-21", UTC midnight) stays that day.
 */
export function formatOrdinalDate(value: string | Date): string {
  const d = new Date((typeof value === 'string' ? new Date(value) : value).getTime() + 3600_000);
  return `${ordinal(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Average-rating label bands of the company spec, section 3. */
export function ratingLabel(avg: number): string {
  if (avg < 2) return 'Terrible';
  if (avg < 3) return 'Poor';
  if (avg < 4) return 'Average';
  if (avg < 4.5) return 'Very Good';
  return 'Excellent';
}

/**
 * The admin rating scale's word for one review's stars (spec: Excellent, Very good, Average, Poor,
 * Terrible), read in the stars' direction so it agrees with the average bands above: 5 is Excellent,
 * 1 Terrible (docs/decisions/0900-spec-gaps-found-by-an-audit.md).
 */
const STAR_LABELS = { 1: 'Terrible', 2: 'Poor', 3: 'Average', 4: 'Very good', 5: 'Excellent' } as const;
export function starLabel(stars: number): string {
  const n = Math.max(1, Math.min(5, Math.round(stars))) as keyof typeof STAR_LABELS;
  return STAR_LABELS[n];
}

/** Naira <-> kobo; money is stored as integer kobo. */
export const toKobo = (naira: number) => Math.round(naira * 100);
export const toNaira = (kobo: number) => kobo / 100;
