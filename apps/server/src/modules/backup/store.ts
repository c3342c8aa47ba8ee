import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { rowCount } from '../../db/row-count.ts';

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

export interface Contents {
  clients: number;
  participants: number;
  ledgerEntries: number;
  /** The sum of the balances: what the restored ledger owes. */
  points: number;
  staff: number;
}

/** What a restored database holds, for the operator's summary (read-only over the other modules' tables, as the reports are). */
export async function contentsOf(db: Db): Promise<Contents> {
  const count = (table: 'clients' | 'participants' | 'ledger_entries' | 'staff') => rowCount(db, table);
  const points = await db
    .selectFrom('participants')
    .select((eb) => eb.fn.sum<string | number | null>('balance').as('total'))
    .executeTakeFirstOrThrow();
  return {
    clients: await count('clients'),
    participants: await count('participants'),
    ledgerEntries: await count('ledger_entries'),
    points: Number(points.total ?? 0),
    staff: await count('staff'),
  };
}
