import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite only: auto_vacuum = INCREMENTAL, so that the space of deleted rows can be given back to
 * the file system (`pragma incremental_vacuum`) instead of staying in the file's freelist for
 * ever: an import discarded left its 100 MB behind (issue 27 §4, docs/decisions/064 amended
 * 2026-11-28; modules/imports/store.ts releaseStagingSpace). A database that has tables can only
 * switch with a VACUUM, which rewrites the file once: it needs the file's size free on disk (and
 * as much again in the WAL) and holds the database while it runs (measured in decision 064's
 * amendment). Nothing changes on PostgreSQL, whose VACUUM makes space reusable by itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  // SQLite's migrations run outside a transaction (Kysely's adapter has no transactional DDL), which VACUUM needs.
  await sql`pragma auto_vacuum = incremental`.execute(db);
  await sql`vacuum`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`pragma auto_vacuum = none`.execute(db);
  await sql`vacuum`.execute(db);
}
