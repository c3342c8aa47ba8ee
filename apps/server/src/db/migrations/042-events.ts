import type { Kysely } from 'kysely';

/**
 * Issue 32 §1, events in (docs/decisions/097). Expand only: two new tables.
 * - participant_events: one row per event a client's system sent (POST events), taken once per
 *   client and the client's own id (the primary key: a concurrent twin fails on it); what was
 *   sent (type, participant, occurredAt, amount, currency, attributes, references), when it was
 *   received, the hash a repeat is compared by, and what it earned (credited and pending).
 * - participant_event_lines: what each rule earned on the event, by the rule's id and version,
 *   whether the points are pending (§3 releases them) and the ledger entry that credited them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('participant_events')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('amount', 'varchar(32)')
    .addColumn('currency', 'varchar(3)')
    .addColumn('attributes', 'text')
    .addColumn('refs', 'text')
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('pending_points', 'integer', (c) => c.notNull())
    .addColumn('key_id', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('participant_events_pk', ['client_id', 'id'])
    .execute();
  // A participant's events, newest first (the console's participant page).
  await db.schema
    .createIndex('participant_events_participant_idx')
    .on('participant_events')
    .columns(['client_id', 'participant_id', 'occurred_at'])
    .execute();

  await db.schema
    .createTable('participant_event_lines')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('rule_version', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('pending', 'integer', (c) => c.notNull())
    .addColumn('available_at', 'varchar(32)')
    .addColumn('entry_id', 'text')
    .addColumn('calculation', 'text', (c) => c.notNull())
    .addColumn('trims', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('participant_event_lines_pk', ['client_id', 'event_id', 'line'])
    .execute();
  // The pending lines due for release (§3's daily run).
  await db.schema
    .createIndex('participant_event_lines_pending_idx')
    .on('participant_event_lines')
    .columns(['pending', 'available_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('participant_event_lines_pending_idx').execute();
  await db.schema.dropTable('participant_event_lines').execute();
  await db.schema.dropIndex('participant_events_participant_idx').execute();
  await db.schema.dropTable('participant_events').execute();
}
