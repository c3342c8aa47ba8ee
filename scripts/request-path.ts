/**
 * `node scripts/request-path.ts`: which of our source files a warm `GET /api/v1.0/user` runs code
 * in (issue 30 §4: the request path a newcomer reads). V8's precise coverage, reset after a warm
 * up, then one request over HTTP as the portal makes it, on the embedded default (a SQLite file)
 * with the default read caches: once answered from them, once just after a commit (the
 * participant's row changed), when it reads the database. DATABASE_URL=postgres://… measures
 * PostgreSQL's path instead (no generation cache there, so both are the same path).
 */
import { Session } from 'node:inspector/promises';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_BASE, CLIENT_HEADER, SESSION_HEADER } from '@rewards/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedDemo, DEMO_PASSWORD } from '../apps/server/src/db/seed/demo.ts';

const ROOT = new URL('..', import.meta.url).href;
const ORIGIN = 'http://localhost:3000';
const dir = mkdtempSync(join(tmpdir(), 'request-path-'));
const config = {
  ...loadConfig({ LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? `file:${join(dir, 'rewards.db')}` }),
  webDist: undefined,
  consoleDist: undefined,
};
const db = createDatabase(config.database);
await migrateToLatest(db);
await seedDemo(db);
const app = await buildApp({ config, db });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const headers = { 'content-type': 'application/json', [CLIENT_HEADER]: ORIGIN };
const login = await fetch(`${address}${API_BASE}/login`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ username: 'demo', password: DEMO_PASSWORD }),
});
const { sessionId } = (await login.json()) as { sessionId: string };
const getUser = async () => {
  const reply = await fetch(`${address}${API_BASE}/user`, { headers: { ...headers, [SESSION_HEADER]: sessionId } });
  if (reply.status !== 200) throw new Error(`GET user: ${reply.status}`);
  await reply.arrayBuffer();
};

const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
for (let i = 0; i < 50; i++) await getUser();
await inspector.post('Profiler.takePreciseCoverage'); // resets the counts: what follows is one request

const ours = (url: string) => url.startsWith(ROOT) && !url.includes('/node_modules/') && !url.includes('/scripts/');
async function filesOfOneRequest(label: string): Promise<void> {
  await getUser();
  const { result } = await inspector.post('Profiler.takePreciseCoverage');
  const visited = result.filter((script) => ours(script.url) && script.functions.some((fn) => fn.ranges[0]!.count > 0));
  console.log(`${label}: ${visited.length} files`);
  for (const script of visited) console.log(`  ${script.url.slice(ROOT.length)}`);
}
await filesOfOneRequest('GET user answered from the read caches');
// A change and its undoing: two commits (an update to the same value commits nothing).
await sql`update participants set first_name = first_name || '.' where username = 'demo'`.execute(db);
await sql`update participants set first_name = substr(first_name, 1, length(first_name) - 1) where username = 'demo'`.execute(db);
await inspector.post('Profiler.takePreciseCoverage');
await filesOfOneRequest('GET user just after a commit');
await inspector.post('Profiler.stopPreciseCoverage');
await app.close();
await db.destroy();
rmSync(dir, { recursive: true, force: true });
