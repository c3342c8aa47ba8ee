import type { Kysely } from 'kysely';

/**
 * Single sign-on with OpenID Connect (issue 9, docs/decisions/024). The sign-in type, logout type
 * and client site stay in `clients` (sso_type, sso_logout_type, site_name, site_url); the provider
 * lives in its own table so that the client secret is never read with the client's public data.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_sso')
    .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('issuer', 'varchar(2048)', (c) => c.notNull())
    .addColumn('oidc_client_id', 'varchar(400)', (c) => c.notNull())
    // AES-256-GCM with the installation's key (DATA_DIR/sso-secret-key), bound to the client id.
    .addColumn('client_secret_enc', 'text', (c) => c.notNull())
    .addColumn('scopes', 'varchar(400)', (c) => c.notNull())
    .addColumn('claim', 'varchar(100)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // One sign-in under way: created by sso/login, consumed (deleted) by the first callback.
  await db.schema
    .createTable('sso_logins')
    .addColumn('state', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('nonce', 'varchar(100)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(200)', (c) => c.notNull())
    // SHA-256 of the random value of the browser's binding cookie (login CSRF).
    .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('redirect_uri', 'varchar(2048)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_logins_expires_idx').on('sso_logins').column('expires_at').execute();

  // The one-minute, single-use id of /sso-authenticated?JSESSIONID=…, swapped by the first GET user.
  await db.schema
    .createTable('sso_handoffs')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('participant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_handoffs_expires_idx').on('sso_handoffs').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_handoffs').execute();
  await db.schema.dropTable('sso_logins').execute();
  await db.schema.dropTable('client_sso').execute();
}
