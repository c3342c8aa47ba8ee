import { BUILT_IN_EVENT_TYPES, type ProgramEventRequest } from '@rewards/contract/events';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { padded, pieces, placeholders, statementText } from '../../db/statement-shapes.ts';
import { ApiError } from '../../http/api-error.ts';
import {
  addToCountersMany,
  capsUsedFrom,
  counterKeysFor,
  readCountersMany,
  rulesTimeline,
  type BatchCounterKey,
  type RulesTimeline,
} from '../earning-rules/bulk.ts';
import { computeEarnings, localDayOf } from '../earning-rules/engine.ts';
import { appendLedgerEntries } from '../ledger/bulk.ts';
import type { LedgerMovement } from '../ledger/service.ts';
import { addPendingPointsMany, participantsByUsernameKeys, type BatchParticipant } from '../participants/batch.ts';
import { usernameKey } from '../participants/service.ts';
import { clientFactsOf, eventErrors, eventHash, FUTURE_SLACK_MS, isPending, lineRow, parseEvent } from './service.ts';
import type { ParticipantEventLinesTable, ParticipantEventsTable } from './tables.ts';
import { entryText, ruleWords } from './views.ts';
import { isClientEventType } from './types.ts';

/**
 * Events in batches (decision 099): an events import's job posts the lines of a batch in its one
 * transaction, not event by event through the ledger writer (a million events at a posting each
 * would take hours). Each event is what POST events would make of it (decision 097): the same
 * checks and words, taken once per the client's id (an id kept already, by the API or an earlier
 * file, is a repeat and credits nothing), computed by the engine with the rules in force at its
 * occurredAt against the caps' and budgets' counters, kept with its lines, one ledger entry for
 * what it credited (reference `event:<id>`), pending lines kept pending and not credited. What
 * differs is how: the batch's participants, events and counters are read in a few statements
 * (the counters locked on PostgreSQL in the single posting's order), each event computed in
 * memory in the batch's order with the counters carried from one to the next, and everything
 * written back at once (modules/ledger/bulk.ts for the entries, their balances and lots). The
 * preview runs the same sorting and computing, writing nothing, the counters carried through the
 * whole file.
 */

/** Ids per read of the events kept: a power of two (padded()). */
const IDS_PER_READ = 512;

/** A line of the file checked as POST events checks its body (no database yet). */
export interface EventLine {
  line: number;
  event: ProgramEventRequest;
  /** occurredAt as a UTC instant (ISO), as the event is kept. */
  occurredAt: string;
  /** The hash a repeat under the id is compared by (the API's): worked out when first asked for (hashOf), a preview needs it only for ids kept already. */
  hash?: string;
}

export interface EventProblem {
  line: number;
  reason: string;
  /** The id and username as the line has them, if it has them (a preview shows them beside the reason). */
  id?: string;
  username?: string;
}

/** An ApiError's words as a line's reason: the API's message without "nothing was kept" (the line is refused, the file goes on). */
export function reasonOf(error: ApiError): string {
  return error.message.replace(/;? nothing was kept\.?$/, '').replace(/\. Nothing was kept;.*$/, '');
}

/** The line's event hash, worked out once. */
export function hashOf(item: EventLine): string {
  return (item.hash ??= eventHash(item.event, item.occurredAt));
}

/** Checks one event's body with the API's words (parseEvent); a return is refused as POST events refuses it (decision 097). */
export function checkEventLine(line: number, input: Record<string, unknown>): EventLine | EventProblem {
  let event: ProgramEventRequest;
  try {
    event = parseEvent(input);
  } catch (error) {
    if (error instanceof ApiError) return { line, reason: reasonOf(error) };
    throw error;
  }
  if (event.type === 'return') return { line, reason: reasonOf(eventErrors.returnNotYet()) };
  const occurredAt = new Date(event.occurredAt).toISOString();
  return { line, event, occurredAt };
}

/** What one line came to, for a preview's sample and its rules' totals. */
export interface EventOutcome {
  line: number;
  id: string | null;
  username: string | null;
  outcome: 'added' | 'unchanged' | 'rejected';
  points: number;
  pendingPoints: number;
  detail: string;
}

