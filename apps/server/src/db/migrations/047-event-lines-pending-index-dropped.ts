import type { Kysely } from 'kysely';

/**
 * Issue 32 §4, events per second (docs/decisions/101): the index of every event line by
 * (pending, available_at), made with the lines (migration 042) for a release run that did not yet
 * exist, is dropped. The release run and GET user read through the partial indexes of migration
 * 043 (due_idx, open_idx), which hold only the lines still pending; the whole index was written
 * for each of an event's four or five lines and read by no query.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // contracts (decision 080): the version before never reads it either (its queries are the same).
  await db.schema.dropIndex('participant_event_lines_pending_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('participant_event_lines_pending_idx')
    .on('participant_event_lines')
    .columns(['pending', 'available_at'])
    .execute();
}
