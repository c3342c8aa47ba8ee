import { LRUCache } from 'lru-cache';

/*
 * Bulk statements cut into few distinct shapes, their texts written by hand and kept once per
 * shape: the ledger's bulk path (modules/ledger/bulk.ts), the participants' balances it moves
 * (participants/balance-store.ts), the lots (expiry/lot-store.ts), the imports' staging.
 */

/**
 * Splits n rows into statements of few distinct sizes: full ones, then powers of two. SQLite's
 * driver keeps prepared statements by their text (node-sqlite-dialect.ts): sizes that varied
 * with every batch filled that cache with one-off statements, megabytes each. At most
 * log2(max) + 2 shapes now.
 */
export function pieces(n: number, max: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 0;
  while (n - from >= max) {
    out.push([from, from + max]);
    from += max;
  }
  for (let size = 1 << Math.floor(Math.log2(max)); size >= 1; size >>= 1) {
    if (n - from >= size) {
      out.push([from, from + size]);
      from += size;
    }
  }
  return out;
}

/** An IN list padded (with its last value again) to a power of two, for the same reason as pieces(). */
export function padded<T>(values: T[]): T[] {
  if (values.length === 0) return values;
  const size = 1 << Math.ceil(Math.log2(values.length));
  const out = values.slice();
  while (out.length < size) out.push(values[values.length - 1]!);
  return out;
}

/**
 * A bulk statement's text, made once per shape (and engine: ? or $n placeholders). Written by hand
 * rather than with Kysely's builder: a million rows would otherwise build a million expression
 * trees only to print the same text again, and kept because an import asks for the same few
 * shapes thousands of times (a 100-row INSERT is 1,100 placeholders of text). The keys are shapes,
 * never values: pieces() and padded() keep them few, so the bound is never reached; it keeps the
 * memo small (least recently used out first) should a statement ever take its size from its input.
 */
const texts = new LRUCache<string, string, () => string>({
  max: 256,
  memoMethod: (_key, _stale, { context: make }) => make(),
});

/** The text of the statement of this shape, `make` called the first time only; `key` names the module, the shape and the engine. */
export function statementText(key: string, make: () => string): string {
  return texts.memo(key, { context: make });
}

/** The next placeholder of a statement's text: `?` on SQLite, `$1`, `$2`… on PostgreSQL. */
export function placeholders(postgres: boolean): () => string {
  let n = 0;
  return () => (postgres ? `$${++n}` : '?');
}
