/**
 * `npm run bench -- --only=imports` (docs/decisions/091): one generated points file (--lines lines
 * over --participants participants, test/points-files.ts, one line in ten a debit) imported three
 * ways, each into its own copy of the same database and in a process of its own, one after the
 * other:
 * - baseline: the command's streaming import as decision 022 measured it (import-paths.ts), the
 *   figure the job is held to;
 * - command: `rewards points import <file> --client <id>` as the operator runs it (the package's
 *   `rewards` script's node flags);
 * - job: the console's path, staged, previewed, confirmed and run (modules/imports), with the
 *   server's node flags.
 * Each reports its wall and CPU seconds, the bytes it wrote (/proc/self/io write_bytes: the
 * database, its WAL and SQLite's temporary journals; not the database's growth) and its peak
 * resident memory (getrusage maxrss), through import-stats.js. The machine is shared: the figures
 * are indicative, the ratio of one run the one to compare.
 *
 * Alone: node scripts/bench/imports.ts [--lines 1000000] [--participants 100000] [--paths baseline,command,job]
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { addExpiryClient } from '../../apps/server/src/modules/expiry/test-support.ts';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/process-settings.ts';
import { writePointsFile } from '../../apps/server/test/points-files.ts';
import { measureChild } from './measured-child.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const CLIENT = 'bench-imports';
/** The command's node flags as decision 022 measured it (the baseline's). */
const BASELINE_NODE_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=96'];
/** The package's `rewards` script's node flags, as the operator runs the command (package.json). */
const CLI_NODE_FLAGS = (() => {
  const script =
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.rewards ?? '';
  return script.split(/\s+/).filter((word) => word.startsWith('--'));
})();

export const IMPORT_PATHS = ['baseline', 'command', 'job'] as const;
export type ImportPath = (typeof IMPORT_PATHS)[number];

export interface ImportPathResult {
  path: ImportPath;
  wallSeconds: number;
  cpuSeconds: number;
  writtenMb: number;
  /** Of writtenMb, the bytes of files deleted before they reached the disk (temporary journals). */
  cancelledMb: number;
  peakRssMb: number;
  /** Wall seconds of the path's phases (the job: stage, preview, run). */
  phases?: Record<string, number>;
  outcome: unknown;
}

export interface ImportsResults {
  lines: number;
  participants: number;
  paths: ImportPathResult[];
  /** The job's wall time over the baseline's, of this run (budget: 1.25). */
  jobOverBaseline?: number;
}

export async function runImports(
  dir: string,
  log: (line: string) => void,
  options: { lines: number; participants: number; paths?: readonly ImportPath[] },
): Promise<ImportsResults> {
  const file = join(dir, 'points.csv');
  const seed = join(dir, 'imports-seed.db');
  log(`imports: writing ${options.lines.toLocaleString('en-US')} lines over ${options.participants.toLocaleString('en-US')} participants`);
  await writePointsFile(file, { lines: options.lines, participants: options.participants });
  const db = createDatabase({ dialect: 'sqlite', path: seed });
  try {
    await migrateToLatest(db);
    await addExpiryClient(db, CLIENT, options.participants, { type: 'none' });
  } finally {
    // Closing checkpoints the WAL into the file: the copies below are whole.
    await db.destroy();
  }
  const results: ImportsResults = { lines: options.lines, participants: options.participants, paths: [] };
  for (const path of options.paths ?? IMPORT_PATHS) {
    const database = join(dir, `imports-${path}.db`);
    copyFileSync(seed, database);
    const stats = join(dir, `imports-${path}.json`);
    const preload = ['--import', join(HERE, 'import-stats.js')];
    // The baseline with decision 022's flags, the command with the package's, the job with the server's.
    const argv =
      path === 'command'
        ? [
            ...CLI_NODE_FLAGS,
            ...preload,
            join(ROOT, 'apps/server/src/cli/rewards.ts'),
            'points',
            'import',
            file,
            '--client',
            CLIENT,
            '--operator',
            'bench',
          ]
        : [
            ...(path === 'baseline' ? BASELINE_NODE_FLAGS : SERVER_NODE_FLAGS),
            ...preload,
            join(HERE, 'import-paths.ts'),
            '--path',
            path,
            '--db',
            database,
            '--file',
            file,
            '--client',
            CLIENT,
          ];
    const { out, cost } = await measureChild(
      argv,
      { ...process.env, DATABASE_URL: `file:${database}` },
      stats,
      argv.at(-1) ?? 'import child',
    );
    const parsed = parseOutcome(out);
    const result: ImportPathResult = {
      path,
      ...cost,
      ...(parsed.phases ? { phases: parsed.phases } : {}),
      outcome: parsed.outcome,
    };
    results.paths.push(result);
    log(
      `imports ${path}: ${result.wallSeconds} s wall, ${result.cpuSeconds} s CPU, ${result.writtenMb} MB written (${result.cancelledMb} MB cancelled), peak RSS ${result.peakRssMb} MB` +
        (result.phases ? ` ${JSON.stringify(result.phases)}` : '') +
        ` ${JSON.stringify(result.outcome)}`,
    );
    rmSync(database, { force: true });
    for (const suffix of ['-wal', '-shm']) rmSync(database + suffix, { force: true });
  }
  const baseline = results.paths.find((p) => p.path === 'baseline');
  const job = results.paths.find((p) => p.path === 'job');
  if (baseline && job) results.jobOverBaseline = Math.round((job.wallSeconds / baseline.wallSeconds) * 100) / 100;
  return results;
}

/** The child's last line of stdout is its JSON (the command's summary is a line of text, kept as it is). */
function parseOutcome(out: string): { phases?: Record<string, number>; outcome: unknown } {
  const text = out.trim();
  try {
    const json = JSON.parse(text.split('\n').at(-1) ?? '') as { phases?: Record<string, number> };
    const { phases, ...outcome } = json;
    return { ...(phases ? { phases } : {}), outcome };
  } catch {
    return { outcome: text.split('\n').at(0) };
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      lines: { type: 'string', default: '1000000' },
      participants: { type: 'string', default: '100000' },
      paths: { type: 'string' },
    },
  });
  const paths = values.paths?.split(',') as ImportPath[] | undefined;
  if (paths?.some((p) => !(IMPORT_PATHS as readonly string[]).includes(p))) throw new Error(`--paths takes ${IMPORT_PATHS.join(',')}`);
  const dir = mkdtempSync(join(tmpdir(), 'rewards-bench-imports-'));
  const started = Date.now();
  try {
    const results = await runImports(dir, (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`), {
      lines: Number(values.lines),
      participants: Number(values.participants),
      ...(paths ? { paths } : {}),
    });
    console.log(JSON.stringify(results, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
