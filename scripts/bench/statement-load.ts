/**
 * One participant must not slow everyone (issue 16, decision 044): `GET user` (Dana) under load
 * alone, then the same while STATEMENT_CONNECTIONS connections pull bigspender's 10,000-entry
 * statement in a loop, as a browser asks for it (brotli accepted). Judged on the ratio of the two
 * p99 latencies (≤ 2×).
 *
 * The statements are pulled by a process of their own (statement-puller.ts), as by another
 * client: reading 80 kB replies in this process would delay its reading of `GET user`'s replies
 * and count as the server's latency. That process runs at the lowest CPU priority (nice 19,
 * decision 094): on two shared cores, reading ~500 MB/s of replies took most of a core from the
 * server and from this process; in a control run a bare Node server sending it the same bytes (the
 * portal serving none) raised `GET user`'s p99 ×1.2–×2.4 by itself. Another client machine takes no CPU from the
 * portal's; at nice 19 it takes what the portal and this process leave.
 *
 * In turns of 2 s (alone, with the statements, with the statements, alone, …), `seconds` for each
 * side, so a neighbour's load that comes or goes weighs on both sides alike. Each side's p99 is the
 * median of its turns' p99 (one turn hit by a neighbour's burst does not decide alone; the worst is
 * reported beside it), its requests/s the sum over its turns.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { apiHeaders, BROWSER_ACCEPT_ENCODING, signIn } from './fixtures.ts';
import type { LoadTiming } from './api.ts';

export const STATEMENT_CONNECTIONS = 4;
/** The budget: `GET user`'s p99 with the statements pulled at most this many times its p99 alone. */
export const MAX_P99_RATIO = 2;
/** The statement puller's niceness: the lowest priority (decision 094). */
export const PULLER_NICE = 19;

export interface Side {
  requestsPerSecond: number;
  /** The median of the turns' p50; `GET user`'s to a hundredth of a ms (each reply's own time), the statements' in whole ms (autocannon's histogram). */
  p50: number;
  /** The median of the turns' p99, as p50. */
  p99: number;
  /** The worst turn's p99. */
  p99Worst: number;
  errors: number;
  non2xx: number;
}

export interface StatementLoadResults {
  connections: number;
  statementConnections: number;
  /** The puller's niceness (19 since decision 094; older results lack it: 0). */
  pullerNice?: number;
  seconds: number;
  alone: Side;
  withStatements: Side;
  /** The statement load that ran beside `withStatements`. */
  statements: Side & { bytesPerReply: number };
  /** withStatements.p99 / alone.p99 (medians of the turns; p99s below 1 ms count as 1 ms: differences there are noise). */
  ratio: number;
}

/** One turn of `GET user`: autocannon's figures, and each reply's latency with its fraction of a millisecond. */
interface Turn {
  result: autocannon.Result;
  latenciesMs: number[];
}

/**
 * autocannon's histogram keeps whole milliseconds, too coarse for p99s of 1–4 ms (1.9 ms and
 * 1.0 ms both read 1); each reply's own time, as autocannon measures it (hrtime), keeps the
 * fraction.
 */
async function run(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Turn> {
  const latenciesMs: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, connections, duration: seconds }, (error: Error | null, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTime);
    });
  });
  return { result, latenciesMs };
}

/** The `fraction` quantile (nearest rank), to a hundredth of a millisecond. */
function quantile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]! * 100) / 100;
}

/** autocannon in a child process (statement-puller.ts), started once, run for a number of seconds at a time. */
interface Puller {
  /** Resolves `started` once the load runs, then `result` with its figures. */
  run(seconds: number): { started: Promise<void>; result: Promise<autocannon.Result> };
  stop(): Promise<void>;
}

