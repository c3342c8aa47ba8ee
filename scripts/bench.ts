/**
 * HTTP benchmarks of the real server on a fresh embedded database, with autocannon on loopback.
 * Each case runs a fixed number of seconds; the figures go into the README's "Measured" table.
 * Usage: npm run bench [-- --seconds 10 --connections 20]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ensureWebBuild, startPortalServer } from '../apps/web/e2e/harness/server.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '16' } } });
const duration = Number(values.seconds);
const connections = Number(values.connections);

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  session?: boolean;
  connections?: number;
}

const cases: Case[] = [
  { name: 'GET / (page with inlined client data)', method: 'GET', path: '/' },
  { name: 'GET viewConfig/client', method: 'GET', path: '/api/v1.0/viewConfig/client' },
  { name: 'GET viewConfig/bundle/fr-FR', method: 'GET', path: '/api/v1.0/viewConfig/bundle/fr-FR' },
  { name: 'GET user (signed in)', method: 'GET', path: '/api/v1.0/user', session: true },
  // Bound by argon2id on purpose (19 MiB, 2 passes): few connections, or it measures queueing.
  { name: 'POST login (argon2id)', method: 'POST', path: '/api/v1.0/login', body: JSON.stringify({ username: 'newbie', password: 'Rewards-2026!' }), connections: 4 },
];

ensureWebBuild();
const server = await startPortalServer();
try {
  const headers = { 'content-type': 'application/json', 'client-id': 'http://localhost' };
  const login = await fetch(`${server.baseUrl}/api/v1.0/login`, { method: 'POST', headers, body: JSON.stringify({ username: 'demo', password: 'Rewards-2026!' }) });
  const { sessionId } = (await login.json()) as { sessionId: string };

  const rows: string[] = [];
  for (const c of cases) {
    const result = await autocannon({
      url: `${server.baseUrl}${c.path}`,
      method: c.method,
      headers: { ...headers, ...(c.session ? { 'x-session-id': sessionId } : {}) },
      ...(c.body ? { body: c.body } : {}),
      connections: c.connections ?? connections,
      duration,
    });
    const failed = result.non2xx + result.errors;
    rows.push(
      `| ${c.name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${c.connections ?? connections} | ${failed} |`,
    );
  }
  console.log(`\n${duration} s per case on ${process.version}, loopback, embedded SQLite\n`);
  console.log('| case | requests/s | p50 ms | p99 ms | connections | non-2xx |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await server.stop();
}
