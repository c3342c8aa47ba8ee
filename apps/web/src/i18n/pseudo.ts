import { interpolate, type Properties, type Values } from './translate.ts';

/**
 * The pseudo-locale: every text shows as `[[key]]`, so a text that is not from the bundles
 * (hard-coded) stands out at a glance in a screenshot. `?pseudo=1` turns it on for this tab,
 * `?pseudo=0` off; it only changes how texts show, so production builds have it too.
 */
export const PSEUDO_LOCALE_FLAG = 'pseudoLocale';

const PLACEHOLDER = /\{(\w+)\}/g;

/** Reads `?pseudo=` (and remembers it in session storage, which outlives in-app navigation). */
export function readPseudoLocale(search: string = window.location.search, storage: Storage = sessionStorage): boolean {
  const asked = new URLSearchParams(search).get('pseudo');
  try {
    if (asked === '1' || asked === 'true') storage.setItem(PSEUDO_LOCALE_FLAG, '1');
    else if (asked === '0' || asked === 'false') storage.removeItem(PSEUDO_LOCALE_FLAG);
    return storage.getItem(PSEUDO_LOCALE_FLAG) === '1';
  } catch {
    return asked === '1' || asked === 'true';
  }
}

/**
 * `[[key]]`, followed by the text's placeholders, which are then filled as usual:
 * `[[home.welcome 12,500 Acme Points]]`. Values stay visible, and a sentence with a link inside
 * (Trans) keeps its link.
 */
export function pseudoTranslate(properties: Properties | undefined, key: string, values?: Values): string {
  const text = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
  const names = text ? [...text.matchAll(PLACEHOLDER)].map((match) => match[0]) : [];
  return interpolate(`[[${[key, ...names].join(' ')}]]`, values);
}
