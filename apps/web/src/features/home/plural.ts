/** The plural category of an amount in a locale; an unknown tag counts as English. */
export function pluralOf(locale: string, count: number): Intl.LDMLPluralRule {
  try {
    return new Intl.PluralRules(locale).select(count);
  } catch {
    return new Intl.PluralRules('en-US').select(count);
  }
}
