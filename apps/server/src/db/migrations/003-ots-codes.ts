import { sql, type Kysely } from 'kysely';

/**
 * On-the-spot codes (issue 5, section 2). Only a SHA-256 of the normalised code is kept, so a
 * copy of the database does not give away the codes still unused; the last four characters
 * stay readable for operators. Dialect-neutral, like 001: ids and times come from code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ots_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('code_hint', 'text', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('expires_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('unused', 'redeemed', 'void')`))
    .addColumn('redeemed_by', 'text', (c) => c.references('participants.id'))
    .addColumn('redeemed_at', 'text')
    .addColumn('batch', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('ots_codes_code_uq', ['client_id', 'code_hash'])
    .execute();
  await db.schema.createIndex('ots_codes_redeemed_by_idx').on('ots_codes').columns(['client_id', 'redeemed_by']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('ots_codes_redeemed_by_idx').execute();
  await db.schema.dropTable('ots_codes').execute();
}
