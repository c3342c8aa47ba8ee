import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { compareCodePoints, type SearchColumn } from './search-keys.ts';

/**
 * One index range to read: one client's participants whose key in one search column starts
 * with the prefix, in (key, id) order, after a position of that order.
 */
export interface StreamRead {
  clientId: string;
  column: SearchColumn;
  /**
   * Where to start: `{ key, id }` after that row; `{ key, id: undefined, inclusive }` at (or
   * after) that key; undefined from the start of the prefix.
   */
  after?: { key: string; id?: string; inclusive?: boolean };
  limit: number;
}

/** What a search shows of a participant, with every key (the service picks where each is shown). */
export interface StreamRow {
  /** Which of the reads the row answers (its index in the list given). */
  stream: number;
  id: string;
  client_id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  account_number: string;
  status: string;
  balance: number | null;
  search_username: string;
  search_first_last: string;
  search_last_first: string;
  search_email: string;
  search_account: string;
}

/**
 * SQLite allows 500 terms in a compound SELECT; a staff member who sees many clients has 5
 * reads per client. Fewer per statement keeps each one small.
 */
const READS_PER_STATEMENT = 100;

/**
 * The rows of each read, in one UNION ALL per hundred reads. Each read is a range of its
 * column's (client_id, key, id) index, `from <= key < to` (to: the prefix followed by the
 * highest code point), limited in the index's order: never a scan of the table. Rows come back
 * ordered by read, then the read's own order (the database's, so a later read that continues
 * after a row's (key, id) continues exactly where it stopped).
 */
export async function readSearchStreams(db: Db, range: { from: string; to: string }, reads: readonly StreamRead[]): Promise<StreamRow[]> {
  const rows: StreamRow[] = [];
  for (let first = 0; first < reads.length; first += READS_PER_STATEMENT) {
    const result = await searchStatement(db, range, reads.slice(first, first + READS_PER_STATEMENT), first).execute();
    for (const { k: _key, ...row } of result) rows.push(row);
  }
  return rows;
}

/** One statement of `readSearchStreams` (exported so a test can ask each engine for its plan). */
export function searchStatement(db: Db, range: { from: string; to: string }, reads: readonly StreamRead[], first = 0) {
  const [head, ...rest] = reads.map((read, i) => one(db, range, read, first + i));
  if (!head) throw new Error('a search reads at least one stream');
  let query = head;
  for (const next of rest) query = query.unionAll(next);
  return query.orderBy('stream').orderBy('k').orderBy('id');
}

function one(db: Db, range: { from: string; to: string }, read: StreamRead, stream: number) {
  const column = read.column;
  const inner = db
    .selectFrom('participants')
    .select([
      'id',
      'client_id',
      'username',
      'first_name',
      'last_name',
      'email',
      'account_number',
      'status',
      'balance',
      'search_username',
      'search_first_last',
      'search_last_first',
      'search_email',
      'search_account',
      // A literal, not a parameter: PostgreSQL types a bare parameter in a UNION as text.
      sql<number>`${sql.lit(stream)}`.as('stream'),
      sql.ref<string>(column).as('k'),
    ])
    .where('client_id', '=', read.clientId)
    .where(column, '<', range.to);
  const after = read.after;
  // One lower bound only: SQLite seeks with one of several and filters with the others.
  let bounded;
  if (!after || compareCodePoints(after.key, range.from) < 0) bounded = inner.where(column, '>=', range.from);
  else if (after.id !== undefined) {
    // The cursor's own stream: the same key with a later id, then later keys.
    const { key, id } = after;
    bounded = inner.where(column, '>=', key).where((eb) => eb.or([eb(column, '>', key), eb('id', '>', id)]));
  } else bounded = inner.where(column, after.inclusive ? '>=' : '>', after.key);
  return db.selectFrom(bounded.orderBy(column).orderBy('id').limit(read.limit).as(`s${stream}`)).selectAll();
}
