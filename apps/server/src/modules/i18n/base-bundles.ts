import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundlesDir } from '@rewards/translations';

export type Properties = Record<string, string>;

/**
 * `<locale>.json` holds the portal's core texts (the web app also builds the English one in,
 * for its error screen); `<area>.<locale>.json` holds one capability's texts, so that features
 * add their wording without touching each other's files. A key defined twice is a mistake.
 */
const BUNDLE_FILE = /^(?:([a-z][a-z0-9-]*)\.)?([A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*)\.json$/;

/** The translations shipped with the app, merged per locale, read once at start. */
function readBaseBundles(): Map<string, Properties> {
  const bundles = new Map<string, Properties>();
  for (const file of readdirSync(bundlesDir).sort()) {
    const match = BUNDLE_FILE.exec(file);
    if (!match) continue;
    const locale = match[2] ?? '';
    const texts = JSON.parse(readFileSync(join(bundlesDir, file), 'utf8')) as Properties;
    const bundle = bundles.get(locale) ?? {};
    for (const [key, text] of Object.entries(texts)) {
      if (key in bundle) throw new Error(`Translation key ${key} is defined twice for ${locale} (again in ${file})`);
      bundle[key] = text;
    }
    bundles.set(locale, bundle);
  }
  return bundles;
}

export const baseBundles = readBaseBundles();
export const FALLBACK_LOCALE = 'en-US';
