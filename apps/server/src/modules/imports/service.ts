import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CsvError } from 'csv-parse';
import { ErrorCode, type ErrorParams } from '@rewards/contract';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_LINES,
  type ImportCounts,
  type ImportEventsPreview,
  type ImportJob,
  type ImportKind,
  type ImportReject,
} from '@rewards/contract/console-imports';
import { csvLine } from '@rewards/contract/csv';
import type { Db } from '../../db/database.ts';
import { ApiError, errors } from '../../http/api-error.ts';
import { recordAudit, type AuditActorKind } from '../audit/service.ts';
import { clientLocales, findClient } from '../clients/service.ts';
import { deleteJob, findJob, findJobById, insertJob, jobsIdleSince, listJobs, startJob, updateJobIf, type Job } from '../jobs/service.ts';
import type { ClientRules } from '../participants/fields.ts';
import { usernameKey } from '../participants/service.ts';
import { IMPORT_MAX_LINE_BYTES, LineTooLong, importCsvParser } from './csv-input.ts';
import { participantColumnsOf, parseParticipantLine, type HeaderColumn } from './participants.ts';
import { columnsOf, parsePointsLine, type LineProblem, type PointsColumn } from './points-lines.ts';
import { eventColumnsOf, eventKeysOf, parseEventLine, type EventColumns, type EventsPreviewState } from './events.ts';
import { withJobTuning } from './sqlite-tuning.ts';
import {
  anyKeyRepeats,
  deleteStaged,
  firstLinesOf,
  insertStaged,
  rejectsAfter,
  releaseStagingSpace,
  stagedAfter,
  stagedLines,
  type StagedLine,
} from './store.ts';

/**
 * Imports in the console (issue 20 §2, docs/decisions/064). The file is streamed into
 * import_lines in chunks (never whole in memory); the preview, by the same rules as the run writing
 * nothing, is the job's first phase (preview.ts), then the job is confirmed by a program manager
 * (taking the client's one job slot) and run (run.ts), each phase by whichever process holds the
 * job's lease.
 */

export interface ImportActor {
  name: string;
  kind: AuditActorKind;
  origin: string | null;
}

/**
 * Staged rows per transaction (store.ts insertStaged), one commit each. Memory holds one chunk:
 * the lag between lines read and lines staged is the parser's buffers (~4,000 lines) and one chunk,
 * bounded under 5,000 by imports.test.ts.
 */
const STAGE_CHUNK = 500;
/** Staged lines per preview batch. */
export const PREVIEW_CHUNK = 2_000;
/** Rejected lines shown with a job (all of them in the CSV). */
const REJECTS_SHOWN = 50;
/** Keys longer than this are not kept (such a line is rejected by its checks anyway). */
const MAX_KEY = 255;

export const importErrors = {
  running: (job: Job) =>
    new ApiError(
      409,
      ErrorCode.importJobRunning,
      'imports.error.running',
      `Another import is running for this client: "${job.file_name}" (job ${job.id}), confirmed by ${job.confirmed_by ?? job.created_by}. Wait until it ends, then confirm again; nothing was started`,
      { fileName: job.file_name, by: job.confirmed_by ?? job.created_by },
    ),
  notConfirmable: (job: Job) =>
    new ApiError(
      409,
      ErrorCode.importNotConfirmable,
      'imports.error.notConfirmable',
      job.status === 'previewing'
        ? `This import ("${job.file_name}", job ${job.id}) is still being previewed: confirm it once its preview is ready; nothing was started`
        : `This import ("${job.file_name}", job ${job.id}) is ${job.status === 'staged' ? 'taken by another confirmation' : job.status}: only a previewed import can be confirmed; nothing was started`,
      { fileName: job.file_name, reason: job.status },
    ),
  notDiscardable: (job: Job) =>
    new ApiError(
      409,
      ErrorCode.importNotDiscardable,
      'imports.error.notDiscardable',
      `This import ("${job.file_name}", job ${job.id}) ${job.status === 'discarded' ? 'was discarded already' : job.status === 'staging' ? 'is still being uploaded' : `is ${job.status}`}: only an import being previewed or awaiting confirmation can be discarded; nothing was changed`,
      { fileName: job.file_name, reason: job.status },
    ),
  /** `params.reason` says why, for the console's words (decision 087); `detail` is the commands' English. */
  refused: (detail: string, params: ErrorParams & { reason: string }) =>
    new ApiError(400, ErrorCode.importRefused, 'imports.error.refused', `${detail}; nothing was imported`, params),
};

