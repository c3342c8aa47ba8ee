import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { DatabaseConfig } from '../src/config.ts';

export type Dialect = 'sqlite' | 'postgres';

/** The engines this run covers (DIALECTS, default sqlite,postgres). */
export const dialects: Dialect[] = inject('dialects');

export interface TestDatabase {
  db: Db;
  config: DatabaseConfig;
  drop(): Promise<void>;
}

/**
 * A new, migrated, empty database of one engine: a temp file, or a fresh PostgreSQL database,
 * each a copy of the run's migrated template (test/template-databases.ts). migrateToLatest still
 * runs, as on every start of the portal, and finds the copy up to date.
 */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const place =
    dialect === 'sqlite' ? createSqliteFile(inject('sqliteTemplate')) : await createEmptyPostgresDatabase(inject('postgresTemplate'));
  const config: DatabaseConfig = dialect === 'sqlite' ? { dialect, path: place.url } : { dialect, url: place.url };
  const db = createDatabase(config);
  await migrateToLatest(db);
  return {
    db,
    config,
    drop: async () => {
      await db.destroy();
      await place.drop();
    },
  };
}

/** A path for a new SQLite file in a temp folder (a copy of `template` if given), and how to remove it. */
function createSqliteFile(template = ''): { url: string; drop(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'rewards-test-'));
  const path = join(dir, 'rewards.db');
  if (template) copyFileSync(template, path);
  return { url: path, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A new database on the run's PostgreSQL server, and how to drop it: with nothing in it, or a copy
 * of the database `template`.
 */
export async function createEmptyPostgresDatabase(template = ''): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('testDatabaseUrl');
  if (!adminUrl) throw new Error('DIALECTS includes postgres but no test server was started');
  const name = `rewards_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
