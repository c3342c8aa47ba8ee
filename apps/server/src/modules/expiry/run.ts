import type { ExpiryPolicy } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { appendLedgerEntries } from '../ledger/bulk.ts';
import { listClientColumns } from '../clients/service.ts';
import { lastActivityOf, postedReferences, type LedgerMovement } from '../ledger/service.ts';
import { lockBalances, participantsWithPoints, usernamesOf } from '../participants/service.ts';
import { takeLease, type JobLease } from '../jobs/lease.ts';
import { dayIn, dayOfTimestamp, inactiveAfter, isCalendarDay, parsePolicy } from './policy.ts';
import { lotTotals } from './run-store.ts';
import { tellWebhooksMany } from '../webhooks/service.ts';

/**
 * The expiry run (docs/decisions/057). Per client, as of a day (default: today in the client's
 * time zone), it closes the lots whose day has ended (expires_on before that day), and under the
 * inactivity policy the whole balance of participants with no earning or spending for N months.
 * Per participant and day one ledger entry, kind expiry, "points expired" (ledger.pointsExpired),
 * whose lot consumptions name the lots it closed: a debit through the ledger's bulk path, which
 * takes lots in spending order, and the lots past their day are first in that order.
 *
 * - Idempotent: a closed lot is no longer due, and the entry's reference
 *   (`expiry:<participant>:<day>`) is never posted twice.
 * - One process at a time: the "expiry" job lease (modules/jobs/lease.ts), extended per batch.
 * - kill -9 half-way: each batch of participants commits on its own; a re-run finds what is left.
 */

export const EXPIRY_JOB = 'expiry';
export const EXPIRED_KEY = 'ledger.pointsExpired';
const BATCH = 500;

/** A day that is not a day, or one after today: the run refuses it and changes nothing. */
export class ExpiryRunInputError extends Error {
  override name = 'ExpiryRunInputError';
}

export interface ExpiryRunOptions {
  /** One client; default every client. */
  clientId?: string;
  /** The day the run is as of (YYYY-MM-DD in each client's zone); default today there. Never after today. */
  asOf?: string;
  /** Work out and report what would expire, writing nothing. */
  dryRun?: boolean;
  /** Injectable clock (tests); default the wall clock. */
  now?: () => Date;
  /** Participants per transaction; default 500. */
  batchSize?: number;
  /** Called after each committed batch (tests use it to stop a process half-way). */
  afterBatch?: (done: { clientId: string; participants: number }) => Promise<void> | void;
  /**
   * Asked before each batch: true ends the run there (ExpiryStoppedError) with its lease freed, so
   * a process shutting down finishes only the transaction under way and another takes the run at once.
   */
  stopping?: () => boolean;
}

export interface ClientExpiry {
  clientId: string;
  asOf: string;
  policy: ExpiryPolicy['type'];
  participants: number;
  points: number;
  lots: number;
}

export type ExpiryRunResult =
  | { status: 'done' | 'dryRun'; clients: ClientExpiry[] }
  /** Another process holds the lease: nothing was done here. */
  | { status: 'busy'; clients: [] };

/** The clients to go through (or only `clientId`), by id, with their policy and time zone as they stand. */
export function clientsToExpire(db: Db, clientId?: string) {
  return listClientColumns(db, ['id', 'expiry_policy', 'time_zone'], clientId);
}

/** Runs (or, dry, works out) the expiry of every client or one, under the job's lease. */
export async function expirePoints(db: Db, options: ExpiryRunOptions = {}): Promise<ExpiryRunResult> {
  const now = options.now ?? (() => new Date());
  if (options.asOf !== undefined && !isCalendarDay(options.asOf))
    throw new ExpiryRunInputError('The day must be a date such as 2027-01-31');
  const clients = await clientsToExpire(db, options.clientId);
  if (options.clientId !== undefined && clients.length === 0) throw new ExpiryRunInputError(`Unknown client "${options.clientId}"`);
  for (const client of clients) {
    const today = dayIn(now(), client.time_zone);
    if (options.asOf !== undefined && options.asOf > today)
      throw new ExpiryRunInputError(
        `${options.asOf} is after today (${today}) in ${client.id}'s time zone: points expire only once their day has ended`,
      );
  }

  if (options.dryRun) {
    const results: ClientExpiry[] = [];
    for (const client of clients) results.push(await expireClient(db, client, options, now, undefined));
    return { status: 'dryRun', clients: results };
  }
  const lease = await takeLease(db, EXPIRY_JOB, { now });
  if (!lease) return { status: 'busy', clients: [] };
  try {
    const results: ClientExpiry[] = [];
    for (const client of clients) results.push(await expireClient(db, client, options, now, lease));
    return { status: 'done', clients: results };
  } finally {
    await lease.end();
  }
}

