import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import { isPostgres } from '../../db/database.ts';
import { CompiledQuery } from 'kysely';
import { padded, pieces, placeholders, statementText } from '../../db/statement-shapes.ts';
import { entryCountOf } from '../ledger/service.ts';

/**
 * The participant's cached balance (issue 30 §3): the ledger moves it in the posting's own
 * transaction through these, and the pages that show it beside the ledger's figures read both in
 * one statement, the ledger's part being its subquery; the expiry run pages through the balances
 * and locks them. Offered through service.ts.
 */

// Every points movement runs one of these: compiled to SQL once (docs/decisions/014). They
// return the new balance, which the posting's reply shows (decision 093: no read-back).
const moveBalanceBy = compiledOnce((db: Kysely<Database>, amount: number, clientId: string, participantId: string) =>
  db
    .updateTable('participants')
    .set({ balance: sql<number>`coalesce(balance, 0) + ${amount}` })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .returning('balance'),
);
/** The same, only when the balance covers it: the check and the move are one UPDATE. */
const debitCovered = compiledOnce((db: Kysely<Database>, amount: number, clientId: string, participantId: string) =>
  db
    .updateTable('participants')
    .set({ balance: sql<number>`coalesce(balance, 0) + ${amount}` })
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .where(sql<boolean>`coalesce(balance, 0) + ${amount} >= 0`)
    .returning('balance'),
);

/** The balance and the points held (issue 32 §3) moved together: an event that credits some points and holds others. */
const moveBalanceAndPendingBy = compiledOnce(
  (db: Kysely<Database>, amount: number, pending: number, clientId: string, participantId: string) =>
    db
      .updateTable('participants')
      .set({ balance: sql<number>`coalesce(balance, 0) + ${amount}`, pending_points: sql<number>`pending_points + ${pending}` })
      .where('client_id', '=', clientId)
      .where('id', '=', participantId)
      .returning(['balance', 'pending_points']),
);

/**
 * Moves the participant's cached balance by `amount` in the ledger's transaction, which holds the
 * row (PostgreSQL) or the one writer (SQLite) to the commit. The balance after, or undefined when
 * nothing moved: no such participant, or (`covered`) a debit the balance does not cover.
 */
export async function moveBalance(
  trx: Transaction<Database>,
  clientId: string,
  participantId: string,
  amount: number,
  options: { covered?: boolean } = {},
): Promise<number | undefined> {
  const moved = await (options.covered ? debitCovered : moveBalanceBy)(trx, amount, clientId, participantId);
  const after = moved.rows[0];
  return moved.rows.length === 1 && after ? Number(after.balance ?? 0) : undefined;
}

/** moveBalance and the participant's pending points by `pending` in one UPDATE: both after, or undefined for no such participant. */
export async function moveBalanceAndPending(
  trx: Transaction<Database>,
  clientId: string,
  participantId: string,
  amount: number,
  pending: number,
): Promise<{ balance: number; pendingPoints: number } | undefined> {
  const moved = await moveBalanceAndPendingBy(trx, amount, pending, clientId, participantId);
  const after = moved.rows[0];
  return moved.rows.length === 1 && after
    ? { balance: Number(after.balance ?? 0), pendingPoints: Number(after.pending_points) }
    : undefined;
}

/**
 * What a statement is made of on the participant's side, in one read: their own row's fields and
 * how many ledger entries they have (the ledger's subquery). The ledger is append-only, so the
 * count moves with every entry, whichever connection or process wrote it (docs/decisions/044).
 */
export async function findStatementVersion(db: Kysely<Database>, clientId: string, participantId: string) {
  return db
    .selectFrom('participants')
    .select(['username_key', 'account_number', 'locale', 'balance'])
    .select(entryCountOf(db, clientId, participantId).as('entries'))
    .where('client_id', '=', clientId)
    .where('id', '=', participantId)
    .executeTakeFirst();
}

/**
 * The participants of the client with these username keys, with their balances, locked to the
 * commit on PostgreSQL when `lock` (a points import's batch, decision 022: the balances come with
 * the ids, so the ledger's bulk path reads the same rows no second time). One statement; the
 * caller keeps `keys` to an IN list both engines take.
 */
