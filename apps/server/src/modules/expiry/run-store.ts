import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { padded } from '../../db/statement-shapes.ts';
import { isPostgres } from '../../db/database.ts';

/**
 * The expiry run's SQL of its own tables (run.ts): the lots. What it reads of the clients'
 * settings, the participants' balances and the ledger's activity, their services answer (issue 30 §3).
 */

export interface LotTotals {
  /** Points and lots whose day has passed (expires_on before the run's day). */
  due: number;
  dueLots: number;
  /** Every open lot: what the inactivity policy takes. */
  open: number;
  openLots: number;
}

const SELECT_ROWS = 512;

/** Per participant: their open lots, and those of them past their day. */
export async function lotTotals(
  db: Kysely<Database>,
  clientId: string,
  participantIds: readonly string[],
  asOf: string,
): Promise<Map<string, LotTotals>> {
  const postgres = isPostgres(db);
  const totals = new Map<string, LotTotals>();
  for (let from = 0; from < participantIds.length; from += SELECT_ROWS) {
    const chunk = padded(participantIds.slice(from, from + SELECT_ROWS));
    let n = 0;
    const p = () => (postgres ? `$${++n}` : '?');
    const day1 = p();
    const day2 = p();
    const list = chunk.map(() => p()).join(', ');
    const text = `select participant_id, sum(case when expires_on < ${day1} then remaining else 0 end) as due, sum(case when expires_on < ${day2} then 1 else 0 end) as due_lots, sum(remaining) as open, count(*) as open_lots from point_lots where participant_id in (${list}) and ${postgres ? '' : '+'}client_id = ${p()} and remaining > 0 group by participant_id`;
    const { rows } = await db.executeQuery<{ participant_id: string; due: unknown; due_lots: unknown; open: unknown; open_lots: unknown }>(
      CompiledQuery.raw(text, [asOf, asOf, ...chunk, clientId]),
    );
    for (const row of rows)
      totals.set(row.participant_id, {
        due: Number(row.due ?? 0),
        dueLots: Number(row.due_lots ?? 0),
        open: Number(row.open ?? 0),
        openLots: Number(row.open_lots ?? 0),
      });
  }
  return totals;
}