export interface ImportParams {
  /** The header row as the file has it. */
  header: string[];
  /**
   * Who confirmed the run, for its closing audit (`points.import` / `participants.import`): a
   * staff member in the console, an operator at the command line (decision 091). Jobs confirmed
   * before it have none: staff, in the console.
   */
  runBy?: { kind: AuditActorKind; origin: string | null };
  /**
   * The order the run takes the lines in (run-order.ts): 'participant' for points jobs confirmed
   * since 2026-11-28, each participant's lines together in file order; absent, the file's order
   * (the job's cursor is then a line number, not a position in that order).
   */
  order?: 'participant';
}

export const emptyImportCounts = (): ImportCounts => ({
  added: 0,
  updated: 0,
  unchanged: 0,
  rejected: 0,
  unknownUsernames: 0,
  pointsIn: 0,
  pointsOut: 0,
});

/** What the checks of a kind need: the header's columns, and the client's rules for participants. */
export interface LineReader {
  kind: ImportKind;
  /** A staged line as the batch functions take it, with its keys (for repeats within the file). */
  read(line: number, fields: readonly string[]): { item: unknown; key: string | null; altKey: string | null };
  /** The keys alone, when they cost less than the whole read (staging needs only them). */
  keys?(fields: readonly string[]): { key: string | null; altKey: string | null };
  /**
   * Whether the staged file repeats a key or an alternate key at all, asked once per phase (the
   * staged lines do not change): a file that repeats none skips the look-ups of checkedLines.
   */
  repeats?: Promise<{ key: boolean; altKey: boolean }>;
}

export async function lineReader(db: Db, clientId: string, kind: ImportKind, header: readonly string[]): Promise<LineReader | string> {
  if (kind === 'points') {
    const columns = columnsOf(header);
    if (typeof columns === 'string') return columns;
    return pointsReader(columns, header.length);
  }
  if (kind === 'events') {
    const columns = eventColumnsOf(header);
    if (typeof columns === 'string') return columns;
    return eventsReader(columns);
  }
  const columns = participantColumnsOf(header);
  if (typeof columns === 'string') return columns;
  const client = await findClient(db, clientId);
  const rules: ClientRules = {
    locales: (await clientLocales(db, clientId)).map((l) => l.code),
    defaultLocale: client?.default_locale ?? 'en-US',
  };
  return participantsReader(columns, rules);
}

const keyOf = (value: string) => (value.length > 0 && value.length <= MAX_KEY ? value : null);

function pointsReader(columns: Record<PointsColumn, number>, width: number): LineReader {
  return {
    kind: 'points',
    read(line, fields) {
      const item = parsePointsLine(fields, columns, width, line);
      return { item, key: 'reference' in item ? keyOf(item.externalId) : null, altKey: null };
    },
  };
}

function eventsReader(columns: EventColumns): LineReader {
  return {
    kind: 'events',
    read(line, fields) {
      const item = parseEventLine(fields, columns, line);
      // The id as the file has it is the key: a repeat within the file is found by the staging index.
      return { item, key: keyOf((fields[columns.fields.id] ?? '').trim()), altKey: null };
    },
    // Staged with a return's original as the alternate key (events.ts eventKeysOf); read() leaves it out of the repeat check.
    keys: (fields) => eventKeysOf(fields, columns),
  };
}

function participantsReader(header: HeaderColumn[], rules: ClientRules): LineReader {
  return {
    kind: 'participants',
    read(line, fields) {
      const item = parseParticipantLine(fields, header, rules, line);
      if (!('fields' in item)) return { item, key: null, altKey: null };
      return { item, key: keyOf(usernameKey(item.fields.username)), altKey: keyOf(item.fields.accountNumber) };
    },
  };
}

