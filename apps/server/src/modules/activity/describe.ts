import type { Properties } from '../i18n/base-bundles.ts';

const PLACEHOLDER = /\{(\w+)\}/g;
/** A parameter named `<name>Key` holds a translation key whose text fills `{<name>}`. */
const KEY_SUFFIX = 'Key';

export interface StoredDescription {
  description: string;
  description_key: string | null;
  description_params: string | null;
}

/**
 * Turns stored descriptions into text of one locale. Built once per request: the number format
 * is made once and each distinct parameter JSON is parsed once, so 10,000 entries cost no more
 * than string replacement.
 */
/** Number formats by locale: making one costs more than formatting a whole statement. */
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    } catch {
      format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    }
    // Locales come from the client's configuration, so the map stays small.
    numberFormats.set(locale, format);
  }
  return format;
}

/**
 * A parameter kept in several languages (`{"en-US": "…", "ar": "…"}`, the client's default first:
 * an event's rules in their own words, decision 101): the reader's language, else one of the same
 * language, else the first.
 */
function inLocale(texts: Record<string, unknown>, locale: string): string {
  const own = texts[locale];
  if (typeof own === 'string') return own;
  const language = locale.split('-')[0];
  const entries = Object.entries(texts).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return (entries.find(([code]) => code.split('-')[0] === language) ?? entries[0])?.[1] ?? '';
}

export function createDescriber(properties: Properties, locale: string): (entry: StoredDescription) => string {
  const numbers = numberFormat(locale);
  // Histories repeat the same few descriptions: each distinct one is filled in once.
  const described = new Map<string, string>();
  const parsedParams = new Map<string, Record<string, string>>();

  const valuesOf = (json: string | null): Record<string, string> => {
    if (!json) return {};
    const known = parsedParams.get(json);
    if (known) return known;
    const values: Record<string, string> = {};
    try {
      const raw: unknown = JSON.parse(json);
      if (raw && typeof raw === 'object') {
        for (const [name, value] of Object.entries(raw)) {
          if (typeof value === 'number') values[name] = numbers.format(value);
          else if (typeof value === 'string' && name.endsWith(KEY_SUFFIX) && name.length > KEY_SUFFIX.length) {
            values[name.slice(0, -KEY_SUFFIX.length)] = Object.hasOwn(properties, value) ? (properties[value] ?? value) : value;
          } else if (typeof value === 'string') values[name] = value;
          else if (value && typeof value === 'object' && !Array.isArray(value))
            values[name] = inLocale(value as Record<string, unknown>, locale);
        }
      }
    } catch {
      // Unreadable values: the text keeps its placeholders rather than failing the statement.
    }
    parsedParams.set(json, values);
    return values;
  };

  return (entry) => {
    const key = entry.description_key;
    const template = key && Object.hasOwn(properties, key) ? properties[key] : undefined;
    // No key, or a key no bundle knows: the operator's own words.
    if (template === undefined) return entry.description;
    const memo = `${key}\u0000${entry.description_params ?? ''}`;
    const known = described.get(memo);
    if (known !== undefined) return known;
    const values = valuesOf(entry.description_params);
    const text = template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
    described.set(memo, text);
    return text;
  };
}
