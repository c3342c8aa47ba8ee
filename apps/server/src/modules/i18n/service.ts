import { createHash } from 'node:crypto';
import type { Bundle } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { cachedRead, cachedReadAtHand } from '../../db/read-cache.ts';
import { negotiatedBody, type NegotiatedBody } from '../../http/negotiated-body.ts';
import { baseBundles, FALLBACK_LOCALE } from './base-bundles.ts';
import { listClientTranslations } from './store.ts';

/** A built bundle with what its route sends: computed once per cache lifetime, not per request. */
export interface PreparedBundle {
  bundle: Bundle;
  etag: string;
  /** The route's reply body, serialised to UTF-8 once, with its ETag, headers and coded forms (decision 032). */
  reply: NegotiatedBody;
}

/**
 * A client's bundle for one locale: the shipped English as the floor (so a key a translation
 * lacks still reads as something), the shipped translation over it, the client's own wording
 * on top. Shared by every caller for the read cache's lifetime: treat it as read-only.
 */
export async function buildBundle(db: Db, clientId: string, locale: string): Promise<Bundle> {
  return (await preparedBundle(db, clientId, locale)).bundle;
}

/** What preparedBundle would answer from memory right now, without a promise (decision 036). */
export function preparedBundleAtHand(db: Db, clientId: string, locale: string): PreparedBundle | undefined {
  return cachedReadAtHand<PreparedBundle>(db, `bundle:${clientId}:${locale}`);
}

export function preparedBundle(db: Db, clientId: string, locale: string): Promise<PreparedBundle> {
  const key = `bundle:${clientId}:${locale}`;
  return cachedRead(db, key, async () => {
    const overrides = await listClientTranslations(db, clientId, locale);
    const properties: Record<string, string> = {
      ...baseBundles.get(FALLBACK_LOCALE),
      ...baseBundles.get(locale),
    };
    for (const { key, text } of overrides) properties[key] = text;
    const bundle = { locale, properties };
    const etag = bundleEtag(bundle);
    // Revalidated every time (no-cache), answered 304 when unchanged: an operator's edit shows
    // within the read cache's few seconds. The URL names no version, so it cannot be kept long.
    const reply = negotiatedBody(key, Buffer.from(JSON.stringify({ bundleList: { [locale]: bundle } })), etag, ['cache-control', 'no-cache']);
    return { bundle, etag, reply };
  });
}

export function bundleEtag(bundle: Bundle): string {
  return `"${createHash('sha256').update(JSON.stringify(bundle)).digest('base64url').slice(0, 27)}"`;
}
