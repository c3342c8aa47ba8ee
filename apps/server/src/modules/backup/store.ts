import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Tables in the PostgreSQL database's schema: a database that has any is live, not a new one to restore into. */
export async function postgresTables(db: Db): Promise<string[]> {
  const rows = await sql<{ tablename: string }>`
    select tablename from pg_catalog.pg_tables where schemaname = current_schema() order by tablename`.execute(db);
  return rows.rows.map((r) => r.tablename);
}

/** Drops every table of the schema, in one transaction (restore --force over a live PostgreSQL database). */
export async function dropPostgresTables(db: Db, tables: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of tables) await sql`drop table if exists ${sql.table(table)} cascade`.execute(trx);
  });
}
