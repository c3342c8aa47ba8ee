import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { createRequire } from 'node:module';
import type pgModule from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { registerDataGeneration } from './data-generation.ts';
import { nodeSqliteDialect } from './node-sqlite-dialect.ts';
import { withPreparedStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export function createDatabase(config: DatabaseConfig): Db {
  if (config.dialect === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
    const dialect = nodeSqliteDialect(config.path);
    const db = new Kysely<Database>({ dialect });
    registerDataGeneration(db, () => dialect.dataGeneration());
    return db;
  }
  // pg only when PostgreSQL is configured: the embedded default need not hold it (docs/decisions/029).
  const pg = createRequire(import.meta.url)('pg') as typeof pgModule;
  const pool = new pg.Pool({ connectionString: config.url, max: 10 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
}