/**
 * The staged lines after `cursor`, read and checked, with the lines that repeat an earlier line of
 * the file (by external id, or username and account number) turned into rejects: found by the
 * staging table's index, so memory holds one batch whatever the file's size.
 */
export async function readBatch(
  db: Db,
  jobId: string,
  reader: LineReader,
  after: number,
  limit: number,
): Promise<{ items: unknown[]; last: number; count: number }> {
  const rows = await stagedAfter(db, jobId, after, limit);
  if (rows.length === 0) return { items: [], last: after, count: 0 };
  return { items: await checkedLines(db, jobId, reader, rows), last: rows.at(-1)!.line, count: rows.length };
}

/**
 * The staged lines at positions `from` to `from + limit` of `order` (line numbers, run-order.ts),
 * read and checked as readBatch does, in that order; `last` is the position after them.
 */
export async function readBatchInOrder(
  db: Db,
  jobId: string,
  reader: LineReader,
  order: Int32Array,
  from: number,
  limit: number,
): Promise<{ items: unknown[]; last: number; count: number }> {
  const lines = Array.from(order.subarray(from, from + limit));
  if (lines.length === 0) return { items: [], last: from, count: 0 };
  const byLine = new Map((await stagedLines(db, jobId, lines)).map((row) => [row.line, row]));
  // The order was read from the staged lines, which do not change while the job runs.
  const rows = lines.map((line) => byLine.get(line) ?? { line, fields: null, problem: 'not staged' });
  return { items: await checkedLines(db, jobId, reader, rows), last: from + lines.length, count: lines.length };
}

/**
 * Staged rows read by the kind's reader, with the lines that repeat an earlier line of the file
 * (by key or alternate key, found by the staging table's index whatever order the rows come in)
 * turned into rejects.
 */
async function checkedLines(db: Db, jobId: string, reader: LineReader, rows: readonly StagedLine[]): Promise<unknown[]> {
  const read = rows.map((row: StagedLine) =>
    row.fields === null
      ? { item: { line: row.line, reason: row.problem ?? 'not readable as CSV' } as LineProblem, key: null, altKey: null }
      : { ...reader.read(row.line, JSON.parse(row.fields) as string[]), line: row.line },
  );
  reader.repeats ??= (async () => ({
    key: await anyKeyRepeats(db, jobId, 'key'),
    altKey: await anyKeyRepeats(db, jobId, 'alt_key'),
  }))();
  const repeats = await reader.repeats;
  const firstByKey = repeats.key
    ? await firstLinesOf(
        db,
        jobId,
        'key',
        read.map((r) => r.key).filter((k): k is string => k !== null),
      )
    : new Map<string, number>();
  const firstByAlt = repeats.altKey
    ? await firstLinesOf(
        db,
        jobId,
        'alt_key',
        read.map((r) => r.altKey).filter((k): k is string => k !== null),
      )
    : new Map<string, number>();
  const items = read.map((r) => {
    const item = r.item as { line: number };
    const first = r.key === null ? undefined : firstByKey.get(r.key);
    if (first !== undefined && first < item.line) {
      const what =
        reader.kind === 'points'
          ? `external_id ${r.key}`
          : reader.kind === 'events'
            ? `id ${r.key}`
            : `username "${(r.item as { fields: { username: string } }).fields.username}"`;
      return { line: item.line, reason: `${what} repeats line ${first}` } satisfies LineProblem;
    }
    const firstAlt = r.altKey === null ? undefined : firstByAlt.get(r.altKey);
    if (firstAlt !== undefined && firstAlt < item.line)
      return { line: item.line, reason: `account number ${r.altKey} repeats line ${firstAlt}` };
    return r.item;
  });
  return items;
}

/**
 * Stages an upload: the body is parsed as it streams, and its records go to import_lines in
 * chunks of STAGE_CHUNK (memory holds one chunk, whatever the file's size). A header that is not
 * the kind's, a file over IMPORT_MAX_BYTES or IMPORT_MAX_LINES, a line over IMPORT_MAX_LINE_BYTES
 * (refused in the chunk that passes it, csv-input.ts): 400, and the job and what was staged are
 * deleted. The job is then "previewing": the preview is the jobs loop's (preview.ts), so the
 * upload answers as soon as the last line is staged, not minutes later.
 */