export interface EventsBatchOutcome {
  added: number;
  unchanged: number;
  /** Sorted by line. */
  problems: EventProblem[];
  unknownUsernames: number;
  /** Credited to balances. */
  pointsIn: number;
  /** Held pending. */
  pendingPoints: number;
  /** The outcomes of the lines asked to be described (a preview's sample), in line order. */
  outcomes: EventOutcome[];
}

/** The client's facts a batch computes with. */
interface ClientFacts {
  timeZone: string;
  locale: string;
}

/** What a preview carries from batch to batch: the counters as its earlier lines would have left them (file order), and the rules' totals. */
export interface EventsPreviewCarry {
  counters: Map<string, number>;
  /** Each rule's points (credited and pending) and the events it gave points to. */
  rules: Map<string, { ruleId: string; name: string; points: number; pendingPoints: number; events: number }>;
  /** Rules whose budget trimmed a line of the file. */
  budgetRanOut: Set<string>;
}

interface Sorted {
  problems: EventProblem[];
  outcomes: EventOutcome[];
  toPost: Array<{ item: EventLine; participant: BatchParticipant; rules: ReturnType<RulesTimeline['inForce']>; keys: BatchCounterKey[] }>;
  unchanged: number;
  unknownUsernames: number;
}

/** Splits a batch into events to post, repeats and refusals, as POST events would answer each (decision 097's order of checks). */
async function sortBatch(
  db: Kysely<Database>,
  clientId: string,
  items: ReadonlyArray<EventLine | EventProblem>,
  facts: ClientFacts,
  timeline: RulesTimeline,
  now: Date,
  describeUpTo: number,
): Promise<Sorted> {
  const sorted: Sorted = { problems: [], outcomes: [], toPost: [], unchanged: 0, unknownUsernames: 0 };
  const refuse = (line: number, reason: string, event?: Pick<EventProblem, 'id' | 'username'>) => {
    sorted.problems.push({ line, reason });
    if (line <= describeUpTo)
      sorted.outcomes.push({
        line,
        id: event?.id ?? null,
        username: event?.username ?? null,
        outcome: 'rejected',
        points: 0,
        pendingPoints: 0,
        detail: reason,
      });
  };
  const candidates: EventLine[] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    if (!('event' in item)) {
      refuse(item.line, item.reason, item);
      continue;
    }
    // The staging index turns a file's repeats into refusals before; a guard should a batch hold two anyway.
    const earlier = seen.get(item.event.id);
    if (earlier !== undefined) refuse(item.line, `id ${item.event.id} repeats line ${earlier}`, item.event);
    else {
      seen.set(item.event.id, item.line);
      candidates.push(item);
    }
  }
  const kept = await keptHashes(
    db,
    clientId,
    candidates.map((c) => c.event.id),
  );
  const participants = await participantsByUsernameKeys(
    db,
    clientId,
    candidates.map((c) => usernameKey(c.event.username)),
  );
  const latest = now.getTime() + FUTURE_SLACK_MS;
  const types = new Map<string, boolean>();
  for (const item of candidates) {
    const { event } = item;
    if (Date.parse(item.occurredAt) > latest) {
      refuse(item.line, reasonOf(eventErrors.inTheFuture(event.occurredAt)), event);
      continue;
    }
    const hash = kept.get(event.id);
    if (hash !== undefined) {
      if (hash !== hashOf(item)) refuse(item.line, reasonOf(eventErrors.idReused(event.id)), event);
      else {
        sorted.unchanged += 1;
        if (item.line <= describeUpTo)
          sorted.outcomes.push({
            line: item.line,
            id: event.id,
            username: event.username,
            outcome: 'unchanged',
            points: 0,
            pendingPoints: 0,
            detail: `the event ${event.id} was taken already: a repeat, credited once`,
          });
      }
      continue;
    }
    const participant = participants.get(usernameKey(event.username));
    if (!participant) {
      sorted.unknownUsernames += 1;
      refuse(item.line, reasonOf(eventErrors.participantNotFound(event.username)), event);
      continue;
    }
    const rules = timeline.inForce(event.type, item.occurredAt);
    // As the single posting: the type is looked at only when no rule of it is in force (types.ts), once per batch.
    if (rules.length === 0) {
      let known = types.get(event.type);
      if (known === undefined) {
        known = (BUILT_IN_EVENT_TYPES as readonly string[]).includes(event.type) || (await isClientEventType(db, clientId, event.type));
        types.set(event.type, known);
      }
      if (!known) {
        refuse(item.line, reasonOf(eventErrors.unknownType(event.type)), event);
        continue;
      }
    }
    const keys = rules.length === 0 ? [] : counterKeysFor(rules, participant.id, localDayOf(item.occurredAt, facts.timeZone).day);
    sorted.toPost.push({ item, participant, rules, keys });
  }
  return sorted;
}

