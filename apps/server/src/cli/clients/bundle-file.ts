import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { MAX_BUNDLE_BYTES, parseBundle } from '../../modules/i18n/bundle-format.ts';
import { CliError } from '../cli-context.ts';

// The reader itself is the i18n module's (the console's import uses the same one, decision 066).
export { localeFromFileName, MAX_BUNDLE_BYTES, MAX_BUNDLE_KEYS, MAX_TEXT_LENGTH, placeholders } from '../../modules/i18n/bundle-format.ts';

/** A translation bundle file as flat `key → text` (modules/i18n/bundle-format.ts says what it reads). */
export function readBundleFile(path: string): Record<string, string> {
  const extension = extname(path).toLowerCase();
  if (extension !== '.json' && extension !== '.properties') throw new CliError(`${path}: a bundle is a .json or .properties file`);
  let text: string;
  try {
    if (statSync(path).size > MAX_BUNDLE_BYTES) throw new CliError(`${path} is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB`);
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${path} as UTF-8 text`);
  }
  return parseBundle(path, extension === '.json' ? 'json' : 'properties', text);
}
