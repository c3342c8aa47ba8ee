/**
 * The pure side of the localized date field (DateField.tsx, decision 037): which order the
 * page's language writes a date in, its month names and digits, and reading the three parts a
 * participant typed into an ISO `YYYY-MM-DD` date, or into the reason it is not one yet.
 */

export type DatePart = 'day' | 'month' | 'year';

/** What a participant typed, as ASCII digits: day and year as typed, month as its number, or ''. */
export interface DateParts {
  day: string;
  month: string;
  year: string;
}

const NO_PARTS: DateParts = { day: '', month: '', year: '' };

/** Why the parts are not a date yet, with the limit a range problem names (ISO). */
export type DateProblem =
  | { kind: 'incomplete' }
  | { kind: 'day'; last: number }
  | { kind: 'year' }
  | { kind: 'before'; limit: string }
  | { kind: 'after'; limit: string };

interface DateReading {
  /** The ISO date, or '' while the parts are empty or not a date. */
  value: string;
  problem?: DateProblem;
}

interface LocaleDates {
  order: readonly DatePart[];
  months: readonly string[];
  digits: readonly string[];
}

const cache = new Map<string, LocaleDates>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options);
  }
}

/**
 * The locale's way of writing a date: the order of its numeric short date (en-US month, day,
 * year; fr-FR and ar day, month, year), its stand-alone month names, and its digits 0 to 9.
 */
export function localeDates(locale: string): LocaleDates {
  let dates = cache.get(locale);
  if (dates) return dates;
  // Gregorian whatever the locale's own calendar (ar-SA's is the Hijri one): the value is ISO.
  const numeric = dateFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC', calendar: 'gregory' });
  const order = numeric
    .formatToParts(Date.UTC(2000, 11, 31))
    .map((part) => part.type)
    .filter((type): type is DatePart => type === 'day' || type === 'month' || type === 'year');
  const monthName = dateFormat(locale, { month: 'long', timeZone: 'UTC', calendar: 'gregory' });
  const months = Array.from({ length: 12 }, (_, month) => monthName.format(Date.UTC(2000, month, 1)));
  const { locale: resolved, numberingSystem } = numeric.resolvedOptions();
  const numbers = new Intl.NumberFormat(resolved, { useGrouping: false, numberingSystem });
  const digits = Array.from({ length: 10 }, (_, digit) => numbers.format(digit));
  dates = { order: order.length === 3 ? order : ['day', 'month', 'year'], months, digits };
  cache.set(locale, dates);
  return dates;
}

/** Any decimal digits the keyboard gave (Latin, Arabic-Indic, Persian) as ASCII; everything else dropped. */
export function asciiDigits(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x30 && code <= 0x39) out += char;
    else if (code >= 0x660 && code <= 0x669) out += String(code - 0x660);
    else if (code >= 0x6f0 && code <= 0x6f9) out += String(code - 0x6f0);
  }
  return out;
}

/** ASCII digits written with the locale's own digits. */
export function localDigits(ascii: string, digits: readonly string[]): string {
  return ascii.replace(/\d/g, (digit) => digits[Number(digit)] ?? digit);
}

/** The parts of an ISO date (an empty or malformed one gives empty parts). */
export function partsOf(value: string): DateParts {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return NO_PARTS;
  return { year: match[1] ?? '', month: String(Number(match[2])), day: String(Number(match[3])) };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const iso = (year: number, month: number, day: number) =>
  `${String(year)}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * Reads the parts as a date within [min, max] (ISO, inclusive, either optional). Empty parts are
 * no date and no problem; anything else that is not a real date in range is a problem, never a
 * date: 31 February is day 31 of a 28-day month, not 3 March.
 */
export function readDate(parts: DateParts, min?: string, max?: string): DateReading {
  const { day, month, year } = parts;
  if (!day && !month && !year) return { value: '' };
  const d = Number(day);
  const m = Number(month);
  const y = Number(year);
  if (day && (d < 1 || d > 31)) return { value: '', problem: { kind: 'day', last: month && year.length === 4 ? daysInMonth(y, m) : 31 } };
  if (!day || !month || !year) return { value: '', problem: { kind: 'incomplete' } };
  if (year.length !== 4 || y < 1000) return { value: '', problem: { kind: 'year' } };
  const last = daysInMonth(y, m);
  if (d > last) return { value: '', problem: { kind: 'day', last } };
  const value = iso(y, m, d);
  // ISO dates of four-digit years compare as text.
  if (min && value < min) return { value: '', problem: { kind: 'before', limit: min } };
  if (max && value > max) return { value: '', problem: { kind: 'after', limit: max } };
  return { value };
}

/** Today in the participant's own time zone, as an ISO date (the latest possible birth date). */
export function localToday(now = new Date()): string {
  return iso(now.getFullYear(), now.getMonth() + 1, now.getDate());
}
