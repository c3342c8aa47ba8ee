import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UserData } from '@rewards/contract';
import { createEmptyPostgresDatabase, dialects } from '../test/databases.ts';
import { exited, startServer } from '../test/server-process.ts';

const CLI = join(import.meta.dirname, 'cli', 'rewards.ts');

const MAIN = join(import.meta.dirname, 'main.ts');

const headers = { 'content-type': 'application/json', 'client-id': 'http://localhost:3000' };

// Each story starts real server processes from source: their own deadline (test/server-process.ts), not the suite's 20 s.
describe('the server process', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewards-main-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates, migrates and seeds a new SQLite file, and an acknowledged sign-in survives a crash', async () => {
    const dbPath = join(dir, 'crash.db');
    const first = await startServer(`file:${dbPath}`);
    const login = await fetch(`${first.base}/api/v1.0/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: 'demo', password: 'Rewards-2026!' }),
    });
    expect(login.status).toBe(200);
    const { sessionId } = (await login.json()) as UserData;
    // Killed without warning: nothing gets to flush or close.
    const gone = exited(first.child);
    first.child.kill('SIGKILL');
    await gone;

    const second = await startServer(`file:${dbPath}`);
    const user = await fetch(`${second.base}/api/v1.0/user`, { headers: { ...headers, 'x-session-id': sessionId } });
    expect(user.status).toBe(200);
    expect(((await user.json()) as UserData).accountBalance).toBe(12500);
    const done = exited(second.child);
    second.child.kill('SIGTERM');
    expect(await done).toBe(0);
  });

  it('on SIGTERM finishes the request under way, then exits cleanly', async () => {
    // At trace the server logs each request as it starts, before its body has come.
    const { child, base, logLine } = await startServer(`file:${join(dir, 'drain.db')}`, { LOG_LEVEL: 'trace' });
    const { port } = new URL(base);
    const body = JSON.stringify({ username: 'demo', password: 'Rewards-2026!' });
    // A request whose body is still arriving when the signal lands is, without doubt, under way.
    const socket = connect(Number(port), '127.0.0.1');
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/v1.0/login HTTP/1.1\r\nHost: localhost\r\nclient-id: http://localhost:3000\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await logLine((line) => line.includes('"msg":"incoming request"') && line.includes('"url":"/api/v1.0/login"'));
    const done = exited(child);
    child.kill('SIGTERM');
    // main.ts logs this and starts app.close() in one turn; the close marks the app draining
    // before the server reads its socket again, so the rest of the body arrives during the drain.
    await logLine((line) => line.includes('SIGTERM: draining requests'));
    socket.write(body.slice(10));
    await ended;
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(await done).toBe(0);
  });

  it('refuses to start on a bad setting, naming it', async () => {
    const child = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: 'eighty' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exited(child)).toBe(2);
    expect(stderr).toContain('PORT');
  });

  it.runIf(dialects.includes('postgres'))(
    'runs on PostgreSQL: migrates on start, and has the demo program only once the operator seeds it',
    async () => {
      const database = await createEmptyPostgresDatabase();
      try {
        const { child, base } = await startServer(database.url);
        const before = await fetch(`${base}/api/v1.0/viewConfig/client`, { headers });
        expect(before.status).toBe(400);
        expect(await before.json()).toMatchObject({ responseMessage: 'error.unknownClient' });

        const seed = spawn(process.execPath, [CLI, 'seed-demo'], { env: { ...process.env, DATABASE_URL: database.url }, stdio: 'ignore' });
        expect(await exited(seed)).toBe(0);

        const login = await fetch(`${base}/api/v1.0/login`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ username: 'demo', password: 'Rewards-2026!' }),
        });
        expect(login.status).toBe(200);
        expect(((await login.json()) as UserData).accountBalance).toBe(12500);
        const done = exited(child);
        child.kill('SIGTERM');
        expect(await done).toBe(0);
      } finally {
        await database.drop();
      }
    },
  );
});
