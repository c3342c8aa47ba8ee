import type { Kysely } from 'kysely';

// Password reset links (issue 7). Only the SHA-256 of a link's secret is stored, so a copy of
// the database gives no working link away. Dialect-neutral, like 001.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('voided_at', 'text')
    .execute();
  // A new link voids the participant's older ones; old rows are purged by expiry.
  await db.schema.createIndex('password_resets_participant_idx').on('password_resets').columns(['client_id', 'participant_id']).execute();
  await db.schema.createIndex('password_resets_expiry_idx').on('password_resets').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('password_resets').execute();
}
