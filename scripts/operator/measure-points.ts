/**
 * Measures `rewards points import` (docs/decisions/022): a generated file into a fresh database
 * of either engine, then the same file again (all unchanged), then a run killed (SIGKILL) after
 * half of its lines are committed and run again. Prints wall time, CPU time and peak resident memory
 * of each CLI run (GNU time).
 *   node scripts/operator/measure-points.ts [--lines 1000000] [--participants 100000] [--batch-size N] [--postgres] [--skip-kill]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { databaseConfigFromUrl } from '../../apps/server/src/config.ts';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { seedDemo } from '../../apps/server/src/db/seed/demo.ts';
import { addGeneratedParticipants, writePointsFile } from '../../apps/server/test/points-files.ts';
import { startThrowawayPostgres } from '../lib/postgres.ts';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    participants: { type: 'string', default: '100000' },
    postgres: { type: 'boolean', default: false },
    'skip-kill': { type: 'boolean', default: false },
    'batch-size': { type: 'string' },
  },
});
const lines = Number(values.lines);
const participants = Number(values.participants);
const batchArgs = values['batch-size'] ? ['--batch-size', values['batch-size']] : [];
const CLI = join(import.meta.dirname, '..', '..', 'apps', 'server', 'src', 'cli', 'rewards.ts');
// The V8 flags an operator's run gets (the bin's shebang, the same as `npm run rewards`): they
// bound the heap, so measuring without them overstates resident memory by half.
const NODE_FLAGS = (/^#!.*\bnode\b(.*)$/m.exec(readFileSync(CLI, 'utf8').split('\n')[0] ?? '')?.[1] ?? '')
  .trim()
  .split(/\s+/)
  .filter(Boolean);
const dir = mkdtempSync(join(tmpdir(), 'rewards-measure-'));
const server = values.postgres ? await startThrowawayPostgres() : undefined;
const databaseUrl = server ? server.url : `file:${join(dir, 'rewards.db')}`;

interface Run {
  wall: number;
  cpu: number;
  maxRssMb: number;
  stdout: string;
}

/** One CLI run under GNU time; `onStart` may kill it. */
function rewards(args: string[], onStart?: (pid: number) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S %M', process.execPath, ...NODE_FLAGS, CLI, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    onStart?.(child.pid!);
    child.on('close', () => {
      const match = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      resolve({
        wall: Number(match?.[1] ?? NaN),
        cpu: Number(match?.[2] ?? NaN) + Number(match?.[3] ?? NaN),
        maxRssMb: Math.round(Number(match?.[4] ?? NaN) / 1024),
        stdout: stdout.trim().split('\n')[0] ?? '',
      });
    });
  });
}

const show = (what: string, run: Run) =>
  console.log(`${what}: ${run.wall.toFixed(1)} s wall, ${run.cpu.toFixed(1)} s CPU, ${run.maxRssMb} MB peak RSS\n  ${run.stdout}`);

try {
  const db = createDatabase(databaseConfigFromUrl(databaseUrl));
  await migrateToLatest(db);
  await seedDemo(db);
  await addGeneratedParticipants(db, 'acme', participants);
  const file = join(dir, 'points.csv');
  await writePointsFile(file, { lines, participants });
  console.log(`${values.postgres ? 'PostgreSQL' : 'SQLite'}: ${lines} lines over ${participants} participants`);
  show('import', await rewards(['points', 'import', file, '--client', 'acme', ...batchArgs]));
  show('re-run', await rewards(['points', 'import', file, '--client', 'acme', ...batchArgs]));

  if (!values['skip-kill']) {
    const second = join(dir, 'points-2.csv');
    await writePointsFile(second, { lines, participants, prefix: 'second' });
    const posted = async () =>
      Number(
        (
          await db
            .selectFrom('ledger_entries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('reference', 'like', 'import:second-%')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await rewards(['points', 'import', second, '--client', 'acme', ...batchArgs], (pid) => {
      void (async () => {
        // GNU time's child is the node process: kill that one, as a crash would.
        while ((await posted()) < lines / 2) await sleep(50);
        spawn('pkill', ['-KILL', '-P', String(pid)]);
      })();
    });
    console.log(`killed with ${await posted()} lines committed`);
    show('run again after the kill', await rewards(['points', 'import', second, '--client', 'acme', ...batchArgs]));
    const distinct = await db
      .selectFrom('ledger_entries')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('reference').distinct().as('d')])
      .where('reference', 'like', 'import:second-%')
      .executeTakeFirstOrThrow();
    console.log(`entries of the killed file: ${distinct.n}, distinct references: ${distinct.d}`);
  }
  await db.destroy();
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
