import { sql, type Kysely, type Transaction } from 'kysely';
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

/** A participant's newest catalog orders with their partner's name (the console's participant page). */
export async function participantOrders(db: Reader, clientId: string, participantId: string, limit: number) {
  return db
    .selectFrom('catalog_orders as o')
    .leftJoin('catalog_partners as p', (join) => join.onRef('p.client_id', '=', 'o.client_id').onRef('p.id', '=', 'o.partner_id'))
    .select(['o.partner_id', 'p.name as partner_name', 'o.order_id', 'o.points', 'o.created_at'])
    .where('o.client_id', '=', clientId)
    .where('o.participant_id', '=', participantId)
    .orderBy('o.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** A client's catalog orders created in [from, to) (to: undefined, up to now) per month and partner: the reports' fold. */
export async function orderMonthsCreated(db: Reader, clientId: string, from: string, to?: string) {
  let query = db
    .selectFrom('catalog_orders')
    .select([
      sql<string>`substr(created_at, 1, 7)`.as('month'),
      'partner_id',
      sql<string>`count(*)`.as('orders'),
      sql<string>`sum(points)`.as('points'),
    ])
    .where('client_id', '=', clientId)
    .where('created_at', '>=', from);
  if (to !== undefined) query = query.where('created_at', '<', to);
  const rows = await query.groupBy([sql`substr(created_at, 1, 7)`, 'partner_id']).execute();
  return rows.map((r) => ({ month: r.month, partnerId: r.partner_id, orders: Number(r.orders ?? 0), points: Number(r.points ?? 0) }));
}
