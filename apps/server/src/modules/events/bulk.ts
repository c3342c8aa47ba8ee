import { BUILT_IN_EVENT_TYPES, RETURN_ORIGINAL_REFERENCE, type ProgramEventRequest } from '@rewards/contract/events';
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
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
import { formatDecimal, parseDecimal } from '../earning-rules/decimal.ts';
import { computeEarnings, localDayOf } from '../earning-rules/engine.ts';
import { appendLedgerEntries } from '../ledger/bulk.ts';
import type { LedgerMovement } from '../ledger/service.ts';
import { addPendingPointsMany, participantsByUsernameKeys, type BatchParticipant } from '../participants/batch.ts';
import { bulkBalances, usernameKey } from '../participants/service.ts';
import { clientFactsOf, eventErrors, eventHash, FUTURE_SLACK_MS, isPending, lineRow, parseEvent } from './service.ts';
import {
  checkOriginal,
  coverReturn,
  planReturn,
  returnEntryText,
  returnErrors,
  returnRows,
  type Reversal,
  type ReturnCover,
} from './returns.ts';
import { addLineReversed, EVENT_COLUMNS, LINE_COLUMNS, setEventReturned } from './store.ts';
import type { ParticipantEventLinesTable, ParticipantEventsTable } from './tables.ts';
import { creditEntryTexts } from './views.ts';
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

/** Checks one event's body with the API's words (parseEvent); a return's original is looked at as the batch posts it. */
export function checkEventLine(line: number, input: Record<string, unknown>): EventLine | EventProblem {
  let event: ProgramEventRequest;
  try {
    event = parseEvent(input);
  } catch (error) {
    if (error instanceof ApiError) return { line, reason: reasonOf(error) };
    throw error;
  }
  const occurredAt = new Date(event.occurredAt).toISOString();
  return { line, event, occurredAt };
}

/** What one line came to, for a preview's sample and its rules' totals. */
export interface EventOutcome {
  line: number;
  id: string | null;
  username: string | null;
  /** returned: a return, kept with what it took back (points and pendingPoints negative). */
  outcome: 'added' | 'returned' | 'unchanged' | 'rejected';
  points: number;
  pendingPoints: number;
  detail: string;
}

export interface EventsBatchOutcome {
  /** Events kept, returns included. */
  added: number;
  unchanged: number;
  /** Sorted by line. */
  problems: EventProblem[];
  unknownUsernames: number;
  /** Credited to balances. */
  pointsIn: number;
  /** Taken back from balances by returns. */
  pointsOut: number;
  /** The pending totals' move: held by the events, less what returns took from pending points. */
  pendingPoints: number;
  /** The outcomes of the lines asked to be described (a preview's sample), in line order. */
  outcomes: EventOutcome[];
}

/** The client's facts a batch computes with. */
interface ClientFacts {
  timeZone: string;
  locale: string;
}

/**
 * An event a return may name, as kept (read from the database, or made by the batch or the
 * preview before the return), moved in memory by each return taken of it.
 */
interface Original {
  row: ParticipantEventsTable;
  lines: ParticipantEventLinesTable[];
  /** Its line in the file, when the file made it. */
  fileLine?: number;
}

/** What a preview carries from batch to batch: the counters as its earlier lines would have left them (file order), and the rules' totals. */
export interface EventsPreviewCarry {
  counters: Map<string, number>;
  /** Each rule's points (credited and pending) and the events it gave points to; what returns took back is subtracted. */
  rules: Map<string, { ruleId: string; name: string; points: number; pendingPoints: number; events: number }>;
  /** Rules whose budget trimmed a line of the file. */
  budgetRanOut: Set<string>;
  /**
   * True when the run must take the file in its order for it to do what the preview says: a return
   * gave back to a budget (shared by all participants), or named an event not found or another
   * participant's (by participant, that event could be posted before the return).
   */
  fileOrder: boolean;
  /** The file's returns, when it has any (imports/events.ts): which of these ids a return line of the file names. */
  returns?: { referenced(ids: readonly string[]): Promise<ReadonlySet<string>> };
  /** Events of the file, and of the database, that later returns of the file name. */
  originals: Map<string, Original>;
  /** Balances as read (participants with a return), and what the file's earlier lines moved them by (every participant, once the file has returns). */
  balances: Map<string, number>;
  balanceMoves: Map<string, number>;
  /**
   * The participants the file named so far (null: nobody has the username), read once for the
   * whole preview rather than once a batch (a file in its order names each again and again).
   */
  participants?: Map<string, BatchParticipant | null>;
}

