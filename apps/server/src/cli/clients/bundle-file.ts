import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parse as parseProperties } from 'dot-properties';
import { CliError } from '../cli-context.ts';

/** Bounds of a translation bundle file: the shipped bundles are a few hundred keys. */
export const MAX_BUNDLE_BYTES = 2 * 1024 * 1024;
export const MAX_BUNDLE_KEYS = 10_000;
export const MAX_TEXT_LENGTH = 10_000;
const KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/**
 * A translation bundle as flat `key → text`: JSON (flat, or nested objects whose keys join
 * with dots) or a Java `.properties` file (dot-properties: \uXXXX escapes, continuation lines,
 * `=`, `:` or space separators, # and ! comments; read as UTF-8, as Java 9+ resource bundles are).
 */
export function readBundleFile(path: string): Record<string, string> {
  const extension = extname(path).toLowerCase();
  if (extension !== '.json' && extension !== '.properties') throw new CliError(`${path}: a bundle is a .json or .properties file`);
  let text: string;
  try {
    if (statSync(path).size > MAX_BUNDLE_BYTES) throw new CliError(`${path} is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB`);
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path)).replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${path} as UTF-8 text`);
  }
  const texts = extension === '.json' ? flattenJson(path, text) : (parseProperties(text) as Record<string, string>);
  const entries = Object.entries(texts);
  if (entries.length === 0) throw new CliError(`${path} holds no translations`);
  if (entries.length > MAX_BUNDLE_KEYS) throw new CliError(`${path} holds ${entries.length} keys; at most ${MAX_BUNDLE_KEYS}`);
  for (const [key, value] of entries) {
    if (!KEY.test(key)) throw new CliError(`${path}: "${key.slice(0, 60)}" is not a translation key (letters, digits, . _ -, at most 200)`);
    if (value.length > MAX_TEXT_LENGTH) throw new CliError(`${path}: the text of ${key} is longer than ${MAX_TEXT_LENGTH} characters`);
  }
  return texts;
}

function flattenJson(path: string, text: string): Record<string, string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new CliError(`${path}: a JSON bundle is an object of keys and texts`);
  const flat: Record<string, string> = {};
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (typeof value === 'string') {
      if (prefix in flat) throw new CliError(`${path}: the key ${prefix} is given twice (flat and nested)`);
      flat[prefix] = value;
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 10) {
      throw new CliError(`${path}: the value of ${prefix || '(top)'} must be a text or an object of texts`);
    }
    for (const [key, inner] of Object.entries(value)) walk(inner, prefix ? `${prefix}.${key}` : key, depth + 1);
  };
  walk(data, '', 0);
  return flat;
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
