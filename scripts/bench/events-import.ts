/**
 * `npm run bench -- --only=events-import` (issue 32 §4, decision 099): a generated events file
 * (--lines over --participants, ten active rules: per amount, fixed, a category with a monthly
 * cap, an amount threshold held pending, a channel bonus, a weekend promotion, two rules of which
 * the best counts, a store's budget, a monthly-capped course, a date-bound loyalty point)
 * through the imports on the embedded default (SQLite): staged, previewed, confirmed and run
 * (modules/imports, events/bulk.ts), in a process of its own with the server's node flags. The
 * budget: the whole path (stage + preview + run) under 120 s for 1,000,000 lines. Beside it, as
 * the run's baseline, the points import job of the same number of lines over the same
 * participants (the pipeline it shares, decision 091) on its own copy of the same database.
 * Each path reports wall and CPU seconds, MB written and peak resident (import-stats.js).
 *
 * Alone: node scripts/bench/events-import.ts [--lines 1000000] [--participants 100000] [--paths events,points]
 */
import { once } from 'node:events';
import { copyFileSync, createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { EarningRuleInput } from '@rewards/contract/earning-rules';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { createRule } from '../../apps/server/src/modules/earning-rules/service.ts';
import { addExpiryClient } from '../../apps/server/src/modules/expiry/test-support.ts';
import { previewImportJob } from '../../apps/server/src/modules/imports/preview.ts';
import { runImportJob } from '../../apps/server/src/modules/imports/run.ts';
import { confirmImport, readImport, stageImport } from '../../apps/server/src/modules/imports/service.ts';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/process-settings.ts';
import { generatedUsername, writePointsFile } from '../../apps/server/test/points-files.ts';
import { measureChild, phaseTimer } from './measured-child.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CLIENT = 'bench-events';
/** The budget of issue 32 §4: a million-line events file through the imports, seconds. */
export const EVENTS_IMPORT_BUDGET_SECONDS = 120;

export const EVENTS_IMPORT_PATHS = ['events', 'points'] as const;
export type EventsImportPath = (typeof EVENTS_IMPORT_PATHS)[number];

export interface EventsImportPathResult {
  path: EventsImportPath;
  wallSeconds: number;
  cpuSeconds: number;
  writtenMb: number;
  cancelledMb: number;
  peakRssMb: number;
  /** Wall seconds (and MB written) of stage, preview, run. */
  phases: Record<string, number>;
  outcome: unknown;
}

export interface EventsImportResults {
  lines: number;
  participants: number;
  paths: EventsImportPathResult[];
}

/** The ten rules, in force from 2026-01-01 (the file's events are in October and November 2026). */
export const BENCH_RULES: Array<EarningRuleInput & { id: string }> = [
  { id: 'per-euro', name: 'Purchases', event: 'purchase', earn: { pointsPer: 1, per: '1.00', rounding: 'down' }, priority: 10 },
  {
    id: 'shoes-bags',
    name: 'Shoes and bags',
    event: 'purchase',
    conditions: [{ attribute: 'category', in: ['shoes', 'bags'] }],
    earn: { pointsPer: 2, per: '1.00' },
    caps: { participant: { points: 500, per: 'month' } },
    priority: 9,
  },
  {
    id: 'big-basket',
    name: 'Big basket',
    event: 'purchase',
    conditions: [{ amount: { atLeast: '200.00' } }],
    earn: { points: 50 },
    pendingDays: 30,
  },
  { id: 'web', name: 'Web bonus', event: 'purchase', conditions: [{ attribute: 'channel', equals: 'web' }], earn: { points: 10 } },
  {
    id: 'weekend',
    name: 'Weekend double',
    event: 'purchase',
    conditions: [{ dayOfWeek: ['sat', 'sun'] }],
    earn: { multiply: '2', rules: ['per-euro'] },
  },
  {
    id: 'books-per',
    name: 'Books per euro',
    event: 'purchase',
    conditions: [{ attribute: 'category', equals: 'books' }],
    earn: { pointsPer: 3, per: '1.00' },
    stacking: 'best',
  },
  {
    id: 'books-fixed',
    name: 'Books flat',
    event: 'purchase',
    conditions: [{ attribute: 'category', equals: 'books' }],
    earn: { points: 40 },
    stacking: 'best',
  },
  {
    id: 'store-launch',
    name: 'New stores',
    event: 'purchase',
    conditions: [{ attribute: 'store', in: ['s1', 's2', 's3', 's4', 's5'] }],
    earn: { points: 25 },
    caps: { budget: { points: 50_000_000 } },
  },
  {
    id: 'course',
    name: 'Courses',
    event: 'course.completed',
    earn: { points: 100 },
    caps: { participant: { points: 300, per: 'month' } },
  },
  {
    id: 'autumn',
    name: 'Autumn point',
    event: 'purchase',
    conditions: [{ status: { in: ['active'] } }, { date: { from: '2026-10-15' } }],
    earn: { points: 1 },
  },
];

const CATEGORIES = ['shoes', 'bags', 'books', 'food', 'toys'];
const CHANNELS = ['web', 'store', 'app'];

/**
 * The events file: `lines` events over `participants` (pt0000000…), nine in ten purchases and one
 * in ten a completed course, in October and November 2026, a deterministic pseudo-random mix (the
 * same arguments give the same file).
 */
export async function writeEventsFile(path: string, lines: number, participants: number): Promise<void> {
  const out = createWriteStream(path);
  let seed = 42;
  const next = () => {
    // xorshift32: plain, fast and the same everywhere.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4_294_967_296;
  };
  const start = Date.parse('2026-10-01T00:00:00Z');
  const span = Date.parse('2026-11-27T00:00:00Z') - start;
  let chunk = 'id,type,username,occurredAt,amount,currency,category,store,channel\n';
  for (let i = 0; i < lines; i += 1) {
    const username = generatedUsername(Math.floor(next() * participants));
    const at = new Date(start + Math.floor(next() * span)).toISOString();
    if (next() < 0.1) chunk += `ev-${i},course.completed,${username},${at},,,,,\n`;
    else {
      const amount = (1 + Math.floor(next() * 30_000) / 100).toFixed(2);
      const category = CATEGORIES[Math.floor(next() * CATEGORIES.length)];
      const store = `s${1 + Math.floor(next() * 50)}`;
      const channel = CHANNELS[Math.floor(next() * CHANNELS.length)];
      chunk += `ev-${i},purchase,${username},${at},${amount},EUR,${category},${store},${channel}\n`;
    }
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await finished(out);
}

export async function runEventsImport(
  dir: string,
  log: (line: string) => void,
  options: { lines: number; participants: number; paths?: readonly EventsImportPath[] },
): Promise<EventsImportResults> {
  const files = { events: join(dir, 'events.csv'), points: join(dir, 'points.csv') };
  const paths = options.paths ?? EVENTS_IMPORT_PATHS;
  log(
    `events-import: writing ${options.lines.toLocaleString('en-US')} lines over ${options.participants.toLocaleString('en-US')} participants`,
  );
  if (paths.includes('events')) await writeEventsFile(files.events, options.lines, options.participants);
  if (paths.includes('points')) await writePointsFile(files.points, { lines: options.lines, participants: options.participants });
  const seed = join(dir, 'events-seed.db');
  const db = createDatabase({ dialect: 'sqlite', path: seed });
  try {
    await migrateToLatest(db);
    await addExpiryClient(db, CLIENT, options.participants, { type: 'none' }, 'Europe/Paris');
    const operator = { kind: 'operator' as const, name: 'bench', origin: 'bench' };
    for (const rule of BENCH_RULES) await createRule(db, operator, CLIENT, rule, 'bench', { now: new Date('2026-01-01T00:00:00Z') });
  } finally {
    await db.destroy();
  }
  const results: EventsImportResults = { lines: options.lines, participants: options.participants, paths: [] };
  for (const path of paths) {
    const database = join(dir, `events-${path}.db`);
    copyFileSync(seed, database);
    const stats = join(dir, `events-${path}.json`);
    const argv = [
      ...SERVER_NODE_FLAGS,
      '--import',
      join(HERE, 'import-stats.js'),
      fileURLToPath(import.meta.url),
      '--child',
      path,
      '--db',
      database,
      '--file',
      files[path],
    ];
    const { out, cost } = await measureChild(argv, process.env, stats, 'events-import child');
    const { phases, ...outcome } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { phases: Record<string, number> };
    const result: EventsImportPathResult = { path, ...cost, phases, outcome };
    results.paths.push(result);
    log(
      `events-import ${path}: ${result.wallSeconds} s wall, ${result.cpuSeconds} s CPU, ${result.writtenMb} MB written (${result.cancelledMb} MB cancelled), peak RSS ${result.peakRssMb} MB ${JSON.stringify(phases)} ${JSON.stringify(outcome)}`,
    );
    for (const suffix of ['', '-wal', '-shm']) rmSync(database + suffix, { force: true });
  }
  return results;
}

/** The whole path's seconds of the events import (stage + preview + run), what the budget holds. */
export function eventsImportSeconds(results: EventsImportResults): number | undefined {
  const events = results.paths.find((p) => p.path === 'events');
  return events ? Math.round(((events.phases.stage ?? 0) + (events.phases.preview ?? 0) + (events.phases.run ?? 0)) * 10) / 10 : undefined;
}

/** The measured process: one file staged, previewed, confirmed and run as the console's job, the phases timed. */
async function child(kind: EventsImportPath, path: string, file: string): Promise<void> {
  const db = createDatabase({ dialect: 'sqlite', path });
  const phases: Record<string, number> = {};
  const phase = phaseTimer(phases);
  try {
    const actor = { name: 'bench', kind: 'operator' as const, origin: null };
    const staged = await phase('stage', () =>
      stageImport(db, actor, CLIENT, kind, `${kind}.csv`, createReadStream(file, { highWaterMark: 64 * 1024 }), {
        maxBytes: Number.MAX_SAFE_INTEGER,
        maxLines: Number.MAX_SAFE_INTEGER,
      }),
    );
    await phase('preview', () => previewImportJob(db, staged.id));
    const previewed = await readImport(db, CLIENT, staged.id);
    await confirmImport(db, actor, CLIENT, staged.id, 'bench');
    await phase('run', () => runImportJob(db, staged.id));
    const job = await readImport(db, CLIENT, staged.id);
    console.log(
      JSON.stringify({
        phases,
        preview: previewed?.preview,
        rules: previewed?.eventsPreview?.rules,
        budgetRanOut: previewed?.eventsPreview?.budgetRanOut,
        counts: job?.result,
        status: job?.status,
      }),
    );
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      lines: { type: 'string', default: '1000000' },
      participants: { type: 'string', default: '100000' },
      paths: { type: 'string' },
      child: { type: 'string' },
      db: { type: 'string' },
      file: { type: 'string' },
    },
  });
  if (values.child) await child(values.child as EventsImportPath, values.db!, values.file!);
  else {
    const paths = values.paths?.split(',') as EventsImportPath[] | undefined;
    if (paths?.some((p) => !(EVENTS_IMPORT_PATHS as readonly string[]).includes(p)))
      throw new Error(`--paths takes ${EVENTS_IMPORT_PATHS.join(',')}`);
    const dir = mkdtempSync(join(tmpdir(), 'rewards-bench-events-import-'));
    const started = Date.now();
    try {
      const results = await runEventsImport(
        dir,
        (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`),
        { lines: Number(values.lines), participants: Number(values.participants), ...(paths ? { paths } : {}) },
      );
      console.log(
        JSON.stringify({ ...results, eventsSeconds: eventsImportSeconds(results), budgetSeconds: EVENTS_IMPORT_BUDGET_SECONDS }, null, 2),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
