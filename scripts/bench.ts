/**
 * `npm run bench`: the portal's speed and weight, measured side by side in one run (these
 * machines are shared and noisy, so budgets are ratios to a baseline of the same run, counts
 * or sizes). See docs/decisions/016-benchmark.md.
 *
 * Usage: npm run bench [-- --seconds 8 --quick --only=api,postgres,browser,history,startup,recovery,forgot,search,console,reports,backup,program-api,webhooks,imports --postgres --check]
 *   --seconds N   seconds per load case (default 8); --quick: 2 s cases, for a smoke run
 *   --connections N   autocannon connections (default 16; login always 4)
 *   --only=…      the parts to run (default all but postgres; --postgres adds it); one part
 *                 alone, e.g. `npm run bench -- --only=recovery` (forgot-password and
 *                 forgot-user-id, match against no match: decision 042) or `--only=forgot`
 *                 (the same in back-to-back runs of 10, the mail worker's pass included: decision 018),
 *                 `--only=program-api` (POST /api/program/v1/points over 8 connections against the raw commit rate: decision 085),
 *                 `--only=webhooks` (the same with an endpoint taking points.credited: deliveries/s, the outbox's lag; decision 084),
 *                 `--only=events-api` (POST /api/program/v1/events with ten earning rules beside POST points in the same run: decision 100),
 *                 `--only=events-import` (an events file of --import-lines lines with ten rules through the imports, stage + preview + run < 120 s, the points job beside it: decision 099)
 *   --search-participants N   the search and console parts' data set (default 1,000,000; --quick: 100,000);
 *                 with both parts, the console part's file (the demo plus that set) serves the search too
 *   --search-postgres   the search part on PostgreSQL too (--postgres implies it)
 *   --reports-entries N   the reports part's ledger entries (default 10,000,000; --quick: 1,000,000), beside the
 *                 search set's participants; written once into bench/cache/ and reused
 *   --backup-participants N   the backup part's big database (default 1,000,000 participants, ten ledger entries
 *                 each; --quick: 100,000); written once into bench/cache/ and reused
 *   --backup-postgres   the backup part's big database on PostgreSQL too (--postgres implies it; made in the run)
 *   --import-lines N   the imports part's points file (default 1,000,000 over a tenth as many participants; --quick: 100,000):
 *                 the command's old streaming path, `rewards points import` and the console's job, side by side (decision 091)
 *   --check       exit 1 when a budget is missed
 * One part alone, e.g. the search over a million participants: npm run bench -- --only=search
 * Writes bench/results/latest.json and bench/results/latest.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { webBuildIsCurrent } from '../apps/web/build-stamp.ts';
import { ensureWebBuild } from '../test-support/e2e/server.ts';
import { runApi } from './bench/api.ts';
import { runBackup } from './bench/backup.ts';
import { evaluateBudgets } from './bench/budgets.ts';
import { runBrowser } from './bench/browser.ts';
import { addBenchData, redeemCredits, seedDemo } from './bench/fixtures.ts';
import { runHistory } from './bench/history.ts';
import { runLighthouse } from './bench/lighthouse.ts';
import { ROOT, startPortal, WEB_DIST } from './bench/portal.ts';
import { runPostgres } from './bench/postgres.ts';
import { runProgramApi } from './bench/program-api.ts';
import { runEventsApi } from './bench/events-api.ts';
import { addRecoveryData, runRecovery } from './bench/recovery.ts';
import { addForgotData, runForgot } from './bench/forgot.ts';
import { writeResults, type Results } from './bench/report.ts';
import { runSearch } from './bench/search.ts';
import { runConsole } from './bench/console.ts';
import { runReports } from './bench/reports.ts';
import { runStartup } from './bench/startup.ts';
import { runImports } from './bench/imports.ts';
import { runEventsImport } from './bench/events-import.ts';

const PARTS = [
  'api',
  'postgres',
  'browser',
  'history',
  'startup',
  'recovery',
  'forgot',
  'search',
  'console',
  'reports',
  'backup',
  'program-api',
  'webhooks',
  'imports',
  'events-api',
  'events-import',
] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    'search-participants': { type: 'string' },
    'search-postgres': { type: 'boolean', default: false },
    'reports-entries': { type: 'string' },
    'backup-participants': { type: 'string' },
    'backup-postgres': { type: 'boolean', default: false },
    'import-lines': { type: 'string' },
    check: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const timing = {
  seconds: quick ? 2 : Number(values.seconds),
  warmupSeconds: quick ? 1 : 2,
  connections: Number(values.connections),
};
if (!(timing.seconds > 0) || !(timing.connections > 0)) throw new Error('--seconds and --connections take positive numbers');
const searchParticipants = Number(values['search-participants'] ?? (quick ? 100_000 : 1_000_000));
if (!Number.isInteger(searchParticipants) || searchParticipants < 1_000)
  throw new Error('--search-participants takes a whole number of at least 1000');
const reportsEntries = Number(values['reports-entries'] ?? (quick ? 1_000_000 : 10_000_000));
if (!Number.isInteger(reportsEntries) || reportsEntries < 1_000) throw new Error('--reports-entries takes a whole number of at least 1000');
const backupParticipants = Number(values['backup-participants'] ?? (quick ? 100_000 : 1_000_000));
if (!Number.isInteger(backupParticipants) || backupParticipants < 1_000)
  throw new Error('--backup-participants takes a whole number of at least 1000');
const importLines = Number(values['import-lines'] ?? (quick ? 100_000 : 1_000_000));
if (!Number.isInteger(importLines) || importLines < 1_000) throw new Error('--import-lines takes a whole number of at least 1000');
const only = new Set<Part>(
  values.only
    ? values.only.split(',').map((p) => {
        if (!(PARTS as readonly string[]).includes(p)) throw new Error(`--only takes ${PARTS.join(',')}; not "${p}"`);
        return p as Part;
      })
    : PARTS.filter((p) => p !== 'postgres' || values.postgres),
);
if (values.postgres) only.add('postgres');

const started = Date.now();
const log = (line: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}`);
// Enough codes for the redeem load at 5,000/s (the budget is the disk's raw commit rate, ~1,000–4,000/s), warm-up included.
const codes = Math.max(10_000, 5_000 * (timing.seconds + timing.warmupSeconds));

const results: Results = {
  date: new Date().toISOString(),
  machine: machine(),
  options: { ...timing, quick, parts: [...only] },
};

/** Runs one part; a part that throws is recorded (a miss under --check) and the others go on. */
async function part<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? String(error);
    log(`${name} failed: ${message}`);
    (results.failures ??= {})[name] = message;
    return undefined;
  }
}

