import type { ParticipantSearchReply, ParticipantSearchResult } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.ts';
import { compareCodePoints, normaliseSearchText, SEARCH_COLUMNS, type SearchColumn } from './search-keys.ts';
import { participantsForSearch, readSearchStreams, type StreamRead, type StreamRow } from './search-store.ts';

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

/**
 * A page of the participants found, in one stable order: by the key they were found by (code
 * point order of the normalised text), then client, then which key, then id. A participant
 * with several matching keys is shown once, at the first of them in that order.
 *
 * How: one stream per (client, key column), each a range of that column's index in (key, id)
 * order, merged here. First every stream reads `limit + 1` rows. A row whose participant is
 * shown at another key is skipped, so that may not be a page yet: the page is final once
 * `limit + 1` rows to show lie before the point up to which every unfinished stream has been
 * read. Until then the streams behind read on, the database skipping the rows shown
 * elsewhere; once `limit + 1` rows to show are known anywhere, the page cannot end after the
 * last of them, so the streams read only up to its key. The work is the page's rows and the
 * skipped rows before its end, never the rows before the cursor.
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
    SEARCH_COLUMNS.map((column, rank) => ({
      clientId,
      column,
      rank,
      rows: [],
      done: false,
      knownTo: undefined,
      after: startAfter(cursor, clientId, rank),
    })),
  );
  await read(db, range, streams, { limit: limit + 1 });
  for (;;) {
    // Up to `frontier` every stream has been read: what is shown before it is final.
    const open = streams.filter((s) => !s.done);
    const behind = open.length === 0 ? undefined : open.reduce((a, b) => (comparePositions(knownTo(a), knownTo(b)) <= 0 ? a : b));
    const frontier = behind && knownTo(behind);
    const shown = streams
      .flatMap((s) => s.rows.flatMap((row, index) => (row.hidden < prefix.length ? [{ row, at: { key: row.key, stream: s, index } }] : [])))
      .sort((a, b) => comparePositions(a.at, b.at));
    const final = frontier === undefined ? shown : shown.filter(({ at }) => comparePositions(at, frontier) <= 0);
    if (final.length > limit || !behind) {
      const page = final.slice(0, limit);
      const last = page.at(-1);
      const found = new Map(
        (
          await participantsForSearch(
            db,
            clientIds,
            page.map(({ row }) => row.id),
          )
        ).map((p) => [p.id, p]),
      );
      return {
        // A participant deleted since its key was read is left out.
        participants: page.flatMap(({ row, at }) => {
          const participant = found.get(row.id);
          return participant ? [toResult(participant, at.stream.column)] : [];
        }),
        next:
          final.length > limit && last ? encodePageCursor([last.at.key, last.at.stream.clientId, last.at.stream.rank, last.row.id]) : null,
      };
    }
    const end = shown[limit]?.at.key;
    if (end === undefined) {
      // Fewer than a page to show in all that was read: the stream furthest behind reads on.
      await read(db, range, [behind], { limit: limit + 1, shownOnlyFor: prefix.length });
    } else {
      // The page ends at `end` at the latest: each stream not read that far reads up to it.
      const through: Position = { key: end, wholeKey: true };
      await read(
        db,
        range,
        open.filter((s) => comparePositions(knownTo(s), through) < 0),
        { limit: limit + 1, shownOnlyFor: prefix.length, through: end },
      );
    }
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
  /** True when a read without an end returned fewer rows than asked: nothing more in the range. */
  done: boolean;
  /** Set when a read up to a key returned fewer rows than asked: everything up to that key is known. */
  knownTo: Position | undefined;
  /** Where its next read starts. */
  after: StreamRead['after'];
}

/**
 * A place in the page order: a row of a stream (key, the stream's client and column, its index
 * in the stream), or `wholeKey`: after every row whose key is `key`.
 */
type Position = { key: string; stream: Stream; index: number; wholeKey?: undefined } | { key: string; wholeKey: true };

/** One statement reads on in each of these streams. */
async function read(
  db: Db,
  range: Range,
  which: Stream[],
  options: { limit: number; shownOnlyFor?: number; through?: string },
): Promise<void> {
  const { limit, shownOnlyFor, through } = options;
  const rows = await readSearchStreams(
    db,
    range,
    which.map((s) => ({ clientId: s.clientId, column: s.column, after: s.after, limit, shownOnlyFor, through })),
  );
  const counts = new Array<number>(which.length).fill(0);
  for (const row of rows) {
    const stream = which[row.stream]!;
    stream.rows.push(row);
    counts[row.stream]! += 1;
  }
  which.forEach((stream, i) => {
    const last = stream.rows.at(-1);
    if (counts[i]! === limit && last) {
      stream.after = { key: last.key, id: last.id };
      stream.knownTo = undefined;
    } else if (through === undefined) stream.done = true;
    else {
      stream.after = { key: through, inclusive: false };
      stream.knownTo = { key: through, wholeKey: true };
    }
  });
}

/** Up to where a stream not done is known: its last row, or the key a read went up to. */
function knownTo(stream: Stream): Position {
  if (stream.knownTo) return stream.knownTo;
  // A stream not done has read rows: its last read returned as many as it asked for.
  return { key: stream.rows.at(-1)!.key, stream, index: stream.rows.length - 1 };
}

/** The page order: key, client, key column, then the database's order within one stream. */
function comparePositions(a: Position, b: Position): number {
  const byKey = compareCodePoints(a.key, b.key);
  if (byKey !== 0) return byKey;
  if (a.wholeKey || b.wholeKey) return (a.wholeKey ? 1 : 0) - (b.wholeKey ? 1 : 0);
  return compareCodePoints(a.stream.clientId, b.stream.clientId) || a.stream.rank - b.stream.rank || a.index - b.index;
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

function toResult(row: Awaited<ReturnType<typeof participantsForSearch>>[number], column: SearchColumn): ParticipantSearchResult {
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
  if (!query.isWellFormed() || /\p{Cc}/u.test(query.replace(/\s/gu, ' ')))
    throw errors.validation('The search text has characters that cannot be searched');
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

/** The last row's [key, client, column rank, id]; the key is a normalised query (at most 256 characters, then a value). */
function decodeCursor(text: string): Cursor {
  const [key, clientId, rank, id] = decodePageCursor(text, ['string', 'string', 'number', 'string'], 1_024);
  if (rank >= SEARCH_COLUMNS.length) throw errors.validation('The page cursor is not valid');
  return { key, clientId, rank, id };
}
