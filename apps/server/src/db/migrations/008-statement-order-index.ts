import type { Kysely } from 'kysely';

/**
 * The statement reads a participant's entries ordered by (occurred_at, created_at, id). The
 * index ended at occurred_at, so every statement was sorted in a temporary B-tree: a third of
 * its database time (docs/decisions/014). The new index has the whole order; the old one is a
 * prefix of it, so it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('ledger_entries_statement_idx')
    .on('ledger_entries')
    .columns(['client_id', 'participant_id', 'occurred_at', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('ledger_entries_participant_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('ledger_entries_participant_idx')
    .on('ledger_entries')
    .columns(['client_id', 'participant_id', 'occurred_at'])
    .execute();
  await db.schema.dropIndex('ledger_entries_statement_idx').execute();
}
