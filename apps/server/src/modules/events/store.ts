import type { Kysely, Transaction } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ParticipantEventLinesTable, ParticipantEventsTable } from './tables.ts';

/** The events' own tables (migration 042, decision 097): the events kept, once per client and id, and their lines. */

type Q = Kysely<Database>;

// An event's posting runs these once each (decision 101): compiled to SQL once (decision 014).
const selectEvent = compiledOnce((db: Q, clientId: string, id: string) =>
  db.selectFrom('participant_events').selectAll().where('client_id', '=', clientId).where('id', '=', id),
);

export async function findEvent(db: Q, clientId: string, id: string): Promise<ParticipantEventsTable | undefined> {
  return (await selectEvent(db, clientId, id)).rows[0];
}

/** An event's columns as it is kept (the others, what returns do to it later, start at their defaults); the bulk path writes these too. */
export const EVENT_COLUMNS = [
  'client_id',
  'id',
  'body_hash',
  'type',
  'participant_id',
  'username',
  'occurred_at',
  'received_at',
  'amount',
  'currency',
  'attributes',
  'refs',
  'points',
  'pending_points',
  'key_id',
] as const satisfies ReadonlyArray<keyof ParticipantEventsTable>;

/** A line's columns as it is kept (released, reversed and debt start at their defaults); the bulk path writes these too. */
export const LINE_COLUMNS = [
  'client_id',
  'event_id',
  'line',
  'rule_id',
  'rule_version',
  'name',
  'kind',
  'points',
  'pending',
  'available_at',
  'entry_id',
  'calculation',
  'trims',
  'participant_id',
] as const satisfies ReadonlyArray<keyof ParticipantEventLinesTable>;

/** Every column: a return's rows set some of the others. */
const ALL_EVENT_COLUMNS = [...EVENT_COLUMNS, 'returned_amount', 'reversed_points', 'debt_points'] as const;
const ALL_LINE_COLUMNS = [...LINE_COLUMNS, 'released_at', 'reversed_points', 'debt_points'] as const;

/** A row's values in its columns' order, for a statement compiled once with them as its arguments. */
const valuesOf = <R>(row: R, columns: ReadonlyArray<keyof R>) => columns.map((column) => row[column]);
/** Rows from a compiled statement's arguments (placeholders while it compiles), `columns.length` each. */
const rowsOf = (args: readonly unknown[], columns: readonly string[]) =>
  Array.from({ length: args.length / columns.length }, (_, r) =>
    Object.fromEntries(columns.map((column, c) => [column, args[r * columns.length + c]])),
  );

const insertEventRow = compiledOnce((db: Q, ...values: unknown[]) =>
  // Typed as the table's row by its columns above; the values are the arguments of each run.
  db.insertInto('participant_events').values(rowsOf(values, ALL_EVENT_COLUMNS)[0] as unknown as ParticipantEventsTable),
);

/** An event's lines are one per rule it matched: a statement per count, up to this many, is kept compiled. */
const COMPILED_LINES = 16;
const insertLineRows = Array.from({ length: COMPILED_LINES + 1 }, () =>
  compiledOnce((db: Q, ...values: unknown[]) =>
    db.insertInto('participant_event_lines').values(rowsOf(values, ALL_LINE_COLUMNS) as unknown as ParticipantEventLinesTable[]),
  ),
);

export async function linesOfEvent(db: Q, clientId: string, eventId: string): Promise<ParticipantEventLinesTable[]> {
  return db
    .selectFrom('participant_event_lines')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('event_id', '=', eventId)
    .orderBy('line')
    .execute();
}

/**
 * Keeps the event: its primary key takes the id, so a concurrent twin that read no event fails
 * here (on PostgreSQL after waiting for this one's commit) and its transaction is undone.
 */
export async function insertEvent(trx: Transaction<Database>, row: ParticipantEventsTable): Promise<void> {
  await insertEventRow(trx, ...valuesOf(row, ALL_EVENT_COLUMNS));
}

export async function insertLines(trx: Transaction<Database>, rows: readonly ParticipantEventLinesTable[]): Promise<void> {
  if (rows.length === 0) return;
  const compiled = insertLineRows[rows.length];
  if (compiled) await compiled(trx, ...rows.flatMap((row) => valuesOf(row, ALL_LINE_COLUMNS)));
  else
    await trx
      .insertInto('participant_event_lines')
      .values([...rows])
      .execute();
}

/** A participant's events, newest first, after the (occurredAt, id) of a page's last one (the index participant_events_participant_idx). */
export async function listParticipantEvents(
  db: Q,
  clientId: string,
  participantId: string,
  after: { occurredAt: string; id: string } | undefined,
  limit: number,
): Promise<ParticipantEventsTable[]> {
  let query = db.selectFrom('participant_events').selectAll().where('client_id', '=', clientId).where('participant_id', '=', participantId);
  if (after)
    query = query.where((eb) =>
      eb.or([eb('occurred_at', '<', after.occurredAt), eb.and([eb('occurred_at', '=', after.occurredAt), eb('id', '<', after.id)])]),
    );
  return query.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** What the participant's returns could not take back, in all (participant_events_participant_idx). */
export async function owedPointsOf(db: Q, clientId: string, participantId: string): Promise<number> {
  const row = await db
    .selectFrom('participant_events')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('debt_points'), eb.lit(0)).as('owed'))
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .executeTakeFirst();
  return Number(row?.owed ?? 0);
}

