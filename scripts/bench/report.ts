/** The run's results: bench/results/latest.json, and latest.md with the tables for the README. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ApiCase, type ApiResults } from './api.ts';
import type { Budget } from './budgets.ts';
import type { BackupResults } from './backup.ts';
import type { BrowserResults, ScreenMetrics } from './browser.ts';
import type { HistoryResults } from './history.ts';
import type { LighthouseResults } from './lighthouse.ts';
import type { LoadResult } from './load.ts';
import { ROOT } from './portal.ts';
import type { PostgresResults } from './postgres.ts';
import type { ProgramApiResults } from './program-api.ts';
import { RECOVERY_TOLERANCE, withinTolerance, type RecoveryResults } from './recovery.ts';
import { FORGOT_TOLERANCE, forgotWithinTolerance, type ForgotResults } from './forgot.ts';
import { SEARCH_BUDGET_MS, type SearchEngineResults, type SearchResults } from './search.ts';
import { ceilingLines } from './scale-ceiling.ts';
import { CONSOLE_SEARCH_BUDGET_MS, type ConsoleResults } from './console.ts';
import { REPORTS_BUDGET_MS, type ReportsResults } from './reports.ts';
import type { StartupResults } from './startup.ts';
import type { ImportsResults } from './imports.ts';
import { eventsImportSeconds, type EventsImportResults } from './events-import.ts';
import type { EventsApiResults } from './events-api.ts';

export interface Results {
  date: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    platform: string;
    loadAverage: { start: number; end: number };
  };
  options: { seconds: number; warmupSeconds: number; connections: number; quick: boolean; parts: string[] };
  api?: ApiResults;
  postgres?: PostgresResults;
  history?: HistoryResults;
  browser?: BrowserResults;
  lighthouse?: LighthouseResults;
  startup?: StartupResults;
  recovery?: RecoveryResults;
  forgot?: ForgotResults;
  search?: SearchResults;
  console?: ConsoleResults;
  reports?: ReportsResults;
  backup?: BackupResults;
  programApi?: ProgramApiResults;
  /** The program API's postings with a webhook endpoint taking them (its `webhooks` set). */
  webhooks?: ProgramApiResults;
  /** POST events with ten earning rules beside POST points in the same run (decision 100). */
  eventsApi?: EventsApiResults;
  /** One points file through the command's old streaming path, the command and the console's job (decision 091). */
  imports?: ImportsResults;
  /** An events file through the imports with ten rules, the points job of the same size beside it (decision 099). */
  eventsImport?: EventsImportResults;
  budgets?: Budget[];
  /** Parts that threw, with the first line of their error. */
  failures?: Record<string, string>;
}

export const RESULTS_DIR = join(ROOT, 'bench', 'results');

/** An import path's phases and their wall seconds (the MB written per phase stay in the JSON). */
const phasesOf = (phases: Record<string, number> | undefined) =>
  Object.entries(phases ?? {})
    .filter(([name]) => !name.endsWith('MB'))
    .map(([name, seconds]) => `${name} ${seconds}`)
    .join(', ');

const n = (value: number) => value.toLocaleString('en-US');
const failed = (r: LoadResult) => r.errors + r.timeouts;

function apiTable(api: ApiResults): string[] {
  const row = (name: string, r: LoadResult, ratio: string) =>
    `| ${name} | ${n(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${failed(r)} | ${r.non2xx} | ${ratio} |`;
  const pct = (c: ApiCase) => `${Math.round(c.ratio * 1000) / 10}%`;
  return [
    '| case | requests/s | p50 ms | p99 ms | errors | non-2xx | of the baseline run in turns with it |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row(`bare Fastify route (baseline: median of ${api.baselineRuns.map(n).join(', ')})`, api.baseline, '100%'),
    ...api.cases.map((c) => row(`\`${c.name}\``, c, pct(c))),
    row(`\`${api.login.name}\``, api.login, pct(api.login)),
  ];
}

