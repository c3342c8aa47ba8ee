/**
 * Whether forgot-user-id and forgot-password tell a match by time when asked as a script asks
 * (issue 27 section 4, decisions 018 and 042): runs of RUN_LENGTH requests of one kind, one
 * started every PACE_MS (or as soon as the previous reply is in, when it took longer), so that
 * what the portal does after one reply (the mail worker's pass, woken 20 ms after each request)
 * falls into the next requests of the run, as it would for someone timing the endpoint. (Sent
 * back to back, ten requests of 1.5 ms are over before the first pass starts.) The `recovery`
 * part waits for the worker between requests and so leaves that out; this part keeps it in.
 *
 * A kind is an endpoint with a known or an unknown account. The runs' kinds follow the de Bruijn
 * order of `recovery.ts` (each kind right after each kind equally often), the first cycle
 * untimed; between runs the bench waits until the outbox is empty, then SETTLE_MS, so that each
 * run starts on an idle worker. The attempt limits would answer most of these requests instead
 * (decision 040): every request comes from an address of its own (X-Forwarded-For; the bench
 * portal runs with TRUST_PROXY=loopback), every known request names a bench participant of its
 * own (benchforgotNNN, once per endpoint) and every unknown one a name of its own, so each is
 * counted as usual and none reaches a limit. Median of every timed request per kind; beside it,
 * less exposed to the neighbours' load, the portal's CPU per request of each kind (/proc, from a
 * run's start until the worker has emptied the outbox after it), no budget.
 */
import { randomUUID } from 'node:crypto';
import { processTicks, TICKS_PER_SECOND } from './cpu.ts';
import { apiHeaders, CLIENT_ID, openDatabase } from './fixtures.ts';
import { median } from './history.ts';
import type { Portal } from './portal.ts';
import { KIND_ORDER } from './recovery.ts';

type Endpoint = 'forgotUsername' | 'forgotPassword';
type Side = 'known' | 'unknown';

const KINDS: ReadonlyArray<readonly [Endpoint, Side]> = [
  ['forgotUsername', 'known'],
  ['forgotUsername', 'unknown'],
  ['forgotPassword', 'known'],
  ['forgotPassword', 'unknown'],
];
/** Requests per run (the issue timed runs of 10). */
const RUN_LENGTH = 10;
/** One request started every this many ms within a run: about the pace of the client. */
const PACE_MS = 5;
/** Cycles of KIND_ORDER: the first untimed (warm-up), the others timed. */
const CYCLES = 4;
const RUNS_PER_KIND_PER_CYCLE = KIND_ORDER.length / KINDS.length;
/** Timed requests per kind. */
export const FORGOT_SAMPLES = (CYCLES - 1) * RUNS_PER_KIND_PER_CYCLE * RUN_LENGTH;
/** Known requests per endpoint, warm-up included: one participant each. */
const PARTICIPANTS = CYCLES * RUNS_PER_KIND_PER_CYCLE * RUN_LENGTH;
/** After the outbox is empty: time for the worker's pass to end before the next run. */
const SETTLE_MS = 100;
/** "Within 10%": |known / unknown − 1| at most this. */
export const FORGOT_TOLERANCE = 0.1;
const PREFIX = 'benchforgot';

export interface ForgotCase {
  endpoint: Endpoint;
  knownMs: number;
  unknownMs: number;
  /** known median / unknown median */
  ratio: number;
  /** The portal's CPU per request, the worker's pass after it included (10 ms ticks over 120 requests). */
  knownCpuMs: number;
  unknownCpuMs: number;
  samples: number;
  runLength: number;
  paceMs: number;
  /** Replies other than 200 (none expected: a limit reached would show here). */
  non200: number;
}

export interface ForgotResults {
  cases: ForgotCase[];
}

const participantName = (i: number) => `${PREFIX}${String(i).padStart(3, '0')}`;

/** The bench's known accounts: active participants, copies of demo under their own names, addresses and account numbers. */
export async function addForgotData(databaseUrl: string): Promise<void> {
  const db = openDatabase(databaseUrl);
  try {
    const demo = await db
      .selectFrom('participants')
      .selectAll()
      .where('client_id', '=', CLIENT_ID)
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const rows = Array.from({ length: PARTICIPANTS }, (_, i) => ({
      ...demo,
      id: randomUUID(),
      username: participantName(i),
      username_key: participantName(i),
      email: `${participantName(i)}@example.com`,
      account_number: String(3_100_000 + i),
      status: 'active',
      created_at: now,
    }));
    await db.insertInto('participants').values(rows).execute();
  } finally {
    await db.destroy();
  }
}

