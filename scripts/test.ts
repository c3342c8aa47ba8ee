/**
 * `npm test`: the one command that says whether everything is green.
 * Runs every suite (none stops the others), prints a table, and ends with the plain line
 * `N passed, N failed` that CI reads. Exit code 1 if anything failed.
 *
 * The suites run in three lanes at once (docs/decisions/060): the API tests (two workers and the
 * run's one PostgreSQL), the build then the portal's browser tests on it, and the unit tests and
 * static checks then the console's browser tests (which wait for the build). A lane runs its suites in order; each suite's output is kept and printed whole when it
 * ends, so two suites' lines never interleave.
 *
 *   npm test                          everything
 *   npm test -- --only=server,e2e     a subset (names: see SUITES below)
 *   npm test -- --serial              one suite at a time, output as it comes
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import type { Writable } from 'node:stream';
import { ensureSystemPackages, requirements, type Requirement } from './lib/system.ts';

const ROOT = join(import.meta.dirname, '..');
const ENV = {
  ...process.env,
  // Tools resolve from the root node_modules/.bin even when this file is run by hand.
  PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
  // Node keeps what it compiled (TypeScript stripped, V8 code) for the next process that loads the
  // same file: every spawned server, command and worker loads much the same few hundred modules.
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(ROOT, 'node_modules', '.cache', 'node-compile-cache'),
  // Password hashes at argon2's floor in every suite's servers and commands (decision 088; a production
  // start refuses it); the few tests of hashing itself ask for OWASP's cost. The vitest configs say it too.
  PASSWORD_HASH_COST: 'test-only-minimum',
};
const TMP = mkdtempSync(join(tmpdir(), 'rewards-test-'));

interface Result {
  passed: number;
  failed: number;
  skipped: number;
  note?: string;
  /** What failed, named after the table: CI shows only the end of the log. */
  failures?: string[];
}
interface Suite {
  name: string;
  /** Suites of one lane run one after another; the lanes run at the same time. */
  lane: 'api' | 'browser' | 'checks';
  needs?: () => Requirement[];
  run: (out: Writable) => Promise<Result>;
}

const DIALECTS = process.env.DIALECTS ?? 'sqlite,postgres';

const SUITES: Suite[] = [
  // The longest lane first: two workers, the run's PostgreSQL.
  {
    name: 'server',
    lane: 'api',
    needs: () => [
      ...(DIALECTS.includes('postgres') && !process.env.TEST_DATABASE_URL ? [requirements.postgresql] : []),
      // A real Prometheus scrapes the portal; promtool checks the scrape and deploy/alerts.yml (decision 079).
      requirements.prometheus,
      // A real Caddy in front of two processes restarted in turn; `caddy validate` checks deploy/Caddyfile (decision 082).
      requirements.caddy,
    ],
    run: (out) => vitest(out, 'server', ['--config', 'apps/server/vitest.config.ts'], '.', { DIALECTS }),
  },
  // One build for both browser suites, which wait for it.
  { name: 'build', lane: 'browser', run: (out) => check(out, 'npm', ['run', 'build']) },
  {
    name: 'e2e',
    lane: 'browser',
    needs: () => [requirements.chromium], // the Arabic font matters for screenshots only
    run: (out) => vitest(out, 'e2e', ['--config', 'apps/web/e2e/vitest.config.ts'], '.'),
  },
  { name: 'web', lane: 'checks', run: (out) => vitest(out, 'web', [], 'apps/web') },
  { name: 'contract', lane: 'checks', run: (out) => vitest(out, 'contract', [], 'packages/contract') },
  { name: 'console', lane: 'checks', run: (out) => vitest(out, 'console', [], 'apps/console') },
  // Each TypeScript project is one check.
  ...Object.entries({
    contract: 'packages/contract',
    server: 'apps/server',
    web: 'apps/web',
    console: 'apps/console',
    scripts: 'tsconfig.scripts.json',
  }).map(([name, project]): Suite => ({ name: `typecheck ${name}`, lane: 'checks', run: (out) => check(out, 'tsc', ['-p', project]) })),
  { name: 'lint', lane: 'checks', run: (out) => check(out, 'eslint', ['.']) },
  // One style, checked (decision 055): `npm run format` writes it.
  { name: 'format', lane: 'checks', run: (out) => check(out, 'prettier', ['--check', '.']) },
  {
    // The staff console in Chromium (decision 050), on the same build: last in the checks lane, whose
    // other suites end well before the portal's browser tests do.
    name: 'console-e2e',
    lane: 'checks',
    needs: () => [requirements.chromium],
    run: (out) => vitest(out, 'console-e2e', ['--config', 'apps/console/e2e/vitest.config.ts'], '.'),
  },
];

