/**
 * One participant must not slow everyone (issue 16, decision 044): `GET user` (Dana) under load
 * alone, then the same while STATEMENT_CONNECTIONS connections pull bigspender's 10,000-entry
 * statement in a loop, as a browser asks for it (brotli accepted). Judged on the ratio of the two
 * p99 latencies (≤ 2×).
 *
 * In turns (alone, with the statements, with the statements, alone), each `seconds / 2` long, so
 * a neighbour's load that comes or goes weighs on both sides alike; each side's p99 is the worst
 * of its turns, its requests/s the sum over its turns.
 */
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
  p99: number;
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
  /** withStatements.p99 / alone.p99 (p99 of at least 1 ms, autocannon's resolution). */
  ratio: number;
}

function run(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, headers, connections, duration: seconds });
}

function side(results: autocannon.Result[], seconds: number): Side {
  const p50s = results.map((r) => r.latency.p50).sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(results.reduce((sum, r) => sum + r.requests.total, 0) / seconds),
    p50: p50s[Math.floor(p50s.length / 2)]!,
    p99: Math.max(...results.map((r) => r.latency.p99)),
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
  const turn = Math.max(1, seconds / 2);
  const alone: autocannon.Result[] = [];
  const withStatements: autocannon.Result[] = [];
  const statements: autocannon.Result[] = [];
  // Warm-up of both (discarded): the statement's first build and compression happen here.
  await Promise.all([run(user.url, user.headers, connections, warmupSeconds), run(statement.url, statement.headers, STATEMENT_CONNECTIONS, warmupSeconds)]);
  const together = async () => {
    const [u, s] = await Promise.all([run(user.url, user.headers, connections, turn), run(statement.url, statement.headers, STATEMENT_CONNECTIONS, turn)]);
    withStatements.push(u);
    statements.push(s);
  };
  alone.push(await run(user.url, user.headers, connections, turn));
  await together();
  await together();
  alone.push(await run(user.url, user.headers, connections, turn));

  const results: StatementLoadResults = {
    connections,
    statementConnections: STATEMENT_CONNECTIONS,
    seconds: 2 * turn,
    alone: side(alone, 2 * turn),
    withStatements: side(withStatements, 2 * turn),
    statements: {
      ...side(statements, 2 * turn),
      bytesPerReply: Math.round(statements.reduce((sum, r) => sum + r.throughput.total, 0) / Math.max(1, statements.reduce((sum, r) => sum + r.requests.total, 0))),
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
