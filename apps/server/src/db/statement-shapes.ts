/*
 * Bulk statements cut into few distinct shapes, shared by the ledger's bulk path and the lots'
 * (modules/ledger/bulk.ts, modules/expiry/lot-store.ts).
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
