import type { Kysely } from 'kysely';

/**
 * A catalog partner can be revoked (decision 065 amended): its row stays, because its orders and
 * reports name it, but its secret is gone and it serves no catalog again. Null: in service.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalog_partners').addColumn('revoked_at', 'varchar(40)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalog_partners').dropColumn('revoked_at').execute();
}
