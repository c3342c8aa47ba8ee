import type { Kysely } from 'kysely';

/**
 * Issue 32 §2, earning rules (docs/decisions/095). Expand only: three new tables.
 * - earning_rules: one row per rule of a client, its id (a slug a promotion names) and its
 *   latest version number, which a change moves with one UPDATE (the row is the rule's lock:
 *   two changes at once get versions n+1 and n+2, never two n+1).
 * - earning_rule_versions: every version as written (the rule's JSON with its defaults), in force
 *   from effective_from; an event is computed with the versions in force at its occurredAt, so a
 *   change never alters what earlier events earned. The event type is fixed for a rule's life.
 * - earning_rule_counters: what a rule has given, per participant and cap period (day:2026-12-05,
 *   month:2026-12, ever) and in all (participant '' and period 'budget'): the rows a posting takes
 *   its caps and budgets from, locked and added to in the posting's transaction (bigint: a budget
 *   may pass 2^31 over the years).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('earning_rules')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('latest_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(255)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('earning_rules_pk', ['client_id', 'id'])
    .execute();

  await db.schema
    .createTable('earning_rule_versions')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('effective_from', 'varchar(32)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'varchar(255)', (c) => c.notNull())
    .addColumn('changed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('earning_rule_versions_pk', ['client_id', 'rule_id', 'version'])
    .execute();
  // The versions in force for an event: the client's, of its type, from before its time.
  await db.schema
    .createIndex('earning_rule_versions_force_idx')
    .on('earning_rule_versions')
    .columns(['client_id', 'event_type', 'effective_from'])
    .execute();

  await db.schema
    .createTable('earning_rule_counters')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('participant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('period', 'varchar(32)', (c) => c.notNull())
    .addColumn('points', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('earning_rule_counters_pk', ['client_id', 'rule_id', 'participant_id', 'period'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('earning_rule_counters').execute();
  await db.schema.dropIndex('earning_rule_versions_force_idx').execute();
  await db.schema.dropTable('earning_rule_versions').execute();
  await db.schema.dropTable('earning_rules').execute();
}
