import { createHash } from 'node:crypto';
import type { Bundle } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { cachedRead } from '../../db/read-cache.ts';
import { baseBundles, FALLBACK_LOCALE } from './base-bundles.ts';
import { listClientTranslations } from './store.ts';

/** A built bundle with what its route sends: computed once per cache lifetime, not per request. */
export interface PreparedBundle {
  bundle: Bundle;
  etag: string;
  /** The route's reply body, serialised to UTF-8 once. */
  replyBody: Buffer;
}

/**
 * A client's bundle for one locale: the shipped English as the floor (so a key a translation
 * lacks still reads as something), the shipped translation over it, the client's own wording
 * on top. Shared by every caller for the read cache's lifetime: treat it as read-only.
 */
export async function buildBundle(db: Db, clientId: string, locale: string): Promise<Bundle> {
  return (await preparedBundle(db, clientId, locale)).bundle;
}

export function preparedBundle(db: Db, clientId: string, locale: string): Promise<PreparedBundle> {
  return cachedRead(db, `bundle:${clientId}:${locale}`, async () => {
    const overrides = await listClientTranslations(db, clientId, locale);
    const properties: Record<string, string> = {
      ...baseBundles.get(FALLBACK_LOCALE),
      ...baseBundles.get(locale),
    };
    for (const { key, text } of overrides) properties[key] = text;
    const bundle = { locale, properties };
    return { bundle, etag: bundleEtag(bundle), replyBody: Buffer.from(JSON.stringify({ bundleList: { [locale]: bundle } })) };
  });
}

export function bundleEtag(bundle: Bundle): string {
  return `"${createHash('sha256').update(JSON.stringify(bundle)).digest('base64url').slice(0, 27)}"`;
}
