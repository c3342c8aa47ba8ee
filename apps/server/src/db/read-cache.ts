import type { Kysely } from 'kysely';

/**
 * Per-process cache of what operators configure and requests only read: a client's hosts,
 * settings, locales, media labels, catalogs and bundles (docs/decisions/014). Entries live a
 * few seconds (CLIENT_CACHE_SECONDS, default 5), so an operator's change shows within that
 * time on every server process without any message between them; 0 turns caching off.
 * Entries are kept per database object, so two apps over one database are two processes'
 * worth of caches, and a transaction never reads through the cache.
 */
export const DEFAULT_CACHE_SECONDS = 5;

/** Keys can come from request headers (hostnames): the cache must stay small whatever is sent. */
const MAX_ENTRIES = 2_000;

interface Entry {
  value: Promise<unknown>;
  expiresAt: number;
  /** The value once the load has answered (never undefined: "not found" is not kept), for `atHand`. */
  settled: unknown;
}

class TtlCache {
  ttlMs: number;
  readonly #entries = new Map<string, Entry>();

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value as Promise<T>;
    if (hit) this.#entries.delete(key);
    const value = load();
    // Concurrent requests share one load. A failed load is not remembered, nor is "not found":
    // a host or client that does not exist yet (an operator is setting it up) shows the moment
    // it does, and unknown hostnames sent by anyone do not fill the cache.
    const forget = () => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    };
    const entry: Entry = { value, expiresAt: now + this.ttlMs, settled: undefined };
    value.then((result) => {
      if (result === undefined) forget();
      else entry.settled = result;
    }, forget);
    this.#entries.set(key, entry);
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return value;
  }

  /** What `get` would answer without loading, if its load has answered and it is still fresh. */
  atHand(key: string): unknown {
    if (this.ttlMs <= 0) return undefined;
    const hit = this.#entries.get(key);
    return hit && hit.expiresAt > Date.now() ? hit.settled : undefined;
  }

  clear(): void {
    this.#entries.clear();
  }
}

// Any Kysely: the cache only needs the object's identity.
type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- identity only

const caches = new WeakMap<AnyDb, TtlCache>();

function cacheOf(db: AnyDb): TtlCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new TtlCache(DEFAULT_CACHE_SECONDS * 1000);
    caches.set(db, cache);
  }
  return cache;
}

/** Sets how long this database's cached configuration lives (buildApp, from the config). */
export function configureReadCache(db: AnyDb, seconds: number): void {
  const cache = cacheOf(db);
  cache.ttlMs = seconds * 1000;
  cache.clear();
}

/** Forgets everything cached for this database (after this process changed configuration). */
export function clearReadCache(db: AnyDb): void {
  caches.get(db)?.clear();
}

/** `load()`'s value, shared for a few seconds by every caller asking with the same key. */
export function cachedRead<T>(db: AnyDb, key: string, load: () => Promise<T>): Promise<T> {
  if (db.isTransaction) return load();
  return cacheOf(db).get(key, load);
}

/**
 * The value cachedRead would answer from memory right now, without a promise; undefined when it
 * would load (nothing kept, expired, load still under way, not found). For per-request hooks
 * (docs/decisions/035); on undefined they go through cachedRead.
 */
export function cachedReadAtHand<T>(db: AnyDb, key: string): T | undefined {
  if (db.isTransaction) return undefined;
  return caches.get(db)?.atHand(key) as T | undefined;
}
