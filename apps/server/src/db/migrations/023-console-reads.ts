import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue 17, the console's reads (docs/decisions/047).
 * - participant_sign_ins: when each participant last signed in. Written by a trigger on the
 *   insert of a session that is not launch-as, so the sign-in path sends no statement more and
 *   every way in (password, activation, single sign-on) counts. A narrow table of its own, not a
 *   column of participants: on PostgreSQL an update of participants (ten indexes) is rarely HOT.
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
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function record_participant_sign_in() returns trigger language plpgsql as $$
      begin
        insert into participant_sign_ins (client_id, participant_id, last_at) values (new.client_id, new.participant_id, new.created_at)
          on conflict (client_id, participant_id) do update set last_at = excluded.last_at;
        return null;
      end $$`.execute(db);
    await sql`create trigger sessions_record_sign_in after insert on sessions for each row when (new.admin_as_user = 0) execute function record_participant_sign_in()`.execute(db);
  } else {
    await sql`create trigger sessions_record_sign_in after insert on sessions when new.admin_as_user = 0 begin
        insert into participant_sign_ins (client_id, participant_id, last_at) values (new.client_id, new.participant_id, new.created_at)
          on conflict (client_id, participant_id) do update set last_at = excluded.last_at;
      end`.execute(db);
  }
  await db.schema.createIndex('audit_log_client_at_id_idx').on('audit_log').columns(['client_id', 'at', 'id']).execute();
  await db.schema.createIndex('audit_log_at_id_idx').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_client_subject_at_idx').on('audit_log').columns(['client_id', 'subject', 'at', 'id']).execute();
  // Superseded by the two above (the same leading columns, with the tie-breaker).
  await db.schema.dropIndex('audit_log_client_at_idx').execute();
  await db.schema.dropIndex('audit_log_at_idx').execute();
  await db.schema.createIndex('mail_outbox_participant_idx').on('mail_outbox').columns(['client_id', 'participant_id', 'created_at']).execute();
  await db.schema.createIndex('catalog_orders_participant_idx').on('catalog_orders').columns(['client_id', 'participant_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('catalog_orders_participant_idx').execute();
  await db.schema.dropIndex('mail_outbox_participant_idx').execute();
  await db.schema.createIndex('audit_log_client_at_idx').on('audit_log').columns(['client_id', 'at']).execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at']).execute();
  for (const index of ['audit_log_client_subject_at_idx', 'audit_log_at_id_idx', 'audit_log_client_at_id_idx']) await db.schema.dropIndex(index).execute();
  await sql`drop trigger sessions_record_sign_in${sql.raw(db.getExecutor().adapter instanceof PostgresAdapter ? ' on sessions' : '')}`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function record_participant_sign_in()`.execute(db);
  await db.schema.dropTable('participant_sign_ins').execute();
}
