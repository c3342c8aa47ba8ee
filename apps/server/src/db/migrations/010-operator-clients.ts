import type { Kysely } from 'kysely';

/**
 * What `rewards clients` sets beyond the first schema (docs/decisions/020): the logo's media
 * type (SVG text, or a PNG kept as base64 in the same column) and the support desk's address.
 * Defaults keep every existing row and insert valid: an SVG logo and no address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('logo_type', 'text', (c) => c.notNull().defaultTo('image/svg+xml'))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('support_email', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('support_email').execute();
  await db.schema.alterTable('clients').dropColumn('logo_type').execute();
}
