import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ClientsTable } from './tables.ts';
import { cachedRead } from '../../db/read-cache.ts';
import { compiledOnce } from '../../db/compiled-once.ts';

// Configuration read on every request: served from the read cache (docs/decisions/014).

export async function findClientIdByHostname(db: Db, hostname: string): Promise<string | undefined> {
  return cachedRead(db, `host:${hostname}`, async () => {
    const row = await db.selectFrom('client_hosts').select('client_id').where('hostname', '=', hostname).executeTakeFirst();
    return row?.client_id;
  });
}

export async function findClient(db: Db, clientId: string) {
  return cachedRead(db, `client:${clientId}`, () => db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst());
}

export async function listClientLocales(db: Db, clientId: string) {
  return cachedRead(db, `locales:${clientId}`, () =>
    db.selectFrom('client_locales').select(['code', 'dir', 'name']).where('client_id', '=', clientId).orderBy('position').execute(),
  );
}

export async function listMediaLabels(db: Db, clientId: string) {
  return cachedRead(db, `labels:${clientId}`, () =>
    db.selectFrom('media_labels').select(['locale', 'forms']).where('client_id', '=', clientId).orderBy('locale').execute(),
  );
}

/** Every client's portal address (decision 041), uncached: read once at a production start (decision 081). */
export async function listPortalUrls(db: Db): Promise<Array<{ id: string; portal_url: string }>> {
  return db.selectFrom('clients').select(['id', 'portal_url']).orderBy('id').execute();
}

// Exact reads and the writes of a client's settings (uncached: a change reads what it changes).
// `db` may be a transaction: the operator's change runs all of them in one (decision 089).

export async function readClient(db: Db, clientId: string) {
  return db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst();
}

/** Some columns of the client's row, exact (a settings section reads only its own). */
export async function readClientColumns<C extends keyof ClientsTable & string>(db: Db, clientId: string, columns: readonly C[]) {
  return db.selectFrom('clients').select(columns).where('id', '=', clientId).executeTakeFirst();
}

/**
 * Some columns of every client's row (or only `clientId`'s), by id, exact: the expiry run and the
 * reminders go through the clients with their settings as they stand (issue 30 §3).
 */
export async function listClientColumns<C extends keyof ClientsTable & string>(db: Db, columns: readonly C[], clientId?: string) {
  let query = db.selectFrom('clients').select(columns).orderBy('id');
  if (clientId !== undefined) query = query.where('id', '=', clientId);
  return query.execute();
}

// Every credit dates its lot by the client's policy as it stands in the posting's transaction
// (decision 057), never the cached row: compiled to SQL once (decision 014).
const expiryDating = compiledOnce((db: Db, clientId: string) =>
  db.selectFrom('clients').select(['expiry_policy', 'time_zone']).where('id', '=', clientId),
);

/** The client's expiry policy (JSON) and time zone, as stored; undefined for an unknown client. */
export async function expiryDatingOf(db: Db, clientId: string): Promise<{ expiry_policy: string; time_zone: string } | undefined> {
  return (await expiryDating(db, clientId)).rows[0];
}

export async function listClientIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('clients').select('id').orderBy('id').execute()).map((c) => c.id);
}

/** Ids and names, by id: every client's, or those of `ids` that exist. */
export async function clientNames(db: Db, ids?: readonly string[]): Promise<Array<{ id: string; name: string }>> {
  let query = db.selectFrom('clients').select(['id', 'name']);
  if (ids) {
    if (ids.length === 0) return [];
    query = query.where('id', 'in', [...ids]);
  }
  return query.orderBy('id').execute();
}

export async function listClientSummaries(db: Db) {
  return db.selectFrom('clients').select(['id', 'name', 'default_locale', 'created_at']).orderBy('id').execute();
}

export async function insertClient(db: Db, row: Insertable<ClientsTable>): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

export async function updateClient(db: Db, clientId: string, columns: Updateable<ClientsTable>): Promise<void> {
  if (Object.keys(columns).length > 0) await db.updateTable('clients').set(columns).where('id', '=', clientId).execute();
}

/** Every host name and whose it is, or one client's (by name). */
export async function listHosts(db: Db, clientId?: string): Promise<Array<{ hostname: string; client_id: string }>> {
  let query = db.selectFrom('client_hosts').select(['hostname', 'client_id']).orderBy('hostname');
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  return query.execute();
}

export async function hostOwner(db: Db, hostname: string): Promise<string | undefined> {
  return (await db.selectFrom('client_hosts').select('client_id').where('hostname', '=', hostname).executeTakeFirst())?.client_id;
}

export async function insertHost(db: Db, clientId: string, hostname: string): Promise<void> {
  await db.insertInto('client_hosts').values({ hostname, client_id: clientId }).execute();
}

export async function deleteHost(db: Db, hostname: string): Promise<void> {
  await db.deleteFrom('client_hosts').where('hostname', '=', hostname).execute();
}

/** The client's locales, exact, in menu order. */
export async function readClientLocales(db: Db, clientId: string) {
  return db.selectFrom('client_locales').select(['code', 'dir', 'name']).where('client_id', '=', clientId).orderBy('position').execute();
}

/** The list replaced as a whole, in the order given. */
export async function replaceClientLocales(
  db: Db,
  clientId: string,
  locales: ReadonlyArray<{ code: string; dir: string; name: string }>,
): Promise<void> {
  await db.deleteFrom('client_locales').where('client_id', '=', clientId).execute();
  await db
    .insertInto('client_locales')
    .values(locales.map((l, index) => ({ client_id: clientId, code: l.code, dir: l.dir, name: l.name, position: index + 1 })))
    .execute();
}

/** The client's media labels, exact, by locale. */
export async function readMediaLabels(db: Db, clientId: string) {
  return db.selectFrom('media_labels').select(['locale', 'forms']).where('client_id', '=', clientId).orderBy('locale').execute();
}

/** One locale's label set (forms as JSON), inserted or replaced. */
export async function saveMediaLabel(db: Db, clientId: string, locale: string, forms: string, exists: boolean): Promise<void> {
  if (exists) await db.updateTable('media_labels').set({ forms }).where('client_id', '=', clientId).where('locale', '=', locale).execute();
  else await db.insertInto('media_labels').values({ client_id: clientId, locale, forms }).execute();
}

/** The client's media labels replaced as a whole (forms as JSON). */
export async function replaceMediaLabels(
  db: Db,
  clientId: string,
  labels: ReadonlyArray<{ locale: string; forms: string }>,
): Promise<void> {
  await db.deleteFrom('media_labels').where('client_id', '=', clientId).execute();
  if (labels.length > 0)
    await db
      .insertInto('media_labels')
      .values(labels.map((l) => ({ client_id: clientId, locale: l.locale, forms: l.forms })))
      .execute();
}

/** Labels of locales no longer offered: they would never be shown. */
export async function deleteMediaLabelsOutside(db: Db, clientId: string, codes: readonly string[]): Promise<void> {
  await db.deleteFrom('media_labels').where('client_id', '=', clientId).where('locale', 'not in', codes).execute();
}
