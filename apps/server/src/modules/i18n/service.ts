import { createHash } from 'node:crypto';
import type { Bundle } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { cachedRead, cachedReadAtHand } from '../../db/read-cache.ts';
import { negotiatedBody, type NegotiatedBody } from '../../http/negotiated-body.ts';
import { baseBundles, FALLBACK_LOCALE } from './base-bundles.ts';
import { webBundle } from './server-only-keys.ts';
import { listClientTranslations } from './store.ts';

/** A built bundle with what its route sends: computed once per cache lifetime, not per request. */
export interface PreparedBundle {
  /** Every text, the server's own included (mails, statements). */
  bundle: Bundle;
  /** What browsers get: the same without the server's own texts (server-only-keys.ts). */
  web: Bundle;
  /** The ETag of `web`, the bytes the route sends. */
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

/** The same as browsers get it, without the texts only the server reads (decision 036). */
export async function buildWebBundle(db: Db, clientId: string, locale: string): Promise<Bundle> {
  return (await preparedBundle(db, clientId, locale)).web;
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
    const web = webBundle(bundle);
    const etag = bundleEtag(web);
    // Revalidated every time (no-cache), answered 304 when unchanged: an operator's edit shows
    // within the read cache's few seconds. The URL names no version, so it cannot be kept long.
    const reply = negotiatedBody(key, Buffer.from(JSON.stringify({ bundleList: { [locale]: web } })), etag, ['cache-control', 'no-cache']);
    return { bundle, web, etag, reply };
  });
}

export function bundleEtag(bundle: Bundle): string {
  return `"${createHash('sha256').update(JSON.stringify(bundle)).digest('base64url').slice(0, 27)}"`;
}
