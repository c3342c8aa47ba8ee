/**
 * One participant must not slow everyone (issue 16, decision 044): `GET user` (Dana) under load
 * alone, then the same while STATEMENT_CONNECTIONS connections pull bigspender's 10,000-entry
 * statement in a loop, as a browser asks for it (brotli accepted). Judged on the ratio of the two
 * p99 latencies (≤ 2×).
 *
 * The statements are pulled by a process of their own (statement-puller.ts), as by another
 * client: reading 80 kB replies in this process would delay its reading of `GET user`'s replies
 * and count as the server's latency.
 *
 * In turns of 2 s (alone, with the statements, with the statements, alone, …), `seconds` for each
 * side, so a neighbour's load that comes or goes weighs on both sides alike. Each side's p99 is the
 * median of its turns' p99 (one turn hit by a neighbour's burst does not decide alone; the worst is
 * reported beside it), its requests/s the sum over its turns.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import './autocannon-bodies.ts';
import { apiHeaders, BROWSER_ACCEPT_ENCODING, signIn } from './fixtures.ts';
import type { LoadTiming } from './api.ts';

export const STATEMENT_CONNECTIONS = 4;
/** The budget: `GET user`'s p99 with the statements pulled at most this many times its p99 alone. */
export const MAX_P99_RATIO = 2;

export interface Side {
  requestsPerSecond: number;
  p50: number;
  /** The median of the turns' p99. */
  p99: number;
  /** The worst turn's p99. */
  p99Worst: number;
  errors: number;
  non2xx: number;
}

export interface StatementLoadResults {
  connections: number;
  statementConnections: number;
  seconds: number;
  alone: Side;
  withStatements: Side;
  /** The statement load that ran beside `withStatements`. */
  statements: Side & { bytesPerReply: number };
  /** withStatements.p99 / alone.p99 (medians of the turns; p99 of at least 1 ms, autocannon's resolution). */
  ratio: number;
}

function run(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, headers, connections, duration: seconds });
}

/** autocannon in a child process (statement-puller.ts), started once, run for a number of seconds at a time. */
interface Puller {
  /** Resolves `started` once the load runs, then `result` with its figures. */
  run(seconds: number): { started: Promise<void>; result: Promise<autocannon.Result> };
  stop(): Promise<void>;
}

function startPuller(url: string, headers: Record<string, string>, connections: number): Puller {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'statement-puller.ts'), url, JSON.stringify(headers), String(connections)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
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

function side(results: autocannon.Result[], seconds: number): Side {
  return {
    requestsPerSecond: Math.round(results.reduce((sum, r) => sum + r.requests.total, 0) / seconds),
    p50: median(results.map((r) => r.latency.p50)),
    p99: median(results.map((r) => r.latency.p99)),
    p99Worst: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

export async function runStatementLoad(baseUrl: string, timing: LoadTiming, log: (line: string) => void): Promise<StatementLoadResults> {
  const { seconds, warmupSeconds, connections } = timing;
  const api = `${baseUrl}/api/v1.0`;
  const user = { url: `${api}/user`, headers: apiHeaders(await signIn(baseUrl, 'demo')) };
  const statement = {
    url: `${api}/user/account/statement?username=bigspender&locale=en-US`,
    headers: { ...apiHeaders(await signIn(baseUrl, 'bigspender')), 'accept-encoding': BROWSER_ACCEPT_ENCODING },
  };
  const turns = Math.max(2, Math.round(seconds / 2));
  const turn = seconds / turns;
  const alone: autocannon.Result[] = [];
  const withStatements: autocannon.Result[] = [];
  const statements: autocannon.Result[] = [];
  const puller = startPuller(statement.url, statement.headers, STATEMENT_CONNECTIONS);
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
      `(${results.statements.requestsPerSecond}/s, ${results.statements.bytesPerReply} bytes each): ×${results.ratio}, ${results.ratio <= MAX_P99_RATIO ? 'pass' : 'MISS'} (≤ ×${MAX_P99_RATIO})`,
  );
  return results;
}