/** The hashes of the events the client has kept under these ids. */
async function keptHashes(db: Kysely<Database>, clientId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const distinct = [...new Set(ids)];
  for (let from = 0; from < distinct.length; from += IDS_PER_READ) {
    const rows = await db
      .selectFrom('participant_events')
      .select(['id', 'body_hash'])
      .where('client_id', '=', clientId)
      .where('id', 'in', padded(distinct.slice(from, from + IDS_PER_READ)))
      .execute();
    for (const row of rows) found.set(row.id, row.body_hash);
  }
  return found;
}

/** Pending as the single posting has it (events/service.ts): a line of a rule with pendingDays that earned points. */

/**
 * What is kept of a line that met its conditions until the batch is written: the engine's line
 * holds every condition checked and the rule's texts, ~2 kB a line, and a batch of 20,000 events
 * made 70,000 of them (the run's peak resident grew by hundreds of MB).
 */
interface KeptLine {
  ruleId: string;
  version: number;
  name: string;
  kind: string;
  points: number;
  pendingDays: number;
  calculation: string;
  /** JSON of the trims, as the lines' table keeps them. */
  trims: string;
  budgetTrimmed: boolean;
  /** The rule's words in the client's language (the ledger entry's text). */
  words: string;
}

interface Computed {
  item: EventLine;
  participant: BatchParticipant;
  matched: KeptLine[];
  credited: number;
  pending: number;
}

/**
 * Computes the events to post in order against `held` (what the counters hold, moved as each
 * event takes from them), adding what each gave to `takes` when given.
 */
function computeAll(
  toPost: Sorted['toPost'],
  facts: ClientFacts,
  held: Map<string, number>,
  takes?: Map<string, { ruleId: string; participantId: string; period: string; points: number }>,
): Computed[] {
  return toPost.map(({ item, participant, rules, keys }) => {
    const { event } = item;
    const result = computeEarnings(
      { type: event.type, occurredAt: item.occurredAt, amount: event.amount, currency: event.currency, attributes: event.attributes },
      { programs: participant.programs, status: participant.status },
      rules,
      capsUsedFrom(keys, held),
      facts.timeZone,
    );
    const given = new Map(result.lines.map((line) => [line.ruleId, line.points]));
    for (const key of keys) {
      const points = given.get(key.ruleId) ?? 0;
      if (points === 0) continue;
      const text = key.text;
      held.set(text, (held.get(text) ?? 0) + points);
      if (takes) {
        const take = takes.get(text);
        if (take) take.points += points;
        else takes.set(text, { ruleId: key.ruleId, participantId: key.participantId, period: key.period, points });
      }
    }
    const matched: KeptLine[] = [];
    for (const line of result.lines)
      if (line.matched)
        matched.push({
          ruleId: line.ruleId,
          version: line.version,
          name: line.name,
          kind: line.kind,
          points: line.points,
          pendingDays: line.pendingDays,
          calculation: line.calculation,
          trims: JSON.stringify(line.trims),
          budgetTrimmed: line.trims.some((t) => t.by === 'budget'),
          words: ruleWords(line.name, line.text, facts.locale),
        });
    const credited = matched.filter((line) => !isPending(line) && line.points > 0).reduce((sum, line) => sum + line.points, 0);
    const pending = matched.filter(isPending).reduce((sum, line) => sum + line.points, 0);
    return { item, participant, matched, credited, pending };
  });
}

function outcomeOf(c: Computed): EventOutcome {
  const words = c.matched
    .filter((line) => line.points > 0)
    .map((line) => `${line.name} ${line.points}${isPending(line) ? ` (pending ${line.pendingDays} days)` : ''}`);
  return {
    line: c.item.line,
    id: c.item.event.id,
    username: c.item.event.username,
    outcome: 'added',
    points: c.credited,
    pendingPoints: c.pending,
    detail: words.length === 0 ? 'no rule earns on it: kept with 0 points' : words.join(' + '),
  };
}

