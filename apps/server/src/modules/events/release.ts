import { isPostgres, type Db } from '../../db/database.ts';
import { listClientColumns } from '../clients/service.ts';
import { ruleVersionKey, ruleVersionTexts } from '../earning-rules/service.ts';
import { dayIn } from '../expiry/policy.ts';
import { takeLease, type JobLease } from '../jobs/lease.ts';
import { appendLedgerEntryWithBalance, writeToLedger } from '../ledger/service.ts';
import { addPendingPoints } from '../participants/service.ts';
import { tellWebhooksMany } from '../webhooks/service.ts';
import { releaseDayOf } from './pending.ts';
import { dueLines, lockEvent, releaseLine, setLineEntry, type DueLine } from './store.ts';
import { creditEntryTexts } from './views.ts';

/**
 * The release run (issue 32 §3, docs/decisions/098): pending points become spendable. Per client,
 * the pending lines whose `available_at` has come and whose release day (pending.ts: the client's
 * first day beginning at or after it) is today or earlier are credited: per line a ledger entry
 * (kind award, dated at the release, so the lot it makes follows the client's expiry policy from
 * that day; its text the rule's words), the balance up, the participant's pending total down, the
 * line marked released with its entry, `points.released` told. One posting per participant through
 * the ledger writer.
 *
 * - Idempotent: a line is released by an UPDATE that finds it unreleased (its own guard), after
 *   its event's row is locked (a return takes that lock too, so a return racing a release takes
 *   each point once); the entry's reference `release:<event>:<line>` is unique besides.
 * - One process at a time: the job lease "events-release", extended per batch (like the expiry run).
 * - Stopped half-way: each posting commits on its own; a re-run finds what is left.
 */

export const RELEASE_JOB = 'events-release';
const BATCH = 500;
/** Participants' postings in flight at once on PostgreSQL (each its own transaction); SQLite queues them all on the writer. */
const PG_CONCURRENCY = 4;

/** A client that is not one, a time that is not one: the run refuses it and changes nothing. */
export class ReleaseRunInputError extends Error {
  override name = 'ReleaseRunInputError';
}

/** The process is shutting down: the postings committed stay, the next run does the rest. */
export class ReleaseStoppedError extends Error {
  override name = 'ReleaseStoppedError';
}

/** Lost the lease mid-run: whoever holds it now finishes, the run being idempotent. */
export class ReleaseLeaseLostError extends Error {
  override name = 'ReleaseLeaseLostError';
}

export interface ReleaseRunOptions {
  /** One client; default every client. */
  clientId?: string;
  /** Injectable clock (tests, `--now`); default the wall clock. */
  now?: () => Date;
  /** Lines read per batch; default 500. */
  batchSize?: number;
  /** Asked before each batch: true ends the run there (ReleaseStoppedError), its lease freed. */
  stopping?: () => boolean;
  /** Called after each committed batch (tests). */
  afterBatch?: (done: { clientId: string; lines: number }) => Promise<void> | void;
}

export interface ClientRelease {
  clientId: string;
  /** The client's day the run released as of. */
  asOf: string;
  participants: number;
  lines: number;
  points: number;
}

export type ReleaseRunResult = { status: 'done'; clients: ClientRelease[] } | { status: 'busy'; clients: [] };

/** Releases the pending points due of every client or one, under the job's lease. */
export async function releasePendingPoints(db: Db, options: ReleaseRunOptions = {}): Promise<ReleaseRunResult> {
  const now = options.now ?? (() => new Date());
  if (Number.isNaN(now().getTime())) throw new ReleaseRunInputError('The time must be an ISO 8601 time such as 2027-01-15T00:00:00Z');
  const clients = await listClientColumns(db, ['id', 'time_zone', 'default_locale'], options.clientId);
  if (options.clientId !== undefined && clients.length === 0) throw new ReleaseRunInputError(`Unknown client "${options.clientId}"`);
  const lease = await takeLease(db, RELEASE_JOB, { now });
  if (!lease) return { status: 'busy', clients: [] };
  try {
    const results: ClientRelease[] = [];
    for (const client of clients) results.push(await releaseClient(db, client, options, now, lease));
    return { status: 'done', clients: results };
  } finally {
    await lease.end();
  }
}

interface ClientFacts {
  id: string;
  time_zone: string;
  default_locale: string;
}