export async function runForgot(
  portal: Pick<Portal, 'baseUrl' | 'pid'>,
  databaseUrl: string,
  log: (line: string) => void,
): Promise<ForgotResults> {
  const { baseUrl, pid } = portal;
  const db = openDatabase(databaseUrl);
  let address = 0;
  const non200: Record<Endpoint, number> = { forgotUsername: 0, forgotPassword: 0 };
  /** Resolves once the worker has handled every queued row; 10 s at most. */
  const outboxDrained = async () => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const row = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('status', 'in', ['pending', 'sending'])
        .executeTakeFirstOrThrow();
      if (Number(row.n) === 0) return;
      if (Date.now() > deadline) throw new Error('the outbox did not drain within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const timed = async (endpoint: Endpoint, body: unknown): Promise<number> => {
    address += 1;
    const headers = { ...apiHeaders(), 'x-forwarded-for': `10.27.${address >> 8}.${address & 255}` };
    const start = performance.now();
    const response = await fetch(`${baseUrl}/api/v1.0/${endpoint}`, { method: 'POST', headers, body: JSON.stringify(body) });
    await response.arrayBuffer();
    const ms = performance.now() - start;
    if (response.status !== 200) non200[endpoint] += 1;
    return ms;
  };
  const next: Record<Endpoint, Record<Side, number>> = {
    forgotUsername: { known: 0, unknown: 0 },
    forgotPassword: { known: 0, unknown: 0 },
  };
  const request = (endpoint: Endpoint, side: Side): Promise<number> => {
    const i = next[endpoint][side]++;
    const name = side === 'known' ? participantName(i) : `nobody${endpoint}${i}`;
    const body =
      endpoint === 'forgotUsername' ? { emailAddress: `${name}@example.com` } : { userName: name, emailAddress: `${name}@example.com` };
    return timed(endpoint, body);
  };
  const samples: Record<Endpoint, Record<Side, number[]>> = {
    forgotUsername: { known: [], unknown: [] },
    forgotPassword: { known: [], unknown: [] },
  };
  const cpuTicks: Record<Endpoint, Record<Side, number>> = {
    forgotUsername: { known: 0, unknown: 0 },
    forgotPassword: { known: 0, unknown: 0 },
  };
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      for (const kind of KIND_ORDER) {
        const [endpoint, side] = KINDS[kind]!;
        await outboxDrained();
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const ticks = processTicks(pid);
        const runStart = performance.now();
        // The worker's pass after one request lands in the next ones.
        for (let r = 0; r < RUN_LENGTH; r++) {
          const wait = runStart + r * PACE_MS - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const ms = await request(endpoint, side);
          if (cycle > 0) samples[endpoint][side].push(ms);
        }
        await outboxDrained();
        if (cycle > 0) cpuTicks[endpoint][side] += processTicks(pid) - ticks;
      }
    }
  } finally {
    await db.destroy();
  }
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const cases = (['forgotUsername', 'forgotPassword'] as const).map((endpoint): ForgotCase => {
    const knownMs = median(samples[endpoint].known);
    const unknownMs = median(samples[endpoint].unknown);
    const cpuMs = (side: Side) => round2(((cpuTicks[endpoint][side] / TICKS_PER_SECOND) * 1000) / FORGOT_SAMPLES);
    const c: ForgotCase = {
      endpoint,
      knownMs: round2(knownMs),
      unknownMs: round2(unknownMs),
      ratio: Math.round((knownMs / unknownMs) * 1000) / 1000,
      knownCpuMs: cpuMs('known'),
      unknownCpuMs: cpuMs('unknown'),
      samples: FORGOT_SAMPLES,
      runLength: RUN_LENGTH,
      paceMs: PACE_MS,
      non200: non200[endpoint],
    };
    log(
      `${endpoint} in runs of ${RUN_LENGTH}: known ${c.knownMs} ms, unknown ${c.unknownMs} ms (median of ${FORGOT_SAMPLES} each), ×${c.ratio}; portal CPU per request ${c.knownCpuMs} / ${c.unknownCpuMs} ms`,
    );
    return c;
  });
  return { cases };
}

export const forgotWithinTolerance = (c: ForgotCase) => Math.abs(c.ratio - 1) <= FORGOT_TOLERANCE && c.non200 === 0;
