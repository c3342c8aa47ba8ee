/**
 * Events through the program API under load (issue 32 §4, decisions 097 and 100): `POST
 * /api/program/v1/events` with ten earning rules in force for purchases (about four to six of
 * them match an event: per-amount and fixed points, a participant cap per month and one per day,
 * a budget, two `best` rules, a promotion, a pending rule; one never matches), side by side in the
 * same run with `POST /api/program/v1/points`, the ledger writer's own rate and the budget's
 * baseline. Both over PROGRAM_API_CONNECTIONS connections against 200 participants on the
 * embedded default (SQLite), in the order points, events, events, points (half the seconds each),
 * so a drift of the shared machine's load weighs on both alike. Latencies are every request's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { PROGRAM_API_BASE } from '../../packages/contract/src/program-api.ts';
import type { EarningRuleInput } from '../../packages/contract/src/earning-rules.ts';
import type { Db } from '../../apps/server/src/db/database.ts';
import { createRule, listRules, setRuleEnabled, type RuleEditor } from '../../apps/server/src/modules/earning-rules/service.ts';
import type { LoadTiming } from './api.ts';
import { CLIENT_ID, openDatabase, seedDemo } from './fixtures.ts';
import { startPortal } from './portal.ts';
import { createBenchKey, enrolBenchParticipants, percentile, PROGRAM_API_CONNECTIONS, run } from './program-api.ts';

/** Participants the requests go round: enough that no one participant's counters are the measure. */
const PARTICIPANTS = 200;
/** Issue 32 §4: events per second "at the ledger writer's rate": as many as POST points in the same run (one ledger entry each). */
export const EVENTS_RATE_BUDGET = 1;

/** The ten rules, all on purchases, so each event is computed against ten rules in force. */
export const BENCH_RULES: ReadonlyArray<EarningRuleInput & { id: string }> = [
  { id: 'base', name: 'Every purchase', event: 'purchase', earn: { pointsPer: 1, per: '1.00' }, text: { 'en-US': '1 point per euro' } },
  {
    id: 'shoes-bags',
    name: 'Shoes and bags',
    event: 'purchase',
    conditions: [{ attribute: 'category', in: ['shoes', 'bags'] }],
    earn: { pointsPer: 2, per: '1.00' },
    caps: { participant: { points: 500, per: 'month' } },
    priority: 10,
  },
  {
    id: 'big-basket',
    name: 'Big basket',
    event: 'purchase',
    conditions: [{ amount: { atLeast: '100.00' } }],
    earn: { points: 50 },
    caps: { participant: { points: 200, per: 'day' } },
  },
  {
    id: 'web',
    name: 'Web orders',
    event: 'purchase',
    conditions: [{ attribute: 'channel', equals: 'web' }],
    earn: { points: 10 },
    pendingDays: 14,
  },
  {
    id: 'store-budget',
    name: 'In store',
    event: 'purchase',
    conditions: [{ attribute: 'channel', equals: 'store' }],
    earn: { points: 5 },
    caps: { budget: { points: 1_000_000_000 } },
  },
  {
    id: 'books',
    name: 'Books',
    event: 'purchase',
    conditions: [{ attribute: 'category', in: ['books'] }],
    earn: { pointsPer: 3, per: '1.00' },
    stacking: 'best',
  },
  { id: 'any-best', name: 'Flat best', event: 'purchase', earn: { points: 20 }, stacking: 'best' },
  {
    id: 'double-shoes',
    name: 'Double on shoes',
    event: 'purchase',
    conditions: [{ attribute: 'category', equals: 'shoes' }],
    earn: { multiply: '2', rules: ['shoes-bags'] },
    caps: { budget: { points: 500_000_000 } },
  },
  { id: 'small', name: 'Small basket', event: 'purchase', conditions: [{ amount: { atMost: '20.00' } }], earn: { points: 2 } },
  { id: 'gold', name: 'Gold members', event: 'purchase', conditions: [{ programs: { anyOf: ['gold'] } }], earn: { points: 100 } },
];

