import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { compareCodePoints, hiddenColumn, type SearchColumn } from './search-keys.ts';

/**
 * One index range to read: one client's participants whose key in one search column starts
 * with the prefix, in (key, id) order, after a position of that order.
 */
export interface StreamRead {
  clientId: string;
  column: SearchColumn;
  /**
   * Where to start: `{ key, id }` after that row; `{ key, inclusive }` at (or after) that key;
   * undefined from the start of the prefix.
   */
  after?: { key: string; id?: string; inclusive?: boolean };
  /** Up to this key (inclusive) rather than to the end of the prefix's range. */
  through?: string;
  /**
   * Leave out the keys hidden for a query this long (the participant is shown at another
   * key): tested in the index, so a long run of them costs no table reads and no rows out.
   */
  shownOnlyFor?: number;
  limit: number;
}

/** A key read: which read it answers (its index in the list given), the participant, the key. */
export interface StreamRow {
  stream: number;
  id: string;
  key: string;
  /** Up to which query length the key is hidden by an earlier key of the participant. */
  hidden: number;
}

/**
 * SQLite allows 500 terms in a compound SELECT; a staff member who sees many clients has 5
 * reads per client. Fewer per statement keeps each one small.
 */
const READS_PER_STATEMENT = 100;

/**
 * The rows of each read, in one UNION ALL per hundred reads. Each read is a range of its
 * column's (client_id, key, id, hidden) index, `from <= key < to` (to: the prefix followed by
 * the highest code point) or `<= through`, limited in the index's order and answered from the
 * index alone: never a scan of the table. Rows come back ordered by read, then the read's own
 * order (the database's, so a later read that continues after a row's (key, id) continues
 * exactly where it stopped).
 */
export async function readSearchStreams(db: Db, range: { from: string; to: string }, reads: readonly StreamRead[]): Promise<StreamRow[]> {
  const rows: StreamRow[] = [];
  for (let first = 0; first < reads.length; first += READS_PER_STATEMENT) {
    rows.push(...(await searchStatement(db, range, reads.slice(first, first + READS_PER_STATEMENT), first).execute()));
  }
  return rows;
}

/** One statement of `readSearchStreams` (exported so a test can ask each engine for its plan). */
export function searchStatement(db: Db, range: { from: string; to: string }, reads: readonly StreamRead[], first = 0) {
  const [head, ...rest] = reads.map((read, i) => one(db, range, read, first + i));
  if (!head) throw new Error('a search reads at least one stream');
  let query = head;
  for (const next of rest) query = query.unionAll(next);
  return query.orderBy('stream').orderBy('key').orderBy('id');
}

function one(db: Db, range: { from: string; to: string }, read: StreamRead, stream: number) {
  const column = read.column;
  const hidden = hiddenColumn(column);
  let inner = db
    .selectFrom('participants')
    .select([
      // A literal, not a parameter: PostgreSQL types a bare parameter in a UNION as text.
      sql<number>`${sql.lit(stream)}`.as('stream'),
      'id',
      sql.ref<string>(column).as('key'),
      sql.ref<number>(hidden).as('hidden'),
    ])
    .where('client_id', '=', read.clientId)
    // One upper and one lower bound: SQLite seeks with one of several and filters with the rest.
    .where(column, read.through === undefined ? '<' : '<=', read.through ?? range.to);
  if (read.shownOnlyFor !== undefined) inner = inner.where(hidden, '<', read.shownOnlyFor);
  const after = read.after;
  if (!after || compareCodePoints(after.key, range.from) < 0) inner = inner.where(column, '>=', range.from);
  else if (after.id !== undefined) {
    // The cursor's own stream: the same key with a later id, then later keys.
    const { key, id } = after;
    inner = inner.where(column, '>=', key).where((eb) => eb.or([eb(column, '>', key), eb('id', '>', id)]));
  } else inner = inner.where(column, after.inclusive ? '>=' : '>', after.key);
  return db.selectFrom(inner.orderBy(column).orderBy('id').limit(read.limit).as(`s${stream}`)).selectAll();
}

/** What the console shows of the participants of a page, by id, only among the clients given. */
export async function participantsForSearch(db: Db, clientIds: readonly string[], ids: readonly string[]) {
  if (ids.length === 0 || clientIds.length === 0) return [];
  return db
    .selectFrom('participants')
    .select(['id', 'client_id', 'username', 'first_name', 'last_name', 'email', 'account_number', 'status', 'balance'])
    .where('client_id', 'in', clientIds)
    .where('id', 'in', ids)
    .execute();
}
