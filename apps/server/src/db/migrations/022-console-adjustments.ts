import type { Kysely } from 'kysely';

/**
 * Issue 17: adjustments from the console (docs/decisions/048).
 * - ledger_entries.internal_note: why staff or an operator adjusted, never shown to the participant;
 * - ledger_entries.posted_by: who posted it (a staff e-mail, an operator's name@host), null for the rest;
 * - ledger_entries.request_id: the console form's key, unique per client, so a double click posts once;
 * - clients.agent_daily_adjustment_limit: the points (credits and debits together) one support agent
 *   may adjust per day in the client, set by its program manager.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_entries').addColumn('internal_note', 'text').execute();
  await db.schema.alterTable('ledger_entries').addColumn('posted_by', 'text').execute();
  await db.schema.alterTable('ledger_entries').addColumn('request_id', 'text').execute();
  await db.schema.createIndex('ledger_entries_request_id').unique().on('ledger_entries').columns(['client_id', 'request_id']).execute();
  await db.schema
    .alterTable('clients')
    .addColumn('agent_daily_adjustment_limit', 'integer', (c) => c.notNull().defaultTo(1000))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('agent_daily_adjustment_limit').execute();
  await db.schema.dropIndex('ledger_entries_request_id').execute();
  for (const column of ['request_id', 'posted_by', 'internal_note'])
    await db.schema.alterTable('ledger_entries').dropColumn(column).execute();
}
