import type { Db } from '../../db/database.ts';
import { padded } from '../../db/statement-shapes.ts';

/** The points of open lots expiring at the end of one day (null: no date of their own). */
export interface OpenLots {
  date: string | null;
  points: number;
}

const SELECT_ROWS = 512;

/** Per participant: their open lots' remainders summed per expiry day (the days already past included). */
export async function openLotsByDay(db: Db, clientId: string, participantIds: readonly string[]): Promise<Map<string, OpenLots[]>> {
  const lots = new Map<string, OpenLots[]>();
  for (let from = 0; from < participantIds.length; from += SELECT_ROWS) {
    const rows = await db
      .selectFrom('point_lots')
      .select((eb) => ['participant_id', 'expires_on', eb.fn.sum<number | string>('remaining').as('points')])
      .where('participant_id', 'in', padded(participantIds.slice(from, from + SELECT_ROWS)))
      .where('client_id', '=', clientId)
      .where('remaining', '>', 0)
      .groupBy(['participant_id', 'expires_on'])
      .execute();
    for (const row of rows) {
      const list = lots.get(row.participant_id) ?? [];
      // PostgreSQL sums integers as bigint, which pg hands over as text.
      list.push({ date: row.expires_on, points: Number(row.points) });
      lots.set(row.participant_id, list);
    }
  }
  return lots;
}
