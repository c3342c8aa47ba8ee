import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { padded } from '../../db/statement-shapes.ts';
import { isPostgres } from '../../db/database.ts';

/** The expiry run's SQL (run.ts). */

export interface ClientExpiryRow {
  id: string;
  expiry_policy: string;
  time_zone: string;
}

export async function clientsToExpire(db: Kysely<Database>, clientId?: string): Promise<ClientExpiryRow[]> {
  return db
    .selectFrom('clients')
    .select(['id', 'expiry_policy', 'time_zone'])
    .$if(clientId !== undefined, (qb) => qb.where('id', '=', clientId!))
    .orderBy('id')
    .execute();
}

/** The next participants (by id) with something to lose: a balance above zero. */
export async function participantsWithPoints(db: Kysely<Database>, clientId: string, after: string, limit: number): Promise<string[]> {
  // On SQLite the unary plus keeps the planner off the (client_id, …) index, which read every
  // participant of the client and sorted them for each page; the primary key walks them in order.
  const client = isPostgres(db) ? sql.ref('client_id') : sql`+client_id`;
  const rows = await db
    .selectFrom('participants')
    .select('id')
    .where(client, '=', clientId)
    .where('id', '>', after)
    .where('balance', '>', 0)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

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

/** Per participant: when they last earned or spent (an expiry is neither). */
export async function lastActivity(
  db: Kysely<Database>,
  clientId: string,
  participantIds: readonly string[],
): Promise<Map<string, string>> {
  const last = new Map<string, string>();
  for (let from = 0; from < participantIds.length; from += SELECT_ROWS) {
    const rows = await db
      .selectFrom('ledger_entries')
      .select('participant_id')
      .select((eb) => eb.fn.max('occurred_at').as('last'))
      .where('client_id', '=', clientId)
      .where('participant_id', 'in', padded(participantIds.slice(from, from + SELECT_ROWS)))
      .where('kind', '<>', 'expiry')
      .groupBy('participant_id')
      .execute();
    for (const row of rows) last.set(row.participant_id, row.last);
  }
  return last;
}

/**
 * The participants' balances, locked to the commit on PostgreSQL (in id order, so two runs never
 * deadlock); SQLite's transaction already holds the only write lock.
 */
/** The usernames of these participants (what the webhooks of an expiry name them by, decision 084). */
export async function usernamesOf(
  trx: Transaction<Database>,
  clientId: string,
  participantIds: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let from = 0; from < participantIds.length; from += 500) {
    const rows = await trx
      .selectFrom('participants')
      .select(['id', 'username'])
      .where('client_id', '=', clientId)
      .where('id', 'in', [...participantIds.slice(from, from + 500)])
      .execute();
    for (const row of rows) names.set(row.id, row.username);
  }
  return names;
}

export async function lockBalances(
  trx: Transaction<Database>,
  clientId: string,
  participantIds: readonly string[],
): Promise<Map<string, number | null>> {
  const rows = await trx
    .selectFrom('participants')
    .select(['id', 'balance'])
    .where('client_id', '=', clientId)
    .where('id', 'in', padded([...participantIds]))
    .orderBy('id')
    .$if(isPostgres(trx), (qb) => qb.forUpdate())
    .execute();
  return new Map(rows.map((row) => [row.id, row.balance === null ? null : Number(row.balance)]));
}

/** Which of these references are already posted. */
export async function postedReferences(trx: Transaction<Database>, clientId: string, references: readonly string[]): Promise<Set<string>> {
  const posted = new Set<string>();
  for (let from = 0; from < references.length; from += SELECT_ROWS) {
    const rows = await trx
      .selectFrom('ledger_entries')
      .select('reference')
      .where('client_id', '=', clientId)
      .where('reference', 'in', padded(references.slice(from, from + SELECT_ROWS)))
      .execute();
    for (const row of rows) if (row.reference) posted.add(row.reference);
  }
  return posted;
}
