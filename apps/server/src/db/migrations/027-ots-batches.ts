import type { Kysely } from 'kysely';

/**
 * Issue 20 §1, code batches from the console (docs/decisions/063).
 * - ots_batches: one row per print run name in a client, its primary key the claim on the name:
 *   of two runs of one name at once (two staff, or the console and `rewards codes generate`),
 *   exactly one inserts it; the other inserts nothing and is refused. No code is kept here.
 *   The runs that exist already are copied in (their first code's time).
 * - ots_codes (client_id, batch, code_hint): a run's codes counted and listed by index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ots_batches')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('ots_batches_pk', ['client_id', 'name'])
    .execute();
  await db.schema.createIndex('ots_codes_batch_idx').on('ots_codes').columns(['client_id', 'batch', 'code_hint']).execute();
  const typed = db as Kysely<{
    ots_codes: { client_id: string; batch: string | null; created_at: string };
    ots_batches: { client_id: string; name: string; created_at: string };
  }>;
  await typed
    .insertInto('ots_batches')
    .columns(['client_id', 'name', 'created_at'])
    .expression(
      typed
        .selectFrom('ots_codes')
        .select((eb) => ['client_id', eb.ref('batch').$notNull().as('name'), eb.fn.min('created_at').as('created_at')])
        .where('batch', 'is not', null)
        .groupBy(['client_id', 'batch']),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('ots_codes_batch_idx').execute();
  await db.schema.dropTable('ots_batches').execute();
}