/** The lines of several events of one client, in each event's order. */
export async function linesOfEvents(db: Q, clientId: string, eventIds: readonly string[]): Promise<ParticipantEventLinesTable[]> {
  if (eventIds.length === 0) return [];
  return db
    .selectFrom('participant_event_lines')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('event_id', 'in', [...eventIds])
    .orderBy('event_id')
    .orderBy('line')
    .execute();
}

/** A pending line not yet released, as the participant's user data and the release run read it. */
export interface OpenPendingLine {
  event_id: string;
  line: number;
  participant_id: string | null;
  points: number;
  reversed_points: number;
  available_at: string | null;
}

// Read by GET user whenever the participant has points pending: compiled to SQL once, and on
// PostgreSQL parsed and planned once per connection (decisions 014, 034), as the user's own read is.
const selectOpenPendingLines = compiledOnce(
  (db: Db, clientId: string, participantId: string, limit: number) =>
    db
      .selectFrom('participant_event_lines')
      .select(['event_id', 'line', 'participant_id', 'points', 'reversed_points', 'available_at'])
      .where('client_id', '=', clientId)
      .where('participant_id', '=', participantId)
      .where('pending', '=', 1)
      .where('released_at', 'is', null)
      .orderBy('available_at')
      .limit(limit),
  { prepared: true },
);

/** The participant's pending lines not yet released, soonest first (the partial index participant_event_lines_open_idx). */
export async function openPendingLines(db: Db, clientId: string, participantId: string, limit: number): Promise<OpenPendingLine[]> {
  return (await selectOpenPendingLines(db, clientId, participantId, limit)).rows;
}

/**
 * Locks an event's row until the commit (PostgreSQL; SQLite has one writer) and answers it as it
 * is then: a return and the release run take it first, so they take each of its lines' points once.
 */
export async function lockEvent(trx: Transaction<Database>, clientId: string, id: string): Promise<ParticipantEventsTable | undefined> {
  return trx
    .updateTable('participant_events')
    .set((eb) => ({ reversed_points: eb.ref('reversed_points') }))
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** A pending line due for release, with its event's participant. */
export interface DueLine {
  event_id: string;
  line: number;
  participant_id: string;
  username: string;
  available_at: string;
}

/**
 * The client's pending lines not yet released whose available_at has come, after a page's last
 * (available_at, event_id, line), in that order (the partial index participant_event_lines_due_idx).
 */
export async function dueLines(
  db: Q,
  clientId: string,
  now: string,
  after: { availableAt: string; eventId: string; line: number } | undefined,
  limit: number,
): Promise<DueLine[]> {
  let query = db
    .selectFrom('participant_event_lines as l')
    .innerJoin('participant_events as e', (join) => join.onRef('e.client_id', '=', 'l.client_id').onRef('e.id', '=', 'l.event_id'))
    .select(['l.event_id', 'l.line', 'e.participant_id', 'e.username', 'l.available_at'])
    .where('l.client_id', '=', clientId)
    .where('l.pending', '=', 1)
    .where('l.released_at', 'is', null)
    .where('l.available_at', '<=', now);
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('l.available_at', '>', after.availableAt),
        eb.and([eb('l.available_at', '=', after.availableAt), eb('l.event_id', '>', after.eventId)]),
        eb.and([eb('l.available_at', '=', after.availableAt), eb('l.event_id', '=', after.eventId), eb('l.line', '>', after.line)]),
      ]),
    );
  const rows = await query.orderBy('l.available_at').orderBy('l.event_id').orderBy('l.line').limit(limit).execute();
  return rows.map((row) => ({ ...row, line: Number(row.line), available_at: row.available_at ?? '' }));
}

/**
 * Marks a pending line released, if it still is not (the line's own guard: a line is released
 * once, however many runs meet it), and answers it; undefined when it was released already.
 */
export async function releaseLine(
  trx: Transaction<Database>,
  clientId: string,
  eventId: string,
  line: number,
  at: string,
): Promise<ParticipantEventLinesTable | undefined> {
  return trx
    .updateTable('participant_event_lines')
    .set({ released_at: at })
    .where('client_id', '=', clientId)
    .where('event_id', '=', eventId)
    .where('line', '=', line)
    .where('pending', '=', 1)
    .where('released_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** The ledger entry that credited (or released) a line. */
export async function setLineEntry(
  trx: Transaction<Database>,
  clientId: string,
  eventId: string,
  line: number,
  entryId: string,
): Promise<void> {
  await trx
    .updateTable('participant_event_lines')
    .set({ entry_id: entryId })
    .where('client_id', '=', clientId)
    .where('event_id', '=', eventId)
    .where('line', '=', line)
    .execute();
}

/** Adds what a return reversed of a line of its original event. */
export async function addLineReversed(
  trx: Transaction<Database>,
  clientId: string,
  eventId: string,
  line: number,
  points: number,
): Promise<void> {
  await trx
    .updateTable('participant_event_lines')
    .set((eb) => ({ reversed_points: eb('reversed_points', '+', points) }))
    .where('client_id', '=', clientId)
    .where('event_id', '=', eventId)
    .where('line', '=', line)
    .execute();
}

/** An original event's returned amount so far and the points reversed, after a return (its row locked by lockEvent). */
export async function setEventReturned(
  trx: Transaction<Database>,
  clientId: string,
  eventId: string,
  returnedAmount: string | null,
  reversedPoints: number,
): Promise<void> {
  await trx
    .updateTable('participant_events')
    .set({ returned_amount: returnedAmount, reversed_points: reversedPoints })
    .where('client_id', '=', clientId)
    .where('id', '=', eventId)
    .execute();
}
