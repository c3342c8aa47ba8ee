import type { Kysely } from 'kysely';

/**
 * Ledger entries say what they were in every language: a translation key with its values
 * (description stays as the operator's own words and the fallback). `reference` makes a
 * movement idempotent: a catalog order or an imported line is posted once per client.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_entries').addColumn('description_key', 'text').execute();
  await db.schema.alterTable('ledger_entries').addColumn('description_params', 'text').execute();
  await db.schema.alterTable('ledger_entries').addColumn('reference', 'text').execute();
  // Both engines let many rows have a null reference under a unique index.
  await db.schema.createIndex('ledger_entries_reference_uq').on('ledger_entries').columns(['client_id', 'reference']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('ledger_entries_reference_uq').execute();
  for (const column of ['reference', 'description_params', 'description_key']) {
    await db.schema.alterTable('ledger_entries').dropColumn(column).execute();
  }
}
