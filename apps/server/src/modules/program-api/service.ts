import type {
  ProgramDescription,
  ProgramParticipant,
  ProgramParticipantReply,
  ProgramParticipantRequest,
  ProgramParticipantsPage,
  ProgramParticipantsQuery,
  ProgramPointsReply,
  ProgramPointsRequest,
  ProgramReversalReply,
  ProgramReversalRequest,
  ProgramStatementPage,
  ProgramStatementQuery,
  ProgramStatusReply,
  ProgramStatusRequest,
} from '@rewards/contract';
import { PROGRAM_PAGE_DEFAULT } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { errors } from '../../http/api-error.ts';
import { requestHash } from '../../http/request-hash.ts';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.ts';
import type { ApiCaller } from '../api-keys/guard.ts';
import { recordAudit } from '../audit/service.ts';
import { clientLocales, findClient } from '../clients/service.ts';
import { occurredAtOf } from '../imports/points-lines.ts';
import { appendLedgerEntry, InsufficientBalanceError, writeToLedger, type LedgerMovement } from '../ledger/service.ts';
import { changeStatus } from '../participants/actions.ts';
import { consoleStatement } from '../participants/console-view.ts';
import { applyParticipantBatch } from '../participants/enrolment.ts';
import { checkParticipant, unusablePasswordHash } from '../participants/fields.ts';
import { participantsChangedPage, programsOf, type Actor } from '../participants/operator-service.ts';
import { findParticipant, findParticipantByUsername, listProgramNames } from '../participants/service.ts';
import type { Participant } from '../participants/tables.ts';
import { tellWebhooks } from '../webhooks/service.ts';
import { programErrors } from './errors.ts';
import { claimReversal, findPosting, insertPosting, postingsOfEntries, setPostingReply, setReversalEntry } from './store.ts';

/**
 * The program API's rules (issue 29 §2, docs/decisions/085), on the services the console, the
 * import and the `rewards` command use: a participant is written by the import's rules
 * (enrolment.ts applyParticipantBatch) and its status by the console's action (actions.ts
 * changeStatus); points move through the ledger (appendLedgerEntry) in the transaction that takes
 * the externalId in program_api_postings; the statement is the console's (console-view.ts). The
 * client is always the key's. Every change tells the client's webhooks in its own transaction.
 */

/** Where a call came from, for the audit log. */
export interface CallOrigin {
  address: string;
}

const actorOf = (caller: ApiCaller, origin: CallOrigin): Actor => ({ name: caller.keyName, kind: 'api-key', origin: origin.address });
/** Who posted a ledger entry, as the console's statement shows it. */
const postedByOf = (caller: ApiCaller) => `api-key:${caller.keyName}`;

// ---------------------------------------------------------------------------------------------
// Participants

type ParticipantRow = Pick<
  Participant,
  | 'username'
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'account_number'
  | 'locale'
  | 'date_of_birth'
  | 'status'
  | 'offers_merchandise'
  | 'offers_experiences'
  | 'ots_enabled'
  | 'balance'
  | 'created_at'
  | 'updated_at'
>;

export function participantView(row: ParticipantRow, programs: readonly string[]): ProgramParticipant {
  return {
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    accountNumber: row.account_number,
    locale: row.locale,
    dateOfBirth: row.date_of_birth,
    status: row.status,
    offerings: {
      merchandise: Number(row.offers_merchandise) === 1,
      experiences: Number(row.offers_experiences) === 1,
      ots: Number(row.ots_enabled) === 1,
    },
    programs: [...programs],
    balance: Number(row.balance ?? 0),
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? row.created_at,
  };
}

/** The caller's client's participant of that username (any case), or 404: another client's is nobody. */
async function participantNamed(db: Db, caller: ApiCaller, username: string): Promise<Participant> {
  const participant = username.length <= 200 ? await findParticipantByUsername(db, caller.clientId, username) : undefined;
  if (!participant) throw programErrors.participantNotFound(username);
  return participant;
}

