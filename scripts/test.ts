/**
 * `npm test`: the one command that says whether everything is green.
 * Runs every suite in order (none stops the others), prints a table, and ends with the
 * plain line `N passed, N failed` that CI reads. Exit code 1 if anything failed.
 *
 *   npm test                          everything
 *   npm test -- --only=server,e2e     a subset (names: see SUITES below)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSystemPackages, requirements, type Requirement } from './lib/system.ts';

const ROOT = join(import.meta.dirname, '..');
// Tools resolve from the root node_modules/.bin even when this file is run by hand.
const ENV = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
const TMP = mkdtempSync(join(tmpdir(), 'rewards-test-'));

interface Result {
  passed: number;
  failed: number;
  skipped: number;
  note?: string;
}
interface Suite {
  name: string;
  needs?: () => Requirement[];
  run: () => Promise<Result>;
}

const DIALECTS = process.env.DIALECTS ?? 'sqlite,postgres';

const SUITES: Suite[] = [
  // Each TypeScript project is one check.
  ...Object.entries({
    contract: 'packages/contract',
    server: 'apps/server',
    web: 'apps/web',
    console: 'apps/console',
    scripts: 'tsconfig.scripts.json',
  }).map(([name, project]): Suite => ({ name: `typecheck ${name}`, run: () => check('tsc', ['-p', project]) })),
  { name: 'lint', run: () => check('eslint', ['.']) },
  // One style, checked (decision 055): `npm run format` writes it.
  { name: 'format', run: () => check('prettier', ['--check', '.']) },
  { name: 'contract', run: () => vitest('contract', [], 'packages/contract') },
  { name: 'web', run: () => vitest('web', [], 'apps/web') },
  {
    name: 'server',
    needs: () => (DIALECTS.includes('postgres') && !process.env.TEST_DATABASE_URL ? [requirements.postgresql] : []),
    run: () => vitest('server', ['--config', 'apps/server/vitest.config.ts'], '.', { DIALECTS }),
  },
  { name: 'build', run: () => check('npm', ['run', 'build']) },
  {
    name: 'e2e',
    needs: () => [requirements.chromium], // the Arabic font matters for screenshots only
    run: () => vitest('e2e', ['--config', 'apps/web/e2e/vitest.config.ts'], '.'),
  },
  {
    // The staff console in Chromium (decision 050), on the same build.
    name: 'console-e2e',
    needs: () => [requirements.chromium],
    run: () => vitest('console-e2e', ['--config', 'apps/console/e2e/vitest.config.ts'], '.'),
  },
];

/** Short names for --only: `typecheck` selects all the typechecks. */
const group = (suite: Suite) => suite.name.split(' ')[0]!;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
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

  const rows: Array<Result & { name: string; ms: number }> = [];
  let buildFailed = false;
  for (const suite of selected) {
    console.log(`\n\x1b[1m━━ ${suite.name} ━━\x1b[0m`);
    const start = performance.now();
    let result: Result;
    if ((suite.name === 'e2e' || suite.name === 'console-e2e') && buildFailed) {
      result = { passed: 0, failed: 1, skipped: 0, note: 'not run: the build failed' };
    } else {
      try {
        result = await suite.run();
      } catch (error) {
        result = { passed: 0, failed: 1, skipped: 0, note: `crashed: ${(error as Error).message}` };
      }
    }
    if (suite.name === 'build' && result.failed > 0) buildFailed = true;
    rows.push({ name: suite.name, ms: performance.now() - start, ...result });
  }
  return finish(rows, rows.some((r) => r.failed > 0) ? 1 : 0);
}

/** A command that is one check: exit code 0 passes. Output goes straight to the terminal. */
async function check(command: string, args: string[]): Promise<Result> {
  const code = await exec(command, args, '.');
  return code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0, note: `exit code ${code}` };
}

/** A vitest run, counted from its JSON report; a crash before the report counts as one failure. */
async function vitest(name: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  const report = join(TMP, `${name}.json`);
  const code = await exec(
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
    testResults: Array<{ status: string; assertionResults: Array<{ status: string }> }>;
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
  if (code !== 0 && result.failed === 0) Object.assign(result, { failed: 1, note: `vitest exited ${code}` });
  if (json.numTotalTestSuites === 0 && result.failed === 0) result.note = 'NO TEST FILES FOUND';
  return result;
}

function exec(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: join(ROOT, cwd), env: { ...ENV, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Prints the table and, as the very last line, `N passed, N failed`. */
function finish(rows: Array<Result & { name: string; ms: number }>, exitCode: number): number {
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
    const total = rows.reduce((n, r) => n + r.ms, 0);
    console.log(
      line(['total', String(passed), String(failed), String(rows.reduce((n, r) => n + r.skipped, 0)), `${(total / 1000).toFixed(1)}s`]),
    );
    console.log('');
  }
  console.log(`${passed} passed, ${failed} failed`);
  return exitCode;
}

process.exitCode = await main();
