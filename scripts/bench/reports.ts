/**
 * The console's reports (issue 20, section 5, docs/decisions/067) over a million participants
 * and ten million ledger entries, on SQLite (the embedded default). The data set is the search
 * part's participants (search-data.ts) plus, per client in proportion: ledger entries over 36
 * months (awards, codes, catalog orders with their order rows, expiries, adjustments), code
 * batches, and sign-ins over the last 90 days. It is written once into a cached file
 * (bench/cache/, git-ignored) and reused while its name (sizes and generator version) matches:
 * delete the file to make it again. The first fold of each client (the month tables, read from
 * its whole ledger once) is timed when the file is made. Each report then runs through the real
 * service in this process (server time, measured around the call): warm-up runs, then REPEAT
 * timed runs, median and p95; judged against 200 ms.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import {
  codesReport,
  compareClients,
  foldReports,
  ordersReport,
  participantsReport,
  pointsReport,
} from '../../apps/server/src/modules/reports/service.ts';
import { median } from './history.ts';
import { percentile } from './search.ts';
import { addSearchClients, fillSqlite, SEARCH_CLIENTS } from './search-data.ts';

export const REPORTS_BUDGET_MS = 200;
const REPEAT = 30;
const WARMUP = 3;
const GENERATOR_VERSION = 1;
const MONTHS = 36;
/** Entries written in the quarter hour before the measurement: the live part a report reads beside the folded months. */
const RECENT_ENTRIES = 20_000;

export interface ReportCase {
  name: string;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface ReportsResults {
  participants: number;
  entries: number;
  orders: number;
  codes: number;
  /** When the cached file was made, and how long that took. */
  generatedAt: string;
  generationSeconds: number;
  /** The first fold of every client (the month tables from the whole ledger). */
  firstFoldSeconds: number;
  databaseMb: number;
  cases: ReportCase[];
}

interface Made {
  generatedAt: string;
  generationSeconds: number;
  firstFoldSeconds: number;
  orders: number;
  codes: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** mulberry32, as search-data.ts: the same data every time. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function runReports(
  cacheDir: string,
  log: (line: string) => void,
  options: { participants: number; entries: number },
): Promise<ReportsResults> {
  mkdirSync(cacheDir, { recursive: true });
  const name = `reports-v${GENERATOR_VERSION}-${options.participants}-${options.entries}`;
  const path = join(cacheDir, `${name}.db`);
  const madePath = join(cacheDir, `${name}.json`);
  let made: Made;
  if (existsSync(path) && existsSync(madePath)) {
    made = JSON.parse(readFileSync(madePath, 'utf8')) as Made;
    log(`reports: the cached data set ${path} (made ${made.generatedAt})`);
  } else {
    made = await makeDataSet(path, log, options);
    writeFileSync(madePath, JSON.stringify(made));
  }
  const databaseMb = Math.round(['', '-wal'].reduce((sum, suffix) => sum + sizeOf(path + suffix), 0) / 2 ** 20);
  const db = createDatabase({ dialect: 'sqlite', path });
  try {
    await migrateToLatest(db);
    const clientIds = SEARCH_CLIENTS.map((c) => c.id);
    const biggest = clientIds[0]!;
    // A busy quarter hour on the biggest client, after its last fold: read live beside the months.
    await addRecentEntries(path, biggest, RECENT_ENTRIES);
    log(`reports: ${RECENT_ENTRIES.toLocaleString('en-US')} entries written on ${biggest} since its last fold (the live part)`);
    const cases: ReportCase[] = [
      await measure(`participants by status and active, ${biggest} (40 %)`, () => participantsReport(db, biggest)),
      await measure(`points per month, 12 months, ${biggest}`, () => pointsReport(db, biggest, 12)),
      await measure(`points per month, 36 months, ${biggest}`, () => pointsReport(db, biggest, 36)),
      await measure(`code batches, ${biggest}`, () => codesReport(db, biggest)),
      await measure(`catalog orders, 12 months, ${biggest}`, () => ordersReport(db, biggest, 12)),
      await measure(`every client side by side (${clientIds.length}), 12 months`, () => compareClients(db, clientIds, 12)),
    ];
    for (const c of cases) log(`  ${c.name}: median ${c.medianMs} ms, p95 ${c.p95Ms} ms, max ${c.maxMs} ms`);
    const worst = cases.reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
    log(
      `reports: worst p95 ${worst.p95Ms} ms (${worst.name}): ${worst.p95Ms < REPORTS_BUDGET_MS ? 'pass' : 'MISS'} against ${REPORTS_BUDGET_MS} ms`,
    );
    return { participants: options.participants, entries: options.entries, databaseMb, ...made, cases };
  } finally {
    await db.destroy();
  }
}

async function measure(name: string, run: () => Promise<unknown>): Promise<ReportCase> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + REPEAT; i += 1) {
    const start = performance.now();
    await run();
    if (i >= WARMUP) samples.push(performance.now() - start);
  }
  return { name, medianMs: round1(median(samples)), p95Ms: round1(percentile(samples, 95)), maxMs: round1(Math.max(...samples)) };
}

