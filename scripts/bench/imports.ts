/**
 * The console's import at scale (issue 20 §2, docs/decisions/064), on the embedded default: a
 * points file of --lines lines over --participants participants (test/points-files.ts, one line
 * in ten a debit), streamed from disk into the staging table, previewed (the job's first phase),
 * confirmed, and run as the job does, sampling the process's memory every 100 ms.
 *
 * Usage: node scripts/bench/imports.ts [--lines 1000000] [--participants 100000]
 * (npm run bench does not run it; figures in decision 064 and the README.)
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { addExpiryClient } from '../../apps/server/src/modules/expiry/test-support.ts';
import { previewImportJob } from '../../apps/server/src/modules/imports/preview.ts';
import { runImportJob } from '../../apps/server/src/modules/imports/run.ts';
import { confirmImport, readImport, stageImport } from '../../apps/server/src/modules/imports/service.ts';
import { writePointsFile } from '../../apps/server/test/points-files.ts';

const { values } = parseArgs({
  options: { lines: { type: 'string', default: '1000000' }, participants: { type: 'string', default: '100000' } },
});
const LINES = Number(values.lines);
const PARTICIPANTS = Number(values.participants);
const CLIENT = 'bench-imports';
const mb = (bytes: number) => Math.round(bytes / 1_048_576);

function sampler() {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, heapUsed);
  };
  sample();
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return `peak RSS ${mb(peakRss)} MB, peak heap ${mb(peakHeap)} MB`;
  };
}

/** Bytes this process has had written to storage (Linux); -1 elsewhere. */
function writtenBytes(): number {
  try {
    return Number(/^write_bytes: (\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? -1);
  } catch {
    return -1;
  }
}

async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const stop = sampler();
  const written = writtenBytes();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const used = process.cpuUsage(cpu);
  console.log(
    `${name}: ${((performance.now() - started) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU, ${stop()}` +
      (written < 0 ? '' : `, ${mb(writtenBytes() - written)} MB written`),
  );
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'rewards-bench-imports-'));
const db = createDatabase({ dialect: 'sqlite', path: join(dir, 'rewards.db') });
try {
  await migrateToLatest(db);
  await addExpiryClient(db, CLIENT, PARTICIPANTS, { type: 'none' });
  const file = join(dir, 'points.csv');
  await writePointsFile(file, { lines: LINES, participants: PARTICIPANTS });
  const actor = { name: 'bench', kind: 'operator' as const, origin: null };
  const staged = await step(`stage ${LINES.toLocaleString('en-US')} lines (the upload's request)`, () =>
    stageImport(db, actor, CLIENT, 'points', 'points.csv', createReadStream(file, { highWaterMark: 64 * 1024 })),
  );
  // The preview is the job's first phase (decision 064, amended 2026-11-26 (2)): timed on its own.
  await step('preview', () => previewImportJob(db, staged.id));
  console.log('preview', JSON.stringify((await readImport(db, CLIENT, staged.id))?.preview));
  await confirmImport(db, actor, CLIENT, staged.id, 'bench');
  await step('run', () => runImportJob(db, staged.id));
  console.log('result', JSON.stringify((await readImport(db, CLIENT, staged.id))?.result));
} finally {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
