// Decision 081: on SIGTERM a process turns /readyz to 503, serves DRAIN_SECONDS more, then closes
// its listener, finishes what is under way, frees its leases and exits 0; a second SIGTERM exits 1.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../test/databases.ts';
import { databaseUrlOf } from '../test/cli.ts';
import { exited, startServer, type ServerProcess } from '../test/server-process.ts';
import { seedDemo } from './db/seed/demo.ts';
import { importLeaseName } from './modules/imports/run.ts';
import { readImport, stageImport } from './modules/imports/service.ts';
import { pointsFile } from './modules/imports/test-support.ts';

/** Polls `probe` until it gives a value (not undefined), or fails at the deadline. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A login whose body is still arriving: without doubt a request under way. */
function startSlowLogin(server: ServerProcess) {
  const body = JSON.stringify({ username: 'demo', password: 'Rewards-2026!' });
  const socket = connect(Number(new URL(server.base).port), '127.0.0.1');
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(response)));
  socket.write(
    `POST /api/v1.0/login HTTP/1.1\r\nHost: localhost\r\nclient-id: http://localhost:3000\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  return { finish: () => socket.write(body.slice(10)), ended };
}

// Real server processes started from source: their own deadline (test/server-process.ts), not the suite's 20 s.
describe.each(dialects)('a server process stopping on %s', { timeout: 240_000 }, (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('answers /readyz 503 during the drain while still serving, finishes a request under way, and exits 0', async () => {
    const server = await startServer(databaseUrlOf(database), { DRAIN_SECONDS: '2', LOG_LEVEL: 'trace' });
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
    const login = startSlowLogin(server);
    await server.logLine((line) => line.includes('"msg":"incoming request"') && line.includes('"url":"/api/v1.0/login"'));
    const done = exited(server.child);
    const started = Date.now();
    server.child.kill('SIGTERM');
    await server.logLine((line) => line.includes('SIGTERM: /readyz answers 503'));

    // The drain: the proxy's health check is told to go, the requests it still sends are served.
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', failed: 'draining' });
    const still = await fetch(`${server.base}/api/v1.0/viewConfig/client`, { headers: { 'client-id': 'http://localhost:3000' } });
    expect(still.status).toBe(200);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);

    // Then the listener closes; the request under way all along is answered, its connection closed after it.
    await server.logLine((line) => line.includes('SIGTERM: draining requests'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    login.finish();
    const response = await login.ended;
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(await done).toBe(0);
    expect(server.log().some((line) => line.includes('SIGTERM: stopped'))).toBe(true);
  });

  it('frees the lease of the job under way, so the next process takes the job at once', async () => {
    // A preview of many batches, which the process starts at once (main.ts startImportJobs).
    const lines = Array.from({ length: 100_000 }, (_, i) => `demo,1,2026-11-01,Drain,drain-${dialect}-${i}`);
    const job = await stageImport(
      database.db,
      { name: 'pm@acme.test', kind: 'staff', origin: 'test' },
      'acme',
      'points',
      'big.csv',
      pointsFile(lines),
    );
    const lease = importLeaseName(job.id);
    const heldBy = async () =>
      (
        await database.db
          .selectFrom('job_leases')
          .select(['holder', 'expires_at'])
          .where('name', '=', lease)
          .where('expires_at', '>', new Date().toISOString())
          .executeTakeFirst()
      )?.holder;

    // No drain: the preview goes on while the process serves, and this is about what it leaves after.
    const first = await startServer(databaseUrlOf(database), { DRAIN_SECONDS: '0' });
    const holder = await until('the first process holds the lease', heldBy);
    expect(holder).toContain(`:${first.child.pid}:`);
    expect(await first.stop()).toBe(0);
    // Stopped between batches, mid-preview, with its lease given up rather than left to lapse (2 minutes).
    const left = (await readImport(database.db, 'acme', job.id))!;
    expect(left.status).toBe('previewing');
    expect(left.done).toBeLessThan(lines.length);
    expect(await heldBy()).toBeUndefined();

    const second = await startServer(databaseUrlOf(database), { DRAIN_SECONDS: '1' });
    try {
      const taken = await until('the second process holds the lease', async () => {
        const holding = await heldBy();
        if (holding !== undefined) return holding;
        // Or it has finished the preview already.
        return (await readImport(database.db, 'acme', job.id))!.status === 'staged' ? 'done' : undefined;
      });
      expect(taken).not.toContain(`:${first.child.pid}:`);
      await until(
        'the preview is done',
        async () => ((await readImport(database.db, 'acme', job.id))!.status === 'staged' ? true : undefined),
        120_000,
      );
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('exits 1 at a second SIGTERM, without waiting for the drain', async () => {
    const server = await startServer(databaseUrlOf(database), { DRAIN_SECONDS: '60', LOG_LEVEL: 'info' });
    const done = exited(server.child);
    server.child.kill('SIGTERM');
    await server.logLine((line) => line.includes('SIGTERM: /readyz answers 503'));
    server.child.kill('SIGTERM');
    expect(await done).toBe(1);
  });
});