async function makeDataSet(path: string, log: (line: string) => void, options: { participants: number; entries: number }): Promise<Made> {
  const started = performance.now();
  const building = `${path}.building`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(building + suffix, { force: true });
  const setup = createDatabase({ dialect: 'sqlite', path: building });
  await migrateToLatest(setup);
  await addSearchClients(setup);
  await setup.destroy();
  log(`reports: writing ${options.participants.toLocaleString('en-US')} participants`);
  fillSqlite(building, options.participants);
  log(`reports: writing ${options.entries.toLocaleString('en-US')} ledger entries, their orders, codes and sign-ins`);
  const { orders, codes } = fillActivity(building, options.entries);
  const generationSeconds = round1((performance.now() - started) / 1000);
  log(`reports: data set written in ${generationSeconds} s`);
  const db = createDatabase({ dialect: 'sqlite', path: building });
  let firstFoldSeconds: number;
  try {
    const folding = performance.now();
    for (const client of SEARCH_CLIENTS) await foldReports(db, client.id, new Date(), { always: true });
    firstFoldSeconds = round1((performance.now() - folding) / 1000);
    log(`reports: first fold of the ${SEARCH_CLIENTS.length} clients in ${firstFoldSeconds} s`);
  } finally {
    await db.destroy();
  }
  const database = new DatabaseSync(building);
  database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  database.close();
  renameSync(building, path);
  return { generatedAt: new Date().toISOString(), generationSeconds, firstFoldSeconds, orders, codes };
}

