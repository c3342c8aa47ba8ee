import type { MediaLabel } from '@rewards/contract';

const DEFAULT_LOCALE = 'en-US';

/**
 * Spec section 9: the single entry if there is only one, else the one of the user's locale,
 * else the client's locale, else en-US. Nothing else matches: undefined.
 */
export function chooseMediaLabel(
  labels: readonly MediaLabel[],
  userLocale: string | undefined,
  clientLocale: string | undefined,
): MediaLabel | undefined {
  if (labels.length === 1) return labels[0];
  for (const code of [userLocale, clientLocale, DEFAULT_LOCALE]) {
    if (!code) continue;
    const found = labels.find((label) => label.locale.toLowerCase() === code.toLowerCase());
    if (found) return found;
  }
  return undefined;
}

/** The label's text for an amount: the plural form Intl.PluralRules picks, else cmText. */
export function mediaLabelText(label: MediaLabel | undefined, locale: string, count?: number): string {
  if (!label) return '';
  if (count === undefined || !label.forms) return label.cmText;
  const category = pluralCategory(locale, count);
  return label.forms[category] ?? label.forms.other ?? label.cmText;
}

function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  try {
    return new Intl.PluralRules(locale).select(count);
  } catch {
    // An unknown tag from a client's configuration must not break the header.
    return new Intl.PluralRules(DEFAULT_LOCALE).select(count);
  }
}
