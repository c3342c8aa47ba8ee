import { PostgresAdapter, sql, type Kysely } from 'kysely';
import {
  hiddenColumn,
  SEARCH_COLUMNS,
  searchKeyColumns,
  type SearchKeyColumns,
  type SearchKeySource,
} from '../../modules/participants/search-keys.ts';

/**
 * docs/decisions/045. The participant search's keys: normalised "first last", "last first",
 * username, e-mail and account number, each in its own column with an index on (client_id,
 * key, id, key_hidden), so a prefix is one range of one index on both engines, a page is read
 * in index order, and the keys where the participant is shown at another key are skipped in
 * the index (key_hidden: see search-keys.ts).
 *
 * On PostgreSQL the columns are collated "C" (byte order, as SQLite's BINARY): a prefix is then
 * exactly the range [prefix, prefix || U+10FFFF) and the order is the same on both engines,
 * whatever the database's own collation.
 *
 * Existing rows are filled by the same function every writer uses, in batches of 1,000 by id;
 * the indexes are built after the fill (one sort instead of a million inserts). The defaults
 * are there only because SQLite adds a NOT NULL column to existing rows with one.
 */
const BATCH = 1_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const keyType = postgres ? sql`text collate "C"` : sql`text`;
  for (const column of SEARCH_COLUMNS) {
    await db.schema
      .alterTable('participants')
      .addColumn(column, keyType, (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('participants')
      .addColumn(hiddenColumn(column), 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await fillSearchKeys(db);
  for (const column of SEARCH_COLUMNS) {
    await db.schema
      .createIndex(`participants_${column}_idx`)
      .on('participants')
      .columns(['client_id', column, 'id', hiddenColumn(column)])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of SEARCH_COLUMNS) {
    await db.schema.dropIndex(`participants_${column}_idx`).execute();
    await db.schema.alterTable('participants').dropColumn(column).execute();
    await db.schema.alterTable('participants').dropColumn(hiddenColumn(column)).execute();
  }
}

type Row = SearchKeySource & { id: string };

/**
 * Every participant's keys from their values, a batch at a time in id order. On PostgreSQL the
 * migration already runs in one transaction; on SQLite each batch is its own.
 */
export async function fillSearchKeys(db: Kysely<unknown>): Promise<void> {
  // The migration sees no typed schema; these are the participants table's own columns.
  const typed = db as unknown as Kysely<{ participants: Row & SearchKeyColumns }>;
  let after = '';
  for (;;) {
    const rows = await typed
      .selectFrom('participants')
      .select(['id', 'username', 'first_name', 'last_name', 'email', 'account_number'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    const write = async (q: typeof typed) => {
      for (const row of rows) await q.updateTable('participants').set(searchKeyColumns(row)).where('id', '=', row.id).execute();
    };
    if (typed.isTransaction) await write(typed);
    else await typed.transaction().execute(write);
    after = rows[rows.length - 1]!.id;
  }
}
