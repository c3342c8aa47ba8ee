import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { appendLedgerEntries } from '../ledger/bulk.ts';
import { entriesByReference } from '../ledger/service.ts';
import { balancesByUsernameKey, usernameKey } from '../participants/service.ts';
import type { LineProblem, PointsLine } from './points-lines.ts';

/**
 * The rules of a points import's batch (docs/decisions/022), shared by `rewards points import` and
 * the console's import job (docs/decisions/064): usernames resolved, references already posted
 * sorted out (the same content: unchanged; other content: rejected), the rest appended in file
 * order through appendLedgerEntries, refusing a debit the balance does not cover at its turn.
 */

/** Keys per IN list: a power of two (see padded()), well under both engines' parameter limits. */
const IN_CHUNK = 1_024;

export interface PointsBatchOutcome {
  added: number;
  unchanged: number;
  /** Sorted by line. */
  problems: LineProblem[];
  /** Of what was (or, in a preview, would be) posted. */
  pointsIn: number;
  pointsOut: number;
  /** Lines rejected because no participant has the username. */
  unknownUsernames: number;
}

interface Existing {
  reference: string;
  participant_id: string;
  amount: number;
  occurred_at: string;
  description: string;
  created_at: string;
}

interface Sorted {
  toPost: PointsLine[];
  participantIds: string[];
  unchanged: number;
  unknownUsernames: number;
  problems: LineProblem[];
  balances: Map<string, number | null>;
}

/** Splits a batch into lines to post, unchanged and rejected, reading (and on PostgreSQL locking) the participants it names. */
async function sortBatch(
  trx: Transaction<Database>,
  clientId: string,
  batch: ReadonlyArray<PointsLine | LineProblem>,
  runAt: Date,
  lock: boolean,
): Promise<Sorted> {
  const problems: LineProblem[] = [];
  const candidates: PointsLine[] = [];
  const firstLine = new Map<string, number>();
  for (const item of batch) {
    if (!('reference' in item)) {
      problems.push(item);
      continue;
    }
    const earlier = firstLine.get(item.externalId);
    if (earlier !== undefined) problems.push({ line: item.line, reason: `external_id ${item.externalId} repeats line ${earlier}` });
    else {
      firstLine.set(item.externalId, item.line);
      candidates.push(item);
    }
  }
  // The balances come with the ids (locked on PostgreSQL until the commit), so that
  // appendLedgerEntries needs no second read of the same rows.
  const ids = new Map<string, string>();
  const balances = new Map<string, number | null>();
  const keys = [...new Set(candidates.map((c) => usernameKey(c.username)))];
  for (let from = 0; from < keys.length; from += IN_CHUNK) {
    for (const row of await balancesByUsernameKey(trx, clientId, keys.slice(from, from + IN_CHUNK), lock)) {
      ids.set(row.username_key, row.id);
      balances.set(row.id, row.balance === null ? null : Number(row.balance));
    }
  }
  const existing = new Map<string, Existing>();
  const references = candidates.map((c) => c.reference);
  for (let from = 0; from < references.length; from += IN_CHUNK) {
    for (const row of await entriesByReference(trx, clientId, references.slice(from, from + IN_CHUNK)))
      existing.set(row.reference!, { ...row, reference: row.reference!, amount: Number(row.amount) });
  }

  const sorted: Sorted = { toPost: [], participantIds: [], unchanged: 0, unknownUsernames: 0, problems, balances };
  const createdAt = runAt.toISOString();
  for (const line of candidates) {
    const participantId = ids.get(usernameKey(line.username));
    if (!participantId) {
      sorted.unknownUsernames += 1;
      problems.push({ line: line.line, reason: `unknown username ${line.username}` });
      continue;
    }
    const known = existing.get(line.reference);
    if (known) {
      if (known.created_at === createdAt)
        problems.push({ line: line.line, reason: `external_id ${line.externalId} repeats an earlier line of this file` });
      else if (
        known.participant_id === participantId &&
        known.amount === line.points &&
        known.occurred_at === line.occurredAt &&
        known.description === line.description
      )
        sorted.unchanged += 1;
      else problems.push({ line: line.line, reason: `external_id ${line.externalId} was already posted with different content` });
      continue;
    }
    sorted.toPost.push(line);
    sorted.participantIds.push(participantId);
  }
  return sorted;
}

const belowZero = (line: PointsLine) => `${line.points} would take the balance of ${line.username} below zero`;

/**
 * One batch in the caller's transaction: sorts it, then appends the lines to post. Every entry of
 * one run carries `runAt` as its created_at: a reference an earlier batch of the same run posted is
 * a repeat within the file, one posted by an earlier run is unchanged (re-running is idempotent).
 */
export async function postPointsBatch(
  trx: Transaction<Database>,
  clientId: string,
  batch: ReadonlyArray<PointsLine | LineProblem>,
  runAt: Date,
): Promise<PointsBatchOutcome> {
  const sorted = await sortBatch(trx, clientId, batch, runAt, true);
  const { appended, refused } = await appendLedgerEntries(
    trx,
    clientId,
    sorted.toPost.map((line, index) => ({
      clientId,
      participantId: sorted.participantIds[index]!,
      occurredAt: line.occurredAt,
      description: line.description,
      descriptionKey: line.descriptionKey,
      ...(line.descriptionParams ? { descriptionParams: line.descriptionParams } : {}),
      amount: line.points,
      kind: line.kind,
      reference: line.reference,
    })),
    runAt,
    { requireCovered: true, balances: sorted.balances },
  );
  for (const index of refused) sorted.problems.push({ line: sorted.toPost[index]!.line, reason: belowZero(sorted.toPost[index]!) });
  let pointsIn = 0;
  let pointsOut = 0;
  for (const index of appended) {
    const points = sorted.toPost[index]!.points;
    if (points > 0) pointsIn += points;
    else pointsOut -= points;
  }
  return {
    added: appended.length,
    unchanged: sorted.unchanged,
    problems: sorted.problems.sort((a, b) => a.line - b.line),
    pointsIn,
    pointsOut,
    unknownUsernames: sorted.unknownUsernames,
  };
}

/**
 * What postPointsBatch would do, writing nothing. `balances` carries the balances the preview's
 * earlier batches would have left (one number per participant the file names: bounded by the
 * client's participants, not the file), so a debit covered only by an earlier credit of the file
 * previews as the run will post it.
 */
export async function previewPointsBatch(
  trx: Transaction<Database>,
  clientId: string,
  batch: ReadonlyArray<PointsLine | LineProblem>,
  runAt: Date,
  balances: Map<string, number>,
): Promise<PointsBatchOutcome> {
  const sorted = await sortBatch(trx, clientId, batch, runAt, false);
  let added = 0;
  let pointsIn = 0;
  let pointsOut = 0;
  sorted.toPost.forEach((line, index) => {
    const id = sorted.participantIds[index]!;
    const balance = balances.get(id) ?? sorted.balances.get(id) ?? 0;
    if (balance + line.points < 0) {
      sorted.problems.push({ line: line.line, reason: belowZero(line) });
      return;
    }
    balances.set(id, balance + line.points);
    added += 1;
    if (line.points > 0) pointsIn += line.points;
    else pointsOut -= line.points;
  });
  return {
    added,
    unchanged: sorted.unchanged,
    problems: sorted.problems.sort((a, b) => a.line - b.line),
    pointsIn,
    pointsOut,
    unknownUsernames: sorted.unknownUsernames,
  };
}
