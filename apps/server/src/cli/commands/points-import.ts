import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { SqliteAdapter, sql } from 'kysely';
import type { CsvError } from 'csv-parse';
import type { Db } from '../../db/database.ts';
import type { Client } from '../../modules/clients/tables.ts';
import { recordAudit } from '../../modules/audit/service.ts';
import { postPointsBatch } from '../../modules/imports/points.ts';
import { action, CliError, requireClient, wholeNumber } from '../cli-context.ts';
import { emptyCounts, formatImportReport, openRejectsFile, progressBar, type ImportCounts, type RejectedLine } from '../import-report.ts';
import { operatorOrigin } from './audit.ts';
import { columnsOf, parsePointsLine, type LineProblem, type PointsColumn, type PointsLine } from '../../modules/imports/points-lines.ts';
import { LineTooLong, importCsvParser } from '../../modules/imports/csv-input.ts';

/**
 * Lines per transaction. Pages written per line fall as batches grow (a statement-index leaf or a
 * participant's page takes more lines per commit); memory grows with the batch, not the file
 * (docs/decisions/022: 50,000 peaked at ~225 MB resident for a million lines; 20,000 with an 8 MB
 * page cache at 174 MB, in 43 s, on a quiet machine).
 */
const DEFAULT_BATCH = 20_000;
/** SQLite page cache of an import (see tuneSqlite): 32 MB wrote no less and cost 26 MB resident. */
const IMPORT_CACHE_MB = 8;
/** WAL pages between checkpoints during an import (4 KB each: 256 MB); SQLite's default is 1,000. */
const IMPORT_CHECKPOINT_PAGES = 65_536;
/** Rejected lines kept for the summary and --json; all of them go to --rejects, as they come. */
const REJECTS_KEPT = 10_000;

export function registerPointsImport(points: Command): void {
  const command = points
    .command('import')
    .description(
      'post a CSV of points lines (username,points,date,description,external_id in any order), each line one entry; idempotent on external_id, so a re-run (also after a kill) posts nothing twice',
    )
    .argument('<file>', 'the CSV file')
    .requiredOption('--client <id>', 'the client')
    .option('--rejects <file>', 'write the rejected lines (line,reason) to this CSV')
    .option('--batch-size <n>', 'lines per transaction', String(DEFAULT_BATCH));
  action<{ client?: string; rejects?: string; batchSize: string }>(command, async (db, { args, options, operator }) => {
    const client = await requireClient(db, options.client);
    const file = args[0]!;
    const batchSize = wholeNumber('--batch-size', options.batchSize, 1, 200_000);
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error();
      size = stat.size;
    } catch {
      throw new CliError(`Cannot read ${file}: no such file`);
    }
    const report = await importPoints(db, client, file, size, { batchSize, rejectsPath: options.rejects, operator });
    return {
      human:
        formatImportReport('Points', report) +
        (report.rejected > report.rejects.length ? `\n  (${report.rejected} rejected lines in all)` : ''),
      json: report,
    };
  });
}

interface ImportOptions {
  batchSize: number;
  rejectsPath?: string;
  operator: string;
}

export interface PointsImportReport extends ImportCounts {
  file: string;
  lines: number;
  rejects: RejectedLine[];
}

/**
 * Streams the file in batches, one transaction each (docs/decisions/022). A batch commits its
 * entries with their balances or nothing, so a run stopped anywhere leaves whole batches; the
 * next run of the same file finds their references taken and counts those lines unchanged.
 */
