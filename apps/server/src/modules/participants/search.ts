import type { ParticipantSearchReply, ParticipantSearchResult } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { compareCodePoints, normaliseSearchText, SEARCH_COLUMNS, type SearchColumn } from './search-keys.ts';
import { readSearchStreams, type StreamRead, type StreamRow } from './search-store.ts';

/**
 * Participant search for the console (issue 17, docs/decisions/045): the normalised query is a
 * prefix of a participant's normalised username, "first last", "last first", e-mail or account
 * number, among the clients the caller may see. Keyset paging; no HTTP here (the console's
 * route and role checks call this with the clients the staff member's roles allow).
 */

export const SEARCH_MIN_LENGTH = 2;
/** Longer than any key can be (an e-mail address: 254), so nothing longer could match. */
export const SEARCH_MAX_LENGTH = 256;
export const SEARCH_DEFAULT_LIMIT = 25;
export const SEARCH_MAX_LIMIT = 100;

export interface ParticipantSearchInput {
  /** The clients the caller may see. Empty finds nothing: it never means every client. */
  clientIds: readonly string[];
  query: string;
  page?: { limit?: number; after?: string };
}

/** The reply is the contract's (packages/contract participant-search.ts), ready for a route. */
export type ParticipantSearchPage = ParticipantSearchReply;

const MATCHED_ON: Record<SearchColumn, ParticipantSearchResult['matchedOn']> = {
  search_first_last: 'name',
  search_last_first: 'name',
  search_username: 'username',
  search_email: 'email',
  search_account: 'accountNumber',
};

/** Above every code point: `prefix + TOP` ends the range of keys that start with the prefix. */
const TOP = '\u{10FFFF}';
/** A stream read again when the page is not complete yet reads this many times more rows. */
const GROWTH = 4;
const MAX_READ = 2_000;

/**
 * A page of the participants found, in one stable order: by the key they were found by (code
 * point order of the normalised text), then client, then which key, then id. A participant
 * with several matching keys is shown once, at the first of them in that order.
 *
 * How: one read per (client, key column), each a range of that column's index in (key, id)
 * order, `limit + 1` rows long; the reads are merged here. Rows of a participant shown at
 * another key are skipped, so a read may have to go on: the page is complete once `limit + 1`
 * rows to show lie before the point up to which every unfinished read has been read.
 * Bad input is a validation error (400), never a database error.
 */
export async function searchParticipants(db: Db, input: ParticipantSearchInput): Promise<ParticipantSearchPage> {
  const prefix = checkedPrefix(input.query);
  const limit = checkedLimit(input.page?.limit);
  const cursor = input.page?.after === undefined ? undefined : decodeCursor(input.page.after);
  const clientIds = [...new Set(input.clientIds)].sort(compareCodePoints);
  if (clientIds.length === 0) return { participants: [], next: null };
  const range: Range = { from: prefix, to: prefix + TOP };

  const streams: Stream[] = clientIds.flatMap((clientId) =>
    SEARCH_COLUMNS.map((column, rank) => ({ clientId, column, rank, rows: [], done: false, after: startAfter(cursor, clientId, rank) })),
  );
  await read(db, range, streams, limit + 1);
  for (;;) {
    // Up to `frontier` every stream has been read: what is shown before it is final.
    const open = streams.filter((s) => !s.done);
    const frontier = open.length === 0 ? undefined : open.map(lastPosition).reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b));
    const shown = streams
      .flatMap((s) => s.rows.flatMap((row, index) => (shownHere(row, s, range) ? [{ row, at: { key: row[s.column], stream: s, index } }] : [])))
      .filter(({ at }) => frontier === undefined || comparePositions(at, frontier) <= 0)
      .sort((a, b) => comparePositions(a.at, b.at));
    if (shown.length > limit || frontier === undefined) {
      const page = shown.slice(0, limit);
      const last = page.at(-1);
      return {
        participants: page.map(({ row, at }) => toResult(row, at.stream.column)),
        next: shown.length > limit && last ? encodeCursor(last.at.key, last.row.client_id, last.at.stream.rank, last.row.id) : null,
      };
    }
    // The stream that holds the frontier back reads on, more each time.
    const behind = frontier.stream;
    await read(db, range, [behind], Math.min(MAX_READ, Math.max(limit + 1, behind.rows.length * GROWTH)));
  }
}

interface Range {
  from: string;
  to: string;
}

interface Stream {
  clientId: string;
  column: SearchColumn;
  rank: number;
  /** Every row read so far, in the database's (key, id) order. */
  rows: StreamRow[];
  /** True when the last read returned fewer rows than asked: nothing more in the range. */
  done: boolean;
  /** Where its next read starts. */
  after: StreamRead['after'];
}

interface Position {
  key: string;
  stream: Stream;
  /** The row's place in its stream: rows of one stream are in the database's order. */
  index: number;
}

