import type { Kysely } from 'kysely';

/**
 * Staff sign-in through the installation's OpenID provider (issue 20 §6, docs/decisions/068).
 * - staff_oidc_logins: a sign-in under way, keyed by its random state (single use): the nonce,
 *   the PKCE verifier, the SHA-256 of the browser's binding cookie, the max_age asked for.
 * - staff_oidc_subjects: the provider's subject linked to a staff account at its first sign-in
 *   (one subject per issuer per person), so an address later given to someone else at the
 *   provider does not open the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff_oidc_logins')
    .addColumn('state', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('max_age', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_oidc_logins_expires_idx').on('staff_oidc_logins').columns(['expires_at']).execute();

  await db.schema
    .createTable('staff_oidc_subjects')
    .addColumn('staff_id', 'varchar(36)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('issuer', 'varchar(500)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('linked_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('staff_oidc_subjects_pk', ['staff_id', 'issuer'])
    .addUniqueConstraint('staff_oidc_subjects_subject_uq', ['issuer', 'subject'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('staff_oidc_subjects').execute();
  await db.schema.dropTable('staff_oidc_logins').execute();
}
