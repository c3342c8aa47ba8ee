import type { Kysely } from 'kysely';

/**
 * Issue 32 §1, declared event types (docs/decisions/100). Expand only: one new table.
 * - client_event_types: the types a client's program manager declared (course.completed), with
 *   a description, who and when, and once retired who, when and why. No back-fill: a type an
 *   earning rule earns on counts as declared without a row (decision 097), so rules written
 *   before this migration and after it keep working alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_event_types')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('declared_at', 'varchar(32)')
    .addColumn('declared_by', 'text')
    .addColumn('retired_at', 'varchar(32)')
    .addColumn('retired_by', 'text')
    .addColumn('retired_reason', 'text')
    .addPrimaryKeyConstraint('client_event_types_pk', ['client_id', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_event_types').execute();
}
