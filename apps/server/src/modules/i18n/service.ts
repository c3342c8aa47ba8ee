import { createHash } from 'node:crypto';
import type { Bundle, BundleReply } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { cachedRead } from '../../db/read-cache.ts';
import { baseBundles, FALLBACK_LOCALE } from './base-bundles.ts';
import { webBundle } from './server-only-keys.ts';
import { listClientTranslations } from './store.ts';

/** A built bundle with what its route sends: computed once per cache lifetime, not per request. */
export interface PreparedBundle {
  /** Every text, the server's own included (mails, statements). */
  bundle: Bundle;
  /** What browsers get: the same without the server's own texts (server-only-keys.ts). */
  web: Bundle;
  /** A weak ETag of `web`: the same for the plain, brotli and gzip forms of the reply (decision 056). */
  etag: string;
  /** The route's reply, made once per load so that its JSON and coded forms are made once too (http/compressed-once). */
  reply: BundleReply;
}

/**
 * A client's bundle for one locale: the shipped English as the floor (so a key a translation
 * lacks still reads as something), the shipped translation over it, the client's own wording
 * on top. Shared by every caller for the read cache's lifetime: treat it as read-only.
 */
export async function buildBundle(db: Db, clientId: string, locale: string): Promise<Bundle> {
  return (await preparedBundle(db, clientId, locale)).bundle;
}

/** The same as browsers get it, without the texts only the server reads (decision 056). */
export async function buildWebBundle(db: Db, clientId: string, locale: string): Promise<Bundle> {
  return (await preparedBundle(db, clientId, locale)).web;
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
    return { bundle, web, etag: bundleEtag(web), reply: { bundleList: { [locale]: web } } };
  });
}

/** Weak: it names the content, whichever coding carries it. */
export function bundleEtag(bundle: Bundle): string {
  return `W/"${createHash('sha256').update(JSON.stringify(bundle)).digest('base64url').slice(0, 27)}"`;
}
