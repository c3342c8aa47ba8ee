import type { Db } from '../../db/database.ts';
import { cachedRead, cachedReadAtHand } from '../../db/read-cache.ts';

// Configuration read on every request: served from the read cache (docs/decisions/014).

/** findClientIdByHostname's answer when the read cache has it now (no promise); else undefined. */
export function clientIdAtHand(db: Db, hostname: string): string | undefined {
  return cachedReadAtHand<string>(db, `host:${hostname}`);
}

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
