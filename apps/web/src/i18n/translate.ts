/** A bundle's properties: translation key -> text with `{name}` placeholders. */
export type Properties = Readonly<Record<string, string>>;
export type Values = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** What a missing key shows (spec section 8), so an untranslated text is visible, not blank. */
function missingValue(key: string): string {
  return `Missing locale value (${key})`;
}

/** Replaces `{name}` with values[name]; a placeholder without a value stays as written. */
export function interpolate(text: string, values?: Values): string {
  if (!values) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

export function translate(properties: Properties | undefined, key: string, values?: Values): string {
  const text = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
  return text === undefined ? missingValue(key) : interpolate(text, values);
}

/**
 * Splits a text at its placeholders so that some values can be elements (a link inside a
 * sentence) while translators still own the word order.
 */
export function splitPlaceholders<T>(text: string, values: Readonly<Record<string, T>>): (string | T)[] {
  const parts: (string | T)[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!Object.hasOwn(values, name)) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(values[name] as T);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
