import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { cachedRead } from '../../db/read-cache.ts';

type Reader = Kysely<Database> | Transaction<Database>;

/** The client's catalog of one kind (merchandise, experiences, travel), if configured. */
export async function findClientCatalog(db: Db, clientId: string, kind: string) {
  return cachedRead(db, `catalog:${clientId}:${kind}`, () =>
    db.selectFrom('client_catalogs').selectAll().where('client_id', '=', clientId).where('kind', '=', kind).executeTakeFirst(),
  );
}

/** The kinds of catalog a client has configured with a partner (the punch-out ones). */
export async function punchOutKinds(db: Db, clientId: string): Promise<Set<string>> {
  return cachedRead(db, `punchOutKinds:${clientId}`, async () => {
    const rows = await db
      .selectFrom('client_catalogs')
      .select('kind')
      .where('client_id', '=', clientId)
      .where('partner_id', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.kind));
  });
}

export async function findPartner(db: Db, clientId: string, partnerId: string) {
  return db.selectFrom('catalog_partners').selectAll().where('client_id', '=', clientId).where('id', '=', partnerId).executeTakeFirst();
}

export async function findOrder(db: Reader, clientId: string, partnerId: string, orderId: string) {
  return db
    .selectFrom('catalog_orders')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('partner_id', '=', partnerId)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

export async function findParticipantBalance(trx: Reader, clientId: string, participantId: string) {
  return trx
    .selectFrom('participants')
    .select(['id', 'balance', 'username'])
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .executeTakeFirst();
}

export async function insertOrder(trx: Transaction<Database>, row: Database['catalog_orders']): Promise<void> {
  await trx.insertInto('catalog_orders').values(row).execute();
}

export async function setOrderReply(
  trx: Transaction<Database>,
  clientId: string,
  partnerId: string,
  orderId: string,
  reply: string,
): Promise<void> {
  await trx
    .updateTable('catalog_orders')
    .set({ reply })
    .where('client_id', '=', clientId)
    .where('partner_id', '=', partnerId)
    .where('order_id', '=', orderId)
    .execute();
}

export async function insertPunchout(db: Db, row: Database['catalog_punchouts']): Promise<void> {
  await db.insertInto('catalog_punchouts').values(row).execute();
}

/** Links that expired before `before`: nobody can redeem them any more. */
export async function deleteExpiredPunchouts(db: Db, before: string): Promise<void> {
  await db.deleteFrom('catalog_punchouts').where('expires_at', '<', before).execute();
}

export async function findPunchout(db: Db, clientId: string, jti: string) {
  return db.selectFrom('catalog_punchouts').selectAll().where('client_id', '=', clientId).where('jti', '=', jti).executeTakeFirst();
}

/**
 * Marks the link redeemed if nobody has: true for the one caller that did. A conditional update
 * is atomic on both engines (PostgreSQL re-checks the condition after waiting on the row's
 * lock; SQLite writes one at a time), so of simultaneous redemptions exactly one wins.
 */
export async function claimPunchout(db: Db, clientId: string, jti: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('catalog_punchouts')
    .set({ redeemed_at: now })
    .where('client_id', '=', clientId)
    .where('jti', '=', jti)
    .where('redeemed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
