import { describe, expect, it } from 'vitest';
import { asciiDigits, localDigits, localeDates, partsOf, readDate } from './date-parts.ts';

describe('how each language writes a date', () => {
  it('puts the month first in American English, the day first in French and Arabic', () => {
    expect(localeDates('en-US').order).toEqual(['month', 'day', 'year']);
    expect(localeDates('fr-FR').order).toEqual(['day', 'month', 'year']);
    expect(localeDates('ar').order).toEqual(['day', 'month', 'year']);
  });

  it('names Gregorian months even where the locale counts in another calendar, in its own digits', () => {
    const saudi = localeDates('ar-SA');
    expect(saudi.months[2]).toBe('مارس');
    expect(saudi.digits.join('')).toBe('٠١٢٣٤٥٦٧٨٩');
    expect(localDigits('1987', saudi.digits)).toBe('١٩٨٧');
  });

  it('reads Latin, Arabic-Indic and Persian digits alike, and nothing else', () => {
    expect(asciiDigits('١٢')).toBe('12');
    expect(asciiDigits('۱۹۸۷')).toBe('1987');
    expect(asciiDigits(' 3a/4 ')).toBe('34');
  });
});

describe('reading the parts typed', () => {
  const parts = (day: string, month: string, year: string) => ({ day, month, year });

  it('gives an ISO date for a real day, and nothing for empty parts', () => {
    expect(readDate(parts('9', '3', '1987'))).toEqual({ value: '1987-03-09' });
    expect(readDate(parts('29', '2', '2024'))).toEqual({ value: '2024-02-29' });
    expect(readDate(parts('', '', ''))).toEqual({ value: '' });
  });

  it('never rolls an impossible day over into the next month', () => {
    expect(readDate(parts('31', '2', '2026'))).toEqual({ value: '', problem: { kind: 'day', last: 28 } });
    expect(readDate(parts('29', '2', '1900'))).toEqual({ value: '', problem: { kind: 'day', last: 28 } });
    expect(readDate(parts('31', '4', '2026'))).toEqual({ value: '', problem: { kind: 'day', last: 30 } });
    expect(readDate(parts('0', '4', '2026'))).toEqual({ value: '', problem: { kind: 'day', last: 30 } });
  });

  it('asks for what is missing, and for a four-digit year', () => {
    expect(readDate(parts('12', '', ''))).toEqual({ value: '', problem: { kind: 'incomplete' } });
    expect(readDate(parts('12', '5', '87'))).toEqual({ value: '', problem: { kind: 'year' } });
    expect(readDate(parts('12', '5', '0987'))).toEqual({ value: '', problem: { kind: 'year' } });
  });

  it('keeps within its first and last dates, both included', () => {
    expect(readDate(parts('10', '3', '2026'), '2026-03-10', '2026-03-10')).toEqual({ value: '2026-03-10' });
    expect(readDate(parts('9', '3', '2026'), '2026-03-10')).toEqual({ value: '', problem: { kind: 'before', limit: '2026-03-10' } });
    expect(readDate(parts('11', '3', '2026'), undefined, '2026-03-10')).toEqual({
      value: '',
      problem: { kind: 'after', limit: '2026-03-10' },
    });
  });

  it('splits an ISO date back into parts, and a malformed one into none', () => {
    expect(partsOf('2001-12-04')).toEqual({ day: '4', month: '12', year: '2001' });
    expect(partsOf('04/12/2001')).toEqual({ day: '', month: '', year: '' });
  });
});
