import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestDatabase, dialects } from '../../test/databases.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(dialects)('HTTP behaviour common to every route on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('reports health once the database answers', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ status: 'ok' });
  });

  it('sends API replies with a policy that allows nothing, not even being framed', async () => {
    const reply = await t.api('GET', '/viewConfig/client');
    expect(reply.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(reply.headers['x-frame-options']).toBe('DENY');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['strict-transport-security']).toContain('max-age=');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const reply = await t.api('GET', '/no-such-thing');
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.notFound, responseMessage: 'error.notFound' });
  });

  it('accepts a bodiless PUT that carries the JSON content type, as the portal sends it', async () => {
    const { sessionId } = await t.login('demo');
    const reply = await t.api('PUT', '/user/acknowledge-privacy-notice', { session: sessionId });
    expect(reply.statusCode).toBe(200);
  });

  it('refuses a body that is too large or poisoned, with a translated error', async () => {
    const huge = await t.api('POST', '/login', { body: { username: 'demo', password: 'x'.repeat(100_000) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ responseMessage: 'error.validation' });
    const poisoned = await t.api('POST', '/login', { rawBody: '{"username":"demo","password":"x","__proto__":{"admin":true}}' });
    expect(poisoned.statusCode).toBe(400);
  });

  it('answers the portal a refusal as ever: key and English, no params (the console alone gets those, decision 087)', async () => {
    const reply = await t.api('POST', '/login', { body: { username: 'demo' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({
      errorCode: ErrorCode.validation,
      responseMessage: 'error.validation',
      message: 'Invalid body: password',
    });
  });
});

describe.each(dialects)('a fault of our own on %s', (dialect) => {
  it('answers 500 with no stack trace or SQL, and logs it with the request id but no SQL', async () => {
    const database = await createTestDatabase(dialect);
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'error' }), webDist: undefined }, db: database.db, logStream });
    // Drop a table under the running app: the next query fails inside the server.
    await database.db.schema.dropTable('client_hosts').execute();
    const reply = await app.inject({
      method: 'GET',
      url: '/api/v1.0/viewConfig/client',
      headers: { 'client-id': 'http://localhost' },
    });
    expect(reply.statusCode).toBe(500);
    expect(reply.json()).toEqual({
      errorCode: ErrorCode.internal,
      responseMessage: 'error.internal',
      message: 'Something went wrong on our side',
    });
    await app.close();
    await database.drop();
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string });
    const failure = logged.find((entry) => entry.msg === 'request failed');
    expect(failure?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.join('\n')).not.toMatch(/select .* from|\n\s+at /i);
  });
});

describe('configuration', () => {
  it('takes defaults from an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      database: { dialect: 'sqlite', path: './data/rewards.db' },
      session: { idleMinutes: 30, maxHours: 12 },
    });
  });

  it('reads a PostgreSQL URL and another SQLite file', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({ dialect: 'postgres', url: 'postgres://u@h/db' });
    expect(loadConfig({ DATABASE_URL: 'file:/tmp/x.db' }).database).toEqual({ dialect: 'sqlite', path: '/tmp/x.db' });
  });

  it('stops with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SESSION_IDLE_MINUTES: '0' })).toThrow(
      /PORT[\s\S]*DATABASE_URL: must start with file: or postgres:\/\/[\s\S]*SESSION_IDLE_MINUTES/,
    );
  });
});