export async function balancesByUsernameKey(trx: Transaction<Database>, clientId: string, keys: readonly string[], lock: boolean) {
  return trx
    .selectFrom('participants')
    .select(['id', 'username_key', 'balance'])
    .where('client_id', '=', clientId)
    .where('username_key', 'in', padded([...keys]))
    .$if(lock && isPostgres(trx), (qb) => qb.forUpdate())
    .execute();
}

// ——— The expiry run's reads of balances (docs/decisions/057) ———

/** The next participants (by id) of the client with something to lose: a balance above zero. */
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

/**
 * The participants' balances, locked to the commit on PostgreSQL (in id order, so two runs never
 * deadlock); SQLite's transaction already holds the only write lock.
 */
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

/** Participants per balance read of the bulk path; a power of two, see padded(). */
const BULK_SELECT_ROWS = 512;
/** Balances per UPDATE of the bulk path. */
const BULK_UPDATE_ROWS = 256;

/**
 * The bulk ledger's read (modules/ledger/bulk.ts): these participants' balances (null: no entry
 * yet), locked FOR UPDATE on PostgreSQL; a participant missing from the map does not exist. Text
 * by hand, one shape per size: see statementText().
 */
export async function bulkBalances(
  trx: Transaction<Database>,
  clientId: string,
  participantIds: readonly string[],
): Promise<Map<string, number | null>> {
  const postgres = isPostgres(trx);
  const balances = new Map<string, number | null>();
  for (let from = 0; from < participantIds.length; from += BULK_SELECT_ROWS) {
    const chunk = padded(participantIds.slice(from, from + BULK_SELECT_ROWS));
    const text = statementText(`participants.select:${chunk.length}:${postgres}`, () => {
      const p = placeholders(postgres);
      const client = p();
      const list = Array.from({ length: chunk.length }, p).join(', ');
      // Without statistics SQLite would rather walk the client's whole (client_id, …) index than
      // look the ids up one by one: the unary plus keeps it off that index. PostgreSQL plans well.
      return postgres
        ? `select id, balance from participants where client_id = ${client} and id in (${list}) for update`
        : `select id, balance from participants where +client_id = ${client} and id in (${list})`;
    });
    const { rows } = await trx.executeQuery<{ id: string; balance: number | null }>(CompiledQuery.raw(text, [clientId, ...chunk]));
    for (const row of rows) balances.set(row.id, row.balance === null ? null : Number(row.balance));
  }
  return balances;
}

/**
 * The bulk ledger's move: each participant's balance by its delta (a null balance becomes a
 * number), in statements of BULK_UPDATE_ROWS. With `guard`, a debit never takes a balance below
 * zero, as a last guard. Throws if a row did not move (the caller's transaction then rolls back).
 */
export async function moveBulkBalances(
  trx: Transaction<Database>,
  clientId: string,
  deltas: ReadonlyArray<readonly [participantId: string, delta: number]>,
  guard: boolean,
): Promise<void> {
  const postgres = isPostgres(trx);
  for (const [from, to] of pieces(deltas.length, BULK_UPDATE_ROWS)) {
    const text = statementText(`participants.update:${to - from}:${postgres}:${guard}`, () => {
      const p = placeholders(postgres);
      // VALUES names its columns column1, column2 on both engines; the cast types the parameter on PostgreSQL.
      const values = Array.from({ length: to - from }, () => `(${p()}, cast(${p()} as integer))`).join(', ');
      const covered = guard ? ' and (d.column2 >= 0 or coalesce(participants.balance, 0) + d.column2 >= 0)' : '';
      return `update participants set balance = coalesce(participants.balance, 0) + d.column2 from (values ${values}) as d where participants.client_id = ${p()} and participants.id = d.column1${covered}`;
    });
    const parameters: unknown[] = deltas.slice(from, to).flat();
    parameters.push(clientId);
    const moved = await trx.executeQuery(CompiledQuery.raw(text, parameters));
    if (Number(moved.numAffectedRows) !== to - from) throw new Error('A balance moved while the entries were appended');
  }
}

/** The usernames of these participants (what the webhooks of a balance movement name them by, decision 084). */
export async function usernamesOf(db: Kysely<Database>, clientId: string, participantIds: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let from = 0; from < participantIds.length; from += 500) {
    const rows = await db
      .selectFrom('participants')
      .select(['id', 'username'])
      .where('client_id', '=', clientId)
      .where('id', 'in', [...participantIds.slice(from, from + 500)])
      .execute();
    for (const row of rows) names.set(row.id, row.username);
  }
  return names;
}
