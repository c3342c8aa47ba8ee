import { ExpiryPolicy } from '@rewards/contract';

/**
 * Points that expire (docs/decisions/057), the pure part: which day a lot expires at the end of,
 * and what day it is in a client's time zone. Days are YYYY-MM-DD strings, compared as strings.
 */

const NONE: ExpiryPolicy = { type: 'none' };

/** A client's stored policy (JSON text); a row that does not parse counts as none, so credits never fail on it. */
export function parsePolicy(json: string): ExpiryPolicy {
  try {
    const parsed = ExpiryPolicy.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : NONE;
  } catch {
    return NONE;
  }
}

function parts(day: string): [number, number, number] {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

function format(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Days in a month (1-12) of a year, leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether a string is a real calendar day (2027-02-29 is not). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = parts(value);
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** The same day N months later, clamped to the month's end: 31 Jan + 1 month = 28 or 29 Feb. */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = parts(day);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return format(year, month, Math.min(d, daysInMonth(year, month)));
}

/** The last day of the month N months after the given day's month. */
function endOfMonthAfter(day: string, months: number): string {
  const [y, m] = parts(day);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return format(year, month, daysInMonth(year, month));
}

/**
 * The day a lot earned on `earnedOn` expires at the end of, under the policy in force when it was
 * earned; null when it has no date of its own (none, or inactivity, which expires the whole balance).
 */
export function expiresOn(policy: ExpiryPolicy, earnedOn: string): string | null {
  switch (policy.type) {
    case 'none':
    case 'inactivity':
      return null;
    case 'rolling':
      return addMonths(earnedOn, policy.months);
    case 'calendar': {
      if (policy.period === 'month') return endOfMonthAfter(earnedOn, policy.count);
      if (policy.period === 'year') return format(parts(earnedOn)[0] + policy.count, 12, 31);
      // The quarter's last month (3, 6, 9, 12), then `count` quarters on.
      const month = parts(earnedOn)[1];
      const lastMonthOfQuarter = Math.ceil(month / 3) * 3;
      return endOfMonthAfter(earnedOn, lastMonthOfQuarter - month + 3 * policy.count);
    }
  }
}

/** Under inactivity: the day the whole balance expires at the end of, given the last day with an earning or spending. */
export function inactiveAfter(policy: Extract<ExpiryPolicy, { type: 'inactivity' }>, lastActivityOn: string): string {
  return addMonths(lastActivityOn, policy.months);
}

// One formatter per zone: making one costs ~50 µs, using one ~2 µs.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', calendar: 'gregory' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Paris, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The calendar day an instant falls on in a time zone; an unknown zone counts as UTC. */
export function dayIn(instant: Date, timeZone: string): string {
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = formatterOf(timeZone);
  } catch {
    formatter = formatterOf('UTC');
  }
  let year = 0;
  let month = 0;
  let day = 0;
  for (const part of formatter.formatToParts(instant)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
  }
  return format(year, month, day);
}

/** The day an ISO timestamp (a ledger entry's occurred_at) falls on in a time zone. */
export function dayOfTimestamp(iso: string, timeZone: string): string {
  const instant = new Date(iso);
  // Not a timestamp we can read: its own date part, so a credit is never refused for it.
  if (Number.isNaN(instant.getTime())) return iso.slice(0, 10);
  return dayIn(instant, timeZone);
}