function outcomeTotals(sorted: Sorted, computed: readonly Computed[], describeUpTo: number): EventsBatchOutcome {
  const described = computed.filter((c) => c.item.line <= describeUpTo).map(outcomeOf);
  const outcomes = [...sorted.outcomes, ...described].sort((a, b) => a.line - b.line);
  return {
    added: computed.length,
    unchanged: sorted.unchanged,
    problems: sorted.problems.sort((a, b) => a.line - b.line),
    unknownUsernames: sorted.unknownUsernames,
    pointsIn: computed.reduce((sum, c) => sum + c.credited, 0),
    pendingPoints: computed.reduce((sum, c) => sum + c.pending, 0),
    outcomes,
  };
}

/**
 * What postEventsBatch would do, writing nothing: the counters read without locking the first
 * time a key is met and carried in `carry` afterwards, so caps and budgets are taken as the file's
 * order takes them.
 */
export async function previewEventsBatch(
  db: Kysely<Database>,
  clientId: string,
  items: ReadonlyArray<EventLine | EventProblem>,
  carry: EventsPreviewCarry,
  describe: number,
  now = new Date(),
): Promise<EventsBatchOutcome> {
  const facts = await clientFactsOf(db, clientId);
  // The outcomes of the batch's first `describe` lines are told, with their rules' words (the preview's sample).
  const describeUpTo = describe > 0 ? (items[Math.min(describe, items.length) - 1]?.line ?? 0) : 0;
  const sorted = await sortBatch(db, clientId, items, facts, await rulesTimeline(db, clientId), now, describeUpTo);
  const unseen = sorted.toPost.flatMap((p) => p.keys).filter((k) => !carry.counters.has(k.text));
  const read = await readCountersMany(db, clientId, unseen, { lock: false, now: now.toISOString() });
  for (const key of unseen) carry.counters.set(key.text, read.get(key.text) ?? 0);
  const computed = computeAll(sorted.toPost, facts, carry.counters);
  for (const c of computed)
    for (const line of c.matched) {
      let total = carry.rules.get(line.ruleId);
      if (!total) {
        total = { ruleId: line.ruleId, name: line.name, points: 0, pendingPoints: 0, events: 0 };
        carry.rules.set(line.ruleId, total);
      }
      if (isPending(line)) total.pendingPoints += line.points;
      else total.points += line.points;
      if (line.points > 0) total.events += 1;
      if (line.budgetTrimmed) carry.budgetRanOut.add(line.ruleId);
    }
  return outcomeTotals(sorted, computed, describeUpTo);
}

/**
 * One batch in the caller's transaction (the import job's, decision 064): sorted as POST events
 * would answer each line, the counters of the batch's events locked (made if missing), each event
 * computed in the batch's order, then written at once: one ledger entry per event that credited
 * points (kind award, at its occurredAt, reference `event:<id>`: a twin sent meanwhile fails the
 * batch on it, and the job takes the batch again), the events and their lines (received at
 * `runAt`, `key_id` the job's `import:<job id>`), the counters and the participants' pending
 * totals moved. Credits only: nothing can refuse a line once computed.
 */
