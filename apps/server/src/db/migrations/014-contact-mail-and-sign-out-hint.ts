import type { Kysely } from 'kysely';

/**
 * docs/decisions/038.
 * 1. Contact messages reach the support desk by mail: an outbox row may carry a Reply-To (the
 *    participant's address, so the desk answers them directly), and a contact request names the
 *    outbox row that carries it (null: the client has no support address, or an older row).
 * 2. The provider's ID token of a single sign-on, sealed (AES-256-GCM with the installation's SSO
 *    key), kept with the portal session it started and deleted with it (the foreign key cascades
 *    from every path that deletes a session), then sent as id_token_hint on sign-out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('reply_to', 'text').execute();
  await db.schema.alterTable('contact_requests').addColumn('mail_id', 'text').execute();

  // Carried from the callback to the session the hand-off starts (at most a minute).
  await db.schema.alterTable('sso_handoffs').addColumn('id_token_sealed', 'text').execute();
  await db.schema
    .createTable('sso_session_tokens')
    .addColumn('session_hash', 'text', (c) => c.primaryKey().references('sessions.id_hash').onDelete('cascade'))
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id_token_sealed', 'text', (c) => c.notNull())
    // The session's absolute expiry: never kept past the longest the session can live.
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_session_tokens_expires_idx').on('sso_session_tokens').column('expires_at').execute();
  // Between the portal's sign-out (which ends the session) and the browser's arrival at sso/logout:
  // keyed by the SHA-256 of an HttpOnly cookie of that browser, single use, two minutes.
  await db.schema
    .createTable('sso_signouts')
    .addColumn('hint_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id_token_sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_signouts_expires_idx').on('sso_signouts').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_signouts').execute();
  await db.schema.dropTable('sso_session_tokens').execute();
  await db.schema.alterTable('sso_handoffs').dropColumn('id_token_sealed').execute();
  await db.schema.alterTable('contact_requests').dropColumn('mail_id').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('reply_to').execute();
}
