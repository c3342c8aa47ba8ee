import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { padded } from '../../db/statement-shapes.ts';
import type { LedgerKind } from './store.ts';

/**
 * The ledger's reads that other modules' pages and runs are made of (issue 30 §3): the portal's
 * statement, the console's participant page, the reports' month sums, the expiry's activity
 * dates and posted references. The ledger owns its table's SQL; the others ask through service.ts. Where a page needs
 * one statement across the ledger and another module's table, the ledger offers its part as a
 * subquery that the other module's store selects (no second round trip).
 */

/** A database or a transaction. */
type Q = Kysely<Database>;

const num = (value: unknown) => Number(value ?? 0);

// ——— The portal's statement (activity module) ———

/**
 * A participant's whole ledger, oldest first, in one query that the
 * (client_id, participant_id, occurred_at) index serves; ties keep the order they were written.
 */
export async function listStatementEntries(db: Q, clientId: string, participantId: string) {
  return db
    .selectFrom('ledger_entries')
    .select(['occurred_at', 'description', 'description_key', 'description_params', 'amount'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .orderBy('occurred_at')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Where a page of a statement ends: the last entry's place in the statement's order. */
export interface StatementCursor {
  occurred_at: string;
  created_at: string;
  id: string;
}

/**
 * A participant's ledger, oldest first (ties keep the order they were written), `limit` entries
 * after `after` (from the start without it). The (client_id, participant_id, occurred_at,
 * created_at, id) index serves the order and the row-value comparison on both engines, so each
 * page costs its own entries only.
 */
export async function listStatementPage(db: Q, clientId: string, participantId: string, after: StatementCursor | undefined, limit: number) {
  let query = db
    .selectFrom('ledger_entries')
    .select(['occurred_at', 'created_at', 'id', 'description', 'description_key', 'description_params', 'amount'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('occurred_at', 'created_at', 'id'), '>', eb.tuple(after.occurred_at, after.created_at, after.id)),
    );
  return query.orderBy('occurred_at').orderBy('created_at').orderBy('id').limit(limit).execute();
}

/** How many ledger entries a participant has: the statement index only, not the rows. */
export async function countStatementEntries(db: Q, clientId: string, participantId: string): Promise<number> {
  const row = await entryCountOf(db, clientId, participantId).executeTakeFirstOrThrow();
  return Number(row.entries);
}

/**
 * The participant's number of entries as a subquery, for a statement of the participants' store
 * that reads their row and this count as one state (the statement's version, decision 044). The
 * ledger is append-only, so the count moves with every entry; it walks the statement index only.
 */
export function entryCountOf(db: Q, clientId: string, participantId: string) {
  return db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number | string>().as('entries'))
    .where('ledger_entries.client_id', '=', clientId)
    .where('ledger_entries.participant_id', '=', participantId);
}

// ——— The console's participant page ———

/** Where a page of the console's statement ends: the last entry's place, newest first. */
export interface ConsoleStatementCursor {
  occurred_at: string;
  created_at: string;
  id: string;
}

/** A page of the ledger newest first (ties: latest written first), `limit + 1` entries after `after`. */
export async function consoleStatementRows(
  db: Q,
  clientId: string,
  participantId: string,
  after: ConsoleStatementCursor | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('ledger_entries')
    .select([
      'id',
      'occurred_at',
      'created_at',
      'description',
      'description_key',
      'description_params',
      'amount',
      'kind',
      'internal_note',
      'posted_by',
    ])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('occurred_at', 'created_at', 'id'), '<', eb.tuple(after.occurred_at, after.created_at, after.id)),
    );
  return query
    .orderBy('occurred_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/**
 * The sum of the participant's entries newer than `at` as a subquery, for the participants'
 * store to subtract from the cached balance in the same statement (one state of the ledger). It
 * walks the newer entries only, never the older history.
 */
export function sumNewerThanOf(db: Q, clientId: string, participantId: string, at: ConsoleStatementCursor) {
  return db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('total'))
    .where('ledger_entries.client_id', '=', clientId)
    .where('ledger_entries.participant_id', '=', participantId)
    .where((w) =>
      w(
        w.refTuple('ledger_entries.occurred_at', 'ledger_entries.created_at', 'ledger_entries.id'),
        '>',
        w.tuple(at.occurred_at, at.created_at, at.id),
      ),
    );
}

/** The newest ledger entries, newest first (an operator's look at a participant). */
export async function latestEntries(db: Q, clientId: string, participantId: string, limit: number) {
  return db
    .selectFrom('ledger_entries')
    .select(['occurred_at', 'description', 'description_key', 'description_params', 'amount', 'kind', 'reference'])
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .orderBy('occurred_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

// ——— The reports (docs/decisions/067) ———

/** What one month and kind of entries added up to: credits (≥ 0), debits (≤ 0) and how many. */
export interface LedgerMonthSum {
  month: string;
  kind: string;
  credits: number;
  debits: number;
  entries: number;
}

/**
 * Ledger entries created in [from, to) (to: undefined, up to now) summed per month of occurred_at
 * and kind. Sums come back as text from PostgreSQL's bigint: every figure goes through Number().
 */
export async function ledgerMonthsCreated(db: Q, clientId: string, from: string, to?: string): Promise<LedgerMonthSum[]> {
  let query = db
    .selectFrom('ledger_entries')
    .select([
      sql<string>`substr(occurred_at, 1, 7)`.as('month'),
      'kind',
      sql<string>`sum(case when amount > 0 then amount else 0 end)`.as('credits'),
      sql<string>`sum(case when amount < 0 then amount else 0 end)`.as('debits'),
      sql<string>`count(*)`.as('entries'),
    ])
    .where('client_id', '=', clientId)
    .where('created_at', '>=', from);
  if (to !== undefined) query = query.where('created_at', '<', to);
  const rows = await query.groupBy([sql`substr(occurred_at, 1, 7)`, 'kind']).execute();
  return rows.map((r) => ({ month: r.month, kind: r.kind, credits: num(r.credits), debits: num(r.debits), entries: num(r.entries) }));
}

// ——— The expiry's run, reminders and schedule (docs/decisions/057, 061) ———

/** The expiry run's own entries: not an earning or a spending, so not activity. */
const EXPIRY: LedgerKind = 'expiry';

const SELECT_ROWS = 512;

/** When the participant last earned or spent (the expiry run's own entries aside); undefined: never. */
export async function lastActivityAt(db: Q, clientId: string, participantId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.max('occurred_at').as('last'))
    .where('client_id', '=', clientId)
    .where('participant_id', '=', participantId)
    .where('kind', '<>', EXPIRY)
    .executeTakeFirst();
  return row?.last ?? undefined;
}

/** Per participant of `participantIds`: when they last earned or spent (an expiry is neither). */
export async function lastActivityOf(db: Q, clientId: string, participantIds: readonly string[]): Promise<Map<string, string>> {
  const last = new Map<string, string>();
  for (let from = 0; from < participantIds.length; from += SELECT_ROWS) {
    const rows = await db
      .selectFrom('ledger_entries')
      .select('participant_id')
      .select((eb) => eb.fn.max('occurred_at').as('last'))
      .where('client_id', '=', clientId)
      .where('participant_id', 'in', padded(participantIds.slice(from, from + SELECT_ROWS)))
      .where('kind', '<>', EXPIRY)
      .groupBy('participant_id')
      .execute();
    for (const row of rows) last.set(row.participant_id, row.last);
  }
  return last;
}

/**
 * A page of the client's participants, by id after `after`, whose last earning or spending (the
 * expiry run's entries aside) is from `from` to `until` (ISO instants): under an inactivity
 * policy, those whose balance may expire soon.
 */
export async function pageParticipantsLastActiveBetween(
  db: Q,
  clientId: string,
  from: string,
  until: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select('participant_id')
    .where('client_id', '=', clientId)
    .where('kind', '<>', EXPIRY)
    .where('participant_id', '>', after)
    .groupBy('participant_id')
    .having((eb) => eb.and([eb(eb.fn.max('occurred_at'), '>=', from), eb(eb.fn.max('occurred_at'), '<=', until)]))
    .orderBy('participant_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.participant_id);
}

/**
 * The entries already posted under these references, with what a points import compares a line
 * with (decision 022: the same content is unchanged, other content is refused). One statement;
 * the caller keeps `references` to an IN list both engines take.
 */
export async function entriesByReference(db: Q, clientId: string, references: readonly string[]) {
  return db
    .selectFrom('ledger_entries')
    .select(['reference', 'participant_id', 'amount', 'occurred_at', 'description', 'created_at'])
    .where('client_id', '=', clientId)
    .where('reference', 'in', padded([...references]))
    .execute();
}

/** Which of these references are already posted (in the caller's transaction). */
export async function postedReferences(db: Q, clientId: string, references: readonly string[]): Promise<Set<string>> {
  const posted = new Set<string>();
  for (let from = 0; from < references.length; from += SELECT_ROWS) {
    const rows = await db
      .selectFrom('ledger_entries')
      .select('reference')
      .where('client_id', '=', clientId)
      .where('reference', 'in', padded(references.slice(from, from + SELECT_ROWS)))
      .execute();
    for (const row of rows) if (row.reference) posted.add(row.reference);
  }
  return posted;
}
