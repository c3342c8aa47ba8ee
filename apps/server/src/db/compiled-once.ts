import { PostgresAdapter, type Compilable, type CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import { prepareOnPostgres } from './prepared-statements.ts';

/** Stands in for argument i while the query is compiled; replaced by the real value on each run. */
const SLOT = '\u0000compiled-once-argument:';

type Slot = number | { constant: unknown };

interface Compiled {
  query: CompiledQuery;
  slots: Slot[];
}

// The cache needs only Kysely's identity and executeQuery, whatever the database type.
type AnyKysely = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- see above

/**
 * A query built and compiled to SQL once, then run with new arguments each time. Kysely
 * otherwise builds an immutable tree and compiles it on every call, which was most of its cost
 * on the hottest paths (docs/decisions/014). `build` must use its arguments only as values
 * (never to choose the query's shape); the SQL is compiled once per database adapter, so both
 * engines get their own.
 */
export function compiledOnce<A extends unknown[], R>(
  build: (db: AnyKysely, ...args: A) => Compilable<R>,
  /**
   * `prepared`: on PostgreSQL, a named prepared statement, parsed and planned once per
   * connection (docs/decisions/034). For queries run on most requests whose plan does not
   * depend on the values (lookups by key).
   */
  { prepared = false }: { prepared?: boolean } = {},
) {
  const byAdapter = new WeakMap<object, Compiled>();

  function compile(db: AnyKysely, arity: number): Compiled {
    const placeholders = Array.from({ length: arity }, (_, i) => `${SLOT}${i}`) as unknown as A;
    const query = build(db, ...placeholders).compile();
    if (prepared && db.getExecutor().adapter instanceof PostgresAdapter) prepareOnPostgres(query.sql);
    const slots = query.parameters.map((value): Slot => {
      if (typeof value === 'string' && value.startsWith(SLOT)) return Number(value.slice(SLOT.length));
      return { constant: value };
    });
    return { query, slots };
  }

  return async function run(db: AnyKysely, ...args: A): Promise<QueryResult<R>> {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (!compiled) {
      compiled = compile(db, args.length);
      byAdapter.set(adapter, compiled);
    }
    const parameters = compiled.slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.constant));
    return db.executeQuery<R>({ ...compiled.query, parameters });
  };
}
