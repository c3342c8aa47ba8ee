/**
 * Migrated, empty template databases, made once per test run by the global setup: each test
 * file's database is a copy (a file copy on SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL)
 * instead of a new database migrated from nothing, which cost most of a file's setup on
 * PostgreSQL (docs/decisions/060). The copies still run migrateToLatest, which finds nothing to do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { DatabaseConfig } from '../src/config.ts';

export interface Template {
  /** The SQLite file to copy, or the PostgreSQL database name to copy. */
  name: string;
  drop(): Promise<void>;
}

async function migrate(config: DatabaseConfig): Promise<void> {
  const db = createDatabase(config);
  try {
    await migrateToLatest(db);
  } finally {
    // A PostgreSQL template cannot be copied while anyone is connected to it; a SQLite file is whole once closed.
    await db.destroy();
  }
}

export async function createSqliteTemplate(): Promise<Template> {
  const dir = mkdtempSync(join(tmpdir(), 'rewards-template-'));
  const path = join(dir, 'template.db');
  await migrate({ dialect: 'sqlite', path });
  return { name: path, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function createPostgresTemplate(adminUrl: string): Promise<Template> {
  const name = `rewards_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate({ dialect: 'postgres', url: url.toString() });
  return { name, drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
