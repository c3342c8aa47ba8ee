import { createHash } from 'node:crypto';
import { ErrorCode } from '@rewards/contract';
import { earningRuleProblems } from '@rewards/contract/earning-rules';
import {
  BUILT_IN_EVENT_TYPES,
  PROGRAM_EVENT_MAX_ID,
  ProgramEventRequest,
  type ConsoleParticipantEventsPage,
  type ConsoleParticipantEventsQuery,
  type ProgramEvent,
  type ProgramEventBatchReply,
  type ProgramEventBatchResult,
  type ProgramEventReply,
} from '@rewards/contract/events';
import type { Transaction } from 'kysely';
import { isPostgres, type Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.ts';
import type { ApiCaller } from '../api-keys/guard.ts';
import { findClient } from '../clients/service.ts';
import { earnAndTakeCaps } from '../earning-rules/service.ts';
import { appendLedgerEntryWithBalance, writeToLedger } from '../ledger/service.ts';
import { addPendingPoints, findParticipant, findParticipantWithPrograms } from '../participants/service.ts';
import { tellWebhooksKinds, type WebhookKindItems } from '../webhooks/service.ts';
import { checkReturn, postReturn } from './returns.ts';
import { creditEntryTexts, eventView } from './views.ts';
import { findEvent, insertEvent, insertLines, linesOfEvent, linesOfEvents, listParticipantEvents, owedPointsOf } from './store.ts';
import type { ParticipantEventLinesTable, ParticipantEventsTable } from './tables.ts';
import { isClientEventType } from './types.ts';

/**
 * Events in (issue 32 §1, docs/decisions/097): a client's system sends what a participant did;
 * the event is taken once per the client's own id and, in ONE posting through the ledger writer,
 * kept with what it earned: the earning rules in force at its occurredAt computed with their caps
 * and budgets taken (earning-rules earnAndTakeCaps), each credited line a ledger entry, pending
 * lines kept but not credited (§3 releases them), the webhooks told `points.credited`. The
 * client is always the key's.
 */

export const DAY_MS = 86_400_000;
/** How far ahead of this server's clock an event may be dated: a shop's clock a little off, not a typo of a year. */
export const FUTURE_SLACK_MS = DAY_MS;

/** A line of a rule with pendingDays that earned points: held, not credited (decision 098 releases it). */
export const isPending = (line: { pendingDays: number; points: number }) => line.pendingDays > 0 && line.points > 0;

/** An engine's line as kept (decision 097): a pending one with its date, a credited one naming the event's entry. */
export function lineRow(
  event: { clientId: string; id: string; participantId: string; occurredAt: string },
  line: { ruleId: string; version: number; name: string; kind: string; points: number; pendingDays: number; calculation: string },
  index: number,
  trims: string,
  entryId: string | null,
): ParticipantEventLinesTable {
  const pending = isPending(line);
  return {
    client_id: event.clientId,
    event_id: event.id,
    line: index + 1,
    rule_id: line.ruleId,
    rule_version: line.version,
    name: line.name,
    kind: line.kind,
    points: line.points,
    pending: pending ? 1 : 0,
    available_at: pending ? new Date(Date.parse(event.occurredAt) + line.pendingDays * DAY_MS).toISOString() : null,
    entry_id: !pending && line.points > 0 ? entryId : null,
    calculation: line.calculation,
    trims,
    participant_id: event.participantId,
    released_at: null,
    reversed_points: 0,
    debt_points: 0,
  };
}

/** A caller's text echoed in a message: short, so a message stays a line. */
const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

export const eventErrors = {
  invalid: (problems: readonly string[]) =>
    errors.validation(`The event is not valid: ${problems.join('; ')}; nothing was kept`, { problems: problems.join('; ') }),
  participantNotFound: (username: string) =>
    new ApiError(404, ErrorCode.notFound, 'error.notFound', `No participant "${clip(username)}" in this program; nothing was kept`),
  eventNotFound: (id: string) => new ApiError(404, ErrorCode.notFound, 'error.notFound', `No event "${clip(id)}" in this program`),
  idReused: (id: string) =>
    new ApiError(
      409,
      ErrorCode.programExternalIdReused,
      'program.error.externalIdReused',
      `The event "${clip(id)}" was sent already with another body; nothing was kept`,
    ),
  inTheFuture: (occurredAt: string) =>
    errors.validation(`occurredAt ${clip(occurredAt)} is more than a day ahead: an event is sent once it happened; nothing was kept`),
  unknownType: (type: string) =>
    errors.validation(
      `The event type "${clip(type)}" is not one of this program's: purchase, return, a type its program manager declared (and did not retire), or the type of one of its earning rules; nothing was kept`,
    ),
};

/** The event as sent, checked with every problem named and where ("amount: an amount is a decimal string …"). */
export function parseEvent(input: unknown): ProgramEventRequest {
  const parsed = ProgramEventRequest.safeParse(input);
  if (!parsed.success) throw eventErrors.invalid(earningRuleProblems(parsed.error));
  return parsed.data;
}

/** What makes two events under one id the same (as parsed: trimmed, the username's case and the time's offset do not count). */
export function eventHash(event: ProgramEventRequest, occurredAt: string): string {
  // http/request-hash.ts's canonical text (keys sorted, values as JSON) written for this one
  // shape: a file hashes a million events, and the generic walk was a tenth of the preview's CPU.
  // imports/events.test.ts holds the two equal.
  const j = JSON.stringify;
  const map = (m: Readonly<Record<string, string>> | undefined) =>
    m === undefined
      ? 'null'
      : `{${Object.keys(m)
          .sort()
          .map((k) => `${j(k)}:${j(m[k])}`)
          .join(',')}}`;
  const text =
    `{"amount":${j(event.amount ?? null)},"attributes":${map(event.attributes)},"currency":${j(event.currency ?? null)},` +
    `"occurredAt":${j(occurredAt)},"references":${map(event.references)},"type":${j(event.type)},"username":${j(event.username.toLowerCase())}}`;
  return createHash('sha256').update(text).digest('hex');
}

/** GET events/{id}: the kept event and its lines, or 404 (another client's event is nobody's). */
export async function getEvent(db: Db, caller: ApiCaller, id: string): Promise<ProgramEvent> {
  const row = await findEvent(db, caller.clientId, id);
  if (!row) throw eventErrors.eventNotFound(id);
  const { timeZone } = await clientFactsOf(db, caller.clientId);
  return eventView(row, await linesOfEvent(db, caller.clientId, id), timeZone);
}

/** Events a page of the console's participant page shows when the caller names no limit. */
const EVENTS_PAGE = 20;

/**
 * The console's participant page: the participant's events newest first, each with what it
 * earned rule by rule, and what their returns could not take back in all; 404 for a participant
 * the client does not have.
 */
export async function participantEvents(
  db: Db,
  clientId: string,
  participantId: string,
  query: ConsoleParticipantEventsQuery,
): Promise<ConsoleParticipantEventsPage> {
  if (!(await findParticipant(db, clientId, participantId))) throw errors.notFound();
  const { timeZone } = await clientFactsOf(db, clientId);
  const limit = query.limit ?? EVENTS_PAGE;
  const after = query.after ? decodePageCursor(query.after, ['string', 'string'], PROGRAM_EVENT_MAX_ID) : undefined;
  const rows = await listParticipantEvents(db, clientId, participantId, after && { occurredAt: after[0], id: after[1] }, limit + 1);
  const page = rows.slice(0, limit);
  const lines = Map.groupBy(
    await linesOfEvents(
      db,
      clientId,
      page.map((row) => row.id),
    ),
    (line) => line.event_id,
  );
  const last = page.at(-1);
  return {
    events: page.map((row) => eventView(row, lines.get(row.id) ?? [], timeZone)),
    next: rows.length > limit && last ? encodePageCursor([last.occurred_at, last.id]) : null,
    owedPoints: await owedPointsOf(db, clientId, participantId),
  };
}

/** The event kept under this id, answered again; 409 if it was another body; undefined if none. */
async function replayOf(db: Db, clientId: string, id: string, hash: string, timeZone: string): Promise<ProgramEventReply | undefined> {
  const row = await findEvent(db, clientId, id);
  if (!row) return undefined;
  if (row.body_hash !== hash) throw eventErrors.idReused(id);
  return { ...eventView(row, await linesOfEvent(db, clientId, id), timeZone), replayed: true };
}

/** What the client's other events of a batch need once: its time zone and the language of its entries' texts. */
export interface ClientFacts {
  timeZone: string;
  locale: string;
}

/**
 * From the configuration read cache (decision 014): a client's time zone or language changed by an
 * operator counts for events within CLIENT_CACHE_SECONDS, as for every other request; each event
 * spares a read of the client's whole row.
 */
export async function clientFactsOf(db: Db, clientId: string): Promise<ClientFacts> {
  const client = await findClient(db, clientId);
  if (!client) throw errors.notFound();
  return { timeZone: client.time_zone, locale: client.default_locale };
}

/** The type is the client's: a built-in one, one declared and not retired, or the type of one of its earning rules (decision 100). */
async function isClientType(trx: Transaction<Database>, clientId: string, type: string): Promise<boolean> {
  if ((BUILT_IN_EVENT_TYPES as readonly string[]).includes(type)) return true;
  return isClientEventType(trx, clientId, type);
}

export interface RecordResult {
  reply: ProgramEventReply;
  /** True when the id was taken already with the same body. */
  replayed: boolean;
}

/**
 * POST events: one event, once per id in the client. Outside the posting: the checks, a repeat
 * answered by the event kept (before any work, or 409), the participant (404) and their programs.
 * The posting (one transaction, through the ledger writer): the rules in force at occurredAt with
 * their caps and budgets taken, one ledger entry for what it credited, the event and its lines
 * kept, the webhooks told. A twin kept meanwhile makes it fail on a unique key (the entry's
 * reference, the event's id) and answers for it.
 */
export async function recordEvent(db: Db, caller: ApiCaller, input: unknown, now = new Date()): Promise<RecordResult> {
  const prepared = await prepareEvent(db, caller, input, now);
  return 'done' in prepared ? prepared.done : prepared.post();
}

/** An event checked and read for: answered already (a repeat), or its posting, to be started. */
type Prepared = { done: RecordResult } | { post: () => Promise<RecordResult> };

/** Everything before the posting (reads only); the posting is started by calling `post`, which queues it on the ledger writer at once. */
async function prepareEvent(db: Db, caller: ApiCaller, input: unknown, now: Date, client?: ClientFacts): Promise<Prepared> {
  const event = parseEvent(input);
  const clientId = caller.clientId;
  const occurredAt = new Date(event.occurredAt).toISOString();
  if (Date.parse(occurredAt) > now.getTime() + FUTURE_SLACK_MS) throw eventErrors.inTheFuture(event.occurredAt);
  const hash = eventHash(event, occurredAt);
  const facts = client ?? (await clientFactsOf(db, clientId));
  const earlier = await replayOf(db, clientId, event.id, hash, facts.timeZone);
  if (earlier) return { done: { reply: earlier, replayed: true } };
  const participant = await findParticipantWithPrograms(db, clientId, event.username);
  if (!participant) throw eventErrors.participantNotFound(event.username);
  const receivedAt = now.toISOString();
  /** A twin kept meanwhile answers for this one too, or refuses it (409): read once this posting's group has committed (the writer answers after it). */
  const orTwin = async (error: unknown): Promise<RecordResult> => {
    const twin = await replayOf(db, clientId, event.id, hash, facts.timeZone);
    if (twin) return { reply: twin, replayed: true };
    throw error;
  };
  if (event.type === 'return') {
    // Checked before the posting with words for each refusal; the posting locks the original and reads it again.
    const originalId = await checkReturn(db, clientId, event, participant.id, occurredAt);
    const posting = {
      clientId,
      event,
      participant: { id: participant.id, username: participant.username },
      originalId,
      occurredAt,
      receivedAt,
      hash,
      keyId: caller.keyId,
      postedBy: `api-key:${caller.keyName}`,
      timeZone: facts.timeZone,
      locale: facts.locale,
      now,
    };
    return {
      post: () =>
        writeToLedger(db, async (trx): Promise<RecordResult> => {
          const { row, lines } = await postReturn(trx, posting);
          return { reply: { ...eventView(row, lines, facts.timeZone), replayed: false }, replayed: false };
        }).catch(orTwin),
    };
  }
  const programs = participant.programs;
  const post = (): Promise<RecordResult> =>
    writeToLedger(db, async (trx): Promise<RecordResult> => {
      // A twin kept meanwhile (in this commit group, or by another process) fails this posting on
      // the ledger entry's reference or the event's primary key: undone, and answered below.
      const earned = await earnAndTakeCaps(trx, {
        clientId,
        participantId: participant.id,
        participant: { programs, status: participant.status },
        event: {
          type: event.type,
          occurredAt,
          amount: event.amount,
          currency: event.currency,
          attributes: event.attributes,
        },
        timeZone: facts.timeZone,
        now,
      });
      if (earned.lines.length === 0 && !(await isClientType(trx, clientId, event.type))) throw eventErrors.unknownType(event.type);
      const matched = earned.lines.filter((line) => line.matched);
      const creditedLines = matched.filter((line) => !isPending(line) && line.points > 0);
      const credited = creditedLines.reduce((sum, line) => sum + line.points, 0);
      const pending = matched.filter(isPending).reduce((sum, line) => sum + line.points, 0);
      // One ledger entry for what the event credited, naming its rules: a participant's history
      // reads one line per purchase, and the writer's cost stays one entry per event (decision 097).
      const entry =
        credited === 0
          ? undefined
          : await appendLedgerEntryWithBalance(
              trx,
              {
                clientId,
                participantId: participant.id,
                occurredAt,
                // The rules' words in the client's language; the history shows the reader's (decision 101).
                ...creditEntryTexts(creditedLines, facts.locale),
                amount: credited,
                kind: 'award',
                // Unique in the client: an event is credited once, whatever happens around it.
                reference: `event:${event.id}`,
                postedBy: `api-key:${caller.keyName}`,
              },
              now,
              { pendingPoints: pending },
            );
      const entryId = entry?.entryId ?? null;
      const lines = matched.map((line, i) =>
        lineRow({ clientId, id: event.id, participantId: participant.id, occurredAt }, line, i, JSON.stringify(line.trims), entryId),
      );
      const row: ParticipantEventsTable = {
        client_id: clientId,
        id: event.id,
        body_hash: hash,
        type: event.type,
        participant_id: participant.id,
        username: participant.username,
        occurred_at: occurredAt,
        received_at: receivedAt,
        amount: event.amount ?? null,
        currency: event.currency ?? null,
        attributes: event.attributes === undefined ? null : JSON.stringify(event.attributes),
        refs: event.references === undefined ? null : JSON.stringify(event.references),
        points: credited,
        pending_points: pending,
        key_id: caller.keyId,
        returned_amount: null,
        reversed_points: 0,
        debt_points: 0,
      };
      await insertEvent(trx, row);
      await insertLines(trx, lines);
      // The participant's pending total moves with the lines, in this transaction (decision 098): in
      // the balance's UPDATE when the event also credited points.
      const pendingAfter =
        pending === 0
          ? undefined
          : entry
            ? entry.pendingPoints
            : (await addPendingPoints(trx, clientId, participant.id, pending))?.pendingPoints;
      const reply: ProgramEventReply = { ...eventView(row, lines, facts.timeZone), replayed: false };
      // The credit and the pending points told with one look for the client's endpoints.
      const about = { eventId: event.id, eventType: event.type, occurredAt };
      const told: WebhookKindItems[] = [];
      if (entry)
        told.push({
          kind: 'points.credited',
          items: async () => [
            {
              username: participant.username,
              data: {
                ...about,
                points: credited,
                pendingPoints: pending,
                balanceAfter: entry.balance,
                lines: reply.lines
                  .filter((l) => l.points > 0)
                  .map((l) => ({ ruleId: l.ruleId, version: l.version, points: l.points, pending: l.pending })),
              },
            },
          ],
        });
      if (pendingAfter !== undefined)
        told.push({
          kind: 'points.pending',
          items: async () => [
            {
              username: participant.username,
              data: {
                ...about,
                points: pending,
                pendingAfter,
                lines: reply.lines
                  .filter((l) => l.pending)
                  .map((l) => ({
                    ruleId: l.ruleId,
                    version: l.version,
                    points: l.points,
                    availableAt: l.availableAt,
                    availableOn: l.availableOn,
                  })),
              },
            },
          ],
        });
      await tellWebhooksKinds(trx, clientId, told, now);
      return { reply, replayed: false };
    }).catch(orTwin);
  return { post };
}

/** An error as a batch's result carries it: the status POST events would have answered, and what was wrong. */
function failureOf(error: unknown): { status: number; error: { errorCode: number; message: string } } {
  if (error instanceof ApiError) return { status: error.statusCode, error: { errorCode: error.errorCode, message: error.message } };
  // Not the caller's to see (no stack, no SQL): the batch's other events still have their answers.
  return {
    status: 500,
    error: { errorCode: ErrorCode.internal, message: 'Something went wrong on our side with this event; send it again' },
  };
}

/** Events of one batch that PostgreSQL posts at once, each participant's still one after the other. */
const BATCH_CONCURRENCY = 4;

/**
 * POST events:batch: each event as POST events takes it, each with its own outcome (a bad one
 * never fails its neighbours), a participant's events in the order sent, so their caps are taken
 * in that order. On SQLite each event's reads are done in order, then its posting is queued on the
 * ledger writer without waiting for the one before to commit: the writer runs them in the order
 * queued, in shared commits (decision 093), so the whole batch is taken in the order sent. On
 * PostgreSQL, where each posting is its own transaction, a participant's events run one after the
 * other and up to BATCH_CONCURRENCY participants at once (a budget shared by participants may
 * then give its last points to an event sent later). A repeat of an id earlier in the batch fails
 * on its unique keys and answers as a repeat (or 409).
 */
export async function recordEvents(
  db: Db,
  caller: ApiCaller,
  inputs: readonly unknown[],
  now = new Date(),
  onFailure?: (error: unknown) => void,
): Promise<ProgramEventBatchReply> {
  const client = await clientFactsOf(db, caller.clientId);
  /** Its reads awaited; its posting started (queued on SQLite) and not awaited: the outcome, in a box (an async function would await it). */
  const start = async (index: number): Promise<{ outcome: Promise<ProgramEventBatchResult> }> => {
    const input = inputs[index];
    const given = typeof input === 'object' && input !== null ? (input as { id?: unknown }).id : undefined;
    const id = typeof given === 'string' ? given : null;
    try {
      const prepared = await prepareEvent(db, caller, input, now, client);
      const posted = 'done' in prepared ? Promise.resolve(prepared.done) : prepared.post();
      return { outcome: settled(index, posted).catch((error: unknown) => failed(index, id, error, onFailure)) };
    } catch (error) {
      return { outcome: Promise.resolve(failed(index, id, error, onFailure)) };
    }
  };
  const pending: Array<Promise<ProgramEventBatchResult>> = [];
  if (!isPostgres(db)) for (const index of inputs.keys()) pending[index] = (await start(index)).outcome;
  else
    await forEachParticipant(inputs, async (index) => {
      pending[index] = (await start(index)).outcome;
      await pending[index];
    });
  const results = await Promise.all(pending);
  return {
    results,
    created: results.filter((r) => r.status === 201).length,
    replayed: results.filter((r) => r.status === 200).length,
    failed: results.filter((r) => r.status >= 400).length,
  };
}

/** Runs `work` for every index: one participant's (by username) one after the other in the order sent, BATCH_CONCURRENCY participants at once. */
async function forEachParticipant(inputs: readonly unknown[], work: (index: number) => Promise<void>): Promise<void> {
  const chains = new Map<string, number[]>();
  for (const [index, input] of inputs.entries()) {
    const username = typeof input === 'object' && input !== null ? (input as { username?: unknown }).username : undefined;
    // An event without a username is refused without a posting: a chain of its own.
    const key = typeof username === 'string' ? `u:${username.trim().toLowerCase()}` : `i:${index}`;
    const chain = chains.get(key);
    if (chain) chain.push(index);
    else chains.set(key, [index]);
  }
  const queue = [...chains.values()];
  let next = 0;
  const worker = async () => {
    for (let chain = queue[next++]; chain !== undefined; chain = queue[next++]) for (const index of chain) await work(index);
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, queue.length) }, worker));
}

async function settled(index: number, result: RecordResult | Promise<RecordResult>): Promise<ProgramEventBatchResult> {
  const { reply, replayed } = await result;
  return { index, id: reply.id, status: replayed ? 200 : 201, event: reply };
}

function failed(index: number, id: string | null, error: unknown, onFailure?: (error: unknown) => void): ProgramEventBatchResult {
  if (!(error instanceof ApiError)) onFailure?.(error);
  return { index, id, ...failureOf(error) };
}
