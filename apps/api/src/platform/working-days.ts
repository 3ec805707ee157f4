/**
 * Nigerian working days: Monday to Friday in Lagos time (UTC+1 all year, no daylight saving), minus the
 * public holidays of the `holidays` table (days as YYYY-MM-DD).
 */
const LAGOS_OFFSET_MS = 3600_000;
const DAY_MS = 86_400_000;

const lagosDay = (t: number) => new Date(t + LAGOS_OFFSET_MS).toISOString().slice(0, 10);

export function isWorkingDay(t: number, holidays: ReadonlySet<string>): boolean {
  const weekday = new Date(t + LAGOS_OFFSET_MS).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(lagosDay(t));
}

/**
 * The moment `days` working days after (or, negative, before) `from`, at the same time of day. A
 * start on a weekend or holiday counts from the next (or previous) working day.
 */
export function addWorkingDays(from: Date, days: number, holidays: ReadonlySet<string>): Date {
  const step = days < 0 ? -DAY_MS : DAY_MS;
  let t = from.getTime();
  let left = Math.abs(days);
  while (left > 0) {
    t += step;
    if (isWorkingDay(t, holidays)) left--;
  }
  return new Date(t);
}

/** The end (23:59:59 Lagos) of the day `days` working days after `from`: a due date. */
export function dueDate(from: Date, days: number, holidays: ReadonlySet<string>): Date {
  const day = lagosDay(addWorkingDays(from, days, holidays).getTime());
  return new Date(Date.parse(`${day}T23:59:59.000Z`) - LAGOS_OFFSET_MS);
}