function screenTable(browser: BrowserResults): string[] {
  const kB = (bytes: number) => `${Math.round(bytes / 100) / 10}`;
  const row = (name: string, m: ScreenMetrics) =>
    `| ${name} | ${kB(m.jsBytes)} (${kB(m.jsBytesWithPreloads ?? m.jsBytes)}) | ${kB(m.cssBytes)} | ${m.requests} | ${m.apiBeforeRender} (${m.apiTotal} in all) | ${m.renderMs} | ${m.lcpMs} | ${m.cls} | ${m.blockingMs} |`;
  return [
    '| screen | JS kB before render (with idle preloads) | CSS kB | requests | API before render | render ms | LCP ms | CLS | blocking ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('/login, cold', browser.login),
    row('/home after sign-in, reload', browser.home),
    ...(['login', 'home'] as const)
      .filter((screen) => browser[screen].shifted.length > 0)
      .map((screen) => `\nLayout shifts on /${screen}: ${browser[screen].shifted.map((s) => `\`${s}\``).join(', ')}.`),
  ];
}

export function markdown(r: Results): string {
  const lines: string[] = [];
  const m = r.machine;
  lines.push(
    `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${m.cpus} × ${m.cpuModel.trim()} (${m.memoryGb} GB), Node ${m.node}, ` +
      `${r.options.quick ? 'quick run, ' : ''}${r.options.seconds} s per load case after ${r.options.warmupSeconds} s of warm-up, ` +
      `${r.options.connections} connections, autocannon on loopback; load average ${m.loadAverage.start} at the start, ${m.loadAverage.end} at the end.`,
    '',
  );
  if (r.api) {
    lines.push('**API under load, embedded SQLite** (one portal process)', '', ...apiTable(r.api), '');
    const raw = r.api.rawCommit;
    if (raw)
      lines.push(
        `The disk's raw durable single-row commit rate (node:sqlite, WAL, \`synchronous=FULL\`, one-row transactions back to back in the bench database's directory, half just before the redemptions and half just after): ${n(raw.commitsPerSecond)}/s (${n(raw.commits)} commits in ${raw.seconds} s).`,
        '',
      );
  }
  if (r.programApi) {
    const p = r.programApi;
    lines.push(
      `**The program API's points postings** (\`POST /api/program/v1/points\`, SQLite, ${p.connections} connections, ${p.seconds} s, each request a new externalId over 200 participants; decision 085)`,
      '',
      '| entries/s | raw durable commits/s (same disk, same run) | × | p50 ms | p95 ms | p99 ms | non-2xx | errors | ledger entries / acknowledged |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${n(p.entriesPerSecond)} | ${n(p.rawCommit.commitsPerSecond)} | ${p.ratioToRawCommit} | ${p.p50} | ${p.p95} | ${p.p99} | ${p.non2xx} | ${p.errors} | ${n(p.ledger.entries)} / ${n(p.ledger.acknowledged)} |`,
      '',
    );
  }
  if (r.webhooks?.webhooks) {
    const p = r.webhooks;
    const w = r.webhooks.webhooks;
    lines.push(
      `**Webhooks under the points postings** (\`POST /api/program/v1/points\` as the program API's part, ${p.connections} connections, ${p.seconds} s, the client with an endpoint taking points.credited at a receiver on 127.0.0.1 answering 204 without verifying; lag: from the event's row, written in the posting's transaction, to the receiver; decision 084)`,
      '',
      '| entries/s | p95 ms | deliveries/s during the load | lag p50 ms | lag p95 ms | lag max ms | pending at the end (oldest, ms) | drained after (ms; /s) | duplicates |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${n(p.entriesPerSecond)} | ${p.p95} | ${n(w.deliveriesPerSecond)} | ${w.lagP50} | ${w.lagP95} | ${w.lagMax} | ${n(w.pendingAtEnd)} (${n(w.oldestPendingAtEndMs)}) | ${w.drainMs === undefined ? 'not within 300 s' : `${n(w.drainMs)}; ${n(w.drainPerSecond ?? 0)}`} | ${w.duplicates} |`,
      '',
    );
  }
  if (r.eventsApi) {
    const e = r.eventsApi;
    const row = (what: string, x: EventsApiResults['events']) =>
      `| ${what} | ${n(x.perSecond)} | ${x.p50} | ${x.p95} | ${x.p99} | ${x.non2xx} | ${x.errors} |`;
    lines.push(
      `**Events through the program API** (\`POST /api/program/v1/events\` with ${e.rules} earning rules in force, ${e.kept.linesPerEvent} lines kept per event, beside \`POST points\` in the same run: points, events, events, points, ${e.seconds / 2} s each, ${e.connections} connections, 200 participants, SQLite; decision 100). Events over points: ×${e.ratio}; ${n(e.kept.events)} events kept for ${n(e.kept.acknowledged)} acknowledged`,
      '',
      '| request | per second | p50 ms | p95 ms | p99 ms | non-2xx | errors |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row('POST events', e.events),
      row('POST points (the ledger writer, baseline)', e.points),
      '',
    );
  }
  if (r.imports) {
    const i = r.imports;
    lines.push(
      `**One points file imported three ways** (${n(i.lines)} lines over ${n(i.participants)} participants, SQLite, each path in its own process on its own copy of the database; written: /proc/self/io write_bytes, the database, its WAL and SQLite's temporary journals; decision 091). Job over baseline: ${i.jobOverBaseline ?? '–'}× (budget 1.25)`,
      '',
      '| path | wall s | CPU s | written MB (of which cancelled) | peak RSS MB | phases (s) |',
      '|---|---:|---:|---:|---:|---|',
      ...i.paths.map(
        (p) =>
          `| ${p.path} | ${p.wallSeconds} | ${p.cpuSeconds} | ${n(p.writtenMb)} (${n(p.cancelledMb)}) | ${p.peakRssMb} | ${phasesOf(p.phases)} |`,
      ),
      '',
    );
  }
  if (r.eventsImport) {
    const e = r.eventsImport;
    lines.push(
      `**An events file through the imports** (${n(e.lines)} events over ${n(e.participants)} participants, ten earning rules, SQLite, staged, previewed and run as the console's job, each path in its own process on its own copy of the database; the points job of as many lines beside it; decision 099). Events stage + preview + run: ${eventsImportSeconds(e) ?? '–'} s (budget < 120 s)`,
      '',
      '| path | wall s | CPU s | written MB (of which cancelled) | peak RSS MB | phases (s) |',
      '|---|---:|---:|---:|---:|---|',
      ...e.paths.map(
        (p) =>
          `| ${p.path} | ${p.wallSeconds} | ${p.cpuSeconds} | ${n(p.writtenMb)} (${n(p.cancelledMb)}) | ${p.peakRssMb} | ${phasesOf(p.phases)} |`,
      ),
      '',
    );
  }
  if (r.postgres) {
    lines.push('**Scale-out on PostgreSQL** (one process: 16 connections; two: 8 + 8 at once, added up)', '');
    if ('error' in r.postgres) lines.push(`Not measured: ${r.postgres.error}`, '');
    else {
      lines.push(
        '| case | one process /s | two processes /s | × | non-2xx (one / two) | machine CPU busy (one / two) | portal cores (one / two) |',
        '|---|---:|---:|---:|---:|---:|---:|',
      );
      const busy = (c: (typeof r.postgres.cases)[number], key: 'one' | 'two') =>
        c.cpu ? `${Math.round(c.cpu[key].machineBusy * 100)}%` : '–';
      const cores = (c: (typeof r.postgres.cases)[number], key: 'one' | 'two') =>
        c.cpu ? c.cpu[key].processCores.filter((x, i) => key === 'two' || i === 0 || x > 0).join(' + ') : '–';
      for (const c of r.postgres.cases) {
        lines.push(
          `| \`${c.name}\` | ${n(c.one.requestsPerSecond)} | ${n(c.two.requestsPerSecond)} | ${c.speedup} | ${c.one.non2xx} / ${c.two.non2xx} | ${busy(c, 'one')} / ${busy(c, 'two')} | ${cores(c, 'one')} / ${cores(c, 'two')} |`,
        );
      }
      const ceiling = ceilingLines(r.postgres.cases);
      if (ceiling.length > 0) lines.push('', ...ceiling);
      const race = r.postgres.race;
      lines.push(
        '',
        `100-way race on one code across both processes: ${race.requests} requests answered ${Object.entries(race.statuses)
          .map(([s, k]) => `${k} × ${s}`)
          .join(', ')}; ${race.credits} ledger credit(s), balance ${race.balanceMatchesLedger ? 'matches' : 'does NOT match'} the ledger.`,
        '',
      );
    }
  }
  if (r.history) {
    const s = r.history.statement;
    lines.push(
      '**Big history** (bigspender, 10,000 entries)',
      '',
      `Statement from the server: ${s.medianMs} ms median of ${s.samplesMs.length} sequential requests (${n(s.bytes)} bytes).`,
    );
    const u = r.history.underLoad;
    if (u && 'error' in u) lines.push(`\`GET user\` beside the statement: not measured (${u.error}).`);
    else if (u) {
      lines.push(
        `\`GET user\` (${u.connections} connections, ${u.seconds} s each way in turns of 2 s; p99 the median of the turns', the worst in brackets): ` +
          `p99 ${u.alone.p99} ms alone (${u.alone.p99Worst}; ${n(u.alone.requestsPerSecond)}/s), ` +
          `${u.withStatements.p99} ms (${u.withStatements.p99Worst}) while ${u.statementConnections} connections of another process (nice ${u.pullerNice ?? 0}) pull the statement as a browser asks (${n(u.withStatements.requestsPerSecond)}/s; ` +
          `statements ${n(u.statements.requestsPerSecond)}/s, ${n(u.statements.bytesPerReply)} bytes each, p99 ${u.statements.p99} ms): ×${u.ratio}.`,
      );
    }
    // The same with the puller at nice 0, as before decision 094: no budget, beside the one above.
    const shared = r.history.underLoadSharedCpu;
    if (shared && !('error' in shared))
      lines.push(
        `The same with the puller at nice 0 (its reading competing with the portal for the CPU, as measured before decision 094): ` +
          `p99 ${shared.alone.p99} → ${shared.withStatements.p99} ms (statements ${n(shared.statements.requestsPerSecond)}/s): ×${shared.ratio}.`,
      );
    const b = r.history.browser;
    lines.push(
      'error' in b
        ? `In Chromium: not measured (${b.error}).`
        : `In Chromium, real input to the frame showing the result (Event Timing, median of 6; 16 means under 16 ms): sort ${b.sortMs} ms, date filter ${b.filterMs} ms, page change ${b.pageMs} ms.`,
      '',
    );
  }
  if (r.browser) lines.push('**The browser** (Chromium, 412 × 823, median of 3 runs; CLS the worst)', '', ...screenTable(r.browser), '');
  if (r.lighthouse) {
    lines.push("**Lighthouse** (mobile, simulated throttling; the median run, every run's performance score in brackets)", '');
    if ('error' in r.lighthouse) lines.push(`Not measured: ${r.lighthouse.error}`, '');
    else {
      lines.push('| page | performance | accessibility | best practices | LCP ms | CLS | TBT ms |', '|---|---:|---:|---:|---:|---:|---:|');
      for (const [page, s] of [
        ['/login', r.lighthouse.login],
        ['/home (signed in)', r.lighthouse.home],
      ] as const) {
        lines.push(
          `| ${page} | ${s.performance}${s.performanceRuns && s.performanceRuns.length > 1 ? ` (${s.performanceRuns.map((p) => p ?? 'none').join(', ')})` : ''} | ${s.accessibility} | ${s.bestPractices} | ${Math.round(s.lcpMs ?? 0)} | ${s.cls} | ${Math.round(s.tbtMs ?? 0)} |`,
        );
      }
      const failing = [...r.lighthouse.login.failing.map((f) => `/login ${f}`), ...r.lighthouse.home.failing.map((f) => `/home ${f}`)];
      if (failing.length > 0) lines.push('', `Audits below full score: ${failing.join('; ')}.`);
      lines.push('');
    }
  }
  if (r.recovery) {
    const samples = r.recovery.cases[0]?.samples ?? 0;
    lines.push(
      `**Account recovery: does the reply time tell a match?** (sequential requests on loopback, median of ${samples} each, each kind after each kind equally often)`,
      '',
      '| endpoint | match ms | no match ms | match / no match | non-200 | within 10% |',
      '|---|---:|---:|---:|---:|---|',
      ...r.recovery.cases.map(
        (c) =>
          `| \`POST ${c.endpoint}\` | ${c.matchMs} | ${c.noMatchMs} | ${c.ratio} | ${c.non200} | ${withinTolerance(c) ? 'pass' : `**miss** (±${RECOVERY_TOLERANCE * 100}%)`} |`,
      ),
      '',
    );
  }
  if (r.forgot) {
    const first = r.forgot.cases[0];
    lines.push(
      `**Forgot user id and password in runs: does the reply time tell a match?** (runs of ${first?.runLength ?? 0} requests on loopback, one every ${first?.paceMs ?? 0} ms, the mail worker's pass after each included; median of ${first?.samples ?? 0} each, each kind's run after each kind's equally often)`,
      '',
      '| endpoint | known ms | unknown ms | known / unknown | portal CPU ms per request, known / unknown | non-200 | within 10% |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...r.forgot.cases.map(
        (c) =>
          `| \`POST ${c.endpoint}\` | ${c.knownMs} | ${c.unknownMs} | ${c.ratio} | ${c.knownCpuMs} / ${c.unknownCpuMs} | ${c.non200} | ${forgotWithinTolerance(c) ? 'pass' : `**miss** (±${FORGOT_TOLERANCE * 100}%)`} |`,
      ),
      '',
    );
  }
  if (r.search) lines.push(...searchLines(r.search));
  if (r.console) {
    lines.push(
      `**The console through HTTP** (SQLite, the demo plus ${n(r.console.participants)} participants; the owner signed in; sequential requests on one loopback connection, request to last byte; ${CONSOLE_SEARCH_BUDGET_MS} ms budget for search)`,
      '',
      '| request | bytes | median ms | p95 ms |',
      '|---|---:|---:|---:|',
      ...r.console.cases.map((c) => `| ${c.name} | ${n(c.bytes)} | ${c.medianMs} | ${c.p95Ms} |`),
      '',
    );
  }
  if (r.reports) {
    const x = r.reports;
    lines.push(
      `**The console's reports** (the service in-process, SQLite; ${n(x.participants)} participants, ${n(x.entries)} ledger entries, ${n(x.orders)} orders, ${n(x.codes)} codes; data set made ${x.generatedAt.slice(0, 10)} in ${x.generationSeconds} s, first fold ${x.firstFoldSeconds} s, ${n(x.databaseMb)} MB; ${REPORTS_BUDGET_MS} ms budget)`,
      '',
      '| report | median ms | p95 ms | max ms |',
      '|---|---:|---:|---:|',
      ...x.cases.map((c) => `| ${c.name} | ${c.medianMs} | ${c.p95Ms} | ${c.maxMs} |`),
      '',
    );
  }
  if (r.backup) {
    const steps = (s: Record<string, number>) =>
      Object.entries(s)
        .map(([name, seconds]) => `${name} ${seconds}`)
        .join(', ');
    const made = r.backup.bigDataSet;
    lines.push(
      `**Backup and restore** (\`rewards backup\` and \`rewards restore\` in processes of their own, wall seconds from spawn to exit, the portal stopped${made ? `; the big SQLite set made ${made.generatedAt.slice(0, 10)}${made.seconds === undefined ? '' : ` in ${made.seconds} s`}` : ''})`,
      '',
      '| database | engine | participants | ledger entries | database MB | backup MB | backup s (steps) | restore s (steps) |',
      '|---|---|---:|---:|---:|---:|---|---|',
      ...r.backup.cases.map(
        (c) =>
          `| ${c.name} | ${c.engine} | ${n(c.participants)} | ${n(c.ledgerEntries)} | ${n(c.databaseMb)} | ${n(c.backupMb)} | ${c.backupSeconds} (${steps(c.backupSteps)}) | ${c.restoreSeconds} (${steps(c.restoreSteps)}) |`,
      ),
      '',
    );
  }
  if (r.startup || r.api) {
    const parts: string[] = [];
    if (r.startup)
      parts.push(
        `\`npm start\` to /healthz: ${r.startup.freshDatabaseSeconds} s on a fresh database, ${r.startup.restartSeconds} s on a restart with nothing changed (then ${r.startup.rssAfterStartMb ?? '?'} MB resident)`,
      );
    if (r.api) {
      // With the reading at the instant the load stopped beside it where it differs (decision 058).
      const loads = r.api.rssAfterLoads
        .map((l) => (l.instantMb !== undefined && l.instantMb !== l.mb ? `${l.mb ?? '?'} (${l.instantMb} at the instant)` : (l.mb ?? '?')))
        .join(', ');
      parts.push(`server resident memory: ${r.api.rssAfterStartMb ?? '?'} MB after start, then after each API load in turn ${loads} MB`);
    }
    lines.push(`**Start-up and memory**: ${parts.join('; ')}.`, '');
  }
  if (r.budgets) {
    lines.push('**Budgets**', '', '| what | budget | measured | verdict |', '|---|---|---|---|');
    for (const b of r.budgets)
      lines.push(`| ${b.what} | ${b.budget} | ${b.measured} | ${b.pass === null ? '—' : b.pass ? 'pass' : '**miss**'} |`);
    lines.push('');
  }
  return lines.join('\n');
}