interface ToPost {
  item: EventLine;
  participant: BatchParticipant;
  rules: ReturnType<RulesTimeline['inForce']>;
  keys: BatchCounterKey[];
  /** A return: the id of the event it returns. */
  originalId?: string;
}

interface Sorted {
  problems: EventProblem[];
  outcomes: EventOutcome[];
  toPost: ToPost[];
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
  known?: Map<string, BatchParticipant | null>,
): Promise<Sorted> {
  const sorted: Sorted = { problems: [], outcomes: [], toPost: [], unchanged: 0, unknownUsernames: 0 };
  const refuse = (line: number, reason: string, event?: Pick<EventProblem, 'id' | 'username'>) =>
    refuseInto(sorted, describeUpTo, line, reason, event);
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
  const participants = await participantsOf(
    db,
    clientId,
    candidates.map((c) => usernameKey(c.event.username)),
    known,
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
    if (event.type === 'return') {
      // As POST events (returns.ts checkReturn): the original named; the rest once its turn comes (computeInOrder).
      const originalId = event.references?.[RETURN_ORIGINAL_REFERENCE];
      if (originalId === undefined) refuse(item.line, reasonOf(returnErrors.noOriginal()), event);
      else sorted.toPost.push({ item, participant, rules: [], keys: [], originalId });
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

function refuseInto(
  sorted: Pick<Sorted, 'problems' | 'outcomes'>,
  describeUpTo: number,
  line: number,
  reason: string,
  event?: Pick<EventProblem, 'id' | 'username'>,
): void {
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
}

/** The participants of these username keys, those in `known` (when given) not read again, those read added to it. */
async function participantsOf(
  db: Kysely<Database>,
  clientId: string,
  keys: readonly string[],
  known: Map<string, BatchParticipant | null> | undefined,
): Promise<{ get(key: string): BatchParticipant | undefined }> {
  if (!known) return participantsByUsernameKeys(db, clientId, keys);
  const unread = [...new Set(keys.filter((key) => !known.has(key)))];
  const read = await participantsByUsernameKeys(db, clientId, unread);
  for (const key of unread) known.set(key, read.get(key) ?? null);
  return { get: (key) => known.get(key) ?? undefined };
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

/**
 * The events these returns name that the database keeps, with their lines, into `originals`. With
 * `lock` (the run, PostgreSQL), their rows are locked FOR UPDATE in id order before the counters
 * and the participants, the order the single return's posting takes (returns.ts postReturn).
 */
async function readOriginals(
  db: Kysely<Database>,
  clientId: string,
  ids: readonly string[],
  originals: Map<string, Original>,
  lock: boolean,
): Promise<void> {
  const distinct = [...new Set(ids)].filter((id) => !originals.has(id)).sort(byId);
  const postgres = isPostgres(db);
  for (let from = 0; from < distinct.length; from += IDS_PER_READ) {
    const chunk = distinct.slice(from, from + IDS_PER_READ);
    let query = db
      .selectFrom('participant_events')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('id', 'in', padded(chunk))
      .orderBy(postgres ? sql`id collate "C"` : sql`id`);
    if (lock && postgres) query = query.forUpdate();
    const rows = await query.execute();
    if (rows.length === 0) continue;
    const lines = Map.groupBy(
      await db
        .selectFrom('participant_event_lines')
        .selectAll()
        .where('client_id', '=', clientId)
        .where(
          'event_id',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('event_id')
        .orderBy('line')
        .execute(),
      (line) => line.event_id,
    );
    for (const row of rows) originals.set(row.id, { row, lines: lines.get(row.id) ?? [] });
  }
}

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
  /** The rule version's texts by language (the entry's words in the participant's language, views.ts entryTextsByLocale). */
  text: Readonly<Record<string, string>> | undefined;
}

/** A return as computed: what it took back of which original. */
interface Returned {
  originalId: string;
  original: Original;
  reversals: Reversal[];
  covered: ReturnCover;
  /** The ledger entry's words when it took from the balance. */
  text: ReturnType<typeof returnEntryText>;
}

interface Computed {
  item: EventLine;
  participant: BatchParticipant;
  matched: KeptLine[];
  /** Credited to the balance (a return: 0). */
  credited: number;
  /** Held pending (a return: minus what it took from pending points). */
  pending: number;
  returned?: Returned;
  /** The rows as kept, made when they are to be written or a return may name the event. */
  rows?: { row: ParticipantEventsTable; lines: ParticipantEventLinesTable[] };
}

/** What computeInOrder works with and moves. */
interface Pass {
  clientId: string;
  facts: ClientFacts;
  timeline: RulesTimeline;
  /** What the counters hold, moved as each event takes from them and each return gives back. */
  held: Map<string, number>;
  /** The run: what the batch adds to each counter (negative where returns gave back). */
  takes?: Map<string, { ruleId: string; participantId: string; period: string; points: number }>;
  /** Events a return may name: read from the database, and those posted before it (kept when `keep` says so). */
  originals: Map<string, Original>;
  keep: (id: string) => boolean;
  /** The run: every event's rows are made (they are written). */
  rowsForAll: boolean;
  /** Balances as they stand at each event's turn: only where returns are to be taken (undefined otherwise). */
  balances?: { of(participantId: string): number; move(participantId: string, points: number): void };
  receivedAt: string;
  source: string;
  /** The preview's: a return gave back to a budget, or named an event not found or another participant's. */
  orderMatters?: () => void;
}

/** The counters a line of the original counted in (its rule version's participant cap in the original's period, its budget). */
function keysOfLine(pass: Pass, original: Original, line: ParticipantEventLinesTable): BatchCounterKey[] {
  const version = pass.timeline.version(line.rule_id, Number(line.rule_version));
  if (!version) return [];
  return counterKeysFor([version], original.row.participant_id, localDayOf(original.row.occurred_at, pass.facts.timeZone).day);
}

/** An event's lines credited to the balance (not pending, points above 0): its ledger entry's. */
const credited = (c: Computed) => c.matched.filter((line) => !isPending(line) && line.points > 0);

/** The counter keys of the lines that earned of these originals (those a return may give back to). */
function keysOfOriginals(pass: Pass, originals: Iterable<Original>): BatchCounterKey[] {
  const keys: BatchCounterKey[] = [];
  for (const original of originals)
    for (const line of original.lines) if (Number(line.points) > 0) keys.push(...keysOfLine(pass, original, line));
  return keys;
}

/**
 * Computes the events to post in the batch's order against `pass.held` (the counters, moved as
 * each event takes from them and each return gives back), returns as POST events takes them
 * (returns.ts: the original's checks, planReturn, coverReturn), and the refusals of returns
 * whose original does not do.
 */
function computeInOrder(
  pass: Pass,
  toPost: readonly ToPost[],
  refused: Pick<Sorted, 'problems' | 'outcomes'>,
  describeUpTo: number,
): Computed[] {
  const computed: Computed[] = [];
  for (const post of toPost) {
    if (post.originalId !== undefined) {
      const c = computeReturn(pass, post, post.originalId);
      if (typeof c === 'string') refuseInto(refused, describeUpTo, post.item.line, c, post.item.event);
      else computed.push(c);
      continue;
    }
    const c = computeEvent(pass, post);
    if (pass.rowsForAll || pass.keep(post.item.event.id)) {
      c.rows = rowsOf(pass, c);
      if (pass.keep(post.item.event.id)) pass.originals.set(post.item.event.id, { ...c.rows, fileLine: post.item.line });
    }
    if (c.credited > 0) pass.balances?.move(post.participant.id, c.credited);
    computed.push(c);
  }
  return computed;
}

function computeEvent(pass: Pass, { item, participant, rules, keys }: ToPost): Computed {
  const { event } = item;
  const { held, takes, facts } = pass;
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
        text: line.text,
      });
  const credited = matched.filter((line) => !isPending(line) && line.points > 0).reduce((sum, line) => sum + line.points, 0);
  const pending = matched.filter(isPending).reduce((sum, line) => sum + line.points, 0);
  return { item, participant, matched, credited, pending };
}

/** An event's rows as POST events keeps them; the credited lines' entry is named once the batch's entries are made. */
function rowsOf(pass: Pass, c: Computed): { row: ParticipantEventsTable; lines: ParticipantEventLinesTable[] } {
  const { event } = c.item;
  const row: ParticipantEventsTable = {
    client_id: pass.clientId,
    id: event.id,
    body_hash: hashOf(c.item),
    type: event.type,
    participant_id: c.participant.id,
    username: c.participant.username,
    occurred_at: c.item.occurredAt,
    received_at: pass.receivedAt,
    amount: event.amount ?? null,
    currency: event.currency ?? null,
    attributes: event.attributes === undefined ? null : JSON.stringify(event.attributes),
    refs: event.references === undefined ? null : JSON.stringify(event.references),
    points: c.credited,
    pending_points: c.pending,
    key_id: pass.source,
    returned_amount: null,
    reversed_points: 0,
    debt_points: 0,
  };
  const owner = { clientId: pass.clientId, id: event.id, participantId: c.participant.id, occurredAt: c.item.occurredAt };
  return { row, lines: c.matched.map((line, i) => lineRow(owner, line, i, line.trims, null)) };
}

/** A return at its turn: its original found and checked (the API's words otherwise), what it takes back planned, covered and given back to the counters. */
function computeReturn(pass: Pass, post: ToPost, originalId: string): Computed | string {
  const { item, participant } = post;
  const { event } = item;
  const original = pass.originals.get(originalId);
  if (!original) {
    pass.orderMatters?.();
    // As POST events: an amount of 0 is refused before the original is looked for (returns.ts checkReturn).
    if (event.amount !== undefined && parseDecimal(event.amount).units === 0n) return reasonOf(returnErrors.zeroAmount());
    return reasonOf(returnErrors.unknownOriginal(originalId));
  }
  if (original.row.participant_id !== participant.id) pass.orderMatters?.();
  try {
    checkOriginal(event, original.row, participant.id, item.occurredAt);
  } catch (error) {
    if (error instanceof ApiError) return reasonOf(error);
    throw error;
  }
  const plan = planReturn(event, original.row, original.lines);
  const covered = coverReturn(plan.reversals, pass.balances?.of(participant.id) ?? 0);
  // The counters the original counted in, given back what was taken (not the debt), never below 0 (earning-rules lockCapsOfEvent).
  for (const r of plan.reversals) {
    if (r.taken <= 0) continue;
    for (const key of keysOfLine(pass, original, r.line)) {
      const points = Math.min(r.taken, pass.held.get(key.text) ?? 0);
      if (points <= 0) continue;
      pass.held.set(key.text, (pass.held.get(key.text) ?? 0) - points);
      if (key.use === 'budget') pass.orderMatters?.();
      if (pass.takes) {
        const take = pass.takes.get(key.text);
        if (take) take.points -= points;
        else pass.takes.set(key.text, { ruleId: key.ruleId, participantId: key.participantId, period: key.period, points: -points });
      }
    }
  }
  const ruleOf = (line: ParticipantEventLinesTable) => ({
    name: line.name,
    text: pass.timeline.version(line.rule_id, Number(line.rule_version))?.rule.text,
  });
  const c: Computed = {
    item,
    participant,
    matched: [],
    credited: 0,
    pending: -covered.fromPending,
    returned: {
      originalId,
      original,
      reversals: plan.reversals,
      covered,
      text: returnEntryText(originalId, plan.reversals, ruleOf, pass.facts.locale),
    },
  };
  // Made before the original's lines move: a return line says how much was taken back so far, this one included.
  c.rows = returnRows(
    {
      clientId: pass.clientId,
      event,
      participant,
      originalId,
      occurredAt: item.occurredAt,
      receivedAt: pass.receivedAt,
      hash: hashOf(item),
      keyId: pass.source,
    },
    original.row.amount,
    plan.reversals,
    covered,
    null,
  );
  for (const r of plan.reversals) r.line.reversed_points = Number(r.line.reversed_points) + r.points;
  original.row.returned_amount = plan.returnedAfter === undefined ? null : formatDecimal(plan.returnedAfter);
  original.row.reversed_points = plan.reversedAfter;
  if (covered.fromBalance > 0) pass.balances?.move(participant.id, -covered.fromBalance);
  // A return is an event a later return may name (and is refused: a return of a return).
  if (pass.keep(event.id)) pass.originals.set(event.id, { ...c.rows, fileLine: item.line });
  return c;
}

function outcomeOf(c: Computed): EventOutcome {
  if (c.returned) {
    const { originalId, reversals, covered } = c.returned;
    const parts = reversals.map(
      (r) =>
        `${r.line.name} -${r.points}${r.fromPending ? ' (pending)' : ''}${r.debt > 0 ? ` (${r.debt} not covered by the balance: owed)` : ''}`,
    );
    return {
      line: c.item.line,
      id: c.item.event.id,
      username: c.item.event.username,
      outcome: 'returned',
      points: -covered.fromBalance,
      pendingPoints: -covered.fromPending,
      detail: `Return of ${originalId}: ${parts.length === 0 ? 'nothing left to take back, kept with 0 points' : parts.join(' + ')}`,
    };
  }
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
    pointsOut: computed.reduce((sum, c) => sum + (c.returned?.covered.fromBalance ?? 0), 0),
    pendingPoints: computed.reduce((sum, c) => sum + c.pending, 0),
    outcomes,
  };
}

/** The originals of a batch's returns not made by the batch itself (nor, in a preview, by the file before). */
function returnsOf(toPost: readonly ToPost[]): string[] {
  const ids: string[] = [];
  for (const post of toPost) if (post.originalId !== undefined) ids.push(post.originalId);
  return ids;
}

/**
 * What postEventsBatch would do, writing nothing: the counters read without locking the first
 * time a key is met and carried in `carry` afterwards, so caps and budgets are taken as the file's
 * order takes them; likewise, when the file has returns, the balances and the events its returns
 * name.
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
  const timeline = await rulesTimeline(db, clientId);
  const sorted = await sortBatch(db, clientId, items, facts, timeline, now, describeUpTo, (carry.participants ??= new Map()));
  const referenced = carry.returns ? await carry.returns.referenced(sorted.toPost.map((p) => p.item.event.id)) : new Set<string>();
  const pass: Pass = {
    clientId,
    facts,
    timeline,
    held: carry.counters,
    originals: carry.originals,
    keep: (id) => referenced.has(id),
    rowsForAll: false,
    receivedAt: now.toISOString(),
    source: 'preview',
    orderMatters: () => (carry.fileOrder = true),
  };
  const unseen = sorted.toPost.flatMap((p) => p.keys);
  const returning = returnsOf(sorted.toPost);
  if (returning.length > 0) {
    const before = new Set(carry.originals.keys());
    const batchIds = new Set(sorted.toPost.map((p) => p.item.event.id));
    await readOriginals(
      db,
      clientId,
      returning.filter((id) => !batchIds.has(id)),
      carry.originals,
      false,
    );
    unseen.push(
      ...keysOfOriginals(
        pass,
        [...carry.originals].filter(([id]) => !before.has(id)).map(([, o]) => o),
      ),
    );
    const unread = [...new Set(sorted.toPost.filter((p) => p.originalId !== undefined).map((p) => p.participant.id))].filter(
      (id) => !carry.balances.has(id),
    );
    // Reads only (the preview's own statement on PostgreSQL: FOR UPDATE holds nothing past it).
    for (const [id, balance] of await bulkBalances(db as Transaction<Database>, clientId, unread)) carry.balances.set(id, balance ?? 0);
  }
  if (carry.returns)
    pass.balances = {
      of: (id) => (carry.balances.get(id) ?? 0) + (carry.balanceMoves.get(id) ?? 0),
      move: (id, points) => carry.balanceMoves.set(id, (carry.balanceMoves.get(id) ?? 0) + points),
    };
  const fresh = unseen.filter((k) => !carry.counters.has(k.text));
  const read = await readCountersMany(db, clientId, fresh, { lock: false, now: now.toISOString() });
  for (const key of fresh) carry.counters.set(key.text, read.get(key.text) ?? 0);
  const computed = computeInOrder(pass, sorted.toPost, sorted, describeUpTo);
  for (const c of computed) {
    for (const line of c.matched) {
      const total = ruleTotal(carry, line.ruleId, line.name);
      if (isPending(line)) total.pendingPoints += line.points;
      else total.points += line.points;
      if (line.points > 0) total.events += 1;
      if (line.budgetTrimmed) carry.budgetRanOut.add(line.ruleId);
    }
    for (const r of c.returned?.reversals ?? []) {
      const total = ruleTotal(carry, r.line.rule_id, r.line.name);
      if (r.fromPending) total.pendingPoints -= r.taken;
      else total.points -= r.taken;
    }
  }
  return outcomeTotals(sorted, computed, describeUpTo);
}

function ruleTotal(carry: EventsPreviewCarry, ruleId: string, name: string) {
  let total = carry.rules.get(ruleId);
  if (!total) {
    total = { ruleId, name, points: 0, pendingPoints: 0, events: 0 };
    carry.rules.set(ruleId, total);
  }
  return total;
}

/**
 * One batch in the caller's transaction (the import job's, decision 064): sorted as POST events
 * would answer each line, the events its returns name locked (PostgreSQL) and read, the counters
 * of the batch's events and of those originals locked (made if missing), the balances read when
 * it has returns, each event computed in the batch's order, then written at once: one ledger entry
 * per event that credited points (kind award, at its occurredAt, reference `event:<id>`: a twin
 * sent meanwhile fails the batch on it, and the job takes the batch again) and per return that
 * took from a balance (kind return), the events and their lines (received at `runAt`, `key_id`
 * the job's `import:<job id>`), the originals' returned amounts and lines' reversed points, the
 * counters and the participants' pending totals moved.
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
  const timeline = await rulesTimeline(trx, clientId);
  const sorted = await sortBatch(trx, clientId, items, facts, timeline, now, 0);
  const at = now.toISOString();
  const returning = returnsOf(sorted.toPost);
  const pass: Pass = {
    clientId,
    facts,
    timeline,
    held: new Map(),
    takes: new Map(),
    originals: new Map(),
    // A return may name an event of the batch posted before it: every event is kept at hand when the batch has returns.
    keep: () => returning.length > 0,
    rowsForAll: true,
    receivedAt: runAt.toISOString(),
    source,
  };
  const keys = sorted.toPost.flatMap((p) => p.keys);
  if (returning.length > 0) {
    const batchIds = new Set(sorted.toPost.map((p) => p.item.event.id));
    await readOriginals(
      trx,
      clientId,
      returning.filter((id) => !batchIds.has(id)),
      pass.originals,
      true,
    );
    keys.push(...keysOfOriginals(pass, pass.originals.values()));
  }
  pass.held = await readCountersMany(trx, clientId, keys, { lock: true, now: at });
  // The balances a return may take from, as each event's turn finds them: read (locked on PostgreSQL) after the counters.
  let opening: Map<string, number | null> | undefined;
  if (returning.length > 0) {
    opening = await bulkBalances(trx, clientId, [...new Set(sorted.toPost.map((p) => p.participant.id))]);
    const current = new Map([...opening].map(([id, balance]) => [id, balance ?? 0]));
    pass.balances = { of: (id) => current.get(id) ?? 0, move: (id, points) => current.set(id, (current.get(id) ?? 0) + points) };
  }
  const refused: Pick<Sorted, 'problems' | 'outcomes'> = { problems: sorted.problems, outcomes: [] };
  const computed = computeInOrder(pass, sorted.toPost, refused, 0);

  const moving = computed.filter((c) => c.credited > 0 || (c.returned?.covered.fromBalance ?? 0) > 0);
  const movements: LedgerMovement[] = moving.map((c) =>
    c.returned
      ? {
          clientId,
          participantId: c.participant.id,
          occurredAt: c.item.occurredAt,
          ...c.returned.text,
          amount: -c.returned.covered.fromBalance,
          kind: 'return',
          reference: `event:${c.item.event.id}`,
        }
      : {
          clientId,
          participantId: c.participant.id,
          occurredAt: c.item.occurredAt,
          // As POST events writes it (service.ts): the client's words, and the rules' in each language for the participant's.
          ...creditEntryTexts(credited(c), facts.locale),
          amount: c.credited,
          kind: 'award',
          reference: `event:${c.item.event.id}`,
        },
  );
  const { entryIds } = await appendLedgerEntries(trx, clientId, movements, runAt, opening ? { balances: opening } : {});
  moving.forEach((c, index) => {
    const entryId = entryIds.get(index) ?? null;
    // The lines the entry moved: an event's credited ones, a return's taken from the balance.
    for (const line of c.rows!.lines) if (line.pending === 0 && (c.returned ? line.points < 0 : line.points > 0)) line.entry_id = entryId;
  });

  const events: ParticipantEventsTable[] = [];
  const lines: ParticipantEventLinesTable[] = [];
  const returnEvents: ParticipantEventsTable[] = [];
  const returnLines: ParticipantEventLinesTable[] = [];
  const pendingBy = new Map<string, number>();
  for (const c of computed) {
    const rows = c.rows!;
    (c.returned ? returnEvents : events).push(rows.row);
    (c.returned ? returnLines : lines).push(...rows.lines);
    if (c.pending !== 0) pendingBy.set(c.participant.id, (pendingBy.get(c.participant.id) ?? 0) + c.pending);
  }
  // In their primary key's order: the batch's ids are all over that index (the batch goes by
  // participant), and in order each of its pages is found once rather than once a row.
  events.sort((a, b) => byId(a.id, b.id));
  lines.sort((a, b) => byId(a.event_id, b.event_id) || a.line - b.line);
  await insertRows(trx, 'participant_events', EVENT_COLUMNS, events);
  await insertRows(trx, 'participant_event_lines', LINE_COLUMNS, lines);
  await insertRows(trx, 'participant_events', RETURN_EVENT_COLUMNS, returnEvents);
  await insertRows(trx, 'participant_event_lines', RETURN_LINE_COLUMNS, returnLines);
  await writeReturned(trx, clientId, computed);
  await addToCountersMany(trx, clientId, pass.takes!, at);
  await addPendingPointsMany(trx, clientId, pendingBy);
  return outcomeTotals({ ...sorted, problems: refused.problems }, computed, 0);
}

/**
 * The originals the batch's returns took from, as they stand after them (written after the
 * batch's own events, which may be among them: those are inserted with nothing returned yet).
 */
async function writeReturned(trx: Transaction<Database>, clientId: string, computed: readonly Computed[]): Promise<void> {
  const events = new Map<string, Original>();
  const lines = new Map<string, { eventId: string; line: number; points: number }>();
  for (const c of computed) {
    if (!c.returned) continue;
    events.set(c.returned.originalId, c.returned.original);
    for (const r of c.returned.reversals) {
      const key = `${r.line.event_id}\u0000${r.line.line}`;
      const moved = lines.get(key);
      if (moved) moved.points += r.points;
      else lines.set(key, { eventId: r.line.event_id, line: Number(r.line.line), points: r.points });
    }
  }
  for (const [id, original] of events)
    await setEventReturned(trx, clientId, id, original.row.returned_amount, Number(original.row.reversed_points));
  for (const moved of lines.values()) await addLineReversed(trx, clientId, moved.eventId, moved.line, moved.points);
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A return's rows also keep its debt (the columns an event's rows leave at their default). */
const RETURN_EVENT_COLUMNS = [...EVENT_COLUMNS, 'debt_points'] as const satisfies ReadonlyArray<keyof ParticipantEventsTable>;
const RETURN_LINE_COLUMNS = [...LINE_COLUMNS, 'debt_points'] as const satisfies ReadonlyArray<keyof ParticipantEventLinesTable>;

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
  return statementText(`events.${table}:${columns.length}:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const values = Array.from({ length: rows }, () => `(${columns.map(() => p()).join(', ')})`).join(', ');
    return `insert${postgres ? '' : ' or fail'} into ${table} (${columns.join(', ')}) values ${values}`;
  });
}
