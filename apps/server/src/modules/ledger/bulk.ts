import { randomBytes } from 'node:crypto';
import { CompiledQuery, PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { LedgerMovement } from './store.ts';
import { applyToLots } from '../expiry/lots.ts';
import { pieces, placeholders, statementText } from '../../db/statement-shapes.ts';
import { bulkBalances, moveBulkBalances } from '../participants/service.ts';

/**
 * Many movements of one client in one statement set: the bulk twin of appendLedgerEntry, for
 * imports of hundreds of thousands of lines (docs/decisions/022). The same invariants hold when
 * the caller's transaction commits: every entry has moved its participant's cached balance by
 * its amount, and with `requireCovered` no balance went below zero at any point of the
 * movements' order. It differs only in how: one read of the balances touched, the order walked
 * in memory, multi-row INSERTs, and one UPDATE for all the balances. The lots too
 * (docs/decisions/057): each credit makes one, each debit takes from those open at its turn in
 * spending order (modules/expiry/lots.ts applyToLots), after the balances moved.
 */

/**
 * Rows per statement. Modest on purpose: SQLite's driver keeps each prepared statement, and one
 * of 20,000 parameters holds megabytes (see pieces()); a hundred rows already make the per-
 * statement overhead small.
 */
const INSERT_ROWS = 100;

export interface BulkAppendOptions {
  /** Leave out the debits that would take a balance below zero (see appendLedgerEntries). */
  requireCovered?: boolean;
  /**
   * The participants' balances as the caller read them in this same transaction, under the
   * same lock (FOR UPDATE on PostgreSQL), to spare a second read; null for no entry yet. A
   * participant missing from the map is one that does not exist.
   */
  balances?: ReadonlyMap<string, number | null>;
}

export interface BulkAppendResult {
  /** Positions (in `movements`) of those appended. */
  appended: number[];
  /** Positions of debits refused because the balance, at that point of the order, did not cover them. */
  refused: number[];
  /** The entry id of each appended position (for what the caller tells of them: webhooks, decision 084). */
  entryIds: ReadonlyMap<number, string>;
  /** Each touched participant's balance after the movements. */
  balancesAfter: ReadonlyMap<string, number>;
}

/**
 * Appends the movements in order, all of one client. With `requireCovered`, a movement that
 * would take its participant's balance below zero at its place in the order is left out (and
 * listed in `refused`); the ones after it see the balance without it. Throws (and the caller's
 * transaction should roll back) if a participant does not exist or a reference is taken.
 *
 * The balances are read under a row lock on PostgreSQL (FOR UPDATE) so that a concurrent debit
 * cannot slip between the read and the UPDATE; SQLite's transaction already holds the only
 * write lock. The UPDATE also refuses to leave a balance below zero, as a last guard.
 */
export async function appendLedgerEntries(
  trx: Transaction<Database>,
  clientId: string,
  movements: readonly LedgerMovement[],
  now = new Date(),
  options: BulkAppendOptions = {},
): Promise<BulkAppendResult> {
  const result: BulkAppendResult = { appended: [], refused: [], entryIds: new Map(), balancesAfter: new Map() };
  if (movements.length === 0) return result;
  const postgres = isPostgres(trx);

  const balances = new Map<string, number>();
  const ids = [...new Set(movements.map((m) => m.participantId))];
  if (options.balances) {
    for (const id of ids) {
      const balance = options.balances.get(id);
      if (balance !== undefined) balances.set(id, Number(balance ?? 0));
    }
  } else {
    for (const [id, balance] of await bulkBalances(trx, clientId, ids)) balances.set(id, Number(balance ?? 0));
  }
  if (balances.size !== ids.length) throw new Error('No such participant');

  const opening = new Map(balances);
  for (let index = 0; index < movements.length; index += 1) {
    const movement = movements[index]!;
    if (movement.clientId !== clientId) throw new Error('Movements of another client');
    if (!Number.isSafeInteger(movement.amount)) throw new Error('Points are whole numbers');
    const balance = balances.get(movement.participantId)! + movement.amount;
    if (options.requireCovered && movement.amount < 0 && balance < 0) {
      result.refused.push(index);
      continue;
    }
    balances.set(movement.participantId, balance);
    result.appended.push(index);
  }

  const createdAt = now.toISOString();
  const newId = orderedIds();
  // Written grouped by participant (in their order within each): the statement index leads
  // with the participant, so neighbouring rows land on the same pages, and the ids (made in
  // this order) still rise with the order of each participant's entries.
  const byParticipant = groupedByParticipant(movements, result.appended);
  const entryIds = new Map<number, string>();
  for (const index of byParticipant) entryIds.set(index, newId());
  if (!postgres) await insertEntriesAtOnce(trx, clientId, movements, byParticipant, entryIds, createdAt);
  else {
    for (const [from, to] of pieces(byParticipant.length, INSERT_ROWS)) {
      const parameters: unknown[] = [];
      for (let i = from; i < to; i += 1) {
        const [id, ...values] = entryValues(movements, entryIds, byParticipant[i]!);
        parameters.push(id, clientId, ...values, createdAt);
      }
      await trx.executeQuery(CompiledQuery.raw(insertEntries(to - from, postgres), parameters));
    }
  }

  // Every participant with an appended entry: a first entry turns a null balance into a number
  // even when the movements cancel out.
  const touched = [...new Set(byParticipant.map((index) => movements[index]!.participantId))];
  await moveBulkBalances(
    trx,
    clientId,
    touched.map((id) => [id, balances.get(id)! - opening.get(id)!] as const),
    options.requireCovered === true,
  );
  await applyToLots(
    trx,
    clientId,
    result.appended.map((index) => {
      const m = movements[index]!;
      return { entryId: entryIds.get(index)!, participantId: m.participantId, occurredAt: m.occurredAt, amount: m.amount };
    }),
    now,
  );
  return { ...result, entryIds, balancesAfter: balances };
}

/**
 * SQLite: the entries in one INSERT, their values one JSON parameter (json_each). With
 * `foreign_keys` on, SQLite keeps a statement journal for each multi-row INSERT (a copy of every
 * page the statement changes first, in a temporary file), and the index of references (client,
 * reference) takes the rows of a batch all over its pages: in statements of INSERT_ROWS rows
 * nearly every row had a page of its own to copy, 20,000 pages a batch, in one statement each page
 * is copied once (decision 091, amended 2026-11-28). The text is one shape whatever the count.
 * PostgreSQL keeps no such journal: its multi-row INSERTs stay.
 */
async function insertEntriesAtOnce(
  trx: Transaction<Database>,
  clientId: string,
  movements: readonly LedgerMovement[],
  positions: readonly number[],
  entryIds: ReadonlyMap<number, string>,
  createdAt: string,
): Promise<void> {
  if (positions.length === 0) return;
  const rows = positions.map((index) => entryValues(movements, entryIds, index));
  await trx.executeQuery(CompiledQuery.raw(INSERT_ENTRIES_JSON, [clientId, createdAt, JSON.stringify(rows)]));
}

/** A movement's entry as both inserts write it: its id first, then what follows the client id, up to the creation time. */
function entryValues(movements: readonly LedgerMovement[], entryIds: ReadonlyMap<number, string>, index: number) {
  const m = movements[index]!;
  return [
    entryIds.get(index)!,
    m.participantId,
    m.occurredAt,
    m.description,
    m.descriptionKey ?? null,
    m.descriptionParams ? JSON.stringify(m.descriptionParams) : null,
    m.amount,
    m.kind,
    m.reference ?? null,
  ] as const;
}

/**
 * OR FAIL: a constraint error stops the statement without undoing its earlier rows (the caller's
 * transaction rolls back on the error anyway), so no statement journal is needed for the
 * constraints; `foreign_keys` still asks for one, once per statement. Ordered by the array's index:
 * the rows go in as given.
 */
const INSERT_ENTRIES_JSON =
  'insert or fail into ledger_entries (id, client_id, participant_id, occurred_at, description, description_key, description_params, amount, kind, reference, created_at) ' +
  'select value ->> 0, ?1, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, ?2 from json_each(?3) order by key';

/** PostgreSQL's INSERT of a piece of the entries (SQLite's is insertEntriesAtOnce). */
function insertEntries(rows: number, postgres: boolean): string {
  return statementText(`ledger.insert:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const values = Array.from({ length: rows }, () => `(${Array.from({ length: 11 }, p).join(', ')})`).join(', ');
    return `insert into ledger_entries (id, client_id, participant_id, occurred_at, description, description_key, description_params, amount, kind, reference, created_at) values ${values}`;
  });
}

/**
 * Positions of `appended` grouped by participant (ascending ids), each participant's in their
 * order. A map of groups and one sort of the distinct ids: sorting every position with a string
 * comparison was a second of CPU per 200,000 lines.
 */
function groupedByParticipant(movements: readonly LedgerMovement[], appended: readonly number[]): number[] {
  const groups = new Map<string, number[]>();
  for (const index of appended) {
    const id = movements[index]!.participantId;
    const group = groups.get(id);
    if (group) group.push(index);
    else groups.set(id, [index]);
  }
  const out: number[] = [];
  for (const id of [...groups.keys()].sort()) for (const index of groups.get(id)!) out.push(index);
  return out;
}

function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Ids in the UUIDv7 layout (RFC 9562): the time in milliseconds first, then a counter, then
 * random bits. Random v4 ids land all over the primary key's index, so every batch rewrote
 * pages throughout it; these append at its end. Unique: a fresh random tail per call.
 */
function orderedIds(): () => string {
  const ms = Date.now().toString(16).padStart(12, '0');
  const time = `${ms.slice(0, 8)}-${ms.slice(8)}`;
  const tail = randomBytes(8).toString('hex');
  let counter = 0;
  return () => {
    const c = (counter++).toString(16).padStart(7, '0');
    // 7 = version; 8 = variant (10xx); 7 counter digits cover 268 million ids a call.
    return `${time}-7${c.slice(0, 3)}-8${c.slice(3, 6)}-${c.slice(6)}${tail.slice(0, 11)}`;
  };
}
