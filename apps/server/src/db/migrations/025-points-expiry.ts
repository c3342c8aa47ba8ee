import { sql, type Kysely } from 'kysely';

/**
 * Issue 19, points that expire (docs/decisions/057): the schema only; lots for the points already
 * earned are made by the next migration.
 * - clients.expiry_policy: JSON of the contract's ExpiryPolicy, `{"type":"none"}` by default;
 *   clients.time_zone: an IANA zone, whose end of day is when points expire; the days before an
 *   expiry when the reminder and the last-chance mail go out.
 * - point_lots: one per credit, with its expiry day (null: no date of its own — policy none, or
 *   inactivity, which expires the whole balance) and what remains of it. Debits consume lots
 *   oldest expiry first; the open lots' remainders sum to the balance.
 * - lot_consumptions: which lots each debit or expiry entry consumed, and how much: the ledger
 *   explains every point.
 * - expiry_notices: a reminder or last chance sent for a lot, so each goes once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('expiry_policy', 'text', (c) => c.notNull().defaultTo('{"type":"none"}'))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('expiry_reminder_days', 'integer', (c) => c.notNull().defaultTo(30))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('expiry_last_chance_days', 'integer', (c) => c.notNull().defaultTo(7))
    .execute();

  await db.schema
    .createTable('point_lots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    // The credit that made it; one lot per credit.
    .addColumn('entry_id', 'text', (c) => c.notNull().unique())
    .addColumn('earned_on', 'varchar(10)', (c) => c.notNull())
    .addColumn('expires_on', 'varchar(10)')
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('remaining', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // A participant's open lots in spending order; the expiry run's due lots per client.
  await db.schema
    .createIndex('point_lots_open_idx')
    .on('point_lots')
    .columns(['participant_id', 'expires_on', 'earned_on', 'id'])
    .where(sql.ref('remaining'), '>', 0)
    .execute();
  await db.schema
    .createIndex('point_lots_due_idx')
    .on('point_lots')
    .columns(['client_id', 'expires_on'])
    .where(sql.ref('remaining'), '>', 0)
    .execute();

  await db.schema
    .createTable('lot_consumptions')
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('lot_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('lot_consumptions_pk', ['entry_id', 'lot_id'])
    .execute();
  await db.schema.createIndex('lot_consumptions_lot_idx').on('lot_consumptions').column('lot_id').execute();

  await db.schema
    .createTable('expiry_notices')
    .addColumn('lot_id', 'text', (c) => c.notNull())
    // reminder | lastChance
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('expiry_notices_pk', ['lot_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('expiry_notices').execute();
  await db.schema.dropTable('lot_consumptions').execute();
  await db.schema.dropTable('point_lots').execute();
  for (const column of ['expiry_last_chance_days', 'expiry_reminder_days', 'time_zone', 'expiry_policy'])
    await db.schema.alterTable('clients').dropColumn(column).execute();
}