export async function stageImport(
  db: Db,
  actor: ImportActor,
  clientId: string,
  kind: ImportKind,
  fileName: string,
  body: AsyncIterable<Buffer | string>,
  limits: { maxBytes?: number; maxLines?: number; maxLineBytes?: number; now?: Date } = {},
): Promise<ImportJob> {
  const maxBytes = limits.maxBytes ?? IMPORT_MAX_BYTES;
  const maxLines = limits.maxLines ?? IMPORT_MAX_LINES;
  const maxLineBytes = limits.maxLineBytes ?? IMPORT_MAX_LINE_BYTES;
  const now = limits.now ?? new Date();
  const id = randomUUID();
  await insertJob(db, {
    id,
    client_id: clientId,
    kind,
    status: 'staging',
    file_name: fileName,
    created_by: actor.name,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    params: '{}',
    total: 0,
    done: 0,
    cursor: 0,
  });
  try {
    const { header, lines } = await withJobTuning(db, () => stageBody(db, id, clientId, kind, body, maxBytes, maxLines, maxLineBytes));
    await updateJobIf(db, id, 'staging', {
      status: 'previewing',
      params: JSON.stringify({ header } satisfies ImportParams),
      total: lines,
      updated_at: new Date().toISOString(),
    });
  } catch (error) {
    // A refused upload leaves nothing: no job in the history, no staged line, and their space given back.
    const staged = await deleteStaged(db, id);
    await deleteJob(db, id);
    if (staged) await releaseSpace(db);
    throw error;
  }
  return (await readImport(db, clientId, id))!;
}

/**
 * The free space of deleted staged rows given back (store.ts releaseStagingSpace; decision 064,
 * amended 2026-11-28), after the deletion committed. Best effort: the rows are gone whatever
 * happens here, and a failure (another process holding SQLite's write lock past its timeout)
 * leaves free pages that SQLite reuses for the next upload and the next release gives back.
 */
export async function releaseSpace(db: Db): Promise<void> {
  await releaseStagingSpace(db).catch(() => {});
}

async function stageBody(
  db: Db,
  jobId: string,
  clientId: string,
  kind: ImportKind,
  body: AsyncIterable<Buffer | string>,
  maxBytes: number,
  maxLines: number,
  maxLineBytes: number,
): Promise<{ header: string[]; lines: number }> {
  let bytes = 0;
  let tooBig = false;
  async function* counted() {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        tooBig = true;
        return;
      }
      yield chunk;
    }
  }
  const parser = importCsvParser(counted(), maxLineBytes);
  const pending: Array<{
    job_id: string;
    line: number;
    fields: string | null;
    problem: string | null;
    key: string | null;
    alt_key: string | null;
  }> = [];
  let lines = 0;
  parser.on('skip', (error: CsvError & { lines?: number }) => {
    const line = error.lines ?? 0;
    if (pending.at(-1)?.line === line) return;
    lines += 1;
    pending.push({
      job_id: jobId,
      line,
      fields: null,
      problem: `unreadable CSV: ${error.message.split('\n')[0]}`,
      key: null,
      alt_key: null,
    });
  });
  let header: string[] | undefined;
  let reader: LineReader | undefined;
  const flush = async () => {
    if (pending.length > 0) await insertStaged(db, pending.splice(0));
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = record;
        const found = await lineReader(db, clientId, kind, header);
        if (typeof found === 'string') throw importErrors.refused(found, { reason: 'header' });
        reader = found;
        // Unreadable lines before the header are not the file's; those after it stay (the parser may
        // have read a small file whole, and reported its unreadable lines, before the header is read).
        const after = pending.filter((p) => p.line > info.lines);
        lines -= pending.length - after.length;
        pending.splice(0, pending.length, ...after);
        continue;
      }
      lines += 1;
      if (lines > maxLines)
        throw importErrors.refused(`The file has more than ${maxLines.toLocaleString('en-US')} lines`, {
          reason: 'tooManyLines',
          max: maxLines,
        });
      const { key, altKey } = reader!.keys ? reader!.keys(record) : reader!.read(info.lines, record);
      pending.push({ job_id: jobId, line: info.lines, fields: JSON.stringify(record), problem: null, key, alt_key: altKey });
      if (pending.length >= STAGE_CHUNK) await flush();
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof ApiError) throw error;
    if (error instanceof LineTooLong)
      throw importErrors.refused(error.message, {
        reason: error.quoted ? 'quoteNotClosed' : 'lineTooLong',
        line: error.line,
        kb: Math.round(error.cap / 1024),
      });
    throw importErrors.refused('The file could not be read as CSV', { reason: 'unreadable' });
  }
  if (tooBig)
    throw importErrors.refused(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, {
      reason: 'tooLarge',
      mb: Math.round(maxBytes / 1024 / 1024),
    });
  if (!header) throw importErrors.refused('The file is empty: the first line must be the header row', { reason: 'empty' });
  await flush();
  return { header, lines };
}