export async function getParticipant(db: Db, caller: ApiCaller, username: string): Promise<ProgramParticipant> {
  const participant = await participantNamed(db, caller, username);
  return participantView(participant, await listProgramNames(db, caller.clientId, participant.id));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `updatedSince`: an instant with its offset, or a day from its start (UTC); stored times are ISO UTC. */
function sinceOf(value: string): string {
  const text = value.trim();
  const at = DAY.test(text) ? new Date(`${text}T00:00:00.000Z`) : INSTANT.test(text) ? new Date(text) : undefined;
  if (!at || Number.isNaN(at.getTime()) || (DAY.test(text) && at.toISOString().slice(0, 10) !== text))
    throw errors.validation('updatedSince must be an ISO 8601 time with its offset (2026-11-01T09:30:00Z) or a day (2026-11-01)');
  return at.toISOString();
}

/**
 * Participants created or changed from `updatedSince` on, in the order of their last change, a
 * page at a time (keyset: the last one's change time and id). One changed while a caller pages
 * moves to the end, so it is read again rather than missed.
 */
export async function listParticipants(db: Db, caller: ApiCaller, query: ProgramParticipantsQuery): Promise<ProgramParticipantsPage> {
  const limit = query.limit ?? PROGRAM_PAGE_DEFAULT;
  const since = query.updatedSince === undefined || query.updatedSince === '' ? undefined : sinceOf(query.updatedSince);
  let after: { at: string; id: string } | undefined;
  if (query.cursor !== undefined && query.cursor !== '') {
    const [at, id] = decodePageCursor(query.cursor, ['string', 'string']);
    after = { at, id };
  }
  const rows = await participantsChangedPage(db, caller.clientId, since, after, limit + 1);
  const page = rows.slice(0, limit);
  const programs = await programsOf(
    db,
    caller.clientId,
    page.map((row) => row.id),
  );
  const last = page.at(-1);
  return {
    participants: page.map((row) => participantView(row, programs.get(row.id) ?? [])),
    next: rows.length > limit && last ? encodePageCursor([last.changed_at, last.id]) : null,
  };
}

/**
 * The unusable password of new participants: one argon2id hash of thrown-away bits per process,
 * as an import uses one per job (fields.ts unusablePasswordHash): nobody signs in with it, and a
 * CRM's sync does not pay a hash per participant.
 */
let sharedUnusableHash: Promise<string> | undefined;
function unusableHash(): Promise<string> {
  sharedUnusableHash ??= unusablePasswordHash().catch((error: unknown) => {
    sharedUnusableHash = undefined;
    throw error;
  });
  return sharedUnusableHash;
}

const FIELDS = [
  'username',
  'firstName',
  'lastName',
  'email',
  'accountNumber',
  'locale',
  'dateOfBirth',
  'status',
  'offerings',
  'programs',
] as const;

/** The names of the fields whose values differ between two views. */
function changedFields(before: ProgramParticipant | undefined, after: ProgramParticipant): string[] {
  if (!before) return [...FIELDS];
  return FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/** A unique index refused a row a concurrent request wrote first (both engines' words for it). */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  // PostgreSQL's unique_violation; SQLite's SQLITE_CONSTRAINT_UNIQUE and _PRIMARYKEY.
  return (
    code === '23505' ||
    errcode === 2067 ||
    errcode === 1555 ||
    (typeof message === 'string' && message.includes('UNIQUE constraint failed'))
  );
}

/** Tries a write again when a concurrent one took a unique key first: the next try sees it, and answers by it. */
async function retryingUniqueViolations<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

export interface PutParticipantResult {
  status: 201 | 200;
  reply: ProgramParticipantReply;
}

/**
 * PUT participants/{username}: one line of a participants import as JSON (decision 085), by the
 * import's rules and errors: checkParticipant, then applyParticipantBatch in this transaction
 * (account numbers unique in the client, "pending" never undoes an activation, who is made
 * inactive is signed out). What the body leaves out a known participant keeps. Created or
 * changed, it is audited and told to the webhooks in the same transaction; unchanged writes
 * nothing.
 */
export async function putParticipant(
  db: Db,
  caller: ApiCaller,
  origin: CallOrigin,
  username: string,
  body: ProgramParticipantRequest,
  now = new Date(),
): Promise<PutParticipantResult> {
  const clientId = caller.clientId;
  const client = await findClient(db, clientId);
  if (!client) throw errors.notFound();
  const rules = { locales: (await clientLocales(db, clientId)).map((l) => l.code), defaultLocale: client.default_locale };
  const passwordHash = await unusableHash();
  return retryingUniqueViolations(() =>
    db.transaction().execute(async (trx) => {
      const current = username.length <= 200 ? await findParticipantByUsername(trx, clientId, username) : undefined;
      const checked = checkParticipant(
        {
          username,
          first_name: body.firstName,
          last_name: body.lastName,
          email: body.email,
          locale: body.locale ?? current?.locale ?? '',
          account_number: body.accountNumber,
          merchandise: String(body.offerings.merchandise),
          experiences: String(body.offerings.experiences),
          ots: String(body.offerings.ots),
          programs: body.programs.join('|'),
          status: body.status ?? '',
          ...(body.dateOfBirth === undefined ? {} : { date_of_birth: body.dateOfBirth ?? '' }),
        },
        rules,
        now.toISOString().slice(0, 10),
      );
      if (!checked.ok) throw errors.validation(checked.reason);
      const before = current && participantView(current, await listProgramNames(trx, clientId, current.id));
      const outcome = await applyParticipantBatch(trx, clientId, [{ line: 1, fields: checked.fields }], passwordHash, now, { write: true });
      const refused = outcome.rejects[0];
      if (refused) throw errors.validation(refused.reason);
      const written = await findParticipantByUsername(trx, clientId, checked.fields.username);
      if (!written) throw new Error('putParticipant: the participant written is not there');
      const after = participantView(written, await listProgramNames(trx, clientId, written.id));
      const result = outcome.added > 0 ? 'created' : outcome.updated > 0 ? 'updated' : 'unchanged';
      const changed = result === 'unchanged' ? [] : changedFields(before, after);
      if (result !== 'unchanged') {
        await recordAudit(
          trx,
          {
            clientId,
            actor: caller.keyName,
            actorKind: 'api-key',
            action: result === 'created' ? 'participants.create' : 'participants.update',
            subject: written.id,
            details: { username: written.username, changed, keyId: caller.keyId },
            origin: origin.address,
          },
          now,
        );
        await tellWebhooks(
          trx,
          {
            clientId,
            kind: result === 'created' ? 'participant.created' : 'participant.updated',
            username: after.username,
            data: { participant: after, ...(result === 'updated' ? { changed } : {}) },
          },
          now,
        );
        if (before && before.status !== after.status)
          await tellWebhooks(
            trx,
            { clientId, kind: 'participant.status_changed', username: after.username, data: { from: before.status, to: after.status } },
            now,
          );
      }
      return { status: result === 'created' ? 201 : 200, reply: { result, changed, participant: after } };
    }),
  );
}

/** POST participants/{username}/status: the console's action (changeStatus: never back to pending, inactive signs out), audited and told. */
export async function changeParticipantStatus(
  db: Db,
  caller: ApiCaller,
  origin: CallOrigin,
  username: string,
  body: ProgramStatusRequest,
): Promise<ProgramStatusReply> {
  const participant = await participantNamed(db, caller, username);
  const change = await changeStatus(db, actorOf(caller, origin), participant, body.status, body.reason);
  return { username: participant.username, from: change.from, to: change.to, changed: change.changed, sessionsEnded: change.sessionsEnded };
}

// ---------------------------------------------------------------------------------------------
// Points

/** The stored form of a description: the text (the fallback), and the key with its values. */
function describedAs(description: ProgramDescription): Pick<LedgerMovement, 'description' | 'descriptionKey' | 'descriptionParams'> {
  if (typeof description === 'string') return { description };
  return {
    description: description.text,
    descriptionKey: description.key,
    ...(description.params && Object.keys(description.params).length > 0 ? { descriptionParams: description.params } : {}),
  };
}

/** What makes two requests under one externalId the same posting (as normalised: the username's case, the time's form do not count). */
function postingHash(participantId: string, body: ProgramPointsRequest, occurredAt: string | null): string {
  const fields = { participantId, points: body.points, description: body.description, occurredAt, note: body.note ?? null };
  return requestHash(fields);
}

/** The reply of an earlier posting under this externalId; 409 if it was another body; undefined if none. */
async function repeatOf(db: Db, clientId: string, externalId: string, hash: string): Promise<ProgramPointsReply | undefined> {
  const posting = await findPosting(db, clientId, externalId);
  if (!posting) return undefined;
  if (posting.body_hash !== hash) throw programErrors.externalIdReused(externalId);
  return JSON.parse(posting.reply) as ProgramPointsReply;
}

async function balanceIn(db: Db, clientId: string, participantId: string): Promise<number> {
  return Number((await findParticipant(db, clientId, participantId))?.balance ?? 0);
}

export interface PostPointsResult {
  reply: ProgramPointsReply;
  /** True when this is an earlier posting's reply, answered again. */
  replayed: boolean;
}

/**
 * POST points (decision 085): a credit or a debit (never below zero: 409), posted once per
 * externalId in the client. One transaction: the posting's row first (its primary key takes the
 * externalId: a concurrent twin fails on it, on PostgreSQL after this one commits), the ledger
 * entry with the balance, the reply into the row, the webhook event. A repeat of the same body
 * is answered the first reply, before any work when the first has committed, else once its
 * transaction fails; another body under the same externalId is 409. Nothing refused is kept: a
 * debit refused for the balance may be sent again later under its externalId.
 */
export async function postPoints(db: Db, caller: ApiCaller, body: ProgramPointsRequest, now = new Date()): Promise<PostPointsResult> {
  const clientId = caller.clientId;
  const participant = await participantNamed(db, caller, body.username);
  const given = body.occurredAt === undefined ? undefined : occurredAtOf(body.occurredAt);
  if (body.occurredAt !== undefined && !given)
    throw errors.validation('occurredAt must be an ISO 8601 time with its offset (2026-11-01T09:30:00Z) or a day (2026-11-01)');
  const hash = postingHash(participant.id, body, given ?? null);
  const earlier = await repeatOf(db, clientId, body.externalId, hash);
  if (earlier) return { reply: earlier, replayed: true };
  const occurredAt = given ?? now.toISOString();
  const createdAt = now.toISOString();
  const described = describedAs(body.description);
  try {
    const reply = await writeToLedger(db, async (trx) => {
      await insertPosting(trx, {
        client_id: clientId,
        external_id: body.externalId,
        body_hash: hash,
        participant_id: participant.id,
        points: body.points,
        description: described.description,
        entry_id: '',
        key_id: caller.keyId,
        reply: '{}',
        created_at: createdAt,
        reversed_points: null,
        reversal_entry_id: null,
        reversed_at: null,
      });
      const entryId = await appendLedgerEntry(
        trx,
        {
          clientId,
          participantId: participant.id,
          occurredAt,
          ...described,
          amount: body.points,
          // As the points import's lines: credits are awards, debits adjustments (the reports' columns).
          kind: body.points > 0 ? 'award' : 'adjustment',
          reference: `api:${body.externalId}`,
          ...(body.note === undefined ? {} : { internalNote: body.note }),
          postedBy: postedByOf(caller),
        },
        now,
        { requireCovered: body.points < 0 },
      );
      const reply: ProgramPointsReply = {
        externalId: body.externalId,
        entryId,
        username: participant.username,
        points: body.points,
        balanceAfter: await balanceIn(trx, clientId, participant.id),
        occurredAt,
      };
      await setPostingReply(trx, clientId, body.externalId, entryId, JSON.stringify(reply));
      await tellWebhooks(
        trx,
        { clientId, kind: body.points > 0 ? 'points.credited' : 'points.debited', username: participant.username, data: { ...reply } },
        now,
      );
      return reply;
    });
    return { reply, replayed: false };
  } catch (error) {
    // A twin that committed first (the primary key) answers for this one too, or refuses it.
    const twin = await repeatOf(db, clientId, body.externalId, hash);
    if (twin) return { reply: twin, replayed: true };
    if (error instanceof InsufficientBalanceError)
      throw programErrors.insufficientBalance(participant.username, await balanceIn(db, clientId, participant.id), body.points);
    throw error;
  }
}

/**
 * POST points/{externalId}/reversal (decision 085): takes back all or part of a posting, once.
 * A credit's reversal is a debit (409 if the balance no longer covers it), a debit's a credit;
 * more than the posting had is 400; a second reversal 409. One transaction: the claim on the
 * posting's row (the check and the mark are one UPDATE), the ledger entry, its id on the row, the
 * webhook event.
 */
export async function reversePosting(
  db: Db,
  caller: ApiCaller,
  externalId: string,
  body: ProgramReversalRequest,
  now = new Date(),
): Promise<ProgramReversalReply> {
  const clientId = caller.clientId;
  const posting = await findPosting(db, clientId, externalId);
  // A posting's row holds its reply from its commit on; one still being written is not there yet.
  if (!posting || posting.entry_id === '') throw programErrors.postingNotFound(externalId);
  if (posting.reversed_at !== null) throw programErrors.alreadyReversed(externalId, posting.reversed_points);
  const posted = Math.abs(Number(posting.points));
  const points = body.points ?? posted;
  if (points > posted) throw programErrors.reversalTooLarge(externalId, points, posted);
  const movement = Number(posting.points) > 0 ? -points : points;
  const participant = await findParticipant(db, clientId, posting.participant_id);
  if (!participant) throw programErrors.postingNotFound(externalId);
  const at = now.toISOString();
  const described = body.description
    ? describedAs(body.description)
    : {
        description: `Reversal: ${posting.description}`,
        descriptionKey: 'ledger.api.reversal',
        descriptionParams: { description: posting.description },
      };
  try {
    return await writeToLedger(db, async (trx) => {
      if (!(await claimReversal(trx, clientId, externalId, points, at))) {
        const first = await findPosting(trx, clientId, externalId);
        throw programErrors.alreadyReversed(externalId, first?.reversed_points ?? null);
      }
      const entryId = await appendLedgerEntry(
        trx,
        {
          clientId,
          participantId: participant.id,
          occurredAt: at,
          ...described,
          amount: movement,
          kind: 'adjustment',
          reference: `api-reversal:${externalId}`,
          internalNote: body.reason,
          postedBy: postedByOf(caller),
        },
        now,
        { requireCovered: movement < 0 },
      );
      await setReversalEntry(trx, clientId, externalId, entryId);
      const reply: ProgramReversalReply = {
        externalId,
        entryId,
        reversedEntryId: posting.entry_id,
        username: participant.username,
        points: movement,
        balanceAfter: await balanceIn(trx, clientId, participant.id),
        occurredAt: at,
      };
      await tellWebhooks(trx, { clientId, kind: 'points.reversed', username: participant.username, data: { ...reply } }, now);
      return reply;
    });
  } catch (error) {
    if (error instanceof InsufficientBalanceError)
      throw programErrors.insufficientBalance(participant.username, await balanceIn(db, clientId, participant.id), movement);
    throw error;
  }
}

/**
 * GET participants/{username}/statement: the console's statement (newest first, the balance
 * after each entry, the descriptions as the participant reads them in the client's default
 * language), with the externalId of the entries the API posted or reversed.
 */
export async function statementOf(
  db: Db,
  caller: ApiCaller,
  username: string,
  query: ProgramStatementQuery,
): Promise<ProgramStatementPage> {
  const participant = await participantNamed(db, caller, username);
  const page = await consoleStatement(db, caller.clientId, participant.id, {
    ...(query.limit === undefined ? {} : { limit: query.limit }),
    ...(query.cursor === undefined ? {} : { after: query.cursor }),
  });
  const postings = await postingsOfEntries(
    db,
    caller.clientId,
    page.entries.map((entry) => entry.id),
  );
  return {
    username: participant.username,
    balance: Number(participant.balance ?? 0),
    entries: page.entries.map((entry) => {
      const posting = postings.get(entry.id);
      return {
        entryId: entry.id,
        occurredAt: entry.date,
        description: entry.description,
        points: entry.amount,
        balanceAfter: entry.runningBalance,
        kind: entry.kind,
        externalId: posting?.externalId ?? null,
        reversal: posting?.reversal ?? false,
        note: entry.internalNote,
        postedBy: entry.postedBy,
      };
    }),
    next: page.next,
  };
}
