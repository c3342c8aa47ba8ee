// Decision 082: two production processes on one database behind a real Caddy (Debian's caddy), each
// restarted in turn (SIGTERM, exit, a new one on the same port) while a load runs through Caddy:
// not one request fails. The drain of decision 081 (/readyz 503 first) and Caddy's active health
// check on /readyz move the traffic before a listener closes; lb_try_duration retries a request
// that finds a process gone on the other one.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, apiPaths, CLIENT_HEADER, SESSION_HEADER } from '@rewards/contract';
import { createTestDatabase, dialects, type TestDatabase } from '../test/databases.ts';
import { databaseUrlOf } from '../test/cli.ts';
import { freePort } from '../test/ports.ts';
import { exited, startServer, type ServerProcess } from '../test/server-process.ts';
import { OTHER_PASSWORD, seedOtherClient } from '../test/other-client.ts';

const CADDY = '/usr/bin/caddy';
const CLIENT_ORIGIN = 'https://rewards.globex.example';
/** Concurrent participants of the load, each a keep-alive loop of a read and a write. */
const LOAD_WORKERS = 2;
/** Requests the load makes after the last restart, so the restarted processes are seen serving it. */
const REQUESTS_AFTER = 100;

/** Polls `probe` until it gives true, or fails at the deadline. */
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The proxy of deploy/Caddyfile in small: http on a loopback port, both processes, the active
 * check on /readyz every 200 ms, a request retried on the other process for up to 10 s. The reply
 * names the process that served it (X-Upstream), for the test to see Caddy's view. least_conn as
 * there: under concurrent requests Caddy 2.6's round_robin sometimes found no process while one
 * was out, and a POST is not retried then (decision 082). The check waits 5 s, not the 2 s of
 * deploy/Caddyfile: a test run on two busy cores once saw the only process left take longer to
 * answer /readyz, and Caddy 2.6 (no health_fails) then took it out too; slow is not down.
 */
function caddyfile(port: number, upstreams: number[]): string {
  return `{
	admin off
	auto_https off
}
http://:${port} {
	bind 127.0.0.1
	reverse_proxy ${upstreams.map((p) => `127.0.0.1:${p}`).join(' ')} {
		lb_policy least_conn
		lb_try_duration 10s
		lb_try_interval 50ms
		lb_retries 20
		health_uri /readyz
		health_interval 200ms
		health_timeout 5s
		fail_duration 2s
		max_fails 3
		header_up X-Request-Id {http.request.uuid}
		header_down X-Upstream {http.reverse_proxy.upstream.hostport}
	}
}
`;
}

