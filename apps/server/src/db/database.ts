import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import { createRequire } from 'node:module';
import type pgModule from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { registerDataGeneration } from './read-cache.ts';
import { nodeSqliteDialect } from './node-sqlite-dialect.ts';
import { withPreparedStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** Which engine a database or a transaction runs on, for the few statements the two write differently. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Owner only, as the keys and the outbox: the file holds password hashes, sealed secrets and mails not yet sent. */
const SQLITE_FILE_MODE = 0o600;

/**
 * The SQLite file made 0600 before SQLite opens it: SQLite would create it under the umask (0644
 * under 022), and it makes the -wal and -shm files with the mode of the database file. One an
 * earlier version left readable to others is closed too (decision 072); a file that is not ours
 * to change stays as it is.
 */
function ownerOnlySqliteFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  // 'a' creates a missing file 0600 (a umask only takes bits away) and never truncates one.
  closeSync(openSync(path, 'a', SQLITE_FILE_MODE));
  tighten(path);
}

function tighten(path: string): void {
  try {
    chmodSync(path, SQLITE_FILE_MODE);
  } catch {
    // Not there (no -wal yet), or not ours to change.
  }
}

export function createDatabase(config: DatabaseConfig): Db {
  if (config.dialect === 'sqlite') {
    const onDisk = config.path !== ':memory:' && config.path !== '';
    if (onDisk) ownerOnlySqliteFile(config.path);
    const dialect = nodeSqliteDialect(config.path);
    // SQLite makes the -wal and -shm at the first write, with the file's mode; ones an earlier
    // version left behind (a crash) are brought to it.
    if (onDisk) for (const suffix of ['-wal', '-shm']) tighten(`${config.path}${suffix}`);
    const db = new Kysely<Database>({ dialect });
    registerDataGeneration(db, () => dialect.dataGeneration());
    return db;
  }
  // pg only when PostgreSQL is configured: the embedded default need not hold it (docs/decisions/058).
  const pg = createRequire(import.meta.url)('pg') as typeof pgModule;
  const pool = new pg.Pool({ connectionString: config.url, max: 10 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
  pools.set(db, pool);
  return db;
}

/** What the metrics read of a PostgreSQL pool (decision 079): connections open, idle, and callers waiting for one. */
export interface PoolUse {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { readonly max?: number | undefined };
}

const pools = new WeakMap<Db, PoolUse>();

/** The pg pool under a PostgreSQL database made by createDatabase; undefined on SQLite. */
export function poolOf(db: Db): PoolUse | undefined {
  return pools.get(db);
}