export async function postEventsBatch(
  trx: Transaction<Database>,
  clientId: string,
  items: ReadonlyArray<EventLine | EventProblem>,
  runAt: Date,
  source: string,
  now = new Date(),
): Promise<EventsBatchOutcome> {
  const facts = await clientFactsOf(trx, clientId);
  const sorted = await sortBatch(trx, clientId, items, facts, await rulesTimeline(trx, clientId), now, 0);
  const at = now.toISOString();
  const held = await readCountersMany(
    trx,
    clientId,
    sorted.toPost.flatMap((p) => p.keys),
    { lock: true, now: at },
  );
  const takes = new Map<string, { ruleId: string; participantId: string; period: string; points: number }>();
  const computed = computeAll(sorted.toPost, facts, held, takes);

  const credited = computed.filter((c) => c.credited > 0);
  const movements: LedgerMovement[] = credited.map((c) => ({
    clientId,
    participantId: c.participant.id,
    occurredAt: c.item.occurredAt,
    description: entryText(c.matched.filter((line) => !isPending(line) && line.points > 0).map((line) => line.words)),
    amount: c.credited,
    kind: 'award',
    reference: `event:${c.item.event.id}`,
  }));
  const { entryIds } = await appendLedgerEntries(trx, clientId, movements, runAt);
  const entryOf = new Map(credited.map((c, index) => [c.item.event.id, entryIds.get(index) ?? null]));

  const receivedAt = runAt.toISOString();
  const events: ParticipantEventsTable[] = [];
  const lines: ParticipantEventLinesTable[] = [];
  const pendingBy = new Map<string, number>();
  for (const c of computed) {
    const { event } = c.item;
    events.push({
      client_id: clientId,
      id: event.id,
      body_hash: hashOf(c.item),
      type: event.type,
      participant_id: c.participant.id,
      username: c.participant.username,
      occurred_at: c.item.occurredAt,
      received_at: receivedAt,
      amount: event.amount ?? null,
      currency: event.currency ?? null,
      attributes: event.attributes === undefined ? null : JSON.stringify(event.attributes),
      refs: event.references === undefined ? null : JSON.stringify(event.references),
      points: c.credited,
      pending_points: c.pending,
      key_id: source,
      returned_amount: null,
      reversed_points: 0,
      debt_points: 0,
    });
    const entryId = entryOf.get(event.id) ?? null;
    c.matched.forEach((line, i) =>
      lines.push(
        lineRow({ clientId, id: event.id, participantId: c.participant.id, occurredAt: c.item.occurredAt }, line, i, line.trims, entryId),
      ),
    );
    if (c.pending > 0) pendingBy.set(c.participant.id, (pendingBy.get(c.participant.id) ?? 0) + c.pending);
  }
  // In their primary key's order: the batch's ids are all over that index (the batch goes by
  // participant), and in order each of its pages is found once rather than once a row.
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  events.sort((a, b) => byId(a.id, b.id));
  lines.sort((a, b) => byId(a.event_id, b.event_id) || a.line - b.line);
  await insertEvents(trx, events);
  await insertLines(trx, lines);
  await addToCountersMany(trx, clientId, takes, at);
  await addPendingPointsMany(trx, clientId, pendingBy);
  return outcomeTotals(sorted, computed, 0);
}

const EVENT_COLUMNS = [
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

const LINE_COLUMNS = [
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

async function insertEvents(trx: Transaction<Database>, rows: readonly ParticipantEventsTable[]): Promise<void> {
  await insertRows(trx, 'participant_events', EVENT_COLUMNS, rows);
}

async function insertLines(trx: Transaction<Database>, rows: readonly ParticipantEventLinesTable[]): Promise<void> {
  await insertRows(trx, 'participant_event_lines', LINE_COLUMNS, rows);
}

/** Rows per INSERT: 15 parameters each, under both engines' limits (SQLite's 32,766, PostgreSQL's 65,535). */
const INSERT_ROWS = 128;

/**
 * Multi-row INSERTs of few shapes (pieces()), their text made once per shape and engine. On SQLite
 * `or fail`: the events' tables have no foreign keys, so with `or fail` a statement needs no
 * statement journal (the batch's transaction undoes everything on an error anyway). Measured against
 * one INSERT reading a JSON parameter (json_each, as the ledger's bulk path does): ->> parses each
 * row's text once per column, which cost more than the statement's own work here.
 */
async function insertRows<Row extends object>(
  trx: Transaction<Database>,
  table: 'participant_events' | 'participant_event_lines',
  columns: ReadonlyArray<keyof Row & string>,
  rows: readonly Row[],
): Promise<void> {
  const postgres = isPostgres(trx);
  for (const [from, to] of pieces(rows.length, INSERT_ROWS)) {
    const parameters: unknown[] = [];
    for (let i = from; i < to; i += 1) {
      const row = rows[i] as Record<string, unknown>;
      for (const column of columns) parameters.push(row[column] ?? null);
    }
    await trx.executeQuery(CompiledQuery.raw(insertText(table, columns, to - from, postgres), parameters));
  }
}

function insertText(table: string, columns: readonly string[], rows: number, postgres: boolean): string {
  return statementText(`events.${table}:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const values = Array.from({ length: rows }, () => `(${columns.map(() => p()).join(', ')})`).join(', ');
    return `insert${postgres ? '' : ' or fail'} into ${table} (${columns.join(', ')}) values ${values}`;
  });
}
