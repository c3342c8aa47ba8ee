import { dataGeneration } from './data-generation.ts';

/**
 * Per-process cache of values read from the database, each kept only while nothing has been
 * committed to it since (docs/decisions/027): an entry remembers the database's data generation
 * read BEFORE its load started, and is served only while the generation is still that number.
 * A commit racing the load therefore only makes the entry useless, never stale. A commit by
 * this process, another portal process or the CLI invalidates every entry at once: coarse, but
 * exact and free of messages between processes. Databases without a generation (PostgreSQL,
 * `:memory:`, transactions) are never cached: every call loads.
 *
 * Concurrent misses of one key share one load; failed loads and `undefined` ("not found") are
 * not kept, so unknown keys sent by anyone do not fill it. Bounded in entries and, with
 * `sizeOf`, in bytes (about the least recently used dropped first: see #used).
 */
export interface GenerationCacheOptions<V> {
  maxEntries: number;
  /** Bytes kept at most, counted by `sizeOf`; a value above a quarter of it is not kept. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /**
   * Entries older than this load again even when nothing was committed: for values built
   * partly from the time-limited configuration cache (read-cache.ts), whose own staleness must
   * not be kept for longer than this by a generation that does not move.
   */
  maxAgeMs?: number;
}

interface Entry<V> {
  generation: number;
  value: Promise<V | undefined>;
  /** The value once the load has answered, for `peek`. */
  settled: V | undefined;
  loadedAt: number;
  bytes: number;
  /** `Store.uses` when the entry last moved to the back of the Map. */
  movedAt: number;
}

interface Store<V> {
  entries: Map<string, Entry<V>>;
  bytes: number;
  /** Lookups so far (hits and loads). */
  uses: number;
}

export class GenerationCache<V> {
  readonly #options: GenerationCacheOptions<V>;
  readonly #stores = new WeakMap<object, Store<V>>();

  constructor(options: GenerationCacheOptions<V>) {
    this.#options = options;
  }

  /**
   * The value `get` would answer without loading, when it has one at hand: an entry of the current
   * generation (and age) whose load has answered. Lets a hot path skip the promises of `get` on a
   * hit (docs/decisions/035); on undefined the caller goes through `get`.
   */
  peek(db: object, key: string): V | undefined {
    const store = this.#stores.get(db);
    if (!store) return undefined;
    const hit = store.entries.get(key);
    if (hit?.settled === undefined) return undefined;
    const generation = dataGeneration(db);
    const { maxAgeMs } = this.#options;
    if (generation === undefined || hit.generation !== generation || (maxAgeMs !== undefined && Date.now() - hit.loadedAt >= maxAgeMs)) return undefined;
    this.#used(store, key, hit);
    return hit.settled;
  }

  /**
   * A hit moves its entry to the back of the Map (the front goes first when full), but only if it
   * has not moved in the last maxEntries/2 lookups: moving on every hit made the Map's table
   * churn and rehash, ~300 bytes of garbage per GET user (docs/decisions/035). So the entry that
   * goes is one not used in at least the last ~maxEntries/2 lookups, nearly the least recently used.
   */
  #used(store: Store<V>, key: string, entry: Entry<V>): void {
    store.uses += 1;
    if (store.uses - entry.movedAt <= this.#options.maxEntries / 2) return;
    entry.movedAt = store.uses;
    store.entries.delete(key);
    store.entries.set(key, entry);
  }

  /** `load()`'s value, or the one kept from an earlier call if nothing was committed since. */
  get(db: object, key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = dataGeneration(db);
    if (generation === undefined) return load();
    let store = this.#stores.get(db);
    if (!store) {
      store = { entries: new Map(), bytes: 0, uses: 0 };
      this.#stores.set(db, store);
    }
    const { maxAgeMs } = this.#options;
    const now = maxAgeMs === undefined ? 0 : Date.now();
    const hit = store.entries.get(key);
    if (hit) {
      if (hit.generation === generation && (maxAgeMs === undefined || now - hit.loadedAt < maxAgeMs)) {
        this.#used(store, key, hit);
        return hit.value;
      }
      store.entries.delete(key);
      store.bytes -= hit.bytes;
    }
    // The generation was read before the load starts: what the load sees is at least that new.
    const value = load();
    store.uses += 1;
    const entry: Entry<V> = { generation, value, settled: undefined, loadedAt: now, bytes: 0, movedAt: store.uses };
    store.entries.set(key, entry);
    this.#evict(store);
    value.then(
      (result) => {
        if (result === undefined) this.#forget(store, key, entry);
        else {
          entry.settled = result;
          this.#sized(store, key, entry, result);
        }
      },
      () => this.#forget(store, key, entry),
    );
    return value;
  }

  #sized(store: Store<V>, key: string, entry: Entry<V>, result: V): void {
    const { sizeOf, maxBytes } = this.#options;
    if (!sizeOf || maxBytes === undefined || store.entries.get(key) !== entry) return;
    entry.bytes = sizeOf(result);
    store.bytes += entry.bytes;
    if (entry.bytes > maxBytes / 4) this.#forget(store, key, entry);
    else this.#evict(store);
  }

  #forget(store: Store<V>, key: string, entry: Entry<V>): void {
    if (store.entries.get(key) !== entry) return;
    store.entries.delete(key);
    store.bytes -= entry.bytes;
  }

  #evict(store: Store<V>): void {
    const { maxEntries, maxBytes } = this.#options;
    while (store.entries.size > maxEntries || (maxBytes !== undefined && store.bytes > maxBytes)) {
      const oldest = store.entries.entries().next().value;
      if (!oldest) return;
      this.#forget(store, oldest[0], oldest[1]);
    }
  }
}