/** One statement reads on in each of these streams, `limit` rows at most each. */
async function read(db: Db, range: Range, which: Stream[], limit: number): Promise<void> {
  const rows = await readSearchStreams(
    db,
    range,
    which.map((s) => ({ clientId: s.clientId, column: s.column, after: s.after, limit })),
  );
  const counts = new Array<number>(which.length).fill(0);
  for (const row of rows) {
    const stream = which[row.stream]!;
    stream.rows.push(row);
    counts[row.stream]! += 1;
  }
  which.forEach((stream, i) => {
    if (counts[i]! < limit) stream.done = true;
    const last = stream.rows.at(-1);
    if (last) stream.after = { key: last[stream.column], id: last.id };
  });
}

function lastPosition(stream: Stream): Position {
  const row = stream.rows.at(-1);
  // A stream not done has read at least one row (it read `limit + 1` and got them all).
  return { key: row ? row[stream.column] : '', stream, index: stream.rows.length - 1 };
}

/** The page order: key, client, key column, then the database's order within one stream. */
function comparePositions(a: Position, b: Position): number {
  return (
    compareCodePoints(a.key, b.key) ||
    compareCodePoints(a.stream.clientId, b.stream.clientId) ||
    a.stream.rank - b.stream.rank ||
    a.index - b.index
  );
}

/** True when this is the participant's first matching key in the page order (key, then column). */
function shownHere(row: StreamRow, stream: Stream, range: Range): boolean {
  const here = row[stream.column];
  for (const [rank, column] of SEARCH_COLUMNS.entries()) {
    if (rank === stream.rank) continue;
    const other = row[column];
    // The database's range: from <= key < to.
    if (!other.startsWith(range.from) || compareCodePoints(other, range.to) >= 0) continue;
    const order = compareCodePoints(other, here);
    if (order < 0 || (order === 0 && rank < stream.rank)) return false;
  }
  return true;
}

/**
 * Where a stream starts for a page after the cursor's row: the cursor's own stream after its
 * (key, id); a stream before it in the page order's tie-break (client, column) after its key,
 * one after it at its key.
 */
function startAfter(cursor: Cursor | undefined, clientId: string, rank: number): StreamRead['after'] {
  if (!cursor) return undefined;
  const order = compareCodePoints(clientId, cursor.clientId) || rank - cursor.rank;
  if (order === 0) return { key: cursor.key, id: cursor.id };
  return { key: cursor.key, inclusive: order > 0 };
}

function toResult(row: StreamRow, column: SearchColumn): ParticipantSearchResult {
  return {
    clientId: row.client_id,
    id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    accountNumber: row.account_number,
    status: row.status,
    balance: Number(row.balance ?? 0),
    matchedOn: MATCHED_ON[column],
  };
}

function checkedPrefix(query: unknown): string {
  if (typeof query !== 'string') throw errors.validation('The search text is missing');
  if (query.length > SEARCH_MAX_LENGTH) throw errors.validation(`The search text is longer than ${SEARCH_MAX_LENGTH} characters`);
  // Lone surrogates and control characters: nothing stored has them, and PostgreSQL refuses a NUL.
  if (!query.isWellFormed() || /\p{Cc}/u.test(query.replace(/\s/gu, ' '))) throw errors.validation('The search text has characters that cannot be searched');
  const prefix = normaliseSearchText(query);
  if ([...prefix].length < SEARCH_MIN_LENGTH) throw errors.validation(`Type at least ${SEARCH_MIN_LENGTH} characters to search`);
  return prefix;
}

function checkedLimit(limit: unknown): number {
  if (limit === undefined) return SEARCH_DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX_LIMIT) {
    throw errors.validation(`The page size must be a whole number from 1 to ${SEARCH_MAX_LIMIT}`);
  }
  return limit;
}

interface Cursor {
  key: string;
  clientId: string;
  rank: number;
  id: string;
}

/** Opaque to callers: base64url of the last row's [key, client, column rank, id]. */
function encodeCursor(key: string, clientId: string, rank: number, id: string): string {
  return Buffer.from(JSON.stringify([key, clientId, rank, id])).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  const invalid = () => errors.validation('The page cursor is not valid');
  if (typeof text !== 'string' || text.length > 2_000 || !/^[A-Za-z0-9_-]*$/.test(text)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 4) throw invalid();
  const [key, clientId, rank, id] = value as unknown[];
  if (typeof key !== 'string' || typeof clientId !== 'string' || typeof id !== 'string' || typeof rank !== 'number') throw invalid();
  if (!Number.isInteger(rank) || rank < 0 || rank >= SEARCH_COLUMNS.length || !key.isWellFormed() || /\p{Cc}/u.test(key + clientId + id)) throw invalid();
  return { key, clientId, rank, id };
}