/** Ledger entries, catalog orders, codes and sign-ins for the search clients' participants. */
function fillActivity(path: string, entries: number): { orders: number; codes: number } {
  const database = new DatabaseSync(path);
  const random = generator(20_261_126);
  const hex = (digits: number) =>
    Math.floor(random() * 16 ** digits)
      .toString(16)
      .padStart(digits, '0');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${hex(4)}-${hex(6)}${hex(6)}`;
  const now = Date.now();
  const span = MONTHS * 30.4 * 86_400_000;
  let orders = 0;
  let codes = 0;
  try {
    database.exec('PRAGMA journal_mode = OFF');
    database.exec('PRAGMA synchronous = OFF');
    database.exec('PRAGMA cache_size = -524288');
    // Built after the rows (one sort each instead of ten million inserts), from their own definitions.
    const indexes = database
      .prepare(
        "select name, sql from sqlite_master where type = 'index' and tbl_name in ('ledger_entries', 'catalog_orders') and sql is not null",
      )
      .all() as { name: string; sql: string }[];
    for (const index of indexes) database.exec(`drop index ${index.name}`);
    const ledgerColumns = ['id', 'client_id', 'participant_id', 'occurred_at', 'description', 'amount', 'kind', 'created_at'];
    const ROWS = 500;
    const tuple = (n: number) => `(${Array.from({ length: n }, () => '?').join(',')})`;
    const insertEntries = database.prepare(
      `insert into ledger_entries (${ledgerColumns.join(',')}) values ${Array.from({ length: ROWS }, () => tuple(ledgerColumns.length)).join(',')}`,
    );
    const orderColumns = ['client_id', 'partner_id', 'order_id', 'participant_id', 'points', 'request_hash', 'reply', 'created_at'];
    const insertOrder = database.prepare(`insert into catalog_orders (${orderColumns.join(',')}) values ${tuple(orderColumns.length)}`);
    const insertPartner = database.prepare(
      'insert into catalog_partners (id, client_id, name, secret_hash, created_at) values (?, ?, ?, ?, ?)',
    );
    const insertCode = database.prepare(
      'insert into ots_codes (id, client_id, code_hash, code_hint, value, expires_at, status, redeemed_by, redeemed_at, batch, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const insertSignIn = database.prepare('insert into participant_sign_ins (client_id, participant_id, last_at) values (?, ?, ?)');
    const iso = new Date(now).toISOString();
    database.exec('begin');
    let written = 0;
    for (const [c, client] of SEARCH_CLIENTS.entries()) {
      const ids = (database.prepare('select id from participants where client_id = ?').all(client.id) as { id: string }[]).map((r) => r.id);
      const partners = [`${client.id}-merchandise`, `${client.id}-experiences`];
      for (const partner of partners) insertPartner.run(partner, client.id, partner.replace(`${client.id}-`, 'Bench '), '!', iso);
      const count = c === SEARCH_CLIENTS.length - 1 ? entries - written : Math.round(entries * client.share);
      let values: (string | number)[] = [];
      for (let i = 0; i < count; i += 1) {
        // Oldest first, as a ledger grows; created as they occur.
        const at = new Date(now - span + (span * i) / count).toISOString();
        const participant = ids[Math.floor(random() * ids.length)]!;
        const draw = random();
        const [kind, amount] =
          draw < 0.6
            ? ['award', 25 + Math.floor(random() * 40) * 25]
            : draw < 0.7
              ? ['ots', 100 + Math.floor(random() * 10) * 50]
              : draw < 0.85
                ? ['redemption', -(200 + Math.floor(random() * 40) * 25)]
                : draw < 0.95
                  ? ['expiry', -(25 + Math.floor(random() * 20) * 25)]
                  : ['adjustment', (random() < 0.5 ? -1 : 1) * (10 + Math.floor(random() * 50) * 10)];
        values.push(uuid(), client.id, participant, at, 'bench', amount as number, kind as string, at);
        if (kind === 'redemption') {
          insertOrder.run(client.id, partners[random() < 0.7 ? 0 : 1]!, `B${written + i}`, participant, -(amount as number), '!', '{}', at);
          orders += 1;
        }
        if (values.length === ROWS * ledgerColumns.length) {
          insertEntries.run(...values);
          values = [];
        }
        if (i % 200_000 === 199_999) {
          database.exec('commit');
          database.exec('begin');
        }
      }
      const one = database.prepare(`insert into ledger_entries (${ledgerColumns.join(',')}) values ${tuple(ledgerColumns.length)}`);
      for (let from = 0; from < values.length; from += ledgerColumns.length) one.run(...values.slice(from, from + ledgerColumns.length));
      written += count;
      // Code batches: 20 per client, 2,000 codes each, a third redeemed, some void, some past their expiry.
      for (let b = 0; b < 20; b += 1) {
        const expires =
          b % 4 === 0 ? new Date(now - 30 * 86_400_000).toISOString() : b % 4 === 1 ? null : new Date(now + 365 * 86_400_000).toISOString();
        for (let k = 0; k < 2_000; k += 1) {
          const draw = random();
          const status = draw < 0.35 ? 'redeemed' : draw < 0.38 ? 'void' : 'unused';
          const redeemer = status === 'redeemed' ? ids[Math.floor(random() * ids.length)]! : null;
          insertCode.run(
            uuid(),
            client.id,
            `${hex(16)}${hex(16)}${hex(16)}${hex(16)}`,
            hex(4).toUpperCase(),
            250,
            expires,
            status,
            redeemer,
            redeemer ? iso : null,
            `Batch ${b + 1}`,
            iso,
          );
          codes += 1;
        }
      }
      // Sign-ins: six in ten participants, over the last 90 days.
      for (const id of ids) if (random() < 0.6) insertSignIn.run(client.id, id, new Date(now - random() * 90 * 86_400_000).toISOString());
      database.exec('commit');
      database.exec('begin');
    }
    database.exec('commit');
    for (const index of indexes) database.exec(index.sql);
    database.exec('ANALYZE');
    database.exec('PRAGMA journal_mode = WAL');
  } finally {
    database.close();
  }
  return { orders, codes };
}

/** Entries created now, dated over the last days: what the fold has not taken yet. */
async function addRecentEntries(path: string, clientId: string, count: number): Promise<void> {
  const database = new DatabaseSync(path);
  try {
    const ids = (database.prepare('select id from participants where client_id = ? limit 10000').all(clientId) as { id: string }[]).map(
      (r) => r.id,
    );
    const insert = database.prepare(
      "insert into ledger_entries (id, client_id, participant_id, occurred_at, description, amount, kind, created_at) values (?, ?, ?, ?, 'bench recent', ?, 'award', ?)",
    );
    const now = Date.now();
    database.exec('begin');
    for (let i = 0; i < count; i += 1) {
      const at = new Date(now - (count - i) * 40).toISOString();
      insert.run(`recent-${now}-${i}`, clientId, ids[i % ids.length]!, at, 100, at);
    }
    database.exec('commit');
  } finally {
    database.close();
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