function startPuller(url: string, headers: Record<string, string>, connections: number, nice: number): Puller {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'statement-puller.ts'), url, JSON.stringify(headers), String(connections)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  // As another machine would be: it takes only the CPU the portal and the bench leave (see above).
  if (child.pid !== undefined) setPriority(child.pid, nice);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (what: string) => {
    const line = await lines.next();
    if (line.done) throw new Error(`the statement puller exited before ${what}`);
    return line.value;
  };
  return {
    run(seconds) {
      child.stdin.write(`${seconds}\n`);
      const started = next('starting').then(() => undefined);
      const result = started.then(async () => JSON.parse(await next('its result')) as autocannon.Result);
      return { started, result };
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The figures of a side's turns: latencies to 0.01 ms where each reply's was kept (`GET user`), else autocannon's. */
function side(turns: (autocannon.Result | Turn)[], seconds: number): Side {
  const results = turns.map((t) => ('result' in t ? t.result : t));
  const p50s = turns.map((t) => ('result' in t ? quantile(t.latenciesMs, 0.5) : t.latency.p50));
  const p99s = turns.map((t) => ('result' in t ? quantile(t.latenciesMs, 0.99) : t.latency.p99));
  return {
    requestsPerSecond: Math.round(results.reduce((sum, r) => sum + r.requests.total, 0) / seconds),
    p50: Math.round(median(p50s) * 100) / 100,
    p99: Math.round(median(p99s) * 100) / 100,
    p99Worst: Math.max(...p99s),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

/** `pullerNice`: 0 measures as before decision 094, the puller's reading competing with the portal for the CPU. */
export async function runStatementLoad(
  baseUrl: string,
  timing: LoadTiming,
  log: (line: string) => void,
  { pullerNice = PULLER_NICE }: { pullerNice?: number } = {},
): Promise<StatementLoadResults> {
  const { seconds, warmupSeconds, connections } = timing;
  const api = `${baseUrl}/api/v1.0`;
  const user = { url: `${api}/user`, headers: apiHeaders(await signIn(baseUrl, 'demo')) };
  const statement = {
    url: `${api}/user/account/statement?username=bigspender&locale=en-US`,
    headers: { ...apiHeaders(await signIn(baseUrl, 'bigspender')), 'accept-encoding': BROWSER_ACCEPT_ENCODING },
  };
  const turns = Math.max(2, Math.round(seconds / 2));
  const turn = seconds / turns;
  const alone: Turn[] = [];
  const withStatements: Turn[] = [];
  const statements: autocannon.Result[] = [];
  const puller = startPuller(statement.url, statement.headers, STATEMENT_CONNECTIONS, pullerNice);
  try {
    // `GET user` while the statements are pulled: the puller runs a second longer and `GET user`
    // starts once it has, so the statements are pulled through the whole of it.
    const beside = async (userSeconds: number) => {
      const pulling = puller.run(userSeconds + 1);
      await pulling.started;
      return Promise.all([run(user.url, user.headers, connections, userSeconds), pulling.result]);
    };
    // Warm-up of both (discarded): the statement's first build and compression happen here.
    await beside(warmupSeconds);
    const together = async () => {
      const [u, s] = await beside(turn);
      withStatements.push(u);
      statements.push(s);
    };
    const lone = async () => {
      alone.push(await run(user.url, user.headers, connections, turn));
    };
    for (let i = 0; i < turns; i++) {
      if (i % 2 === 0) {
        await lone();
        await together();
      } else {
        await together();
        await lone();
      }
    }
  } finally {
    await puller.stop();
  }

  const results: StatementLoadResults = {
    connections,
    statementConnections: STATEMENT_CONNECTIONS,
    pullerNice,
    seconds,
    alone: side(alone, seconds),
    withStatements: side(withStatements, seconds),
    statements: {
      ...side(statements, turns * (turn + 1)),
      bytesPerReply: Math.round(
        statements.reduce((sum, r) => sum + r.throughput.total, 0) /
          Math.max(
            1,
            statements.reduce((sum, r) => sum + r.requests.total, 0),
          ),
      ),
    },
    ratio: 0,
  };
  results.ratio = Math.round((Math.max(1, results.withStatements.p99) / Math.max(1, results.alone.p99)) * 100) / 100;
  log(
    `GET user p99 ${results.alone.p99} ms alone, ${results.withStatements.p99} ms while ${STATEMENT_CONNECTIONS} connections pull bigspender's statement ` +
      `(${results.statements.requestsPerSecond}/s, ${results.statements.bytesPerReply} bytes each, puller at nice ${pullerNice}): ×${results.ratio}, ` +
      (pullerNice === PULLER_NICE
        ? `${results.ratio <= MAX_P99_RATIO ? 'pass' : 'MISS'} (≤ ×${MAX_P99_RATIO})`
        : 'no budget at this niceness'),
  );
  return results;
}
