/**
 * The program API's points postings under load (issue 29 §4, decision 085): `POST
 * /api/program/v1/points` over 8 connections, each request a new externalId, against the disk's
 * raw durable single-row commit rate measured in the same run (raw-commit.ts, the redemptions'
 * floor of issue 18), half just before the load and half just after. Each posting is one
 * transaction (the idempotency row, the ledger entry, the balance, the lot, the reply, and the
 * key's rate bucket beforehand), so the group commit (decision 014) is what lets it pass that rate.
 * Latencies are every request's, from autocannon's per-response times (its summary has no p95).
 *
 * With `webhooks` (the bench's webhooks part, decision 084) the client also has an endpoint taking
 * points.credited, at a receiver in this process (node:http on 127.0.0.1 answering 204, verifying
 * nothing: the server's side is measured), so every posting writes an event and a delivery in its
 * transaction: deliveries per second, and the outbox's lag (the event's row, written in the
 * posting's transaction, to the receiver getting it) under that load.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { PROGRAM_API_BASE } from '../../packages/contract/src/program-api.ts';
import { programWebhooksPaths } from '../../packages/contract/src/console-webhooks.ts';
import { createApiKey } from '../../apps/server/src/modules/api-keys/service.ts';
import type { ApiScope } from '../../packages/contract/src/console-api-keys.ts';
import type { Db } from '../../apps/server/src/db/database.ts';
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
  webhooks?: WebhookLoadResults;
}

export interface WebhookLoadResults {
  /** Deliveries the receiver got during the measured run, per second. */
  deliveriesPerSecond: number;
  /** Events written during the measured run, and how many of them the receiver got (in the end). */
  events: number;
  received: number;
  /** From the event's row to the receiver getting it, ms, over the measured run's events. */
  lagP50: number;
  lagP95: number;
  lagMax: number;
  /** Deliveries still pending when the load stopped, and the oldest one's age then (ms; 0: none). */
  pendingAtEnd: number;
  oldestPendingAtEndMs: number;
  /** From the load's end until none was pending (ms); undefined: not within the deadline. */
  drainMs: number | undefined;
  /** The pending ones delivered per second after the load, with nothing else to do. */
  drainPerSecond: number | undefined;
  /** Requests the receiver got for an id it already had (at least once; none expected here). */
  duplicates: number;
}

/** How long the bench waits for the outbox to drain after the load. */
const DRAIN_DEADLINE_MS = 300_000;

/** A client's receiver: answers 204 at once, verifying nothing, and notes when each webhook-id first came. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (arrivals.has(id)) duplicates += 1;
      else arrivals.set(id, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    duplicates: () => duplicates,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `count` participants enrolled through the program API's PUT (bench.<tag>.<n>), their usernames. */
