import type { Kysely } from 'kysely';

/**
 * Catalogs (issue 5, section 3). Dialect-neutral, like 001.
 * - client_catalogs: per client, where each offering's catalog lives (absolute URL or a path
 *   on the portal's own origin) and which partner it is (the punch-out token's audience);
 *   kind 'travel' is the dropdown's plain travel link, with no partner.
 * - catalog_partners: the catalogs' credentials for the partner API; only a hash of the secret.
 * - catalog_orders: one row per partner order, the idempotency record of a debit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_partners')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('client_catalogs')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'text', (c) => c.references('catalog_partners.id'))
    .addPrimaryKeyConstraint('client_catalogs_pk', ['client_id', 'kind'])
    .execute();

  await db.schema
    .createTable('catalog_orders')
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('partner_id', 'text', (c) => c.notNull().references('catalog_partners.id'))
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    /** SHA-256 of the request as understood, to tell a repeat from a different order under the same id. */
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('reply', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_orders_pk', ['client_id', 'partner_id', 'order_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalog_orders').execute();
  await db.schema.dropTable('client_catalogs').execute();
  await db.schema.dropTable('catalog_partners').execute();
}
