import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseConfigFromUrl } from '../../config.ts';
import { createDatabase, type Db } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createEmptyPostgresDatabase, dialects, type Dialect } from '../../../test/databases.ts';
import { startServer, type ServerProcess } from '../../../test/server-process.ts';
import { ErrorCode } from '@rewards/contract';
import { MAX_WEBHOOK_ENDPOINTS, programWebhooksPaths } from '@rewards/contract/console-webhooks';
import { PROGRAM_API_BASE } from '@rewards/contract/program-api';
import { insertTestClient } from '../../../test/test-client.ts';
import { createApiKey } from '../api-keys/service.ts';
import { ulid } from './ids.ts';
import { createEndpoint } from './manage.ts';
import { tellWebhooks } from './service.ts';
import { startReceiver, verified, type TestReceiver } from './test-receiver.ts';

async function sharedDatabase(dialect: Dialect, dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { url: `file:${join(dir, 'shared.db')}`, drop: async () => {} };
  return createEmptyPostgresDatabase();
}

/** Polls the database until `done` holds; every loop has a deadline. */
async function until(what: string, done: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Decision 084 across real server processes on one database: the outbox's deliveries are claimed
 * row by row, so two processes deliver each event once; a process killed with SIGKILL while a
 * receiver holds its request leaves the delivery to be tried again by the next process, with the
 * same webhook-id (at least once). A client's endpoints stay within their cap however many
 * processes are asked at once.
 */
describe.each(dialects)('webhook delivery by server processes on %s', (dialect) => {
  let dir: string;
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let db: Db;
  let receiver: TestReceiver;
  let secret: string;
  let endpointId: string;
  const servers: ServerProcess[] = [];
  const client = `proc-${ulid().slice(-8).toLowerCase()}`;
  const env = () => ({ DATA_DIR: dir, WEBHOOKS_ALLOW_LOOPBACK: 'on' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rewards-webhooks-'));
    database = await sharedDatabase(dialect, dir);
    db = createDatabase(databaseConfigFromUrl(database.url));
    await migrateToLatest(db);
    receiver = await startReceiver();
    const made = await createEndpoint(
      db,
      { dataDir: dir, policy: { allowLoopback: true } },
      { name: 'tester', kind: 'operator' },
      { clientId: client, url: receiver.url, events: ['*'], reason: 'two processes' },
    );
    secret = made.secret;
    endpointId = made.endpoint.id;
    // One after the other: the first seeds a new SQLite file with the demo.
    servers.push(await startServer(database.url, env()));
    servers.push(await startServer(database.url, env()));
  }, 240_000);

  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) await server.stop('SIGKILL');
    await receiver?.close();
    await db?.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const pendingCount = async () =>
    Number(
      (
        await db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('endpoint_id', '=', endpointId)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('delivers each of 60 events exactly once between two processes', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        db
          .transaction()
          .execute((trx) => tellWebhooks(trx, { clientId: client, kind: 'points.credited', username: `p${i % 9}`, data: { i } })),
      ),
    );
    await until('every delivery delivered', async () => (await pendingCount()) === 0);
    const ids = receiver.received.map((r) => r.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    for (const request of receiver.received) verified(secret, request);
    const holders = await db.selectFrom('webhook_deliveries').select('attempts').where('endpoint_id', '=', endpointId).execute();
    expect(holders.every((h) => h.attempts === 1)).toBe(true);
  }, 120_000);

  it(`makes ${MAX_WEBHOOK_ENDPOINTS} endpoints, no more, of 100 asked for at once through both processes`, async () => {
    // A client of this test's own: the cap counts a client's endpoints.
    const capped = `cap-${ulid().slice(-8).toLowerCase()}`;
    await insertTestClient(db, capped);
    const { key } = await createApiKey(db, {
      clientId: capped,
      name: 'burst',
      scopes: ['webhooks:manage'],
      createdBy: 'tester',
      actorKind: 'operator',
      reason: 'the endpoint cap under a burst',
    });
    const replies = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const reply = await fetch(`${servers[i % 2]!.base}${PROGRAM_API_BASE}${programWebhooksPaths.endpoints}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: receiver.url, events: ['*'], description: `burst ${i}` }),
        });
        return { status: reply.status, body: (await reply.json()) as { errorCode?: number } };
      }),
    );
    const made = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status === 409);
    expect(made).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect(refused).toHaveLength(100 - MAX_WEBHOOK_ENDPOINTS);
    expect(refused.every((r) => r.body.errorCode === ErrorCode.webhookEndpointLimit)).toBe(true);
    const rows = await db.selectFrom('webhook_endpoints').select('id').where('client_id', '=', capped).execute();
    expect(rows).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    const audited = await db
      .selectFrom('audit_log')
      .select('id')
      .where('client_id', '=', capped)
      .where('action', '=', 'webhooks.endpoint.create')
      .execute();
    expect(audited).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  }, 120_000);

  it('delivers after a restart an event whose process was killed with SIGKILL while delivering it, with the same id', async () => {
    // One process from here: the second stops cleanly (SIGTERM, the drain), so the first must be the one sending.
    expect(await servers[1]!.stop()).toBe(0);
    receiver.received.length = 0;
    receiver.hold();
    await db
      .transaction()
      .execute((trx) => tellWebhooks(trx, { clientId: client, kind: 'code.redeemed', username: 'kim', data: { points: 7 } }));
    await receiver.waitFor(1, 60_000);
    const first = receiver.received[0]!;
    expect(await servers[0]!.stop('SIGKILL')).toBe(null);
    const [row] = await db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', first.id).execute();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.claimed_by).toContain(`:${servers[0]!.child.pid}:`);

    receiver.release();
    servers.push(await startServer(database.url, env()));
    // The dead process's claim runs out (60 s): made to now rather than waited for.
    await db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', row!.id)
      .execute();
    await until('the delivery delivered after the restart', async () => (await pendingCount()) === 0);
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(receiver.received.every((r) => r.id === first.id)).toBe(true);
    for (const request of receiver.received) verified(secret, request);
    const [after] = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', row!.id).execute();
    expect(after).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(after!.claimed_by).toBeNull();
  }, 180_000);
});
