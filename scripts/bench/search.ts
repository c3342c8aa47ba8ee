/**
 * Participant search over a million participants (issue 17, docs/decisions/045). A fresh
 * SQLite file (and, with --search-postgres, a throwaway PostgreSQL database) gets the seeded
 * data set of search-data.ts; then each typical query runs through the real service
 * (`searchParticipants`) over the real database layer, in this process: there is no console
 * route yet, so the server's time is the service's time, measured around the call. Each case:
 * warm-up runs, then REPEAT timed runs one after the other; median and 95th percentile.
 * Judged against the issue's 50 ms on SQLite, the embedded default.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { databaseConfigFromUrl } from '../../apps/server/src/config.ts';
import { createDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { searchParticipants } from '../../apps/server/src/modules/participants/search.ts';
import { startThrowawayPostgres } from '../lib/postgres.ts';
import { median } from './history.ts';
import { addSearchClients, fillPostgres, fillSqlite, SEARCH_CLIENTS } from './search-data.ts';

export const SEARCH_BUDGET_MS = 50;
const REPEAT = 100;
const WARMUP = 5;

export interface SearchCase {
  name: string;
  query: string;
  /** How many clients the caller sees: one (the biggest, 40 %) or all four. */
  clients: number;
  /** Which page: 1, or a later one reached through the cursors. */
  page: number;
  /** Participants on the page measured. */
  found: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface SearchEngineResults {
  participants: number;
  generationSeconds: number;
  /** The SQLite file after generation (with its WAL); not measured on PostgreSQL. */
  databaseMb?: number;
  cases: SearchCase[];
}

export interface SearchResults {
  sqlite: SearchEngineResults | { error: string };
  postgres?: SearchEngineResults | { error: string };
}

/** What a support agent types: common and rare prefixes, e-mail, account number, first + last, accents. */
const QUERIES = [
  { name: 'common prefix', query: 'ma' },
  { name: 'common name', query: 'maria' },
  { name: 'first + last', query: 'maria garc' },
  { name: 'last + first', query: 'garcia mar' },
  { name: 'accented', query: 'Müll' },
  { name: 'rare prefix', query: 'yzer' },
  { name: 'no match', query: 'qqzz' },
  { name: 'e-mail prefix', query: 'jose.muller.1' },
  { name: 'account number prefix', query: '1012345' },
  { name: 'exact account number', query: '10123456' },
  { name: 'username prefix', query: 'member1234' },
] as const;

const round1 = (n: number) => Math.round(n * 10) / 10;
export const clients = (count: number) => `${count} client${count === 1 ? '' : 's'}`;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export async function runSearch(
  dir: string,
  log: (line: string) => void,
  options: { participants: number; postgres: boolean; sqliteFile?: string | undefined },
): Promise<SearchResults> {
  const results: SearchResults = { sqlite: await engine('sqlite', dir, log, options.participants, options.sqliteFile) };
  if (options.postgres) results.postgres = await engine('postgres', dir, log, options.participants);
  return results;
}

async function engine(
  kind: 'sqlite' | 'postgres',
  dir: string,
  log: (line: string) => void,
  participants: number,
  sqliteFile?: string,
): Promise<SearchEngineResults | { error: string }> {
  let pg: Awaited<ReturnType<typeof startThrowawayPostgres>> | undefined;
  let db: Db | undefined;
  try {
    const started = performance.now();
    let databaseMb: number | undefined;
    if (kind === 'sqlite' && sqliteFile) {
      // The console part's file: the same participants, the demo program beside them.
      log(`search: on the console part's file (${participants.toLocaleString('en-US')} participants and the demo)`);
      databaseMb = Math.round(['', '-wal'].reduce((sum, suffix) => sum + sizeOf(sqliteFile + suffix), 0) / 2 ** 20);
      db = createDatabase({ dialect: 'sqlite', path: sqliteFile });
    } else if (kind === 'sqlite') {
      const path = join(dir, 'search.db');
      const setup = createDatabase({ dialect: 'sqlite', path });
      await migrateToLatest(setup);
      await addSearchClients(setup);
      await setup.destroy();
      log(`search: writing ${participants.toLocaleString('en-US')} participants into a fresh SQLite file`);
      fillSqlite(path, participants);
      databaseMb = Math.round(['', '-wal'].reduce((sum, suffix) => sum + sizeOf(path + suffix), 0) / 2 ** 20);
      db = createDatabase({ dialect: 'sqlite', path });
    } else {
      pg = await startThrowawayPostgres();
      db = createDatabase(databaseConfigFromUrl(pg.url));
      await migrateToLatest(db);
      await addSearchClients(db);
      log(`search: writing ${participants.toLocaleString('en-US')} participants into PostgreSQL`);
      await fillPostgres(db, participants);
    }
    const generationSeconds = Math.round((performance.now() - started) / 100) / 10;
    log(
      `search on ${kind}: ${participants.toLocaleString('en-US')} participants written in ${generationSeconds} s${databaseMb === undefined ? '' : ` (${databaseMb} MB)`}`,
    );

    const cases: SearchCase[] = [];
    const scopes = [SEARCH_CLIENTS.slice(0, 1).map((c) => c.id), SEARCH_CLIENTS.map((c) => c.id)];
    for (const { name, query } of QUERIES) {
      for (const clientIds of scopes) cases.push(await measure(db, name, query, clientIds, 1));
    }
    // A later page of the most common prefix, through the cursors, as paging on goes.
    cases.push(await measure(db, 'common prefix, page 20', 'ma', scopes[1]!, 20));
    for (const c of cases)
      log(
        `  ${kind} ${c.name} "${c.query}" (${clients(c.clients)}, page ${c.page}): ${c.found} found, median ${c.medianMs} ms, p95 ${c.p95Ms} ms`,
      );
    const worst = cases.reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
    log(
      `search on ${kind}: worst p95 ${worst.p95Ms} ms (${worst.name}, ${clients(worst.clients)}): ${worst.p95Ms < SEARCH_BUDGET_MS ? 'pass' : 'MISS'} against ${SEARCH_BUDGET_MS} ms`,
    );
    return { participants, generationSeconds, ...(databaseMb === undefined ? {} : { databaseMb }), cases };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'failed';
    log(`search on ${kind} failed: ${message}`);
    return { error: message };
  } finally {
    await db?.destroy();
    await pg?.stop();
  }
}

async function measure(db: Db, name: string, query: string, clientIds: string[], page: number): Promise<SearchCase> {
  // The cursor of the page asked for, found once by paging through.
  let after: string | undefined;
  for (let p = 1; p < page; p += 1) {
    const next: string | null = (await searchParticipants(db, { clientIds, query, page: { after } })).next;
    if (next === null) throw new Error(`"${query}" has fewer than ${page} pages`);
    after = next;
  }
  const samples: number[] = [];
  let found = 0;
  for (let run = 0; run < WARMUP + REPEAT; run += 1) {
    const start = performance.now();
    const reply = await searchParticipants(db, { clientIds, query, page: { after } });
    const ms = performance.now() - start;
    found = reply.participants.length;
    if (run >= WARMUP) samples.push(ms);
  }
  return {
    name,
    query,
    clients: clientIds.length,
    page,
    found,
    medianMs: round1(median(samples)),
    p95Ms: round1(percentile(samples, 95)),
    maxMs: round1(Math.max(...samples)),
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
