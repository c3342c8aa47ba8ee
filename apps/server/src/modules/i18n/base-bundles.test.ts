import { describe, expect, it } from 'vitest';
import { baseBundles } from './base-bundles.ts';

describe('the shipped translation bundles', () => {
  const english = baseBundles.get('en-US') ?? {};
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it.each(['fr-FR', 'ar'])('%s has every key of en-US and no key of its own', (locale) => {
    const bundle = baseBundles.get(locale) ?? {};
    expect(Object.keys(bundle).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(['fr-FR', 'ar'])('%s keeps every placeholder of the English text', (locale) => {
    const bundle = baseBundles.get(locale) ?? {};
    for (const [key, text] of Object.entries(english)) {
      expect([key, placeholders(bundle[key] ?? '')]).toEqual([key, placeholders(text)]);
    }
  });
});
