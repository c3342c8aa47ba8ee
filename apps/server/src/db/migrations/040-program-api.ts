import { sql, type Kysely } from 'kysely';

/**
 * Issue 29 §2, the program API (docs/decisions/085).
 * - program_api_postings: one row per points posting of the API, keyed by the client and the
 *   caller's externalId. Written in the ledger entry's transaction, first: the primary key takes
 *   the id before the work, so a posting is made once however often and however simultaneously
 *   it is sent; the body's hash tells a repeat from another posting under the same id, and the
 *   reply is what every repeat is answered. The reversal columns are set once (the update that
 *   finds them empty wins).
 * - participants.updated_at: when an operator, staff, the API or the participant last changed
 *   what the API shows of them (profile, status, offerings, programs, language), for
 *   `GET participants?updatedSince=`. Nullable (the version before does not write it: expand
 *   only, decision 080), backfilled with created_at; readers take coalesce(updated_at, created_at),
 *   which the index serves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('program_api_postings')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('participant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('key_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reply', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('reversed_points', 'integer')
    .addColumn('reversal_entry_id', 'varchar(64)')
    .addColumn('reversed_at', 'varchar(32)')
    .addPrimaryKeyConstraint('program_api_postings_pk', ['client_id', 'external_id'])
    .execute();
  // The statement names the externalId of the entries the API posted or reversed.
  await db.schema.createIndex('program_api_postings_entry_idx').on('program_api_postings').columns(['client_id', 'entry_id']).execute();
  await db.schema
    .createIndex('program_api_postings_reversal_idx')
    .on('program_api_postings')
    .columns(['client_id', 'reversal_entry_id'])
    .execute();

  await db.schema.alterTable('participants').addColumn('updated_at', 'varchar(40)').execute();
  await sql`update participants set updated_at = created_at where updated_at is null`.execute(db);
  await sql`create index participants_updated_idx on participants (client_id, (coalesce(updated_at, created_at)), id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('participants_updated_idx').execute();
  await db.schema.alterTable('participants').dropColumn('updated_at').execute();
  await db.schema.dropTable('program_api_postings').execute();
}
