import type { Kysely } from 'kysely';

/**
 * Issue 20, section 5: the console's reports (docs/decisions/067).
 * - report_watermarks: per client, the created_at up to which the two month tables below hold
 *   the ledger and the catalog orders; what was written since is read live and folded in later.
 * - report_ledger_months: per client, month of occurred_at (UTC, YYYY-MM) and ledger kind, the
 *   sum of the credits, of the debits and the number of entries.
 * - report_order_months: per client, month of created_at and catalog partner, orders and points.
 * - Indexes the reports read by: the ledger and the orders by creation time (the live part since
 *   the watermark), participants by status, sign-ins by time, codes by batch and status.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('report_watermarks')
    .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('through', 'varchar(32)', (c) => c.notNull())
    .addColumn('refreshed_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('report_ledger_months')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .addColumn('debits', 'bigint', (c) => c.notNull())
    .addColumn('entries', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_ledger_months_pk', ['client_id', 'month', 'kind'])
    .execute();
  await db.schema
    .createTable('report_order_months')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('partner_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('orders', 'bigint', (c) => c.notNull())
    .addColumn('points', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_order_months_pk', ['client_id', 'month', 'partner_id'])
    .execute();
  await db.schema.createIndex('reports_ledger_created_idx').on('ledger_entries').columns(['client_id', 'created_at']).execute();
  await db.schema.createIndex('reports_orders_created_idx').on('catalog_orders').columns(['client_id', 'created_at']).execute();
  await db.schema.createIndex('reports_participants_status_idx').on('participants').columns(['client_id', 'status']).execute();
  await db.schema.createIndex('reports_sign_ins_last_idx').on('participant_sign_ins').columns(['client_id', 'last_at']).execute();
  await db.schema
    .createIndex('reports_ots_batch_idx')
    .on('ots_codes')
    .columns(['client_id', 'batch', 'status', 'expires_at', 'value'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'reports_ots_batch_idx',
    'reports_sign_ins_last_idx',
    'reports_participants_status_idx',
    'reports_orders_created_idx',
    'reports_ledger_created_idx',
  ])
    await db.schema.dropIndex(index).execute();
  for (const table of ['report_order_months', 'report_ledger_months', 'report_watermarks']) await db.schema.dropTable(table).execute();
}