/** The process is shutting down (`stopping`): the batches committed stay, the next run does the rest (decision 081). */
export class ExpiryStoppedError extends Error {
  override name = 'ExpiryStoppedError';
}

/** Lost the lease mid-run (stalled past it): stop; whoever holds it now finishes, the run being idempotent. */
export class ExpiryLeaseLostError extends Error {
  override name = 'ExpiryLeaseLostError';
}

async function expireClient(
  db: Db,
  client: { id: string; expiry_policy: string; time_zone: string },
  options: ExpiryRunOptions,
  now: () => Date,
  lease: JobLease | undefined,
): Promise<ClientExpiry> {
  const policy = parsePolicy(client.expiry_policy);
  const asOf = options.asOf ?? dayIn(now(), client.time_zone);
  const outcome: ClientExpiry = { clientId: client.id, asOf, policy: policy.type, participants: 0, points: 0, lots: 0 };
  const batchSize = options.batchSize ?? BATCH;

  /** What expires for each of these participants now: the points and the lots. */
  const dueOf = async (reader: Db, ids: readonly string[]): Promise<Map<string, { points: number; lots: number }>> => {
    const totals = await lotTotals(reader, client.id, ids, asOf);
    const inactive = policy.type === 'inactivity' ? await lastActivityOf(reader, client.id, [...totals.keys()]) : new Map<string, string>();
    const due = new Map<string, { points: number; lots: number }>();
    for (const [id, total] of totals) {
      const last = inactive.get(id);
      if (policy.type === 'inactivity' && last !== undefined && inactiveAfter(policy, dayOfTimestamp(last, client.time_zone)) < asOf)
        due.set(id, { points: total.open, lots: total.openLots });
      else if (total.due > 0) due.set(id, { points: total.due, lots: total.dueLots });
    }
    return due;
  };

  let after = '';
  for (;;) {
    if (lease && options.stopping?.()) throw new ExpiryStoppedError('The expiry run was stopped between batches');
    const page = await participantsWithPoints(db, client.id, after, batchSize);
    if (page.length === 0) break;
    after = page[page.length - 1]!;
    // A first look outside the transaction, so that a batch with nothing due takes no write lock.
    const candidates = [...(await dueOf(db, page)).keys()];
    if (candidates.length === 0) continue;
    if (!lease) {
      for (const due of (await dueOf(db, candidates)).values()) add(outcome, due);
      continue;
    }
    if (!(await lease.extend())) throw new ExpiryLeaseLostError('The expiry lease was lost; another process finishes the run');
    const posted = await db.transaction().execute(async (trx) => {
      const balances = await lockBalances(trx, client.id, candidates);
      // Again under the lock: a debit or an earning may have come in since the first look.
      const due = await dueOf(trx, candidates);
      const references = [...due.keys()].map((id) => reference(id, asOf));
      const already = await postedReferences(trx, client.id, references);
      const at = now().toISOString();
      const movements: LedgerMovement[] = [];
      const counted: Array<{ points: number; lots: number }> = [];
      for (const [participantId, what] of due) {
        // Posted today already (a credit dated in the past made a lot due after that run): it waits for tomorrow's.
        if (already.has(reference(participantId, asOf))) continue;
        movements.push({
          clientId: client.id,
          participantId,
          occurredAt: at,
          description: 'Points expired',
          descriptionKey: EXPIRED_KEY,
          amount: -what.points,
          kind: 'expiry',
          reference: reference(participantId, asOf),
        });
        counted.push(what);
      }
      const { refused, entryIds, balancesAfter } = await appendLedgerEntries(trx, client.id, movements, now(), {
        requireCovered: true,
        balances,
      });
      if (refused.length > 0) throw new Error('An expiry was refused: the lots and the balance disagree');
      // Told to the client's webhooks with the expiry, one event per participant (decision 084); usernames only read if an endpoint takes it.
      await tellWebhooksMany(
        trx,
        client.id,
        'points.expired',
        async () => {
          const names = await usernamesOf(
            trx,
            client.id,
            movements.map((m) => m.participantId),
          );
          return movements.map((m, i) => ({
            username: names.get(m.participantId),
            data: { points: m.amount, balanceAfter: balancesAfter.get(m.participantId), entryId: entryIds.get(i), occurredAt: at, asOf },
          }));
        },
        now(),
      );
      return counted;
    });
    for (const due of posted) add(outcome, due);
    await options.afterBatch?.({ clientId: client.id, participants: outcome.participants });
  }
  return outcome;
}

function add(outcome: ClientExpiry, due: { points: number; lots: number }): void {
  outcome.participants += 1;
  outcome.points += due.points;
  outcome.lots += due.lots;
}

function reference(participantId: string, asOf: string): string {
  return `expiry:${participantId}:${asOf}`;
}
