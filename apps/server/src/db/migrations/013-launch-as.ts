import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Launch-as (issue 9, docs/decisions/025): single-use launch tokens and the admin API's keys.
 * Only hashes of tokens and keys are stored: a copy of the database opens no session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // 'participant-session' (19 characters) is one of the audit log's actor kinds: 009 made the
  // column too short for it. SQLite does not enforce varchar lengths; PostgreSQL does.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table audit_log alter column actor_kind type varchar(32)`.execute(db);
  }
  await db.schema
    .createTable('launch_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)', (c) => c.notNull())
    .addColumn('issued_by', 'varchar(200)', (c) => c.notNull())
    .addColumn('issued_via', 'varchar(8)', (c) => c.notNull())
    .addColumn('issued_from', 'varchar(400)')
    .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('used_from', 'varchar(400)')
    /** The session the token opened (hash), so what that session opens is audited under the admin's name. */
    .addColumn('session_hash', 'varchar(64)')
    .execute();
  await db.schema.createIndex('launch_tokens_session_idx').on('launch_tokens').columns(['session_hash']).execute();
  await db.schema
    .createTable('admin_keys')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    /** One client's id, or null for a key of every client. */
    .addColumn('client_id', 'varchar(64)')
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_keys').execute();
  await db.schema.dropTable('launch_tokens').execute();
}