export interface RateResult {
  /** 2xx answers per second over both rounds. */
  perSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface EventsApiResults {
  connections: number;
  /** Seconds of each kind (two rounds of half). */
  seconds: number;
  rules: number;
  events: RateResult;
  points: RateResult;
  /** events/s over points/s. */
  ratio: number;
  /** Events kept against the 201s answered (warm-up included; those in flight when a run stopped are kept, not counted), their lines per event, and the events that credited points. */
  kept: { events: number; acknowledged: number; linesPerEvent: number; credited: number };
}

function rateOf(rounds: ReadonlyArray<{ result: autocannon.Result; latencies: number[] }>, seconds: number): RateResult {
  const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const sum = (pick: (r: autocannon.Result) => number) => rounds.reduce((total, r) => total + pick(r.result), 0);
  return {
    perSecond: Math.round(sum((r) => r['2xx']) / seconds),
    requests: sum((r) => r.requests.total),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors + r.timeouts),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

/**
 * The demo's own earning rules (db/seed/demo-events.ts) are disabled first: the figure is
 * with ten active rules. Their disabled versions stay, as a program's old rules do.
 */
export async function disableDemoRules(db: Db, operator: RuleEditor): Promise<void> {
  for (const rule of await listRules(db, CLIENT_ID))
    if (rule.enabled) await setRuleEnabled(db, operator, CLIENT_ID, rule.id, false, 'npm run bench: ten rules of its own');
}

const CATEGORIES = ['shoes', 'bags', 'books', 'toys'];
const AMOUNTS = ['12.50', '35.00', '120.50', '64.99', '250.00', '8.00', '99.99'];

/** `parent`: the bench's temporary directory; the database goes in a folder of it. */
export async function runEventsApi(parent: string, timing: LoadTiming, log: (line: string) => void): Promise<EventsApiResults> {
  const dir = await mkdtemp(join(parent, 'events-api-'));
  const databaseUrl = `file:${join(dir, 'rewards.db')}`;
  try {
    log('events API: seeding the demo program and ten earning rules on SQLite');
    await seedDemo(databaseUrl);
    const db = openDatabase(databaseUrl);
    let key: string;
    try {
      key = await createBenchKey(db, ['participants:write', 'points:write', 'events:write']);
      const operator = { kind: 'operator' as const, name: 'bench', origin: 'bench' };
      await disableDemoRules(db, operator);
      for (const rule of BENCH_RULES) await createRule(db, operator, CLIENT_ID, rule, 'npm run bench');
    } finally {
      await db.destroy();
    }
    const portal = await startPortal(databaseUrl, join(dir, 'server.log'), { WEB_DIST: '' });
    try {
      const base = `${portal.baseUrl}${PROGRAM_API_BASE}`;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const usernames = await enrolBenchParticipants(base, headers, 'events', PARTICIPANTS);
      let nextPoints = 0;
      const points = {
        url: `${base}/points`,
        headers,
        nextBody: () => {
          const n = nextPoints++;
          return JSON.stringify({
            username: usernames[n % PARTICIPANTS],
            points: 1 + (n % 50),
            description: 'Purchase',
            externalId: `bench-${n}`,
          });
        },
      };
      let nextEvent = 0;
      const events = {
        url: `${base}/events`,
        headers,
        nextBody: () => {
          const n = nextEvent++;
          return JSON.stringify({
            id: `bench-ev-${n}`,
            type: 'purchase',
            username: usernames[n % PARTICIPANTS],
            // Just now: the rules in force are the ones made above.
            occurredAt: new Date(Date.now() - 1000).toISOString(),
            amount: AMOUNTS[n % AMOUNTS.length],
            currency: 'EUR',
            attributes: { category: CATEGORIES[n % CATEGORIES.length]!, channel: n % 3 === 0 ? 'store' : 'web' },
          });
        },
      };
      const half = timing.seconds / 2;
      log(
        `events API: POST points and POST events, ${PROGRAM_API_CONNECTIONS} connections, points ${half} s, events ${half} s twice, points ${half} s, after ${timing.warmupSeconds} s of warm-up each`,
      );
      let warmEvents = 0;
      if (timing.warmupSeconds > 0) {
        await run(points, timing.warmupSeconds);
        warmEvents = (await run(events, timing.warmupSeconds)).result['2xx'];
      }
      const p1 = await run(points, half);
      const e1 = await run(events, half);
      const e2 = await run(events, half);
      const p2 = await run(points, half);
      const eventRate = rateOf([e1, e2], timing.seconds);
      const pointRate = rateOf([p1, p2], timing.seconds);
      const check = openDatabase(databaseUrl);
      let kept: EventsApiResults['kept'];
      try {
        const row = await check
          .selectFrom('participant_events')
          .select((eb) => [
            eb.fn.countAll<string | number>().as('n'),
            eb.fn.sum<string | number>(eb.case().when('points', '>', 0).then(1).else(0).end()).as('credited'),
          ])
          .where('client_id', '=', CLIENT_ID)
          .executeTakeFirstOrThrow();
        const lines = await check
          .selectFrom('participant_event_lines')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('client_id', '=', CLIENT_ID)
          .executeTakeFirstOrThrow();
        const n = Number(row.n);
        kept = {
          events: n,
          acknowledged: warmEvents + e1.result['2xx'] + e2.result['2xx'],
          linesPerEvent: n === 0 ? 0 : Math.round((Number(lines.n) / n) * 10) / 10,
          credited: Number(row.credited ?? 0),
        };
      } finally {
        await check.destroy();
      }
      const results: EventsApiResults = {
        connections: PROGRAM_API_CONNECTIONS,
        seconds: timing.seconds,
        rules: BENCH_RULES.length,
        events: eventRate,
        points: pointRate,
        ratio: pointRate.perSecond === 0 ? 0 : Math.round((eventRate.perSecond / pointRate.perSecond) * 100) / 100,
        kept,
      };
      log(
        `events API: events ${eventRate.perSecond}/s (p50 ${eventRate.p50} ms, p95 ${eventRate.p95} ms, p99 ${eventRate.p99} ms, ${eventRate.non2xx} non-2xx, ${eventRate.errors} errors) against points ${pointRate.perSecond}/s (p95 ${pointRate.p95} ms): ×${results.ratio}; ${kept.events} events kept for ${kept.acknowledged} acknowledged, ${kept.linesPerEvent} lines each`,
      );
      return results;
    } finally {
      await portal.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
