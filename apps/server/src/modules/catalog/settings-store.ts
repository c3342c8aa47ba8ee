import type { Db } from '../../db/database.ts';
import type { CatalogPartnersTable } from './tables.ts';

/*
 * A client's catalogs and partners as its settings set them (the console's PUTs, `rewards clients
 * update`; decision 089), exact and uncached: a change reads what it changes. `db` may be a
 * transaction. The clients module calls these through service.ts.
 */

/** The client's catalogs (merchandise, experiences, travel). */
export async function readClientCatalogs(db: Db, clientId: string) {
  return db.selectFrom('client_catalogs').select(['kind', 'url', 'partner_id']).where('client_id', '=', clientId).execute();
}

/** A catalog set to `url` and `partnerId`, or removed with null. */
export async function setClientCatalog(
  db: Db,
  clientId: string,
  kind: string,
  value: { url: string; partnerId: string | null } | null,
): Promise<void> {
  await db.deleteFrom('client_catalogs').where('client_id', '=', clientId).where('kind', '=', kind).execute();
  if (value !== null)
    await db.insertInto('client_catalogs').values({ client_id: clientId, kind, url: value.url, partner_id: value.partnerId }).execute();
}

/** The kinds of the client's catalogs that name the partner. */
export async function catalogsNaming(db: Db, clientId: string, partnerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('client_catalogs')
    .select('kind')
    .where('client_id', '=', clientId)
    .where('partner_id', '=', partnerId)
    .orderBy('kind')
    .execute();
  return rows.map((r) => r.kind);
}

/** The client's partners, revoked ones too; never a hash. */
export async function listCatalogPartners(db: Db, clientId: string) {
  return db
    .selectFrom('catalog_partners')
    .select(['id', 'name', 'created_at', 'revoked_at'])
    .where('client_id', '=', clientId)
    .orderBy('id')
    .execute();
}

/** Whose a partner id is, and whether it was revoked; undefined when no client has it. */
export async function findCatalogPartner(db: Db, partnerId: string) {
  return db.selectFrom('catalog_partners').select(['client_id', 'revoked_at']).where('id', '=', partnerId).executeTakeFirst();
}

export async function insertCatalogPartner(db: Db, row: CatalogPartnersTable): Promise<void> {
  await db.insertInto('catalog_partners').values(row).execute();
}

/** The partner's secret hash replaced (an empty one matches no secret), and its revocation when given. */
export async function updateCatalogPartner(
  db: Db,
  clientId: string,
  partnerId: string,
  columns: { secret_hash: string; revoked_at?: string },
): Promise<void> {
  await db.updateTable('catalog_partners').set(columns).where('client_id', '=', clientId).where('id', '=', partnerId).execute();
}
