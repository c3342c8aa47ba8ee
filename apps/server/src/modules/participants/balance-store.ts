import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import { isPostgres } from '../../db/database.ts';
import { padded } from '../../db/statement-shapes.ts';
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