function searchLines(search: SearchResults): string[] {
  const engines: [string, SearchEngineResults | { error: string } | undefined][] = [
    ['SQLite', search.sqlite],
    ['PostgreSQL', search.postgres],
  ];
  const measured = engines.filter((e): e is [string, SearchEngineResults] => e[1] !== undefined && !('error' in e[1]));
  const lines = [`**Participant search** (the service in-process over the real database; ${SEARCH_BUDGET_MS} ms budget on SQLite)`, ''];
  for (const [name, result] of engines) {
    if (result && 'error' in result) lines.push(`${name}: not measured (${result.error}).`, '');
  }
  if (measured.length === 0) return lines;
  for (const [name, result] of measured) {
    lines.push(
      `${name}: ${n(result.participants)} participants over 4 clients, written in ${result.generationSeconds} s${result.databaseMb === undefined ? '' : ` (${result.databaseMb} MB)`}.`,
    );
  }
  lines.push(
    '',
    `| query | clients | page | found | ${measured.map(([name]) => `${name} median ms | ${name} p95 ms`).join(' | ')} |`,
    `|---|---:|---:|---:|${measured.map(() => '---:|---:|').join('')}`,
  );
  const first = measured[0]![1];
  for (const [i, c] of first.cases.entries()) {
    const cells = measured.map(([, result]) => {
      const same = result.cases[i];
      return same ? `${same.medianMs} | ${same.p95Ms}` : '– | –';
    });
    lines.push(`| ${c.name} \`${c.query}\` | ${c.clients} | ${c.page} | ${c.found} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

export async function writeResults(r: Results): Promise<{ markdown: string }> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const text = markdown(r);
  await writeFile(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(r, null, 2)}\n`);
  await writeFile(join(RESULTS_DIR, 'latest.md'), text);
  return { markdown: text };
}
