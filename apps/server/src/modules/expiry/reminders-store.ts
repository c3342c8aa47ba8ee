import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/** reminder: N days ahead · lastChance: the last days before. Stored in expiry_notices.kind. */
export type NoticeKind = 'reminder' | 'lastChance';

/**
 * A page of the client's participants, by id after `after`, who have an open lot dated from
 * `from` to `until`: those a notice may be due for. Served by point_lots_due_idx.
 */
export async function pageParticipantsWithDatedLots(
  db: Db,
  clientId: string,
  from: string,
  until: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('point_lots')
    .select('participant_id')
    .distinct()
    .where('client_id', '=', clientId)
    .where('remaining', '>', 0)
    .where('expires_on', '>=', from)
    .where('expires_on', '<=', until)
    .where('participant_id', '>', after)
    .orderBy('participant_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.participant_id);
}

/** A participant's open lots, with when each notice went for it (null: not yet). */
export async function listOpenLotsWithNotices(db: Db, clientId: string, participantId: string) {
  const rows = await db
    .selectFrom('point_lots as l')
    .leftJoin('expiry_notices as r', (join) => join.onRef('r.lot_id', '=', 'l.id').on('r.kind', '=', 'reminder'))
    .leftJoin('expiry_notices as c', (join) => join.onRef('c.lot_id', '=', 'l.id').on('c.kind', '=', 'lastChance'))
    .select(['l.id', 'l.expires_on', 'l.remaining', 'r.sent_at as reminder_sent_at', 'c.sent_at as last_chance_sent_at'])
    .where('l.participant_id', '=', participantId)
    .where('l.client_id', '=', clientId)
    .where('l.remaining', '>', 0)
    .execute();
  return rows.map((row) => ({ ...row, remaining: Number(row.remaining) }));
}

/**
 * Records that a notice went for each lot, in the transaction that queues the mail; resolves
 * with how many it recorded. A lot already noticed is left alone, unless its notice was sent
 * before `staleBefore` (the balance's inactivity clock started again since): then it is the new
 * one. Another run that got there first makes the count short, and the caller rolls back.
 */
export async function recordNotices(
  trx: Transaction<Database>,
  notices: ReadonlyArray<{ lotId: string; kind: NoticeKind; staleBefore?: string | undefined }>,
  sentAt: string,
): Promise<number> {
  let recorded = 0;
  const fresh = notices.filter((n) => n.staleBefore === undefined);
  if (fresh.length > 0) {
    const result = await trx
      .insertInto('expiry_notices')
      .values(fresh.map((n) => ({ lot_id: n.lotId, kind: n.kind, sent_at: sentAt })))
      .onConflict((oc) => oc.columns(['lot_id', 'kind']).doNothing())
      .executeTakeFirst();
    recorded += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  for (const notice of notices) {
    if (notice.staleBefore === undefined) continue;
    const result = await trx
      .insertInto('expiry_notices')
      .values({ lot_id: notice.lotId, kind: notice.kind, sent_at: sentAt })
      .onConflict((oc) =>
        oc
          .columns(['lot_id', 'kind'])
          .doUpdateSet({ sent_at: sentAt })
          .where(sql.ref('expiry_notices.sent_at'), '<', notice.staleBefore ?? ''),
      )
      .executeTakeFirst();
    recorded += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return recorded;
}