async function releaseClient(
  db: Db,
  client: ClientFacts,
  options: ReleaseRunOptions,
  now: () => Date,
  lease: JobLease,
): Promise<ClientRelease> {
  const at = now();
  const asOf = dayIn(at, client.time_zone);
  const outcome: ClientRelease = { clientId: client.id, asOf, participants: 0, lines: 0, points: 0 };
  const released = new Set<string>();
  let after: { availableAt: string; eventId: string; line: number } | undefined;
  for (;;) {
    if (options.stopping?.()) throw new ReleaseStoppedError('The release run was stopped between batches');
    const page = await dueLines(db, client.id, at.toISOString(), after, options.batchSize ?? BATCH);
    const last = page.at(-1);
    if (!last) break;
    after = { availableAt: last.available_at, eventId: last.event_id, line: last.line };
    // Due by the instant, but released on the client's day that begins after it: tomorrow's, then.
    const due = page.filter((line) => releaseDayOf(line.available_at, client.time_zone) <= asOf);
    if (due.length === 0) continue;
    if (!(await lease.extend())) throw new ReleaseLeaseLostError('The release lease was lost; another process finishes the run');
    const byParticipant = Map.groupBy(due, (line) => line.participant_id);
    const post = (lines: DueLine[]) => releaseForParticipant(db, client, lines, at);
    const groups = [...byParticipant.values()];
    let results: Array<{ lines: number; points: number }>;
    if (!isPostgres(db)) results = await Promise.all(groups.map(post));
    else {
      results = [];
      for (let from = 0; from < groups.length; from += PG_CONCURRENCY)
        results.push(...(await Promise.all(groups.slice(from, from + PG_CONCURRENCY).map(post))));
    }
    for (const [i, result] of results.entries()) {
      if (result.lines === 0) continue;
      released.add(groups[i]![0]!.participant_id);
      outcome.lines += result.lines;
      outcome.points += result.points;
    }
    await options.afterBatch?.({ clientId: client.id, lines: due.length });
  }
  outcome.participants = released.size;
  return outcome;
}

/**
 * One participant's due lines in one posting: their events locked (in id order, as a return
 * locks its original), each line released if it still is not, a ledger entry per line with points
 * left (a return may have taken some or all of them back while pending), the pending total down.
 */
async function releaseForParticipant(
  db: Db,
  client: ClientFacts,
  lines: readonly DueLine[],
  at: Date,
): Promise<{ lines: number; points: number }> {
  const participantId = lines[0]!.participant_id;
  const username = lines[0]!.username;
  const atIso = at.toISOString();
  return writeToLedger(db, async (trx) => {
    for (const eventId of [...new Set(lines.map((line) => line.event_id))].sort()) await lockEvent(trx, client.id, eventId);
    const rows = [];
    for (const line of lines) {
      const row = await releaseLine(trx, client.id, line.event_id, line.line, atIso);
      if (row) rows.push(row);
    }
    if (rows.length === 0) return { lines: 0, points: 0 };
    const texts = await ruleVersionTexts(
      trx,
      client.id,
      rows.map((row) => ({ ruleId: row.rule_id, version: Number(row.rule_version) })),
    );
    const told: Array<{ eventId: string; ruleId: string; points: number; entryId: string; balanceAfter: number }> = [];
    let points = 0;
    for (const row of rows) {
      const left = Number(row.points) - Number(row.reversed_points);
      if (left <= 0) continue;
      const rule = { name: row.name, text: texts.get(ruleVersionKey({ ruleId: row.rule_id, version: Number(row.rule_version) })) };
      const { entryId, balance } = await appendLedgerEntryWithBalance(
        trx,
        {
          clientId: client.id,
          participantId,
          occurredAt: atIso,
          ...creditEntryTexts([rule], client.default_locale),
          amount: left,
          kind: 'award',
          // Unique in the client: a line is released once, whatever runs meet it.
          reference: `release:${row.event_id}:${row.line}`,
          postedBy: 'events-release',
        },
        at,
      );
      await setLineEntry(trx, client.id, row.event_id, Number(row.line), entryId);
      told.push({ eventId: row.event_id, ruleId: row.rule_id, points: left, entryId, balanceAfter: balance });
      points += left;
    }
    const pendingAfter = points > 0 ? ((await addPendingPoints(trx, client.id, participantId, -points))?.pendingPoints ?? 0) : undefined;
    if (pendingAfter !== undefined)
      await tellWebhooksMany(
        trx,
        client.id,
        'points.released',
        async () => told.map((item) => ({ username, data: { ...item, occurredAt: atIso, pendingAfter } })),
        at,
      );
    return { lines: rows.length, points };
  });
}