// Like `npm start`: a web build older than its sources is rebuilt, so the bench never measures
// yesterday's app.
// The search part runs in this process, the console and program API parts serve only the API: none needs the web app.
if (
  [...only].some(
    (p) =>
      p !== 'search' &&
      p !== 'console' &&
      p !== 'reports' &&
      p !== 'backup' &&
      p !== 'program-api' &&
      p !== 'webhooks' &&
      p !== 'imports' &&
      p !== 'events-api' &&
      p !== 'events-import',
  )
)
  ensureWebBuild(!webBuildIsCurrent(WEB_DIST));
const dir = await mkdtemp(join(tmpdir(), 'rewards-bench-'));
try {
  if (only.has('api') || only.has('history') || only.has('browser') || only.has('recovery') || only.has('forgot')) {
    const databaseUrl = `file:${join(dir, 'rewards.db')}`;
    log('seeding the demo program and the bench data on SQLite');
    await seedDemo(databaseUrl);
    await addBenchData(databaseUrl, only.has('api') ? codes : 0);
    if (only.has('recovery')) await addRecoveryData(databaseUrl);
    if (only.has('forgot')) await addForgotData(databaseUrl);
    // TRUST_PROXY: the recovery and forgot parts send each request from an address of its own (X-Forwarded-For),
    // so the per-address attempt limit counts them all and refuses none; no other part sends one.
    const portal = await startPortal(databaseUrl, join(dir, 'server.log'), {
      OTS_MAX_FAILURES_PER_PARTICIPANT: '1000000',
      TRUST_PROXY: 'loopback',
    });
    try {
      // First, on a quiet portal: its figures are milliseconds of single requests.
      if (only.has('recovery')) results.recovery = await part('recovery', () => runRecovery(portal.baseUrl, databaseUrl, log));
      if (only.has('forgot')) results.forgot = await part('forgot', () => runForgot(portal, databaseUrl, log));
      if (only.has('api')) results.api = await part('api', () => runApi(portal, timing, dir, log));
      if (only.has('history')) results.history = await part('history', () => runHistory(portal.baseUrl, timing, log));
      if (only.has('browser')) {
        results.browser = await part('browser', () => runBrowser(portal.baseUrl, log));
        results.lighthouse = await runLighthouse(portal.baseUrl, log, quick ? 1 : 3);
      }
    } finally {
      // Killed, not stopped: every redemption it acknowledged must be in the ledger all the same.
      await portal.crash();
    }
    if (results.api) {
      const redeem = results.api.cases.find((c) => c.name.startsWith('POST ots/redeem'));
      results.api.durability = { acknowledged: redeem?.acknowledged ?? 0, inLedgerAfterKill: await redeemCredits(databaseUrl) };
      log(
        `after kill -9: ${results.api.durability.inLedgerAfterKill} of ${results.api.durability.acknowledged} acknowledged redemptions in the ledger`,
      );
    }
  }
  if (only.has('startup')) results.startup = await part('startup', () => runStartup(dir, log));
  if (only.has('program-api')) results.programApi = await part('program-api', () => runProgramApi(dir, timing, log));
  if (only.has('webhooks')) results.webhooks = await part('webhooks', () => runProgramApi(dir, timing, log, { webhooks: true }));
  if (only.has('events-api')) results.eventsApi = await part('events-api', () => runEventsApi(dir, timing, log));
  if (only.has('postgres')) results.postgres = await part('postgres', () => runPostgres(dir, timing, codes, log));
  // The console part first: its SQLite file (the demo plus the million) then serves the search part too.
  let sharedFile: string | undefined;
  if (only.has('console')) {
    results.console = await part('console', () => runConsole(dir, log, { participants: searchParticipants }));
    sharedFile = results.console?.sqliteFile;
  }
  if (only.has('search')) {
    const postgres = values.postgres || values['search-postgres'];
    results.search = await part('search', () =>
      runSearch(dir, log, { participants: searchParticipants, postgres, sqliteFile: sharedFile }),
    );
  }
  if (only.has('reports'))
    results.reports = await part('reports', () =>
      runReports(join(ROOT, 'bench', 'cache'), log, { participants: searchParticipants, entries: reportsEntries }),
    );
  if (only.has('backup'))
    results.backup = await part('backup', () =>
      runBackup(dir, log, { participants: backupParticipants, postgresBig: values['backup-postgres'] || values.postgres }),
    );
  if (only.has('imports'))
    results.imports = await part('imports', () => runImports(dir, log, { lines: importLines, participants: importLines / 10 }));
  if (only.has('events-import'))
    results.eventsImport = await part('events-import', () =>
      runEventsImport(dir, log, { lines: importLines, participants: importLines / 10 }),
    );
} finally {
  await rm(dir, { recursive: true, force: true });
}

results.machine.loadAverage.end = Math.round(loadavg()[0]! * 10) / 10;
results.budgets = evaluateBudgets(results);
const { markdown } = await writeResults(results);
console.log(`\n${markdown}`);
log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
const missed = results.budgets.filter((b) => b.pass === false);
if (values.check && missed.length > 0) {
  console.error(`${missed.length} budget(s) missed: ${missed.map((b) => b.what).join('; ')}`);
  process.exitCode = 1;
}

function machine() {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? '',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    // The 1-minute load average: how much the neighbours took while the figures were made.
    loadAverage: { start: Math.round(loadavg()[0]! * 10) / 10, end: 0 },
  };
}
