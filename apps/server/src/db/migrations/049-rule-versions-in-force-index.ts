import type { Kysely } from 'kysely';

/**
 * Issue 32 §4, events per second (docs/decisions/101): an event reads, for each rule of its type,
 * the version in force at its occurredAt. Every edit of a rule is a version; by this index that
 * is one seek a rule however many versions it has gathered (it read them all: 26 µs an event at
 * one or two versions a rule, 470 µs at twenty).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('earning_rule_versions_rule_force_idx')
    .ifNotExists()
    .on('earning_rule_versions')
    .columns(['client_id', 'rule_id', 'effective_from', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('earning_rule_versions_rule_force_idx').ifExists().execute();
}