export async function enrolBenchParticipants(base: string, headers: Record<string, string>, tag: string, count: number): Promise<string[]> {
  const usernames = Array.from({ length: count }, (_, i) => `bench.${tag}.${i}`);
  for (const [i, username] of usernames.entries()) {
    const reply = await fetch(`${base}/participants/${username}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        firstName: 'Bench',
        lastName: `Participant ${i}`,
        email: `${username}@example.com`,
        accountNumber: `BENCH-${tag.toUpperCase()}-${i}`,
        offerings: { merchandise: true, experiences: true, ots: true },
        programs: [],
      }),
    });
    if (reply.status !== 201) throw new Error(`PUT participants/${username}: ${reply.status} ${await reply.text()}`);
  }
  return usernames;
}

/** The p-th percentile of sorted latencies, in ms to a tenth. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

/** One autocannon run of POSTs, each with the next body; every response's latency kept. */
export function run(spec: { url: string; headers: Record<string, string>; nextBody: () => string }, seconds: number) {
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
/** The demo client's key of the program API benches, printed once: limits far above the load (the key's rate is a limit of its own, decision 083, not what is measured). */
export async function createBenchKey(db: Db, scopes: ApiScope[]): Promise<string> {
  const made = await createApiKey(db, {
    clientId: CLIENT_ID,
    name: 'bench',
    scopes,
    ratePerSecond: 10_000,
    burst: 100_000,
    createdBy: 'bench',
    actorKind: 'operator',
    reason: 'npm run bench',
  });
  return made.key;
}

export async function runProgramApi(
  parent: string,
  timing: LoadTiming,
  log: (line: string) => void,
  options: { webhooks?: boolean } = {},
): Promise<ProgramApiResults> {
  const dir = await mkdtemp(join(parent, 'program-api-'));
  const databaseUrl = `file:${join(dir, 'rewards.db')}`;
  const receiver = options.webhooks ? await startReceiver() : undefined;
  try {
    log('program API: seeding the demo program on SQLite');
    await seedDemo(databaseUrl);
    const db = openDatabase(databaseUrl);
    let key: string;
    try {
      key = await createBenchKey(db, ['participants:write', 'points:write', ...(receiver ? (['webhooks:manage'] as const) : [])]);
    } finally {
      await db.destroy();
    }
    // The API only: no web app served (WEB_DIST empty), as the console part.
    // The receiver is on loopback, which only this setting lets an endpoint reach (decision 084).
    const portal = await startPortal(databaseUrl, join(dir, 'server.log'), {
      WEB_DIST: '',
      ...(receiver ? { WEBHOOKS_ALLOW_LOOPBACK: 'on' } : {}),
    });
    try {
      const base = `${portal.baseUrl}${PROGRAM_API_BASE}`;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      if (receiver) {
        const reply = await fetch(`${base}${programWebhooksPaths.endpoints}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ url: receiver.url, events: ['points.credited'], description: 'bench' }),
        });
        if (reply.status !== 201) throw new Error(`POST webhooks: ${reply.status} ${await reply.text()}`);
      }
      const usernames = await enrolBenchParticipants(base, headers, 'api', PARTICIPANTS);
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
      const runStart = Date.now();
      const { result, latencies } = await run(spec, timing.seconds);
      const runEnd = Date.now();
      const webhooks = receiver ? await outboxAfterLoad(databaseUrl, receiver, runStart, runEnd, log) : undefined;
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
        ...(webhooks ? { webhooks } : {}),
      };
      log(
        `program API: ${entriesPerSecond} entries/s (raw durable commits ${rawCommit.commitsPerSecond}/s: ×${results.ratioToRawCommit}), p50 ${results.p50} ms, p95 ${results.p95} ms, p99 ${results.p99} ms, ${results.non2xx} non-2xx, ${results.errors} errors; ${entries} entries in the ledger for ${results.ledger.acknowledged} acknowledged`,
      );
      if (webhooks)
        log(
          `webhooks: ${webhooks.deliveriesPerSecond} deliveries/s during the load; lag p50 ${webhooks.lagP50} ms, p95 ${webhooks.lagP95} ms, max ${webhooks.lagMax} ms over ${webhooks.received} of ${webhooks.events} events; at the load's end ${webhooks.pendingAtEnd} pending, the oldest ${webhooks.oldestPendingAtEndMs} ms old; drained ${webhooks.drainMs === undefined ? 'not' : `in ${webhooks.drainMs} ms`}; ${webhooks.duplicates} duplicates`,
        );
      return results;
    } finally {
      await portal.stop();
    }
  } finally {
    await receiver?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The outbox at the load's end (what is pending, the oldest's age), then until it drains (with a
 * deadline), then each measured event's lag from its row's created_at to the receiver's arrival.
 */
async function outboxAfterLoad(
  databaseUrl: string,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  runStart: number,
  runEnd: number,
  log: (line: string) => void,
): Promise<WebhookLoadResults> {
  const deliveredInRun = [...receiver.arrivals.values()].filter((at) => at >= runStart && at <= runEnd).length;
  const db = openDatabase(databaseUrl);
  try {
    const pending = () =>
      db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
    const atEnd = await pending();
    const pendingAtEnd = Number(atEnd.n);
    const oldestPendingAtEndMs = atEnd.oldest ? Math.max(0, runEnd - Date.parse(String(atEnd.oldest))) : 0;
    log(`webhooks: ${pendingAtEnd} deliveries pending at the load's end; waiting for them`);
    let drainMs: number | undefined;
    while (Date.now() - runEnd < DRAIN_DEADLINE_MS) {
      if (Number((await pending()).n) === 0) {
        drainMs = Date.now() - runEnd;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const events = await db
      .selectFrom('webhook_events')
      .select(['id', 'created_at'])
      .where('client_id', '=', CLIENT_ID)
      .where('created_at', '>=', new Date(runStart).toISOString())
      .where('created_at', '<=', new Date(runEnd).toISOString())
      .execute();
    const lags: number[] = [];
    for (const event of events) {
      const at = receiver.arrivals.get(event.id);
      if (at !== undefined) lags.push(at - Date.parse(event.created_at));
    }
    lags.sort((a, b) => a - b);
    return {
      deliveriesPerSecond: Math.round(deliveredInRun / ((runEnd - runStart) / 1000)),
      events: events.length,
      received: lags.length,
      lagP50: percentile(lags, 50),
      lagP95: percentile(lags, 95),
      lagMax: lags.at(-1) ?? 0,
      pendingAtEnd,
      oldestPendingAtEndMs,
      drainMs,
      drainPerSecond: drainMs ? Math.round(pendingAtEnd / (drainMs / 1000)) : undefined,
      duplicates: receiver.duplicates(),
    };
  } finally {
    await db.destroy();
  }
}