/** Short names for --only: `typecheck` selects all the typechecks. */
const group = (suite: Suite) => suite.name.split(' ')[0]!;

type Row = Result & { name: string; ms: number };

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, serial: { type: 'boolean' } } });
  const only = values.only?.split(',').map((s) => s.trim());
  if ((only?.includes('e2e') || only?.includes('console-e2e')) && !only.includes('build')) only.push('build'); // browser tests test the build
  const unknown = only?.filter((o) => !SUITES.some((s) => group(s) === o || s.name === o)) ?? [];
  if (unknown.length > 0) {
    console.error(`Unknown suite(s) ${unknown.join(', ')}. Known: ${[...new Set(SUITES.map(group))].join(', ')}`);
    return finish([], 2);
  }
  const selected = SUITES.filter((s) => !only || only.includes(group(s)) || only.includes(s.name));

  // Install (as root) or demand the system packages first, so no suite is skipped for want of them.
  try {
    ensureSystemPackages([...new Set(selected.flatMap((s) => s.needs?.() ?? []))]);
  } catch (error) {
    console.error(`\n${(error as Error).message}`);
    return finish([], 1);
  }

  const started = performance.now();
  const rows: Row[] = [];
  let buildFailed = false;
  // The browser suites test the build, whichever lane they run in: they wait for it to end.
  let buildEnded = () => {};
  const built = selected.some((s) => s.name === 'build') ? new Promise<void>((resolve) => (buildEnded = resolve)) : Promise.resolve();
  const runSuite = async (suite: Suite, serial: boolean): Promise<void> => {
    if (suite.name === 'e2e' || suite.name === 'console-e2e') await built;
    const start = performance.now();
    // Run alone, a suite writes to the terminal as it goes; beside others, to a file printed when it ends.
    const logFile = join(TMP, `${suite.name.replace(/\W+/g, '-')}.log`);
    const out = serial ? process.stdout : createWriteStream(logFile);
    console.log(serial ? `\n\x1b[1m━━ ${suite.name} ━━\x1b[0m` : `▶ ${suite.name} started at ${clock(start - started)}`);
    let result: Result;
    if ((suite.name === 'e2e' || suite.name === 'console-e2e') && buildFailed) {
      result = { passed: 0, failed: 1, skipped: 0, note: 'not run: the build failed' };
    } else {
      try {
        result = await suite.run(out);
      } catch (error) {
        result = { passed: 0, failed: 1, skipped: 0, note: `crashed: ${(error as Error).message}` };
      }
    }
    if (suite.name === 'build') {
      buildFailed = result.failed > 0;
      buildEnded();
    }
    const row = { name: suite.name, ms: performance.now() - start, ...result };
    rows.push(row);
    if (out !== process.stdout) {
      await new Promise<void>((resolve) => out.end(resolve));
      const mark = row.failed > 0 ? '✗' : '✓';
      console.log(`\n\x1b[1m━━ ${mark} ${suite.name} (${clock(row.ms)}, ended at ${clock(performance.now() - started)}) ━━\x1b[0m`);
      process.stdout.write(readFileSync(logFile));
    }
  };

  if (values.serial) {
    for (const suite of selected) await runSuite(suite, true);
  } else {
    const lanes = Map.groupBy(selected, (s) => s.lane);
    await Promise.all(
      [...lanes.values()].map(async (suites) => {
        for (const suite of suites) await runSuite(suite, false);
      }),
    );
  }
  // The table in SUITES order, whatever order they ended in.
  rows.sort((a, b) => SUITES.findIndex((s) => s.name === a.name) - SUITES.findIndex((s) => s.name === b.name));
  return finish(rows, rows.some((r) => r.failed > 0) ? 1 : 0, performance.now() - started);
}

const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

/** A command that is one check: exit code 0 passes. */
async function check(out: Writable, command: string, args: string[]): Promise<Result> {
  const code = await exec(out, command, args, '.');
  return code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0, note: `exit code ${code}` };
}

