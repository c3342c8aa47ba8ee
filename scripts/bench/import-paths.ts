/**
 * One import path of the imports bench (scripts/bench/imports.ts), in a process of its own so that
 * its time, bytes written and peak resident memory are its own (import-stats.js). Prints the
 * outcome as JSON, with the phases' wall times.
 *
 * Usage: node --import ./scripts/bench/import-stats.js scripts/bench/import-paths.ts
 *          --path baseline|job --db <sqlite file> --file <points csv> --client <id>
 * - baseline: the command's streaming import as decision 022 measured it (the loop of
 *   `rewards points import` before decision 091, kept here to compare against): the file in
 *   batches of 20,000, one transaction each, through postPointsBatch, with its own SQLite settings
 *   (8 MB cache, a checkpoint per 65,536 WAL pages, foreign keys off);
 * - job: the console's path: staged, previewed, confirmed and run (modules/imports).
 */
import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { SqliteAdapter, sql } from 'kysely';
import { createDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { LineTooLong, importCsvParser } from '../../apps/server/src/modules/imports/csv-input.ts';
import { postPointsBatch } from '../../apps/server/src/modules/imports/points.ts';
import { columnsOf, parsePointsLine, type LineProblem, type PointsLine } from '../../apps/server/src/modules/imports/points-lines.ts';
import { previewImportJob } from '../../apps/server/src/modules/imports/preview.ts';
import { runImportJob } from '../../apps/server/src/modules/imports/run.ts';
import { confirmImport, readImport, stageImport } from '../../apps/server/src/modules/imports/service.ts';
import { phaseTimer, writtenBytes } from './measured-child.ts';

const { values } = parseArgs({
  options: {
    path: { type: 'string' },
    db: { type: 'string' },
    file: { type: 'string' },
    client: { type: 'string' },
  },
});
const { path, file, client } = values as Record<string, string>;
const db = createDatabase({ dialect: 'sqlite', path: values.db! });
/** Per phase: wall seconds, and MB written (/proc/self/io write_bytes; -1 where unknown). */
const phases: Record<string, number> = {};
const phase = phaseTimer(phases);

try {
  if (path === 'baseline') {
    const counts = await phase('import', () => baselineImport(db, client!, file!));
    console.log(JSON.stringify({ phases, counts }));
  } else if (path === 'job') {
    const actor = { name: 'bench', kind: 'operator' as const, origin: null };
    const staged = await phase('stage', () =>
      stageImport(db, actor, client!, 'points', 'points.csv', createReadStream(file!, { highWaterMark: 64 * 1024 })),
    );
    await phase('preview', () => previewImportJob(db, staged.id));
    const preview = (await readImport(db, client!, staged.id))?.preview;
    await confirmImport(db, actor, client!, staged.id, 'bench');
    // The run's batches apart from its end (the staged lines deleted, their space given back).
    let batchesMB = 0;
    const runStart = writtenBytes();
    await phase('run', () => runImportJob(db, staged.id, { afterBatch: () => void (batchesMB = writtenBytes() - runStart) }));
    if (runStart >= 0) phases.runBatchesMB = Math.round(batchesMB / 1_048_576);
    const job = await readImport(db, client!, staged.id);
    console.log(JSON.stringify({ phases, preview, counts: job?.result, status: job?.status }));
  } else throw new Error(`--path takes baseline or job; not "${path}"`);
} finally {
  await db.destroy();
}

/** The command's loop before decision 091 (cli/commands/points-import.ts then), without its report and rejects file. */
async function baselineImport(db: Db, clientId: string, csv: string) {
  const runAt = new Date();
  const counts = { added: 0, unchanged: 0, rejected: 0 };
  const parser = importCsvParser(createReadStream(csv));
  const skipped: LineProblem[] = [];
  parser.on('skip', (error: { lines?: number; message: string }) => {
    const line = error.lines ?? 0;
    if (skipped.at(-1)?.line === line) return;
    skipped.push({ line, reason: `unreadable CSV: ${error.message.split('\n')[0]}` });
  });
  const restore = await tuneSqlite(db);
  let columns: ReturnType<typeof columnsOf> | undefined;
  let width = 0;
  let batch: Array<PointsLine | LineProblem> = [];
  const flush = async () => {
    for (const problem of skipped.splice(0)) batch.push(problem);
    batch.sort((a, b) => a.line - b.line);
    const outcome = await db.transaction().execute((trx) => postPointsBatch(trx, clientId, batch, runAt));
    counts.added += outcome.added;
    counts.unchanged += outcome.unchanged;
    counts.rejected += outcome.problems.length;
    batch = [];
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!columns) {
        columns = columnsOf(record);
        if (typeof columns === 'string') throw new Error(columns);
        width = record.length;
        continue;
      }
      batch.push(parsePointsLine(record, columns as Exclude<typeof columns, string>, width, info.lines));
      if (batch.length >= 20_000) await flush();
    }
    await flush();
  } catch (error) {
    if (error instanceof LineTooLong) throw new Error(error.message);
    throw error;
  } finally {
    await restore();
  }
  return counts;
}

async function tuneSqlite(db: Db): Promise<() => Promise<void>> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return async () => {};
  const read = async (pragma: string) => Number(Object.values((await sql.raw(`pragma ${pragma}`).execute(db)).rows[0] as object)[0]);
  const before = {
    cache_size: await read('cache_size'),
    wal_autocheckpoint: await read('wal_autocheckpoint'),
    foreign_keys: await read('foreign_keys'),
  };
  await sql.raw('pragma cache_size = -8192').execute(db);
  await sql.raw('pragma wal_autocheckpoint = 65536').execute(db);
  await sql.raw('pragma foreign_keys = off').execute(db);
  return async () => {
    for (const [pragma, value] of Object.entries(before)) await sql.raw(`pragma ${pragma} = ${value}`).execute(db);
  };
}
