import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { consoleParticipantPaths as paths } from '@rewards/contract/console-participants';
import { databaseConfigFromUrl } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { createEmptyPostgresDatabase, dialects, type Dialect } from '../../../test/databases.ts';
import { exited, startServer, type ServerProcess } from '../../../test/server-process.ts';
import { createStaff } from '../staff/accounts.ts';
import { startFullSession } from '../staff/sessions.ts';

const CLI = join(import.meta.dirname, '..', '..', 'cli', 'rewards.ts');
const CONSOLE_ORIGIN = 'http://console.localhost:3000';
const LIMIT = 1000;

/** A database both servers share: a SQLite file (the first server seeds it) or a PostgreSQL database seeded by the operator command. */
async function sharedDatabase(dialect: Dialect, dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: `file:${join(dir, 'shared.db')}`, drop: async () => {} };
  const database = await createEmptyPostgresDatabase();
  const seed = spawn(process.execPath, [CLI, 'seed-demo'], {
    env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dir },
    stdio: 'ignore',
  });
  if ((await exited(seed)) !== 0) throw new Error('seed-demo failed');
  return database;
}

/** A console call as its pages make it, to one server: the console's host and origin, the cookie. */
function post(base: string, path: string, cookie: string, body: unknown): Promise<{ status: number; body: string }> {
  const url = new URL(`${base}${CONSOLE_API_BASE}${path}`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          host: 'console.localhost:3000',
          origin: CONSOLE_ORIGIN,
          cookie: `rewards_console=${cookie}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Decision 048: a support agent's daily limit is a counter in the database taken by one
 * conditional write, so two server processes on one database share it: 100 adjustments at
 * once, spread over both, never add up past the limit.
 */
describe.each(dialects)("the agents' daily limit across two server processes on %s", (dialect) => {
  let dir: string;
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let servers: ServerProcess[] = [];
  let db: Db;
  let cookie: string;
  let demoId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rewards-adjust-'));
    database = await sharedDatabase(dialect, dir);
    const env = { DATA_DIR: dir, CONSOLE_ORIGIN };
    const first = await startServer(database.url, env);
    servers = [first, await startServer(database.url, env)];
    db = createDatabase(databaseConfigFromUrl(database.url));
    const email = `agent-${randomUUID().slice(0, 8)}@acme.test`;
    await createStaff(
      db,
      CONSOLE_ORIGIN,
      { name: 'test', kind: 'operator', origin: 'test', reason: 'two processes' },
      { email, name: 'Agent', owner: false, roles: [{ clientId: 'acme', role: 'support_agent' }] },
    );
    // Signed in as if by password and code: the session is what the servers check.
    const staff = await db.selectFrom('staff').select('id').where('email_key', '=', email).executeTakeFirstOrThrow();
    cookie = (await startFullSession(db, staff.id, '127.0.0.1', new Date())).sessionId;
    demoId = (
      await db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', 'acme')
        .where('username_key', '=', 'demo')
        .executeTakeFirstOrThrow()
    ).id;
    await db.updateTable('clients').set({ agent_daily_adjustment_limit: LIMIT }).where('id', '=', 'acme').execute();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.destroy();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('grants 33 of 100 adjustments of 30 points sent at once to both: 990 of a 1000-point day', async () => {
    const before = (await db.selectFrom('participants').select('balance').where('id', '=', demoId).executeTakeFirstOrThrow()).balance ?? 0;
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post(servers[i % 2]?.base ?? '', paths.adjustments('acme', demoId), cookie, {
          points: 30,
          participantText: 'Goodwill',
          internalNote: 'two processes',
          requestId: randomUUID(),
        }),
      ),
    );
    const tally = replies.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});
    expect(tally).toEqual({ 200: 33, 429: 67 });
    const after = (await db.selectFrom('participants').select('balance').where('id', '=', demoId).executeTakeFirstOrThrow()).balance ?? 0;
    expect(after - before).toBe(990);
  }, 60_000);
});