async function startCaddy(
  dir: string,
  port: number,
  upstreams: number[],
): Promise<{ child: ChildProcess; base: string; log: () => string }> {
  const config = join(dir, 'Caddyfile');
  writeFileSync(config, caddyfile(port, upstreams));
  // Its own home: Caddy keeps state under XDG_DATA_HOME / XDG_CONFIG_HOME, never the machine's.
  const child = spawn(CADDY, ['run', '--adapter', 'caddyfile', '--config', config], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) =>
    (log = `${log}${chunk
      .toString()
      .split('\n')
      .filter((l) => /error|health|up"/i.test(l))
      .join('\n')}\n`.slice(-60_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const base = `http://127.0.0.1:${port}`;
  await until('Caddy answers', async () => {
    if (child.exitCode !== null) throw new Error(`caddy exited ${child.exitCode}:\n${log}`);
    try {
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      return true;
    } catch {
      return false;
    }
  });
  return { child, base, log: () => log };
}

interface Tally {
  requests: number;
  failures: string[];
  byUpstream: Map<string, number>;
}

/** One participant's loop over keep-alive (fetch's pool): GET /user, then a locale change, until told to stop. */
async function participantLoop(base: string, tally: Tally, running: () => boolean): Promise<void> {
  const headers = { 'content-type': 'application/json', [CLIENT_HEADER]: CLIENT_ORIGIN };
  const login = await fetch(`${base}${API_BASE}${apiPaths.login}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'demo', password: OTHER_PASSWORD }),
  });
  if (!login.ok) throw new Error(`login through Caddy: ${login.status} ${await login.text()}`);
  const { sessionId } = (await login.json()) as { sessionId: string };
  const session = { ...headers, [SESSION_HEADER]: sessionId };
  const call = async (method: string, path: string, body?: unknown) => {
    tally.requests += 1;
    try {
      const reply = await fetch(`${base}${API_BASE}${path}`, {
        method,
        headers: session,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await reply.text();
      const upstream = reply.headers.get('x-upstream') ?? '?';
      tally.byUpstream.set(upstream, (tally.byUpstream.get(upstream) ?? 0) + 1);
      if (!reply.ok) tally.failures.push(`${method} ${path}: ${reply.status} from ${upstream} ${text.slice(0, 200)}`);
    } catch (error) {
      tally.failures.push(`${method} ${path}: ${(error as Error).message} ${String((error as Error).cause ?? '')}`);
    }
  };
  while (running()) {
    await call('GET', apiPaths.user);
    await call('POST', apiPaths.userLocale, { locale: { code: 'fr-FR' } });
  }
}

// Real server processes started from source (test/server-process.ts) and a real Caddy: their own deadline.
describe.each(dialects)('a rolling restart behind Caddy on %s', { timeout: 300_000 }, (dialect) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // A production database holds no demo: one client, one participant with a password (the load's).
    await seedOtherClient(database.db);
    dir = mkdtempSync(join(tmpdir(), 'rewards-rolling-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves every request of a load while each of two processes is restarted in turn', async () => {
    const url = databaseUrlOf(database);
    const ports = [await freePort(), await freePort()];
    const env = (port: number) => ({
      NODE_ENV: 'production',
      // The test runs' cheap hashes are refused in production (decision 088).
      PASSWORD_HASH_COST: 'owasp',
      TRUST_PROXY: '127.0.0.1',
      DRAIN_SECONDS: '1',
      METRICS_PORT: '',
      DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'warn',
      PORT: String(port),
    });
    const servers: ServerProcess[] = await Promise.all(ports.map((port) => startServer(url, env(port))));
    const caddy = await startCaddy(dir, await freePort(), ports);
    const tally: Tally = { requests: 0, failures: [], byUpstream: new Map() };
    let running = true;
    // Caddy's view: a reply to /readyz through it that came from this process (the check passed there).
    const servedBy = (port: number) =>
      until(`Caddy sends requests to 127.0.0.1:${port}`, async () => {
        const reply = await fetch(`${caddy.base}/readyz`);
        await reply.arrayBuffer();
        return reply.status === 200 && reply.headers.get('x-upstream') === `127.0.0.1:${port}`;
      });
    try {
      for (const port of ports) await servedBy(port);
      const started = Date.now();
      const load = Promise.all(Array.from({ length: LOAD_WORKERS }, () => participantLoop(caddy.base, tally, () => running)));
      // A load stopped by an error ends the test rather than leaving it to its deadline.
      load.catch(() => (running = false));
      await until('the load runs', async () => tally.requests >= 20);

      for (const [i, port] of ports.entries()) {
        const done = exited(servers[i]!.child);
        servers[i]!.child.kill('SIGTERM');
        expect(await done).toBe(0);
        servers[i] = await startServer(url, env(port));
        await servedBy(port);
      }
      const before = tally.requests;
      await until('the load runs on', async () => tally.requests >= before + REQUESTS_AFTER);
      running = false;
      await load;
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `rolling restart on ${dialect}: ${tally.requests} requests in ${seconds.toFixed(1)} s, ${tally.failures.length} failed; ` +
          `by process: ${[...tally.byUpstream].map(([upstream, n]) => `${upstream} ${n}`).join(', ')}`,
      );
      // What Caddy saw (health checks, retries), to tell a failure's cause.
      const caddySaw = caddy
        .log()
        .split('\n')
        .filter((line) => /health|upstream|error/i.test(line));
      expect(tally.failures, caddySaw.slice(-40).join('\n')).toEqual([]);
      // Both processes served the load (a restart that left one out would hide a failure).
      for (const port of ports) expect(tally.byUpstream.get(`127.0.0.1:${port}`) ?? 0).toBeGreaterThan(0);
    } finally {
      running = false;
      const caddyExit = exited(caddy.child);
      caddy.child.kill('SIGTERM');
      await caddyExit;
      await Promise.all(servers.map((server) => (server.child.exitCode === null ? server.stop() : undefined)));
    }
  });
});
