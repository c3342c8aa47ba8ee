import type { Kysely } from 'kysely';

/**
 * docs/decisions/040. One row per limited subject ("sign-in-account:<username>", "ots:<id>", …):
 * how many slots are taken in its current window and when that window ends. A slot is taken by
 * one conditional upsert before the work, so parallel requests cannot all pass a count. It
 * replaces login_failures (one row per failure, counted then recorded), whose rows only ever
 * mattered for a quarter of an hour and are dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attempt_limits')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('taken', 'integer', (c) => c.notNull())
    .addColumn('window_ends_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('attempt_limits_pk', ['client_id', 'subject'])
    .execute();
  // Ended windows are purged by time.
  await db.schema.createIndex('attempt_limits_window_idx').on('attempt_limits').columns(['window_ends_at']).execute();
  await db.schema.dropTable('login_failures').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_subject_idx').on('login_failures').columns(['client_id', 'subject', 'failed_at']).execute();
  await db.schema.dropTable('attempt_limits').execute();
}
