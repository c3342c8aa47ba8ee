import { basename } from 'node:path';
import { parse as parseProperties, stringify as stringifyProperties } from 'dot-properties';
import { MAX_TRANSLATION_LENGTH, TRANSLATION_KEY, type BundleFormat } from '@rewards/contract/console-translations';
import { errors } from '../../http/api-error.ts';

export { MAX_BUNDLE_BYTES } from '@rewards/contract/console-translations';
export const MAX_BUNDLE_KEYS = 10_000;
export const MAX_TEXT_LENGTH = MAX_TRANSLATION_LENGTH;

/**
 * The one reader of translation bundle files, for `rewards clients translations import` and the
 * console's import alike (docs/decisions/066): flat `key → text` from JSON (flat, or nested
 * objects whose keys join with dots) or a Java `.properties` file (dot-properties: \uXXXX
 * escapes, continuation lines, `=`, `:` or space separators, # and ! comments; UTF-8, as Java 9+
 * resource bundles are). `source` names the file in messages. A refusal is a validation error:
 * the command prints it as one line, the console answers 400 with it.
 */
export function parseBundle(source: string, format: BundleFormat, text: string): Record<string, string> {
  const body = text.replace(/^\uFEFF/, '');
  const texts = format === 'json' ? flattenJson(source, body) : (parseProperties(body) as Record<string, string>);
  const entries = Object.entries(texts);
  if (entries.length === 0) throw errors.validation(`${source} holds no translations`);
  if (entries.length > MAX_BUNDLE_KEYS) throw errors.validation(`${source} holds ${entries.length} keys; at most ${MAX_BUNDLE_KEYS}`);
  for (const [key, value] of entries) {
    if (!TRANSLATION_KEY.test(key))
      throw errors.validation(`${source}: "${key.slice(0, 60)}" is not a translation key (letters, digits, . _ -, at most 200)`);
    if (typeof value !== 'string') throw errors.validation(`${source}: the value of ${key} must be a text`);
    if (value.length > MAX_TEXT_LENGTH)
      throw errors.validation(`${source}: the text of ${key} is longer than ${MAX_TEXT_LENGTH} characters`);
  }
  return texts;
}

function flattenJson(source: string, text: string): Record<string, string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw errors.validation(`${source} is not valid JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw errors.validation(`${source}: a JSON bundle is an object of keys and texts`);
  const flat: Record<string, string> = {};
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (typeof value === 'string') {
      if (Object.hasOwn(flat, prefix)) throw errors.validation(`${source}: the key ${prefix} is given twice (flat and nested)`);
      flat[prefix] = value;
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 10) {
      throw errors.validation(`${source}: the value of ${prefix || '(top)'} must be a text or an object of texts`);
    }
    for (const [key, inner] of Object.entries(value)) walk(inner, prefix ? `${prefix}.${key}` : key, depth + 1);
  };
  walk(data, '', 0);
  return flat;
}

/**
 * A bundle file of `texts`, which parseBundle reads back to the same keys and texts: JSON flat
 * and sorted (a nested file could not hold both `a` and `a.b`), or `.properties` in UTF-8 with
 * one line per key (no folding: a translator's diff shows one line per change).
 */
export function formatBundle(format: BundleFormat, texts: Record<string, string>, comment?: string): string {
  const sorted = Object.keys(texts)
    .sort()
    .map((key) => [key, texts[key] ?? ''] as [string, string]);
  if (format === 'json') return `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`;
  const lines: Array<string | [string, string]> = comment ? [comment] : [];
  lines.push(...sorted);
  return `${stringifyProperties(lines, { latin1: false, lineWidth: null })}\n`;
}

/** The locale a file's name gives: fr-FR.json, messages_fr_FR.properties, account.ar.json. */
export function localeFromFileName(path: string): string | undefined {
  const match = /(?:^|[._])([a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)\.(?:json|properties)$/i.exec(basename(path));
  return match?.[1];
}

/** The `{name}` placeholders of a text, sorted, each once. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''))].sort();
}
