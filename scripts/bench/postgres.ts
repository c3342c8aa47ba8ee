/**
 * Scale-out on PostgreSQL: one portal process against two on the same database, the same
 * GET user and POST ots/redeem load (16 connections on one process; 8 + 8 on two, the bench
 * sending to both ports at once and adding up), then a 100-way race on one code across both
 * processes (50 requests to each at once) that must credit exactly once.
 * The throwaway server runs without fsync (scripts/lib/postgres.ts): these figures compare
 * processes, they say nothing of disk durability.
 * Each measured run also reads the CPU that every party spent per request (the portals, the
 * PostgreSQL server's processes, this process generating the load) and so what this machine's
 * cores allow one and two processes at those costs (scale-ceiling.ts, decision 034).
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, cpuUse, ownCpuMicros, processTicks, processTreeTicks, TICKS_PER_SECOND, type CpuUse } from './cpu.ts';
import { startThrowawayPostgres } from '../lib/postgres.ts';
import { redeemBodies, type LoadTiming } from './api.ts';
import { addBenchData, apiHeaders, RACE_CODE, raceOutcome, REDEEM_USER, seedDemo, signIn } from './fixtures.ts';
import { load, loadAcross, type LoadResult } from './load.ts';
import { startPortal, type Portal } from './portal.ts';
import { othersCores, perRequest, scaleCeiling, type PartyCpu, type ScaleCeiling } from './scale-ceiling.ts';

export interface ScaleCase {
  name: string;
  one: LoadResult;
  two: LoadResult;
  /** two processes' requests/s over one's */
  speedup: number;
  /** CPU during each measured load: machine busy share, cores used by portal a and b. */
  cpu?: { one: CpuUse; two: CpuUse };
  /** CPU µs per request of each party in each measured load (decision 034). */
  perRequest?: { one: PartyCpu; two: PartyCpu };
  /** What this machine's cores allow one and two processes at those costs. */
  ceiling?: ScaleCeiling;
  /** Cores the rest of the machine (the neighbours) used during each measured load. */
  othersCores?: { one: number; two: number };
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
      {
        name: 'POST ots/redeem (distinct codes)',
        path: '/api/v1.0/ots/redeem',
        method: 'POST' as const,
        headers: apiHeaders(redeemer),
        nextBody,
      },
    ];
    const pgPid = pg.pid;
    // The parties' CPU around a measured load only (the warm-up runs before the first reading).
    const measure = async (portalsOfRun: Portal[], run: () => Promise<LoadResult>) => {
      const pids = [a.pid, b.pid];
      const read = () => ({
        machine: cpuSnapshot(pids),
        portal: portalsOfRun.reduce((sum, p) => sum + processTicks(p.pid), 0),
        postgres: pgPid === undefined ? 0 : processTreeTicks(pgPid),
        own: ownCpuMicros(),
      });
      const before = read();
      const result = await run();
      const after = read();
      const cpu = cpuUse(before.machine, after.machine, cpus().length);
      const costs = perRequest(
        { portal: after.portal - before.portal, postgres: after.postgres - before.postgres },
        after.own - before.own,
        result.requests,
        1e6 / TICKS_PER_SECOND,
      );
      return { result, cpu, costs };
    };
    const cases: ScaleCase[] = [];
    for (const { path, name, ...spec } of specs) {
      const oneSpec = { ...spec, url: `${a.baseUrl}${path}`, connections };
      const twoSpecs = [a, b].map((p) => ({ ...spec, url: `${p.baseUrl}${path}`, connections: half }));
      if (warmupSeconds > 0) await load(oneSpec, warmupSeconds, 0);
      const one = await measure([a], () => load(oneSpec, seconds, 0));
      if (warmupSeconds > 0) await loadAcross(twoSpecs, warmupSeconds, 0);
      const two = await measure([a, b], () => loadAcross(twoSpecs, seconds, 0));
      const speedup = Math.round((two.result.requestsPerSecond / one.result.requestsPerSecond) * 100) / 100;
      const perRequestCosts = { one: one.costs, two: two.costs };
      const cores = cpus().length;
      const ceiling = pgPid === undefined ? undefined : scaleCeiling(one.costs, two.costs, cores);
      const others = (run: typeof one) => othersCores(run.cpu.machineBusy, cores, run.costs, run.result.requestsPerSecond);
      const measuredCosts = ceiling ? { perRequest: perRequestCosts, ceiling, othersCores: { one: others(one), two: others(two) } } : {};
      cases.push({ name, one: one.result, two: two.result, speedup, cpu: { one: one.cpu, two: two.cpu }, ...measuredCosts });
      const busy = (use: CpuUse) => `machine ${Math.round(use.machineBusy * 100)}% busy, portals ${use.processCores.join(' + ')} cores`;
      const costs = (c: PartyCpu) => `portal ${c.portal} + PostgreSQL ${c.postgres} + load generator ${c.loadGenerator} µs/request`;
      log(
        `PostgreSQL ${name}: one process ${one.result.requestsPerSecond}/s (${busy(one.cpu)}; ${costs(one.costs)}), two ${two.result.requestsPerSecond}/s (${busy(two.cpu)}; ${costs(two.costs)}) (×${speedup})`,
      );
      if (ceiling)
        log(
          `  this machine allows one process ${ceiling.oneBound}/s, two ${ceiling.twoBound}/s: ×${ceiling.bestRatio} at best; ×1.5 needs ${ceiling.coresForOneAndAHalf} cores at these costs`,
        );
    }

    const body = JSON.stringify({ code: RACE_CODE, userName: REDEEM_USER });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b).baseUrl}/api/v1.0/ots/redeem`, { method: 'POST', headers: apiHeaders(redeemer), body }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
        ),
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
