import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pgModule from 'pg';

/** SQL texts that run as named prepared statements on PostgreSQL, and their names. */
const preparedNames = new Map<string, string>();

/**
 * Marks a query's SQL (compiled once, its values always parameters) to run as a named prepared
 * statement on PostgreSQL: parsed and planned once per connection instead of on every run.
 * For a join like GET user's that was ~250 of ~300 µs of the backend's CPU per request
 * (docs/decisions/034). Names are per connection, so a per-process counter is unique enough.
 */
export function prepareOnPostgres(sql: string): void {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `rewards_${preparedNames.size + 1}`);
}

/** The pool as Kysely sees it, its clients sending marked SQL as named statements. */
export function withPreparedStatements(pool: pgModule.Pool): PostgresPool {
  // One wrapper per pg client: Kysely keys its connections by the client object it is given.
  const wrappers = new WeakMap<pgModule.PoolClient, PostgresPoolClient>();
  const wrap = (client: pgModule.PoolClient): PostgresPoolClient => {
    // pg's overloads do not take Kysely's union of arguments: the untyped call, bound once.
    const send = client.query.bind(client) as (...args: unknown[]) => unknown;
    const query = (sqlOrCursor: unknown, parameters?: unknown[]) => {
      const name = typeof sqlOrCursor === 'string' ? preparedNames.get(sqlOrCursor) : undefined;
      if (name !== undefined) return client.query({ name, text: sqlOrCursor as string, values: parameters });
      // Everything else (SQL and values, a cursor) passes through as Kysely sent it.
      return parameters === undefined ? send(sqlOrCursor) : send(sqlOrCursor, parameters);
    };
    return { query: query as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
