import { describe, expect, it } from 'vitest';
import { addMonths, dayIn, dayOfTimestamp, expiresOn, inactiveAfter, isCalendarDay, isTimeZone, parsePolicy } from './policy.ts';

describe('expiry policy', () => {
  it('rolling: N months later, clamped to the month end, leap years included', () => {
    const rolling = (months: number) => ({ type: 'rolling', months }) as const;
    expect(expiresOn(rolling(1), '2027-01-31')).toBe('2027-02-28');
    expect(expiresOn(rolling(1), '2028-01-31')).toBe('2028-02-29');
    expect(expiresOn(rolling(12), '2028-02-29')).toBe('2029-02-28');
    expect(expiresOn(rolling(48), '2028-02-29')).toBe('2032-02-29');
    expect(expiresOn(rolling(3), '2026-11-30')).toBe('2027-02-28');
    expect(expiresOn(rolling(6), '2026-08-31')).toBe('2027-02-28');
    expect(expiresOn(rolling(12), '2026-03-15')).toBe('2027-03-15');
    expect(expiresOn(rolling(120), '2026-12-31')).toBe('2036-12-31');
  });

  it('calendar: the end of the Nth month, quarter or year after the one it was earned in', () => {
    expect(expiresOn({ type: 'calendar', period: 'month', count: 0 }, '2026-02-10')).toBe('2026-02-28');
    expect(expiresOn({ type: 'calendar', period: 'month', count: 1 }, '2027-01-31')).toBe('2027-02-28');
    expect(expiresOn({ type: 'calendar', period: 'month', count: 1 }, '2028-01-01')).toBe('2028-02-29');
    expect(expiresOn({ type: 'calendar', period: 'month', count: 2 }, '2026-11-15')).toBe('2027-01-31');
    expect(expiresOn({ type: 'calendar', period: 'quarter', count: 0 }, '2026-01-01')).toBe('2026-03-31');
    expect(expiresOn({ type: 'calendar', period: 'quarter', count: 0 }, '2026-03-31')).toBe('2026-03-31');
    expect(expiresOn({ type: 'calendar', period: 'quarter', count: 1 }, '2026-05-20')).toBe('2026-09-30');
    expect(expiresOn({ type: 'calendar', period: 'quarter', count: 1 }, '2026-11-02')).toBe('2027-03-31');
    expect(expiresOn({ type: 'calendar', period: 'quarter', count: 4 }, '2026-07-01')).toBe('2027-09-30');
    expect(expiresOn({ type: 'calendar', period: 'year', count: 0 }, '2026-07-01')).toBe('2026-12-31');
    expect(expiresOn({ type: 'calendar', period: 'year', count: 2 }, '2026-01-01')).toBe('2028-12-31');
  });

  it('none and inactivity give a lot no date of its own; inactivity counts from the last activity', () => {
    expect(expiresOn({ type: 'none' }, '2026-01-01')).toBeNull();
    expect(expiresOn({ type: 'inactivity', months: 6 }, '2026-01-01')).toBeNull();
    expect(inactiveAfter({ type: 'inactivity', months: 6 }, '2026-08-31')).toBe('2027-02-28');
  });

  it('parses a stored policy, and reads anything unreadable as none', () => {
    expect(parsePolicy('{"type":"rolling","months":12}')).toEqual({ type: 'rolling', months: 12 });
    expect(parsePolicy('{"type":"rolling","months":0}')).toEqual({ type: 'none' });
    expect(parsePolicy('not json')).toEqual({ type: 'none' });
  });

  it('knows calendar days and adds months across years', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2027-02-29')).toBe(false);
    expect(isCalendarDay('2027-13-01')).toBe(false);
    expect(isCalendarDay('27-01-01')).toBe(false);
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-12-15', 25)).toBe('2029-01-15');
  });

  it("tells the day in a client's time zone", () => {
    const instant = new Date('2026-12-31T23:30:00Z');
    expect(dayIn(instant, 'UTC')).toBe('2026-12-31');
    expect(dayIn(instant, 'Europe/Paris')).toBe('2027-01-01');
    expect(dayIn(instant, 'America/New_York')).toBe('2026-12-31');
    expect(dayIn(new Date('2027-01-01T03:00:00Z'), 'America/Los_Angeles')).toBe('2026-12-31');
    expect(dayIn(new Date('2026-06-30T14:30:00Z'), 'Pacific/Kiritimati')).toBe('2026-07-01');
    expect(dayOfTimestamp('2026-03-01T23:30:00.000Z', 'Asia/Tokyo')).toBe('2026-03-02');
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(dayIn(instant, 'Mars/Olympus')).toBe('2026-12-31');
  });
});
