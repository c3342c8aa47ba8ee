import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Properties = Record<string, string>;

const bundlesDir = join(import.meta.dirname, 'bundles');

/** The translations shipped with the app, one file per locale, read once at start. */
function readBaseBundles(): Map<string, Properties> {
  const bundles = new Map<string, Properties>();
  for (const file of readdirSync(bundlesDir)) {
    if (!file.endsWith('.json')) continue;
    bundles.set(file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(bundlesDir, file), 'utf8')) as Properties);
  }
  return bundles;
}

export const baseBundles = readBaseBundles();
export const FALLBACK_LOCALE = 'en-US';
