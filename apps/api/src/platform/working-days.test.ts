import { describe, expect, it } from 'vitest';
import { addWorkingDays, dueDate, isWorkingDay } from './working-days.js';

const at = (iso: string) => new Date(iso);
const none = new Set<string>();

describe('Nigerian working days', () => {
  it('skips weekends in Lagos time, not UTC', () => {
    // Friday 23:30 UTC is already Saturday 00:30 in Lagos.
    expect(isWorkingDay(at('2026-12-04T23:30:00Z').getTime(), none)).toBe(false);
    expect(isWorkingDay(at('2026-12-04T22:30:00Z').getTime(), none)).toBe(true);
    // Friday 10:00 + 1 working day = Monday 10:00.
    expect(addWorkingDays(at('2026-12-04T09:00:00Z'), 1, none).toISOString()).toBe('2026-12-07T09:00:00.000Z');
    expect(addWorkingDays(at('2026-12-07T09:00:00Z'), -1, none).toISOString()).toBe('2026-12-04T09:00:00.000Z');
  });

  it('skips the public holidays it is given', () => {
    const christmas = new Set(['2026-12-25', '2026-12-28']);
    // Thursday 24 December + 1 = Tuesday 29 (Friday 25 and Monday 28 are holidays here).
    expect(addWorkingDays(at('2026-12-24T09:00:00Z'), 1, christmas).toISOString()).toBe('2026-12-29T09:00:00.000Z');
  });

  it('puts a due date at the end of the tenth working day, Lagos time', () => {
    // Paid Monday 7 December 2026: ten working days later is Monday 21 December, 23:59:59 in Lagos.
    expect(dueDate(at('2026-12-07T09:00:00Z'), 10, none).toISOString()).toBe('2026-12-21T22:59:59.000Z');
    // A payment on Saturday counts from Monday.
    expect(dueDate(at('2026-12-05T12:00:00Z'), 1, none).toISOString()).toBe('2026-12-07T22:59:59.000Z');
  });
});

describe('working days counted from a weekend or a holiday (decision 2335)', () => {
  it('never gives a later start an earlier end: Saturday 00:30 in Lagos counts five full working days', () => {
    // Friday 4 December 23:30 in Lagos, and an hour later, Saturday 00:30 in Lagos.
    const friday = addWorkingDays(at('2026-12-04T22:30:00Z'), 5, none);
    const saturday = addWorkingDays(at('2026-12-04T23:30:00Z'), 5, none);
    expect(friday.toISOString()).toBe('2026-12-11T22:30:00.000Z');
    // Monday to Friday, whole: the end of Friday 11 December in Lagos, not 00:30 that Friday.
    expect(saturday.toISOString()).toBe('2026-12-11T22:59:59.999Z');
    expect(saturday.getTime()).toBeGreaterThanOrEqual(friday.getTime());
  });

  it('counts a start on a public holiday from the end of the working day before it', () => {
    // Wednesday 30 December 10:00 is a holiday here: three working days are Thursday, Friday, Monday, whole.
    const holiday = new Set(['2026-12-30']);
    expect(addWorkingDays(at('2026-12-30T09:00:00Z'), 3, holiday).toISOString()).toBe('2027-01-04T22:59:59.999Z');
    // Due dates keep their day: paid on the holiday, one working day is Thursday's end.
    expect(dueDate(at('2026-12-30T09:00:00Z'), 1, holiday).toISOString()).toBe('2026-12-31T22:59:59.000Z');
  });
});
