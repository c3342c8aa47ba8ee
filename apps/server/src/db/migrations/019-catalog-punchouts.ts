import type { Kysely } from 'kysely';

/**
 * docs/decisions/043. One row per punch-out link issued: its jti, the session that asked for it
 * (the hash the sessions table keys on, so the link dies with the session) and when the catalog
 * redeemed it (null until then; set once, by a conditional update). Rows are pruned a day after
 * the link expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_punchouts')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('jti', 'varchar(36)', (c) => c.notNull())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('offering', 'varchar(16)', (c) => c.notNull())
    .addColumn('session_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('redeemed_at', 'varchar(32)')
    .addPrimaryKeyConstraint('catalog_punchouts_pk', ['client_id', 'jti'])
    .execute();
  await db.schema.createIndex('catalog_punchouts_expiry_idx').on('catalog_punchouts').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalog_punchouts').execute();
}
