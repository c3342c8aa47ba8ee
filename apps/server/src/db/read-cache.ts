import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * The read caches, all lru-cache (docs/decisions/027; the invalidation story is in
 * ARCHITECTURE.md, "Read caches"). Two kinds:
 * - configuration (this file's cachedRead): what operators configure and requests only read, kept
 *   CLIENT_CACHE_SECONDS (decision 014), so an operator's change shows within that time on every
 *   process without any message between them;
 * - participant data (sessions, GET user, the statement): keyed by the database's data generation
 *   (generationKey below, decision 027), so any commit anywhere makes every older entry unreachable.
 * Every cache is kept per database object: two apps over one database are two processes' worth.
 */
export const DEFAULT_CACHE_SECONDS = 5;

/**
 * The caches' clock. Monotonic (a wall-clock jump neither keeps nor drops entries), and looked up
 * on each call, so that tests may set it (vitest's fake `performance`). No `ttlResolution` with
 * it: lru-cache would otherwise remember the time for a millisecond with a timer per millisecond.
 */
export const cacheClock = { now: (): number => performance.now() };

/** Options every time-limited read cache takes, for `cacheClock` above. */
export const clockOptions = { perf: cacheClock, ttlResolution: 0 } as const;

// Any Kysely: the caches only need the object's identity.
type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- identity only

/**
 * Which databases can tell cheaply whether anything was committed since a value was read from
 * them (docs/decisions/027): SQLite files, through `PRAGMA data_version` on the driver's
 * read-only connection. PostgreSQL and in-memory SQLite cannot, and their reads are never
 * cached by generation.
 */
const sources = new WeakMap<object, () => number | undefined>();

/** Called by createDatabase for the databases that have a generation. */
export function registerDataGeneration(db: object, source: () => number | undefined): void {
  sources.set(db, source);
}

/**
 * A number that changes whenever any connection, in this process or another, commits to this
 * database; undefined when the database cannot tell (PostgreSQL, `:memory:`, a transaction).
 * Equal values read at two moments mean nothing was committed in between (another process's
 * commit may show up to one event-loop turn late).
 */
export function dataGeneration(db: object): number | undefined {
  return sources.get(db)?.();
}

/** One cache (or set of caches) per database object, made on first use. */
export function perDatabase<T>(make: () => T): (db: object) => T {
  const made = new WeakMap<object, T>();
  return (db) => {
    let kept = made.get(db);
    if (kept === undefined) {
      kept = make();
      made.set(db, kept);
    }
    return kept;
  };
}

/**
 * `key` under the database's current data generation (decision 027), or undefined where the
 * database cannot tell what changed (PostgreSQL, `:memory:`, a transaction): then nothing is
 * cached. Read before a load starts, so a commit racing the load leaves its value under a key
 * nobody asks for again: never stale, only useless (and out first when the cache is full).
 */
export function generationKey(db: object, key: string): string | undefined {
  const generation = dataGeneration(db);
  return generation === undefined ? undefined : `${generation}\u0000${key}`;
}

/** What a load that found nothing answers when its entry was evicted or cleared meanwhile: never stored. */
const GONE = Symbol('not found');

/**
 * lru-cache options for a cache whose `fetch` runs `load`. Concurrent callers of one key share
 * one load; neither a failure nor "not found" (undefined) is kept, so keys sent by anyone do not
 * fill the cache. An entry evicted or cleared while its load runs still answers the callers
 * waiting for it (`ignoreFetchAbort`). lru-cache would turn an undefined answered then into its
 * abort error (a 500), hence GONE, which `fetched` turns back into undefined.
 */
export function loadOnMiss<V extends object, C>(
  load: (context: C) => Promise<V | undefined>,
): Pick<LRUCache.Options<string, V, C>, 'fetchMethod' | 'ignoreFetchAbort'> {
  return {
    ignoreFetchAbort: true,
    fetchMethod: async (_key, _stale, { signal, context }) =>
      (await load(context)) ?? (signal.aborted ? (GONE as unknown as V) : undefined),
  };
}

/** The value of a `fetch` on a cache made with loadOnMiss. */
export async function fetched<V>(value: Promise<V | undefined>): Promise<V | undefined> {
  const answer = await value;
  return (answer as unknown) === GONE ? undefined : answer;
}

/**
 * `fetched(cache.fetch(key))`, answered from `get` on a hit (the same entry, age and recency):
 * lru-cache's `fetch` is async all the way, ~2 µs more a call on a hit, and client data, bundles
 * and `GET user` make one or two a request.
 */
export function fetchKept<V extends object, C>(cache: LRUCache<string, V, C>, key: string, context: C): Promise<V | undefined> {
  const kept = cache.get(key);
  if (kept !== undefined && (kept as unknown) !== GONE) return Promise.resolve(kept);
  // lru-cache types the options by whether C is undefined, which a generic C cannot tell.
  return fetched(cache.fetch(key, { context } as never));
}

/** Keys can come from request headers (hostnames): the cache must stay small whatever is sent. */
const MAX_ENTRIES = 2_000;

type Load = () => Promise<unknown>;

function configurationCache(seconds: number): LRUCache<string, object, Load> | undefined {
  if (seconds <= 0) return undefined;
  return new LRUCache<string, object, Load>({
    max: MAX_ENTRIES,
    ttl: seconds * 1000,
    ...clockOptions,
    // "Not found" is not kept: a host or client an operator is setting up shows the moment it exists.
    ...loadOnMiss(async (load: Load) => (await load()) as object | undefined),
  });
}

/** Per database; `null` once configured off (CLIENT_CACHE_SECONDS=0). */
const caches = new WeakMap<AnyDb, LRUCache<string, object, Load> | null>();

function cacheOf(db: AnyDb): LRUCache<string, object, Load> | undefined {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = configurationCache(DEFAULT_CACHE_SECONDS) ?? null;
    caches.set(db, cache);
  }
  return cache ?? undefined;
}

/** Sets how long this database's cached configuration lives (buildApp, from the config). */
export function configureReadCache(db: AnyDb, seconds: number): void {
  caches.set(db, configurationCache(seconds) ?? null);
}

/** Forgets everything cached for this database (after this process changed configuration). */
export function clearReadCache(db: AnyDb): void {
  caches.get(db)?.clear();
}

/** `load()`'s value, shared for a few seconds by every caller asking with the same key. */
export function cachedRead<T>(db: AnyDb, key: string, load: () => Promise<T>): Promise<T> {
  const cache = db.isTransaction ? undefined : cacheOf(db);
  if (!cache) return load();
  return fetchKept(cache, key, load) as Promise<T>;
}
