import { sql, type Kysely } from 'kysely';

/**
 * API keys per client (issue 29 §1, docs/decisions/083): only a hash of each key's secret is
 * kept. A name is unique per client among keys not revoked (a partial unique index, on both
 * engines), so a revoked key's name can be given again. Each key has a token bucket, one row
 * taken by one conditional UPDATE … RETURNING before the work; times in it are milliseconds
 * (numbers) so the statement can compute the refill. The first use of each scope by a key is a
 * row, so it is audited once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(32)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('rate_per_second', 'double precision', (c) => c.notNull())
    .addColumn('burst', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('revoked_by', 'varchar(200)')
    .addColumn('revoke_reason', 'varchar(500)')
    .execute();
  await db.schema
    .createIndex('api_keys_live_name_idx')
    .unique()
    .on('api_keys')
    .columns(['client_id', 'name'])
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  await db.schema.createIndex('api_keys_client_idx').on('api_keys').columns(['client_id', 'created_at']).execute();
  await db.schema
    .createTable('api_key_buckets')
    .addColumn('key_id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('refilled_at_ms', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('api_key_scope_uses')
    .addColumn('key_id', 'varchar(16)', (c) => c.notNull())
    .addColumn('scope', 'varchar(40)', (c) => c.notNull())
    .addColumn('first_used_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_scope_uses_pk', ['key_id', 'scope'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_key_scope_uses').execute();
  await db.schema.dropTable('api_key_buckets').execute();
  await db.schema.dropTable('api_keys').execute();
}
