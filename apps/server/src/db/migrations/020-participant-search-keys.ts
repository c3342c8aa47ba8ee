import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { SEARCH_COLUMNS, searchKeyColumns, type SearchKeySource } from '../../modules/participants/search-keys.ts';

/**
 * docs/decisions/045. The participant search's keys: normalised username, "first last", "last
 * first", e-mail and account number, each in its own column with an index on (client_id, key,
 * id), so a prefix is one range of one index on both engines and a page is read in index order.
 *
 * On PostgreSQL the columns are collated "C" (byte order, as SQLite's BINARY): a prefix is then
 * exactly the range [prefix, prefix || U+10FFFF) and the order is the same on both engines,
 * whatever the database's own collation.
 *
 * Existing rows are filled by the same function every writer uses, in batches of 1,000 by id;
 * the indexes are built after the fill (one sort instead of a million inserts). The empty
 * default is there only because SQLite adds a NOT NULL column to existing rows with one.
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
  }
  await fillSearchKeys(db);
  for (const column of SEARCH_COLUMNS) {
    await db.schema.createIndex(`participants_${column}_idx`).on('participants').columns(['client_id', column, 'id']).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of SEARCH_COLUMNS) {
    await db.schema.dropIndex(`participants_${column}_idx`).execute();
    await db.schema.alterTable('participants').dropColumn(column).execute();
  }
}

type Row = SearchKeySource & { id: string };

/**
 * Every participant's keys from their values, a batch at a time in id order. On PostgreSQL the
 * migration already runs in one transaction; on SQLite each batch is its own.
 */
export async function fillSearchKeys(db: Kysely<unknown>): Promise<void> {
  // The migration sees no typed schema; these are the participants table's own columns.
  const typed = db as unknown as Kysely<{ participants: Row & Record<(typeof SEARCH_COLUMNS)[number], string> }>;
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