export interface BatchCounts {
  added: number;
  updated?: number;
  unchanged: number;
  problems: LineProblem[];
  unknownUsernames?: number;
  pointsIn?: number;
  pointsOut?: number;
  /** Events: of the points earned, those held pending. */
  pendingPoints?: number;
  /** Participants: the sessions ended (of those set inactive), for the run's audit. */
  sessionsEnded?: number;
}

/** A run's counts as the job keeps them: a participants run also counts the sessions it ended (its audit says so). */
export type RunCounts = ImportCounts & { sessionsEnded?: number };

export function addCounts(counts: RunCounts, outcome: BatchCounts): void {
  counts.added += outcome.added;
  counts.updated += outcome.updated ?? 0;
  counts.unchanged += outcome.unchanged;
  counts.rejected += outcome.problems.length;
  counts.unknownUsernames += outcome.unknownUsernames ?? 0;
  counts.pointsIn += outcome.pointsIn ?? 0;
  counts.pointsOut += outcome.pointsOut ?? 0;
  if (outcome.pendingPoints !== undefined) counts.pendingPoints = (counts.pendingPoints ?? 0) + outcome.pendingPoints;
  if (outcome.sessionsEnded !== undefined) counts.sessionsEnded = (counts.sessionsEnded ?? 0) + outcome.sessionsEnded;
}

/** What a preview carries from batch to batch: the balances its earlier lines would have left, and the run's time. */
export interface PreviewState {
  clientId: string;
  /** The job previewed (an events file's preview reads its staged returns). */
  jobId?: string;
  balances: Map<string, number>;
  runAt: Date;
  /** Events: the counters as the file's earlier lines would leave them, the sample, the rules' totals (events.ts). */
  events?: EventsPreviewState;
}
export const previewState = (clientId: string): PreviewState => ({ clientId, balances: new Map(), runAt: new Date(0) });

/**
 * Confirms a previewed import: takes the client's job slot (an INSERT on its primary key, so of a
 * burst of confirms exactly one wins; the others get 409 naming the running job), marks the job
 * running and audits the reason, in one transaction. The caller then starts the run (run.ts).
 */
export async function confirmImport(
  db: Db,
  actor: ImportActor,
  clientId: string,
  jobId: string,
  reason: string,
  now = new Date(),
): Promise<ImportJob> {
  const job = await findJob(db, clientId, jobId);
  if (!job) throw errors.notFound();
  if (job.status !== 'staged') throw importErrors.notConfirmable(job);
  await db.transaction().execute(async (trx) => {
    const params: ImportParams = {
      ...(JSON.parse(job.params) as ImportParams),
      runBy: { kind: actor.kind, origin: actor.origin },
      ...(job.kind === 'points' || (job.kind === 'events' && !budgetRunsOut(job)) ? { order: 'participant' as const } : {}),
    };
    const start = await startJob(
      trx,
      clientId,
      jobId,
      'staged',
      {
        status: 'running',
        params: JSON.stringify(params),
        confirmed_by: actor.name,
        started_at: now.toISOString(),
        updated_at: now.toISOString(),
      },
      now,
    );
    if (!start.started) throw start.holder ? importErrors.running(start.holder) : importErrors.notConfirmable(job);
    await recordAudit(
      trx,
      {
        clientId,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'imports.confirm',
        subject: job.file_name,
        details: {
          job: jobId,
          kind: job.kind,
          lines: job.total,
          preview: job.preview === null ? null : (JSON.parse(job.preview) as unknown),
          reason,
        },
        origin: actor.origin,
      },
      now,
    );
  });
  return (await readImport(db, clientId, jobId))!;
}

