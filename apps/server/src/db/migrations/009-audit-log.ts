import type { Kysely } from 'kysely';

/** Who did what to which client, when: operators' commands, imports, launch-as (issues 8 and 9). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)')
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('actor_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject', 'varchar(400)')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('origin', 'varchar(400)')
    .execute();
  await db.schema.createIndex('audit_log_client_at_idx').on('audit_log').columns(['client_id', 'at']).execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
