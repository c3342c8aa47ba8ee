import type { Kysely } from 'kysely';

/**
 * Issue 29 §3, webhooks (docs/decisions/084).
 * - webhook_endpoints: a client's receiving URL, the event kinds it takes, and its signing secret
 *   sealed with the installation's key (the SSO secrets' box); during a rotation the previous
 *   secret signs too, until previous_secret_until.
 * - webhook_events: the outbox, written in the transaction of the change; its id is the
 *   `webhook-id` of every delivery and retry, its payload the exact body sent.
 * - webhook_deliveries: one per event and endpoint, claimed by one worker at a time
 *   (claimed_by/claimed_until), tried on a schedule until delivered or failed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('event_kinds', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_until', 'varchar(32)')
    .addColumn('created_by', 'varchar(320)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('disabled_at', 'varchar(32)')
    .addColumn('disabled_reason', 'text')
    .addColumn('failing_since', 'varchar(32)')
    .execute();
  await db.schema.createIndex('webhook_endpoints_client_idx').on('webhook_endpoints').columns(['client_id', 'enabled']).execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('username', 'varchar(255)')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_events_client_idx').on('webhook_events').columns(['client_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('endpoint_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    // The event's, copied so the per-participant order is one indexed look at this table.
    .addColumn('username', 'varchar(255)')
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(128)')
    .addColumn('claimed_until', 'varchar(32)')
    .addColumn('last_attempt_at', 'varchar(32)')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('delivered_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['event_id', 'endpoint_id'])
    .unique()
    .execute();
  // The workers look for due rows by status and time.
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  // An endpoint's listing, newest first, and the order per participant (an earlier pending event holds a later one back).
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'event_id']).execute();
  await db.schema
    .createIndex('webhook_deliveries_order_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'username', 'status', 'event_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_events', 'webhook_endpoints']) await db.schema.dropTable(table).execute();
}