/**
 * A staged import nobody confirmed is discarded this long after its preview was ready (and an
 * upload whose process died before staging ended, this long after it began; a preview that made
 * no progress this long, its last batch): the periodic loop of run.ts (startImportJobs) calls
 * discardStaleImports.
 */
export const STAGED_IMPORT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Who the clean-up is in the audit trail. */
export const SYSTEM_ACTOR: ImportActor = { name: 'system', kind: 'system', origin: null };

/**
 * Throws an import not yet confirmed away, in one transaction: the job marked discarded (only while
 * it is still previewing or staged, so of a discard and a confirm at once exactly one wins), its
 * staged lines and the preview's rejects deleted (the job's row keeps the preview's counts, if it
 * had one), and `imports.discard` audited. A job that runs, ended or was discarded already: 409,
 * nothing changed. A previewing job may be discarded: nothing was written, and waiting minutes
 * for the preview of a file one knows is wrong helps nobody; the preview (preview.ts) sees the
 * job is no longer previewing after its batch and stops, removing any rejects it wrote since. The
 * route and the clean-up of old staged jobs both come here; only the clean-up passes `abandoned`,
 * which also takes an upload whose staging never finished (its process died). After the commit,
 * the space of what was deleted is given back (releaseSpace).
 */
export async function discardImport(
  db: Db,
  actor: ImportActor,
  clientId: string,
  jobId: string,
  reason: string | null,
  options: { now?: Date; abandoned?: boolean } = {},
): Promise<ImportJob> {
  const now = options.now ?? new Date();
  const job = await findJob(db, clientId, jobId);
  if (!job) throw errors.notFound();
  const discardable = options.abandoned === true ? ['previewing', 'staged', 'staging'] : ['previewing', 'staged'];
  if (!discardable.includes(job.status)) throw importErrors.notDiscardable(job);
  let staged = false;
  await db.transaction().execute(async (trx) => {
    // Any not-yet-confirmed status: a preview that became ready since the read is discarded all the same.
    const discarded = await updateJobIf(trx, jobId, discardable, {
      status: 'discarded',
      finished_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    // Confirmed or discarded between the read and this update: the other one won.
    if (!discarded) throw importErrors.notDiscardable((await findJobById(trx, jobId)) ?? job);
    staged = await deleteStaged(trx, jobId);
    await recordAudit(
      trx,
      {
        clientId,
        actor: actor.name,
        actorKind: actor.kind,
        action: 'imports.discard',
        subject: job.file_name,
        details: { job: jobId, kind: job.kind, fileName: job.file_name, lines: Number(job.total), reason },
        origin: actor.origin,
      },
      now,
    );
  });
  // After the commit: the discard holds no transaction open while the file is cut.
  if (staged) await releaseSpace(db);
  return (await readImport(db, clientId, jobId))!;
}

/** Staged jobs read per round of the clean-up. */
const STALE_PAGE = 100;

/**
 * Discards every import left staged for STAGED_IMPORT_MAX_AGE_MS (or left staging that long: an
 * upload whose process died; or previewing with no batch done that long: a preview that keeps
 * failing), as the system; returns how many. One that is confirmed or discarded
 * by hand meanwhile is skipped (its 409).
 */
export async function discardStaleImports(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - STAGED_IMPORT_MAX_AGE_MS).toISOString();
  const reason = `not confirmed within ${STAGED_IMPORT_MAX_AGE_MS / 3_600_000} hours`;
  let discarded = 0;
  for (;;) {
    const stale = await jobsIdleSince(db, ['staged', 'staging', 'previewing'], before, STALE_PAGE);
    const discardedBefore = discarded;
    for (const job of stale) {
      if (job.kind !== 'points' && job.kind !== 'participants' && job.kind !== 'events') continue;
      try {
        await discardImport(db, SYSTEM_ACTOR, job.client_id, job.id, reason, { now, abandoned: true });
        discarded += 1;
      } catch (error) {
        if (!(error instanceof ApiError && error.statusCode === 409)) throw error;
      }
    }
    // A short page is the last; a round that discarded none would read the same page again.
    if (stale.length < STALE_PAGE || discarded === discardedBefore) return discarded;
  }
}

/**
 * An events file whose preview ran a rule's budget out, or whose returns make the order matter
 * (fileOrder: one gave back to a budget, or named an event not found or another participant's):
 * its run keeps the file's order, so it does what the preview said (decision 099); otherwise by
 * participant.
 */
function budgetRunsOut(job: Job): boolean {
  const preview = job.preview === null ? null : (JSON.parse(job.preview) as { events?: ImportEventsPreview });
  return (preview?.events?.budgetRanOut.length ?? 0) > 0 || preview?.events?.fileOrder === true;
}

function view(job: Job, rejects: ImportReject[]): ImportJob {
  const { events: eventsPreview, ...preview } =
    job.preview === null ? { events: undefined } : (JSON.parse(job.preview) as ImportCounts & { events?: ImportEventsPreview });
  return {
    id: job.id,
    clientId: job.client_id,
    kind: job.kind as ImportKind,
    status: job.status as ImportJob['status'],
    fileName: job.file_name,
    createdBy: job.created_by,
    createdAt: job.created_at,
    confirmedBy: job.confirmed_by,
    startedAt: job.started_at,
    finishedAt: job.finished_at,
    lines: Number(job.total),
    done: Number(job.done),
    preview: job.preview === null ? null : (preview as ImportCounts),
    ...(job.kind === 'events' ? { eventsPreview: eventsPreview ?? null } : {}),
    result: job.result === null ? null : (JSON.parse(job.result) as ImportCounts),
    rejects,
    error: job.error,
  };
}

/** The phase whose rejects a job shows: the run's once it started, else the preview's. */
const phaseOf = (job: Job) => (job.status === 'staged' || job.status === 'staging' || job.status === 'previewing' ? 'preview' : 'run');

/** A page of a job's rejected lines of one phase, in line order after `after` (the command's report and --rejects file). */
export async function importRejects(
  db: Db,
  jobId: string,
  phase: 'preview' | 'run',
  after: number,
  limit: number,
): Promise<Array<{ line: number; reason: string }>> {
  return rejectsAfter(db, jobId, phase, after, limit);
}

export async function readImport(db: Db, clientId: string, jobId: string): Promise<ImportJob | undefined> {
  const job = await findJob(db, clientId, jobId);
  if (!job) return undefined;
  return view(job, await rejectsAfter(db, jobId, phaseOf(job), 0, REJECTS_SHOWN));
}

export async function listImports(db: Db, clientId: string): Promise<Array<Omit<ImportJob, 'rejects'>>> {
  return (await listJobs(db, clientId, 100))
    .filter((job) => job.kind === 'points' || job.kind === 'participants' || job.kind === 'events')
    .map((job) => {
      const { rejects: _rejects, eventsPreview: _events, ...rest } = view(job, []);
      return rest;
    });
}

/**
 * The job's rejected lines as CSV (line,reason), read a page at a time; undefined if there is no
 * such job. Written by the one CSV writer (decision 073): a reason that would run as a formula is
 * neutralised, the line stays a number.
 */
export async function importRejectsCsv(db: Db, clientId: string, jobId: string): Promise<Readable | undefined> {
  const job = await findJob(db, clientId, jobId);
  if (!job) return undefined;
  const phase = phaseOf(job);
  async function* lines() {
    yield csvLine(['line', 'reason']);
    let after = 0;
    for (;;) {
      const page = await rejectsAfter(db, jobId, phase, after, 1_000);
      if (page.length === 0) return;
      yield page.map((row) => csvLine([row.line, row.reason])).join('');
      after = page.at(-1)!.line;
    }
  }
  return Readable.from(lines());
}
