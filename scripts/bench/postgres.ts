/**
 * Scale-out on PostgreSQL: one portal process against two on the same database, the same
 * GET user and POST ots/redeem load (16 connections on one process; 8 + 8 on two, the bench
 * sending to both ports at once and adding up), then a 100-way race on one code across both
 * processes (50 requests to each at once) that must credit exactly once.
 * The throwaway server runs without fsync (scripts/lib/postgres.ts): these figures compare
 * processes, they say nothing of disk durability.
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, cpuUse, type CpuUse } from './cpu.ts';
import { startThrowawayPostgres } from '../lib/postgres.ts';
import { redeemBodies, type LoadTiming } from './api.ts';
import { addBenchData, apiHeaders, RACE_CODE, raceOutcome, REDEEM_USER, seedDemo, signIn } from './fixtures.ts';
import { load, loadAcross, type LoadResult } from './load.ts';
import { startPortal, type Portal } from './portal.ts';

export interface ScaleCase {
  name: string;
  one: LoadResult;
  two: LoadResult;
  /** two processes' requests/s over one's */
  speedup: number;
  /** CPU during each load (warm-up included): machine busy share, cores used by portal a and b. */
  cpu?: { one: CpuUse; two: CpuUse };
}

export interface RaceResult {
  requests: number;
  ok: number;
  statuses: Record<string, number>;
  credits: number;
  balanceMatchesLedger: boolean;
}

export type PostgresResults = { cases: ScaleCase[]; race: RaceResult } | { error: string };

export async function runPostgres(dir: string, timing: LoadTiming, codes: number, log: (line: string) => void): Promise<PostgresResults> {
  let pg;
  try {
    pg = await startThrowawayPostgres();
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'failed';
    log(`PostgreSQL unavailable: ${message}`);
    return { error: message };
  }
  const portals: Portal[] = [];
  try {
    log('seeding the demo program and the bench data on PostgreSQL');
    await seedDemo(pg.url);
    await addBenchData(pg.url, codes * 2);
    const env = { OTS_MAX_FAILURES_PER_PARTICIPANT: '1000000' };
    portals.push(await startPortal(pg.url, join(dir, 'pg-a.log'), env));
    portals.push(await startPortal(pg.url, join(dir, 'pg-b.log'), env));
    const [a, b] = portals as [Portal, Portal];
    const demo = await signIn(a.baseUrl, 'demo');
    const redeemer = await signIn(a.baseUrl, REDEEM_USER);
    const { seconds, warmupSeconds, connections } = timing;
    const half = Math.max(1, Math.floor(connections / 2));
    const nextBody = redeemBodies();

    const specs = [
      { name: 'GET user', path: '/api/v1.0/user', headers: apiHeaders(demo) },
      { name: 'POST ots/redeem (distinct codes)', path: '/api/v1.0/ots/redeem', method: 'POST' as const, headers: apiHeaders(redeemer), nextBody },
    ];
    const cases: ScaleCase[] = [];
    for (const { path, name, ...spec } of specs) {
      const pids = [a.pid, b.pid];
      const beforeOne = cpuSnapshot(pids);
      const one = await load({ ...spec, url: `${a.baseUrl}${path}`, connections }, seconds, warmupSeconds);
      const beforeTwo = cpuSnapshot(pids);
      const two = await loadAcross([a, b].map((p) => ({ ...spec, url: `${p.baseUrl}${path}`, connections: half })), seconds, warmupSeconds);
      const cpu = { one: cpuUse(beforeOne, beforeTwo, cpus().length), two: cpuUse(beforeTwo, cpuSnapshot(pids), cpus().length) };
      const speedup = Math.round((two.requestsPerSecond / one.requestsPerSecond) * 100) / 100;
      cases.push({ name, one, two, speedup, cpu });
      const busy = (use: CpuUse) => `machine ${Math.round(use.machineBusy * 100)}% busy, portals ${use.processCores.join(' + ')} cores`;
      log(`PostgreSQL ${name}: one process ${one.requestsPerSecond}/s (${busy(cpu.one)}), two ${two.requestsPerSecond}/s (${busy(cpu.two)}) (×${speedup})`);
    }

    const body = JSON.stringify({ code: RACE_CODE, userName: REDEEM_USER });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).baseUrl}/api/v1.0/ots/redeem`, { method: 'POST', headers: apiHeaders(redeemer), body }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    const statuses: Record<string, number> = {};
    for (const status of responses) statuses[status] = (statuses[status] ?? 0) + 1;
    const outcome = await raceOutcome(pg.url);
    const race = { requests: responses.length, ok: statuses['200'] ?? 0, statuses, ...outcome };
    log(`race: ${JSON.stringify(statuses)}, ${outcome.credits} ledger credit(s), balance matches ledger: ${outcome.balanceMatchesLedger}`);
    return { cases, race };
  } finally {
    for (const portal of portals) await portal.stop();
    await pg.stop();
  }
}
