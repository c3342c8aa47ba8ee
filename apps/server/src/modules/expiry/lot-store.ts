import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isPostgres } from '../../db/database.ts';
import { padded, pieces, placeholders, statementText } from '../../db/statement-shapes.ts';
import type { Consumption, Lot } from './lot-book.ts';

/**
 * The lots' SQL (docs/decisions/057). Bulk statements are written by hand, in few shapes, as in
 * modules/ledger/bulk.ts: an import of a million lines must not build a million query trees.
 */

const LOT_ROWS = 100;
const CONSUMPTION_ROWS = 250;
const UPDATE_ROWS = 256;
const SELECT_ROWS = 512;

interface LotRow {
  id: string;
  participant_id: string;
  earned_on: string;
  expires_on: string | null;
  remaining: number | string;
}

function lotOf(row: LotRow): Lot {
  return {
    id: row.id,
    participantId: row.participant_id,
    earnedOn: row.earned_on,
    expiresOn: row.expires_on,
    remaining: Number(row.remaining),
  };
}

/** The spending order in SQL; the same as lot-book.ts's spendingOrder. */
const SPENDING_ORDER = 'case when expires_on is null then 1 else 0 end, expires_on, earned_on, id';

/**
 * A participant's first open lots in spending order, as many as it takes to cover `amount` (all
 * of them if they do not): a debit reads a few rows however many lots are open.
 */
export async function lotsCovering(trx: Transaction<Database>, clientId: string, participantId: string, amount: number): Promise<Lot[]> {
  const postgres = isPostgres(trx);
  const text = statementText(`lots.covering:${postgres}`, () => {
    const p = placeholders(postgres);
    const participant = p();
    const client = p();
    return `select id, participant_id, earned_on, expires_on, remaining from (select id, participant_id, earned_on, expires_on, remaining, sum(remaining) over (order by ${SPENDING_ORDER} rows between unbounded preceding and current row) as upto from point_lots where participant_id = ${participant} and ${postgres ? '' : '+'}client_id = ${client} and remaining > 0) as open_lots where upto - remaining < ${p()}`;
  });
  const { rows } = await trx.executeQuery<LotRow>(CompiledQuery.raw(text, [participantId, clientId, amount]));
  return rows.map(lotOf);
}

/** Every open lot of these participants (of one client). */
export async function openLotsOf(trx: Transaction<Database>, clientId: string, participantIds: readonly string[]): Promise<Lot[]> {
  const postgres = isPostgres(trx);
  const lots: Lot[] = [];
  for (let from = 0; from < participantIds.length; from += SELECT_ROWS) {
    const chunk = padded(participantIds.slice(from, from + SELECT_ROWS));
    const text = statementText(`lots.open:${chunk.length}:${postgres}`, () => {
      const p = placeholders(postgres);
      const list = Array.from({ length: chunk.length }, p).join(', ');
      // +client_id on SQLite: else it may walk the client's every open lot (the due index) rather than look up each participant's.
      return `select id, participant_id, earned_on, expires_on, remaining from point_lots where participant_id in (${list}) and ${postgres ? '' : '+'}client_id = ${p()} and remaining > 0`;
    });
    const { rows } = await trx.executeQuery<LotRow>(CompiledQuery.raw(text, [...chunk, clientId]));
    for (const row of rows) lots.push(lotOf(row));
  }
  return lots;
}

export interface NewLot extends Lot {
  amount: number;
}

/** New lots, one per credit (the lot's id is its entry's), with what remains of each already. */
export async function insertLots(trx: Transaction<Database>, clientId: string, lots: readonly NewLot[], createdAt: string): Promise<void> {
  const postgres = isPostgres(trx);
  for (const [from, to] of pieces(lots.length, LOT_ROWS)) {
    const text = statementText(`lots.lots:${to - from}:${postgres}`, () => {
      const p = placeholders(postgres);
      const values = Array.from({ length: to - from }, () => `(${Array.from({ length: 9 }, p).join(', ')})`).join(', ');
      // OR FAIL on SQLite: no statement journal (see bulk.ts); the transaction rolls back on an error anyway.
      return `insert${postgres ? '' : ' or fail'} into point_lots (id, client_id, participant_id, entry_id, earned_on, expires_on, amount, remaining, created_at) values ${values}`;
    });
    const parameters: unknown[] = [];
    for (let i = from; i < to; i += 1) {
      const lot = lots[i]!;
      parameters.push(lot.id, clientId, lot.participantId, lot.id, lot.earnedOn, lot.expiresOn, lot.amount, lot.remaining, createdAt);
    }
    await trx.executeQuery(CompiledQuery.raw(text, parameters));
  }
}

export async function insertConsumptions(trx: Transaction<Database>, consumptions: readonly Consumption[]): Promise<void> {
  const postgres = isPostgres(trx);
  for (const [from, to] of pieces(consumptions.length, CONSUMPTION_ROWS)) {
    const text = statementText(`lots.consumptions:${to - from}:${postgres}`, () => {
      const p = placeholders(postgres);
      const values = Array.from({ length: to - from }, () => `(${p()}, ${p()}, ${p()})`).join(', ');
      return `insert${postgres ? '' : ' or fail'} into lot_consumptions (entry_id, lot_id, amount) values ${values}`;
    });
    const parameters: unknown[] = [];
    for (let i = from; i < to; i += 1) {
      const c = consumptions[i]!;
      parameters.push(c.entryId, c.lotId, c.amount);
    }
    await trx.executeQuery(CompiledQuery.raw(text, parameters));
  }
}

/**
 * Sets what remains of existing lots, each only if it still holds what it held when read (a
 * last guard: the participant's row lock, or SQLite's one writer, already keeps others out).
 * Throws if one moved meanwhile; the caller's transaction then rolls back.
 */
export async function setRemaining(
  trx: Transaction<Database>,
  updates: ReadonlyArray<{ id: string; before: number; after: number }>,
): Promise<void> {
  const postgres = isPostgres(trx);
  for (const [from, to] of pieces(updates.length, UPDATE_ROWS)) {
    const text = statementText(`lots.remaining:${to - from}:${postgres}`, () => {
      const p = placeholders(postgres);
      const values = Array.from({ length: to - from }, () => `(${p()}, cast(${p()} as integer), cast(${p()} as integer))`).join(', ');
      // The unary plus keeps SQLite from scanning the whole table to match remaining first: the
      // lots are found by id, one lookup per row.
      return `update point_lots set remaining = d.column3 from (values ${values}) as d where point_lots.id = d.column1 and point_lots.remaining = +d.column2 and d.column3 >= 0`;
    });
    const parameters: unknown[] = [];
    for (let i = from; i < to; i += 1) {
      const u = updates[i]!;
      parameters.push(u.id, u.before, u.after);
    }
    const moved = await trx.executeQuery(CompiledQuery.raw(text, parameters));
    if (Number(moved.numAffectedRows) !== to - from) throw new Error('A lot moved while it was being spent');
  }
}
