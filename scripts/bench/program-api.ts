/**
 * The program API's points postings under load (issue 29 §4, decision 085): `POST
 * /api/program/v1/points` over 8 connections, each request a new externalId, against the disk's
 * raw durable single-row commit rate measured in the same run (raw-commit.ts, the redemptions'
 * floor of issue 18), half just before the load and half just after. Each posting is one
 * transaction (the idempotency row, the ledger entry, the balance, the lot, the reply, and the
 * key's rate bucket beforehand), so the group commit (decision 014) is what lets it pass that rate.
 * Latencies are every request's, from autocannon's per-response times (its summary has no p95).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { PROGRAM_API_BASE } from '../../packages/contract/src/program-api.ts';
import { createApiKey } from '../../apps/server/src/modules/api-keys/service.ts';
import { CLIENT_ID, openDatabase, seedDemo } from './fixtures.ts';
import type { LoadTiming } from './api.ts';
import { startPortal } from './portal.ts';
import { rawCommitRate, type RawCommitResult } from './raw-commit.ts';

export const PROGRAM_API_CONNECTIONS = 8;
/** Participants the postings go round: enough that no one row's lock is the measure. */
const PARTICIPANTS = 200;

export interface ProgramApiResults {
  connections: number;
  seconds: number;
  /** 201 answers per second in the measured run (each a new ledger entry). */
  entriesPerSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  rawCommit: RawCommitResult;
  /** entries/s over the raw commit rate. */
  ratioToRawCommit: number;
  /** Ledger entries of the load after it (warm-up included) against the 201s answered. */
  ledger: { entries: number; acknowledged: number };
}

/** The p-th percentile of sorted latencies, in ms to a tenth. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

/** One autocannon run; every response's latency kept. */
function run(spec: { url: string; headers: Record<string, string>; nextBody: () => string }, seconds: number) {
  return new Promise<{ result: autocannon.Result; latencies: number[] }>((resolve, reject) => {
    const latencies: number[] = [];
    const tracker = autocannon(
      {
        url: spec.url,
        method: 'POST',
        headers: spec.headers,
        requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: spec.nextBody() }) }],
        connections: PROGRAM_API_CONNECTIONS,
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies })),
    );
    tracker.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  });
}

/** `parent`: the bench's temporary directory; the database and the raw commits go in a folder of it (the same disk). */
export async function runProgramApi(parent: string, timing: LoadTiming, log: (line: string) => void): Promise<ProgramApiResults> {
  const dir = await mkdtemp(join(parent, 'program-api-'));
  const databaseUrl = `file:${join(dir, 'rewards.db')}`;
  try {
    log('program API: seeding the demo program on SQLite');
    await seedDemo(databaseUrl);
    const db = openDatabase(databaseUrl);
    let key: string;
    try {
      // Limits far above the load: the key's rate is a limit of its own (decision 083), not what is measured.
      key = (
        await createApiKey(db, {
          clientId: CLIENT_ID,
          name: 'bench',
          scopes: ['participants:write', 'points:write'],
          ratePerSecond: 10_000,
          burst: 100_000,
          createdBy: 'bench',
          actorKind: 'operator',
          reason: 'npm run bench',
        })
      ).key;
    } finally {
      await db.destroy();
    }
    // The API only: no web app served (WEB_DIST empty), as the console part.
    const portal = await startPortal(databaseUrl, join(dir, 'server.log'), { WEB_DIST: '' });
    try {
      const base = `${portal.baseUrl}${PROGRAM_API_BASE}`;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const usernames = Array.from({ length: PARTICIPANTS }, (_, i) => `bench.api.${i}`);
      for (const [i, username] of usernames.entries()) {
        const reply = await fetch(`${base}/participants/${username}`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({
            firstName: 'Bench',
            lastName: `Participant ${i}`,
            email: `${username}@example.com`,
            accountNumber: `BENCH-API-${i}`,
            offerings: { merchandise: true, experiences: true, ots: true },
            programs: [],
          }),
        });
        if (reply.status !== 201) throw new Error(`PUT participants/${username}: ${reply.status} ${await reply.text()}`);
      }
      let next = 0;
      const nextBody = () => {
        const n = next++;
        return JSON.stringify({
          username: usernames[n % PARTICIPANTS],
          points: 1 + (n % 50),
          description: 'Purchase',
          externalId: `bench-${n}`,
        });
      };
      const spec = { url: `${base}/points`, headers, nextBody };
      log(
        `program API: POST points, ${PROGRAM_API_CONNECTIONS} connections, ${timing.seconds} s after ${timing.warmupSeconds} s of warm-up`,
      );
      const warm = timing.warmupSeconds > 0 ? (await run(spec, timing.warmupSeconds)).result['2xx'] : 0;
      const before = rawCommitRate(dir, timing.seconds / 2);
      const { result, latencies } = await run(spec, timing.seconds);
      const after = rawCommitRate(dir, timing.seconds / 2);
      const commits = before.commits + after.commits;
      const commitSeconds = before.seconds + after.seconds;
      const rawCommit = { commitsPerSecond: Math.round(commits / commitSeconds), commits, seconds: Math.round(commitSeconds * 10) / 10 };
      latencies.sort((a, b) => a - b);
      const entriesPerSecond = Math.round(result['2xx'] / timing.seconds);
      const check = openDatabase(databaseUrl);
      let entries: number;
      try {
        const row = await check
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('client_id', '=', CLIENT_ID)
          .where('reference', 'like', 'api:bench-%')
          .executeTakeFirstOrThrow();
        entries = Number(row.n);
      } finally {
        await check.destroy();
      }
      const results: ProgramApiResults = {
        connections: PROGRAM_API_CONNECTIONS,
        seconds: timing.seconds,
        entriesPerSecond,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        rawCommit,
        ratioToRawCommit: Math.round((entriesPerSecond / rawCommit.commitsPerSecond) * 100) / 100,
        ledger: { entries, acknowledged: warm + result['2xx'] },
      };
      log(
        `program API: ${entriesPerSecond} entries/s (raw durable commits ${rawCommit.commitsPerSecond}/s: ×${results.ratioToRawCommit}), p50 ${results.p50} ms, p95 ${results.p95} ms, p99 ${results.p99} ms, ${results.non2xx} non-2xx, ${results.errors} errors; ${entries} entries in the ledger for ${results.ledger.acknowledged} acknowledged`,
      );
      return results;
    } finally {
      await portal.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
