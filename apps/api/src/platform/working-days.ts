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

/** The last moment (23:59:59.999 Lagos) of the working day before the Lagos day of `t`. */
function endOfPreviousWorkingDay(t: number, holidays: ReadonlySet<string>): number {
  let end = Date.parse(`${lagosDay(t)}T00:00:00.000Z`) - LAGOS_OFFSET_MS - 1;
  while (!isWorkingDay(end, holidays)) end -= DAY_MS;
  return end;
}

/**
 * The moment `days` working days after (or, negative, before) `from`, at the same time of day. A
 * start on a weekend or holiday counts from the next (or previous) working day. Forwards, such a start
 * counts from the end of the working day before it (decision 2335): counted from its own time of day,
 * a delivery at 00:30 on a Saturday in Lagos was auto-accepted at 00:30 on Friday, after four working
 * days and half an hour, a day before one made an hour earlier (Friday 23:30, accepted Friday 23:30).
 */
export function addWorkingDays(from: Date, days: number, holidays: ReadonlySet<string>): Date {
  const step = days < 0 ? -DAY_MS : DAY_MS;
  let t = from.getTime();
  if (days > 0 && !isWorkingDay(t, holidays)) t = endOfPreviousWorkingDay(t, holidays);
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
