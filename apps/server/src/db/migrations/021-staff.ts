import type { Kysely } from 'kysely';

/**
 * The staff console's people (issue 17, docs/decisions/046): staff, not participants. Secrets
 * at rest are hashed (passwords with argon2id; enrolment tokens, recovery codes and session ids
 * with SHA-256) or sealed (the TOTP secret, AES-256-GCM with the installation's key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    /** The address lower-cased: unique whatever its case. */
    .addColumn('email_key', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    /** Null until the person has enrolled (and again after a reset). */
    .addColumn('password_hash', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner', 'integer', (c) => c.notNull())
    .addColumn('totp_secret_sealed', 'text')
    /** The last TOTP time step accepted: a code is never taken twice. */
    .addColumn('totp_last_step', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('enrolled_at', 'varchar(32)')
    .addColumn('last_sign_in_at', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('staff_roles')
    .addColumn('staff_id', 'varchar(36)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addColumn('granted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('granted_by', 'varchar(200)', (c) => c.notNull())
    .addPrimaryKeyConstraint('staff_roles_pk', ['staff_id', 'client_id'])
    .execute();
  await db.schema.createIndex('staff_roles_client_idx').on('staff_roles').columns(['client_id']).execute();

  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('staff_id', 'varchar(36)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addPrimaryKeyConstraint('staff_recovery_codes_pk', ['staff_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('staff_enrolments')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('staff_id', 'varchar(36)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    /** Set by the enrolment's password step; moved to the staff row when the code is confirmed. */
    .addColumn('password_hash', 'text')
    .addColumn('totp_secret_sealed', 'text')
    /** The passkey registration's challenge, while one is asked for. */
    .addColumn('webauthn_challenge', 'varchar(128)')
    .addColumn('used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('staff_enrolments_staff_idx').on('staff_enrolments').columns(['staff_id']).execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('staff_id', 'varchar(36)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_from', 'varchar(400)')
    .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('idle_expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'varchar(32)', (c) => c.notNull())
    /** Null: half signed in (the password only), which can do nothing but pass the second factor. */
    .addColumn('second_factor_at', 'varchar(32)')
    /** A half session's passkey challenge, while one is asked for (taken by the one check that uses it). */
    .addColumn('webauthn_challenge', 'varchar(128)')
    .execute();
  await db.schema
    .createTable('staff_passkeys')
    /** The credential id (base64url), as the authenticator gave it. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'varchar(36)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    /** The COSE public key, base64url: a public key, nothing secret. */
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    /** JSON list of transports (internal, usb, hybrid …), for the browser's hints. */
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('staff_passkeys_staff_idx').on('staff_passkeys').columns(['staff_id']).execute();
  await db.schema.createIndex('staff_sessions_staff_idx').on('staff_sessions').columns(['staff_id']).execute();
  await db.schema.createIndex('staff_sessions_expiry_idx').on('staff_sessions').columns(['absolute_expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['staff_passkeys', 'staff_sessions', 'staff_enrolments', 'staff_recovery_codes', 'staff_roles', 'staff'])
    await db.schema.dropTable(table).execute();
}
