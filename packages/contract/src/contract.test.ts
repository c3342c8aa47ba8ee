import { describe, expect, it } from 'vitest';
import { LocaleCode, LoginRequest, MediaLabel, SetLocaleRequest } from './index.ts';

describe('what crosses the wire', () => {
  it('accepts the language tags clients offer and refuses anything else', () => {
    for (const tag of ['en-US', 'fr-FR', 'ar', 'zh-Hant-TW']) expect(LocaleCode.safeParse(tag).success).toBe(true);
    for (const tag of ['', 'e', 'en_US', '<script>', '../etc', 'en-', 'x'.repeat(40)])
      expect(LocaleCode.safeParse(tag).success).toBe(false);
  });

  it('trims the username of a sign-in and refuses empty or oversized fields', () => {
    expect(LoginRequest.parse({ username: '  demo ', password: 'p' })).toEqual({ username: 'demo', password: 'p' });
    expect(LoginRequest.safeParse({ username: '   ', password: 'p' }).success).toBe(false);
    expect(LoginRequest.safeParse({ username: 'demo', password: '' }).success).toBe(false);
    expect(LoginRequest.safeParse({ username: 'demo', password: 'p'.repeat(201) }).success).toBe(false);
  });

  it('needs a locale object with a code to change language', () => {
    expect(SetLocaleRequest.safeParse({ locale: { code: 'ar' } }).success).toBe(true);
    expect(SetLocaleRequest.safeParse({ locale: 'ar' }).success).toBe(false);
  });

  it('requires the "other" plural form of a media label', () => {
    expect(MediaLabel.safeParse({ locale: 'en-US', cmText: 'Points', forms: { one: 'Point', other: 'Points' } }).success).toBe(true);
    expect(MediaLabel.safeParse({ locale: 'en-US', cmText: 'Points', forms: { one: 'Point' } }).success).toBe(false);
  });
});
