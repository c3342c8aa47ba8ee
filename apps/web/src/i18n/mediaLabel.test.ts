import { describe, expect, it } from 'vitest';
import type { MediaLabel } from '@rewards/contract';
import { chooseMediaLabel, mediaLabelText } from './mediaLabel.ts';
import { formatNumber } from './format.ts';

const en: MediaLabel = { locale: 'en-US', cmText: 'Acme Points', forms: { one: 'Acme Point', other: 'Acme Points' } };
const fr: MediaLabel = { locale: 'fr-FR', cmText: 'Points Acme', forms: { one: 'Point Acme', other: 'Points Acme' } };
const de: MediaLabel = { locale: 'de-DE', cmText: 'Acme-Punkte' };
const ar: MediaLabel = {
  locale: 'ar',
  cmText: 'نقاط أكمي',
  forms: { zero: 'zero-form', one: 'one-form', two: 'two-form', few: 'few-form', many: 'many-form', other: 'other-form' },
};

describe('media label choice (spec section 9)', () => {
  it('takes the single entry whatever the locales', () => {
    expect(chooseMediaLabel([de], 'fr-FR', 'en-US')).toBe(de);
  });

  it('prefers the user locale', () => {
    expect(chooseMediaLabel([en, fr, de], 'fr-FR', 'de-DE')).toBe(fr);
  });

  it('falls back to the client locale', () => {
    expect(chooseMediaLabel([en, fr, de], 'ar', 'de-DE')).toBe(de);
  });

  it('falls back to en-US last', () => {
    expect(chooseMediaLabel([fr, en, de], 'ar', 'it-IT')).toBe(en);
  });

  it('finds nothing when no entry matches', () => {
    expect(chooseMediaLabel([fr, de], 'ar', 'it-IT')).toBeUndefined();
    expect(chooseMediaLabel([], 'en-US', 'en-US')).toBeUndefined();
  });
});

describe('media label plural forms', () => {
  it('says "1 Acme Point" and "12,500 Acme Points" in English', () => {
    expect(`${formatNumber('en-US', 1)} ${mediaLabelText(en, 'en-US', 1)}`).toBe('1 Acme Point');
    expect(`${formatNumber('en-US', 12500)} ${mediaLabelText(en, 'en-US', 12500)}`).toBe('12,500 Acme Points');
    expect(mediaLabelText(en, 'en-US', 0)).toBe('Acme Points');
  });

  it('uses the six Arabic plural categories', () => {
    expect(mediaLabelText(ar, 'ar', 0)).toBe('zero-form');
    expect(mediaLabelText(ar, 'ar', 1)).toBe('one-form');
    expect(mediaLabelText(ar, 'ar', 2)).toBe('two-form');
    expect(mediaLabelText(ar, 'ar', 5)).toBe('few-form');
    expect(mediaLabelText(ar, 'ar', 11)).toBe('many-form');
    expect(mediaLabelText(ar, 'ar', 100)).toBe('other-form');
  });

  it('uses cmText without forms, without an amount, or when the form is missing', () => {
    expect(mediaLabelText(de, 'de-DE', 3)).toBe('Acme-Punkte');
    expect(mediaLabelText(en, 'en-US')).toBe('Acme Points');
    expect(mediaLabelText({ locale: 'ar', cmText: 'x', forms: { other: 'y' } }, 'ar', 2)).toBe('y');
    expect(mediaLabelText(undefined, 'en-US', 2)).toBe('');
  });
});