/** A vitest run, counted from its JSON report; a crash before the report counts as one failure. */
async function vitest(out: Writable, name: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  const report = join(TMP, `${name}.json`);
  const code = await exec(
    out,
    'vitest',
    ['run', ...args, '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    cwd,
    env,
  );
  if (!existsSync(report)) return { passed: 0, failed: 1, skipped: 0, note: `vitest exited ${code} without a report` };
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numTotalTestSuites: number;
    testResults: Array<{
      name: string;
      status: string;
      message?: string;
      assertionResults: Array<{ status: string; fullName: string; failureMessages?: string[] }>;
    }>;
  };
  // A file that failed to load has no failed test in it but is a failure all the same.
  const brokenFiles = json.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  const result: Result = {
    passed: json.numPassedTests,
    failed: json.numFailedTests + brokenFiles,
    skipped: json.numPendingTests + json.numTodoTests,
  };
  if (brokenFiles > 0) result.note = `${brokenFiles} file(s) failed to load`;
  const firstLine = (text = '') =>
    stripVTControlCharacters(text)
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 240) ?? '';
  result.failures = json.testResults.flatMap((f) => {
    const file = relative(ROOT, f.name);
    const tests = f.assertionResults.filter((a) => a.status === 'failed');
    if (f.status === 'failed' && tests.length === 0) return [`${file}: ${firstLine(f.message)}`];
    return tests.map((a) => `${file} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  });
  // No failed test, yet a failure: vitest's "Unhandled Errors" (its log names the test file it came from).
  if (code !== 0 && result.failed === 0)
    Object.assign(result, {
      failed: 1,
      note: `vitest exited ${code}`,
      failures: [
        `${name}: no test failed, but vitest exited ${code}: an unhandled error ("Unhandled Errors" in its log above names the file)`,
      ],
    });
  if (json.numTotalTestSuites === 0 && result.failed === 0) result.note = 'NO TEST FILES FOUND';
  return result;
}

function exec(out: Writable, command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const direct = out === process.stdout;
    const child = spawn(command, args, {
      cwd: join(ROOT, cwd),
      env: { ...ENV, ...env },
      stdio: ['ignore', direct ? 'inherit' : 'pipe', direct ? 'inherit' : 'pipe'],
    });
    // Into the suite's log, not ended with the child: a suite may run several commands.
    child.stdout?.pipe(out, { end: false });
    child.stderr?.pipe(out, { end: false });
    child.on('error', (error) => {
      out.write(`${command}: ${error.message}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Prints the table and, as the very last line, `N passed, N failed`. */
function finish(rows: Row[], exitCode: number, wallMs = 0): number {
  rmSync(TMP, { recursive: true, force: true });
  const passed = rows.reduce((n, r) => n + r.passed, 0);
  let failed = rows.reduce((n, r) => n + r.failed, 0);
  if (exitCode !== 0 && failed === 0) failed = 1; // stopped before any suite ran
  if (rows.length > 0) {
    const line = (cells: string[]) =>
      `${cells[0]!.padEnd(28)}${cells
        .slice(1, 5)
        .map((c) => c.padStart(8))
        .join('')}  ${cells[5] ?? ''}`;
    console.log(`\n${line(['suite', 'passed', 'failed', 'skipped', 'time', 'note'])}`);
    console.log('-'.repeat(70));
    for (const r of rows) {
      const mark = r.failed > 0 ? '✗' : '✓';
      console.log(
        line([`${mark} ${r.name}`, String(r.passed), String(r.failed), String(r.skipped), `${(r.ms / 1000).toFixed(1)}s`, r.note ?? '']),
      );
    }
    console.log('-'.repeat(70));
    // The suites overlap: the total is the wall time of the whole run, not the column's sum.
    const total = wallMs || rows.reduce((n, r) => n + r.ms, 0);
    console.log(
      line(['total', String(passed), String(failed), String(rows.reduce((n, r) => n + r.skipped, 0)), `${(total / 1000).toFixed(1)}s`]),
    );
    console.log('');
    for (const r of rows.filter((row) => row.failures?.length)) {
      console.log(`failed in ${r.name}:`);
      for (const failure of r.failures!) console.log(`  ${failure}`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return exitCode;
}

process.exitCode = await main();
