import { errors } from '../../http/api-error.ts';

/*
 * The media label's forms (issue 20 §3, decision 065): one rule for `rewards clients --media-label`
 * and the console. A locale's label is either its plural forms (one=Star;other=Stars), only the
 * categories Intl.PluralRules knows for that locale, `other` required; or one text for every form
 * (the spec's media label is one text per locale): kept as `other` alone, which the portal uses
 * for every count (apps/web/src/i18n/mediaLabel.ts falls back to it).
 */

export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
export type PluralFormsSetting = Partial<Record<PluralCategory, string>> & { other: string };

const MAX_LABEL = 60;
const ORDER: readonly PluralCategory[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** The plural categories of a locale (en-US: one, other; ja: other; ar: all six). */
export function pluralCategories(locale: string): PluralCategory[] {
  return new Intl.PluralRules(locale).resolvedOptions().pluralCategories as PluralCategory[];
}

function labelText(text: string, what: string): string {
  const value = text.trim();
  if (value.length === 0) throw errors.validation(`${what} must not be empty`);
  if (value.length > MAX_LABEL) throw errors.validation(`${what}: at most ${MAX_LABEL} characters`);
  if (/\p{Cc}/u.test(value)) throw errors.validation(`${what}: no control characters`);
  return value;
}

/**
 * A locale's label as stored: a single text (for every form) or forms by category. A refusal is a
 * validation error saying what is wrong ("few" is not a plural form of en-US (use one, other)).
 */
export function mediaLabelForms(locale: string, label: string | Readonly<Record<string, string>>): PluralFormsSetting {
  if (typeof label === 'string') return { other: labelText(label, 'the label') };
  const allowed = pluralCategories(locale);
  const forms: Partial<Record<PluralCategory, string>> = {};
  for (const [category, text] of Object.entries(label)) {
    if (!(allowed as string[]).includes(category))
      throw errors.validation(`"${category}" is not a plural form of ${locale} (use ${allowed.join(', ')})`);
    forms[category as PluralCategory] = labelText(text, `the form ${category}`);
  }
  if (forms.other === undefined) throw errors.validation(`the form "other" is required for ${locale}`);
  // In CLDR's order (zero, one, two, few, many, other) whatever order they came in: one stored text per set.
  return Object.fromEntries(ORDER.filter((c) => forms[c] !== undefined).map((c) => [c, forms[c]])) as PluralFormsSetting;
}
