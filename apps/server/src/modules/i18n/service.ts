import { createHash } from 'node:crypto';
import type { Bundle } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { baseBundles, FALLBACK_LOCALE } from './base-bundles.ts';
import { listClientTranslations } from './store.ts';

/**
 * A client's bundle for one locale: the shipped English as the floor (so a key a translation
 * lacks still reads as something), the shipped translation over it, the client's own wording
 * on top.
 */
export async function buildBundle(db: Db, clientId: string, locale: string): Promise<Bundle> {
  const overrides = await listClientTranslations(db, clientId, locale);
  const properties: Record<string, string> = {
    ...baseBundles.get(FALLBACK_LOCALE),
    ...baseBundles.get(locale),
  };
  for (const { key, text } of overrides) properties[key] = text;
  return { locale, properties };
}

export function bundleEtag(bundle: Bundle): string {
  return `"${createHash('sha256').update(JSON.stringify(bundle)).digest('base64url').slice(0, 27)}"`;
}
