import type { Kysely } from 'kysely';

/**
 * Issue 17, the console's reads (docs/decisions/047).
 * - participant_sign_ins: when each participant last signed in. Written with the session, in its
 *   transaction, by the one function that inserts sessions (sessions/store.ts), so every way in
 *   (password, activation, single sign-on) counts and launch-as does not. A narrow table of its
 *   own, not a column of participants: on PostgreSQL an update of participants (ten indexes) is rarely HOT.
 * - audit_log: the indexes the console's audit trail walks, newest first with its tie-breaker:
 *   per client, over all clients (owners), and per client and subject (a participant's entries).
 * - mail_outbox, catalog_orders: a participant's rows found by index for their page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('participant_sign_ins')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('last_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('participant_sign_ins_pk', ['client_id', 'participant_id'])
    .execute();
  await db.schema.createIndex('audit_log_client_at_id_idx').on('audit_log').columns(['client_id', 'at', 'id']).execute();
  await db.schema.createIndex('audit_log_at_id_idx').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_client_subject_at_idx').on('audit_log').columns(['client_id', 'subject', 'at', 'id']).execute();
  // Superseded by the two above (the same leading columns, with the tie-breaker).
  await db.schema.dropIndex('audit_log_client_at_idx').execute();
  await db.schema.dropIndex('audit_log_at_idx').execute();
  await db.schema
    .createIndex('mail_outbox_participant_idx')
    .on('mail_outbox')
    .columns(['client_id', 'participant_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('catalog_orders_participant_idx')
    .on('catalog_orders')
    .columns(['client_id', 'participant_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('catalog_orders_participant_idx').execute();
  await db.schema.dropIndex('mail_outbox_participant_idx').execute();
  await db.schema.createIndex('audit_log_client_at_idx').on('audit_log').columns(['client_id', 'at']).execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at']).execute();
  for (const index of ['audit_log_client_subject_at_idx', 'audit_log_at_id_idx', 'audit_log_client_at_id_idx'])
    await db.schema.dropIndex(index).execute();
  await db.schema.dropTable('participant_sign_ins').execute();
}
