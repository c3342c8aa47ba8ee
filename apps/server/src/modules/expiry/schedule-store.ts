import type { Db } from '../../db/database.ts';

/** The ledger kind of the expiry run's entries (decision 057): not an earning or a spending, so not activity. */
export const EXPIRY_KIND = 'expiry';

/**
 * A participant's open dated lots due on or before `until` (also those already due that the run
 * has not taken yet), summed per day, soonest first. Served by point_lots_open_idx.
 */
export async function listDatedExpiries(
  db: Db,
  clientId: string,
  participantId: string,
  until: string,
): Promise<Array<{ date: string; points: number }>> {
  const rows = await db
    .selectFrom('point_lots')
    .select((eb) => ['expires_on', eb.fn.sum<number | string>('remaining').as('points')])
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .where('remaining', '>', 0)
    .where('expires_on', 'is not', null)
    .where('expires_on', '<=', until)
    .groupBy('expires_on')
    .orderBy('expires_on')
    .execute();
  // PostgreSQL sums integers as bigint, which pg hands over as text.
  return rows.flatMap((row) => (row.expires_on === null ? [] : [{ date: row.expires_on, points: Number(row.points) }]));
}

/** What remains of a participant's open lots without a date, or dated after `day`. */
export async function sumOpenLotsAfter(db: Db, clientId: string, participantId: string, day: string): Promise<number> {
  const row = await db
    .selectFrom('point_lots')
    .select((eb) => eb.fn.sum<number | string | null>('remaining').as('points'))
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .where('remaining', '>', 0)
    .where((eb) => eb.or([eb('expires_on', 'is', null), eb('expires_on', '>', day)]))
    .executeTakeFirst();
  return Number(row?.points ?? 0);
}

/** When the participant last earned or spent (the expiry run's own entries aside); undefined: never. */
export async function lastActivityAt(db: Db, clientId: string, participantId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.max('occurred_at').as('last'))
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('kind', '<>', EXPIRY_KIND)
    .executeTakeFirst();
  return row?.last ?? undefined;
}