export async function importPoints(
  db: Db,
  client: Client,
  file: string,
  size: number,
  options: ImportOptions,
): Promise<PointsImportReport> {
  // Every entry of this run has this created_at: a line whose external_id an earlier line of
  // the same run posted is a repeat in the file, one posted by an earlier run is unchanged.
  const runAt = new Date();
  const counts = emptyCounts();
  const kept: RejectedLine[] = [];
  const rejectsOut = options.rejectsPath ? openRejectsFile(options.rejectsPath) : undefined;
  const reject = (problem: LineProblem) => {
    counts.rejected += 1;
    if (kept.length < REJECTS_KEPT) kept.push(problem);
    rejectsOut?.write(problem);
  };

  // The console's reader (a line over IMPORT_MAX_LINE_BYTES stops the import there: LineTooLong).
  const parser = importCsvParser(createReadStream(file));
  // Malformed CSV (a stray quote) rejects that record and goes on.
  let lines = 0;
  const skipped: LineProblem[] = [];
  parser.on('skip', (error: CsvError & { lines?: number }) => {
    // One record can fail more than once (each stray quote): one rejection per line.
    const line = error.lines ?? 0;
    if (skipped.at(-1)?.line === line) return;
    lines += 1;
    skipped.push({ line, reason: `unreadable CSV: ${error.message.split('\n')[0]}` });
  });

  const restore = db.getExecutor().adapter instanceof SqliteAdapter ? await tuneSqlite(db) : async () => {};
  const progress = progressBar(`Importing ${basename(file)}`, size);
  // Ctrl-C: the batch under way rolls back (its transaction never commits), the committed ones
  // stay, and the same command finishes the job. Said plainly rather than dying silently.
  const interrupted = () => {
    progress.stop();
    process.stderr.write(
      '\nrewards: interrupted; the batches already committed stay. Run the same command again to finish: no line is posted twice.\n',
    );
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  let columns: Record<PointsColumn, number> | undefined;
  let width = 0;
  let batch: Array<PointsLine | LineProblem> = [];
  const flush = async () => {
    for (const problem of skipped.splice(0)) batch.push(problem);
    batch.sort((a, b) => a.line - b.line);
    await postBatch(db, client.id, batch, runAt, counts, reject);
    batch = [];
    progress.update(parser.info.bytes, lines);
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!columns) {
        const found = columnsOf(record);
        if (typeof found === 'string') throw new CliError(`${file}: ${found}`);
        columns = found;
        width = record.length;
        continue;
      }
      lines += 1;
      batch.push(parsePointsLine(record, columns, width, info.lines));
      if (batch.length >= options.batchSize) await flush();
    }
    if (!columns)
      throw new CliError(`${file} is empty: the first line must be the header ${'username,points,date,description,external_id'}`);
    await flush();
  } catch (error) {
    if (error instanceof LineTooLong)
      throw new CliError(
        `${file}: ${error.message} The import stopped there: the batches before it stay; mend the line and run the same command again (no line is posted twice).`,
      );
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    progress.stop();
    await restore();
    if (rejectsOut) await rejectsOut.close();
  }

  const report: PointsImportReport = { file, lines, ...counts, rejects: kept };
  await db.transaction().execute((trx) =>
    recordAudit(
      trx,
      {
        clientId: client.id,
        actor: options.operator,
        actorKind: 'operator',
        action: 'points.import',
        subject: basename(file),
        details: { lines, added: counts.added, unchanged: counts.unchanged, rejected: counts.rejected },
        origin: operatorOrigin,
      },
      new Date(),
    ),
  );
  return report;
}

/** One batch, one transaction (modules/imports/points.ts holds the rules, shared with the console's import job). */
async function postBatch(
  db: Db,
  clientId: string,
  batch: ReadonlyArray<PointsLine | LineProblem>,
  runAt: Date,
  counts: ImportCounts,
  reject: (problem: LineProblem) => void,
): Promise<void> {
  const outcome = await db.transaction().execute((trx) => postPointsBatch(trx, clientId, batch, runAt));
  counts.added += outcome.added;
  counts.unchanged += outcome.unchanged;
  for (const problem of outcome.problems) reject(problem);
}

/**
 * The import's own SQLite settings, on this process's connection only, undone at the end
 * (docs/decisions/022, "Measured again"). What a batch writes was measured per line at a
 * million entries: each page it changes went to the WAL, to the database at a checkpoint after
 * every commit, and to temp files twice (SQLite's statement journals and the sub-journal of the
 * group-commit driver's savepoint).
 * - cache_size 8 MB (SQLite's default is 2 MB): fewer re-reads of the pages a batch changes
 *   (the statement index and the participants, scattered). 32 and 128 MB wrote no less.
 * - wal_autocheckpoint: a checkpoint per 256 MB of WAL rather than per 4 MB (each commit): the
 *   pages every batch changes again (the participants' balances) reach the database file once
 *   per checkpoint instead of once per batch. synchronous=FULL stays: each batch's commit is
 *   durable in the WAL before it is counted.
 * - foreign_keys off: with it on, a multi-row INSERT may fail a key check at its end, so SQLite
 *   keeps a statement journal for it; the checks would only repeat what the batch already did
 *   in the same transaction (every participant looked up by the client's username, the
 *   balances read, appendLedgerEntries refusing an unknown id).
 */
async function tuneSqlite(db: Db): Promise<() => Promise<void>> {
  const read = async (pragma: string) => Number(Object.values((await sql.raw(`pragma ${pragma}`).execute(db)).rows[0] as object)[0]);
  const before = {
    cache_size: await read('cache_size'),
    wal_autocheckpoint: await read('wal_autocheckpoint'),
    foreign_keys: await read('foreign_keys'),
  };
  await sql.raw(`pragma cache_size = -${IMPORT_CACHE_MB * 1024}`).execute(db);
  await sql.raw(`pragma wal_autocheckpoint = ${IMPORT_CHECKPOINT_PAGES}`).execute(db);
  await sql.raw('pragma foreign_keys = off').execute(db);
  return async () => {
    for (const [pragma, value] of Object.entries(before)) await sql.raw(`pragma ${pragma} = ${value}`).execute(db);
  };
}
