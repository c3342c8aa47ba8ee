// Decision 079: the metrics Prometheus scrapes, counted by the app's hooks and read from the
// database at scrape time; their own listener; never on the public port.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CLIENT_HEADER } from '@rewards/contract';
import { CONSOLE_API_BASE, consolePaths } from '@rewards/contract/console';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createDatabase } from '../../db/database.ts';
import { DEMO_PASSWORD, seedDemo } from '../../db/seed/demo.ts';
import { DEMO_STAFF_PASSWORD } from '../../db/seed/demo-staff.ts';
import { startDailyExpiry } from '../expiry/daily.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { freePort } from '../../../test/ports.ts';
import { listenMetrics } from './listener.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { eventually, sampleOf } from './test-support.ts';

const CONSOLE_ORIGIN = 'http://console.localhost:3000';

describe.each(dialects)('metrics on %s', (dialect) => {
  let database: TestDatabase;
  let metrics: Metrics;
  let app: FastifyInstance;
  let dataDir: string;
  /** The waiting route's gate: it answers once this is called. */
  let release = () => {};
  let entered: Promise<void>;
  let enter = () => {};

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-metrics-'));
    await seedDemo(database.db, new Date(), { dataDir });
    metrics = createMetrics({ db: database.db, database: database.config });
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent', CLIENT_CACHE_SECONDS: '0', DATA_DIR: dataDir, LOGIN_MAX_FAILURES_PER_ACCOUNT: '2' }),
      webDist: undefined,
    };
    app = await buildApp({ config, db: database.db, metrics });
    // A route that answers when the test says, to see a request in flight and a caller that goes away.
    entered = new Promise((resolve) => (enter = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get('/test/wait', async () => {
      enter();
      await gate;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    release();
    await app?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    app.inject({
      method,
      url: `${API_BASE}${path}`,
      headers: { [CLIENT_HEADER]: 'http://localhost:3000', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  it('times requests by method, route template and status; an unmatched path is one label; the public port has no /metrics', async () => {
    for (const locale of ['fr-FR', 'en-US', 'fr-FR']) expect((await api('GET', `/viewConfig/bundle/${locale}`)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/no/such/page-4f1d?token=abc' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'HEAD', url: '/metrics' })).statusCode).toBe(404);

    const text = await metrics.scrape();
    const bundles = { method: 'GET', route: `${API_BASE}/viewConfig/bundle/:locale`, status: '200' };
    expect(sampleOf(text, 'rewards_http_request_duration_seconds_count', bundles)).toBe(3);
    expect(sampleOf(text, 'rewards_http_request_duration_seconds_bucket', { ...bundles, le: '+Inf' })).toBe(3);
    expect(sampleOf(text, 'rewards_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBe(2);
    expect(sampleOf(text, 'rewards_http_request_duration_seconds_count', { method: 'HEAD', route: 'unmatched', status: '404' })).toBe(1);
    // No raw path, no query, ever in a label.
    expect(text).not.toContain('fr-FR');
    expect(text).not.toContain('page-4f1d');
    expect(text).not.toContain('route="/metrics"');
    expect(sampleOf(text, 'rewards_http_requests_in_flight')).toBe(0);
    expect(sampleOf(text, 'rewards_build_info', { version: '0.0.0', commit: 'unknown' })).toBe(1);
    // Node's own, and the event loop's utilisation.
    for (const name of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds', 'rewards_event_loop_active_seconds_total'])
      expect(sampleOf(text, name), name).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('counts sign-ins by who, step and outcome, and each 429 under its limit', async () => {
    const before = await metrics.scrape();
    const count = (text: string, labels: Record<string, string>) => sampleOf(text, 'rewards_sign_ins_total', labels) ?? 0;
    const participant = (outcome: string) => ({ who: 'participant', step: 'password', outcome });

    expect((await api('POST', '/login', { username: 'demo', password: DEMO_PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await api('POST', '/login', { username: 'demo', password: 'wrong-one' })).statusCode).toBe(401);
    expect((await api('POST', '/login', { username: 'demo', password: 'wrong-one' })).statusCode).toBe(429);

    const staffSignIn = (password: string) =>
      app.inject({
        method: 'POST',
        url: `${CONSOLE_API_BASE}${consolePaths.signIn}`,
        headers: { host: new URL(CONSOLE_ORIGIN).host, origin: CONSOLE_ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'agent@acme.example', password }),
      });
    expect((await staffSignIn(DEMO_STAFF_PASSWORD)).statusCode).toBe(200);
    expect((await staffSignIn('not-the-password')).statusCode).toBe(401);

    const after = await metrics.scrape();
    expect(count(after, participant('success')) - count(before, participant('success'))).toBe(1);
    expect(count(after, participant('failure')) - count(before, participant('failure'))).toBe(2);
    expect(count(after, participant('throttled')) - count(before, participant('throttled'))).toBe(1);
    const staff = (outcome: string) => ({ who: 'staff', step: 'password', outcome });
    expect(count(after, staff('success')) - count(before, staff('success'))).toBe(1);
    expect(count(after, staff('failure')) - count(before, staff('failure'))).toBe(1);
    // Every combination is there from the start, so that rate() sees the first one.
    expect(sampleOf(before, 'rewards_sign_ins_total', { who: 'staff', step: 'second_factor', outcome: 'throttled' })).toBe(0);

    const hits = (text: string, limit: string) => sampleOf(text, 'rewards_limit_hits_total', { limit }) ?? 0;
    expect(hits(after, 'sign-in') - hits(before, 'sign-in')).toBe(1);
    expect(hits(after, 'codes')).toBe(0);
    expect(hits(after, 'other')).toBe(0);
  });

  it('reads the outbox and the jobs at scrape time, through bounded queries, and says the last expiry runs', async () => {
    const { db } = database;
    await db.deleteFrom('mail_outbox').execute();
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const mail = (status: 'pending' | 'sending' | 'sent' | 'failed', createdAt: string) => ({
      id: randomUUID(),
      client_id: 'acme',
      participant_id: null,
      to_address: 'someone@example.com',
      locale: 'en-US',
      template: 'resetPassword',
      subject: '',
      text_body: '',
      html_body: '',
      status,
      attempts: 0,
      next_attempt_at: createdAt,
      message_id: `<${randomUUID()}@rewards.test>`,
      created_at: createdAt,
    });
    await db
      .insertInto('mail_outbox')
      .values([mail('pending', hourAgo), mail('sending', new Date().toISOString()), mail('sent', hourAgo), mail('failed', hourAgo)])
      .execute();
    await db.deleteFrom('jobs').execute();
    const job = (kind: string, status: string) => ({
      id: randomUUID(),
      client_id: 'acme',
      kind,
      status,
      file_name: 'points.csv',
      created_by: 'test',
      created_at: hourAgo,
      updated_at: hourAgo,
      params: '{}',
      total: 0,
      done: 0,
      cursor: 0,
    });
    await db
      .insertInto('jobs')
      .values([job('points', 'running'), job('points', 'done'), job('participants', 'failed'), job('participants', 'staged')])
      .execute();
    const done = new Date('2026-11-27T23:05:00Z');
    metrics.watchExpiry(() => ({
      done: { at: done, points: 1250, participants: 7 },
      failed: { at: new Date(done.getTime() + 3600_000), points: 0, participants: 0 },
    }));

    const text = await metrics.scrape();
    expect(sampleOf(text, 'rewards_database_up')).toBe(1);
    expect(sampleOf(text, 'rewards_mail_outbox_pending')).toBe(2);
    expect(sampleOf(text, 'rewards_mail_outbox_failed')).toBe(1);
    const age = sampleOf(text, 'rewards_mail_outbox_oldest_pending_age_seconds')!;
    expect(age).toBeGreaterThanOrEqual(3600);
    expect(age).toBeLessThan(3600 + 120);
    expect(sampleOf(text, 'rewards_jobs', { kind: 'points', state: 'running' })).toBe(1);
    expect(sampleOf(text, 'rewards_jobs', { kind: 'participants', state: 'failed' })).toBe(1);
    expect(sampleOf(text, 'rewards_jobs', { kind: 'participants', state: 'staged' })).toBe(1);
    expect(sampleOf(text, 'rewards_jobs', { state: 'done' })).toBeUndefined();
    expect(sampleOf(text, 'rewards_expiry_last_run_timestamp_seconds', { outcome: 'done' })).toBe(done.getTime() / 1000);
    expect(sampleOf(text, 'rewards_expiry_last_run_timestamp_seconds', { outcome: 'failed' })).toBe(done.getTime() / 1000 + 3600);
    expect(sampleOf(text, 'rewards_expiry_last_run_timestamp_seconds', { outcome: 'busy' })).toBeUndefined();
    expect(sampleOf(text, 'rewards_expiry_last_run_points_expired')).toBe(1250);
    expect(sampleOf(text, 'rewards_expiry_last_run_participants')).toBe(7);

    if (dialect === 'sqlite') {
      expect(sampleOf(text, 'rewards_sqlite_file_bytes', { file: 'database' })).toBeGreaterThan(0);
      expect(sampleOf(text, 'rewards_sqlite_filesystem_free_bytes')).toBeGreaterThan(0);
      expect(sampleOf(text, 'rewards_sqlite_filesystem_size_bytes')).toBeGreaterThan(
        sampleOf(text, 'rewards_sqlite_filesystem_free_bytes')!,
      );
      expect(sampleOf(text, 'rewards_database_pool_max_connections')).toBeUndefined();
    } else {
      expect(sampleOf(text, 'rewards_database_pool_max_connections')).toBe(10);
      expect(sampleOf(text, 'rewards_database_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sampleOf(text, 'rewards_database_pool_waiting')).toBe(0);
      expect(sampleOf(text, 'rewards_sqlite_file_bytes', { file: 'database' })).toBeUndefined();
    }
  });

  it("shows the daily expiry's own record of its runs", async () => {
    const daily = startDailyExpiry({ db: database.db, log: { info: () => {}, warn: () => {} }, checkEveryMs: 3_600_000 });
    await daily.idle();
    await daily.stop();
    metrics.watchExpiry(() => daily.lastRuns());
    const text = await metrics.scrape();
    expect(sampleOf(text, 'rewards_expiry_last_run_timestamp_seconds', { outcome: 'done' })).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(sampleOf(text, 'rewards_expiry_last_run_timestamp_seconds', { outcome: 'failed' })).toBeUndefined();
    expect(sampleOf(text, 'rewards_expiry_last_run_points_expired')).toBeGreaterThanOrEqual(0);
  });

  it('has a request in flight until it ends, and one whose caller went away is not left in flight', async () => {
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const abort = new AbortController();
    const call = fetch(`${base}/test/wait`, { signal: abort.signal }).catch((error: unknown) => error);
    await entered;
    const during = await metrics.scrape();
    expect(sampleOf(during, 'rewards_http_requests_in_flight')).toBe(1);
    abort.abort();
    await call;
    const after = await eventually(
      () => metrics.scrape(),
      (text) => sampleOf(text, 'rewards_http_requests_aborted_total') === 1,
    );
    expect(sampleOf(after, 'rewards_http_requests_in_flight')).toBe(0);
    // The handler's late answer goes nowhere and counts nowhere.
    release();
    expect(sampleOf(await metrics.scrape(), 'rewards_http_requests_in_flight')).toBe(0);
  });

  it('serves /metrics on its own listener only, and nothing else there', async () => {
    const listener = await listenMetrics(metrics, { port: await freePort(), host: '127.0.0.1' });
    try {
      const reply = await fetch(`${listener.address}/metrics`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(await reply.text()).toContain('rewards_database_up 1');
      expect((await fetch(`${listener.address}/`)).status).toBe(404);
      expect((await fetch(`${listener.address}/metrics/extra`)).status).toBe(404);
      expect((await fetch(`${listener.address}/metrics`, { method: 'POST' })).status).toBe(404);
      expect((await fetch(`${listener.address}/api/v1.0/viewConfig/client`)).status).toBe(404);
    } finally {
      await listener.close();
    }
  });

  it('scrapes a database that is gone: rewards_database_up 0, its gauges left out, the rest as usual', async () => {
    const gone = await createTestDatabase(dialect);
    const stale = createMetrics({ db: gone.db, database: gone.config });
    expect(sampleOf(await stale.scrape(), 'rewards_database_up')).toBe(1);
    await gone.drop();
    const text = await stale.scrape();
    expect(sampleOf(text, 'rewards_database_up')).toBe(0);
    for (const name of ['rewards_mail_outbox_pending', 'rewards_mail_outbox_oldest_pending_age_seconds', 'rewards_scrape_database_seconds'])
      expect(sampleOf(text, name), name).toBeUndefined();
    expect(sampleOf(text, 'rewards_jobs')).toBeUndefined();
    expect(sampleOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('the public port with the web app', () => {
  it('answers /metrics 404, where the page would answer any other path', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'rewards-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><!--client-data--></body></html>');
    const database = await createTestDatabase('sqlite');
    const metrics = createMetrics({ db: database.db, database: database.config });
    const app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: dist }, db: database.db, metrics });
    try {
      expect((await app.inject({ method: 'GET', url: '/activity-history', headers: { host: 'localhost:3000' } })).statusCode).toBe(200);
      for (const url of ['/metrics', '/metrics?x=1'])
        expect((await app.inject({ method: 'GET', url, headers: { host: 'localhost:3000' } })).statusCode, url).toBe(404);
    } finally {
      await app.close();
      await database.drop();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('a PostgreSQL server that never answers', () => {
  it(
    'costs a scrape the deadline, not more, reads as down, and the next scrape opens no more connections',
    { timeout: 20_000 },
    async () => {
      // Takes connections and never says a word, as a server behind a dead link.
      const sockets = new Set<Socket>();
      const silent: Server = createServer((socket) => sockets.add(socket));
      const port = await new Promise<number>((resolve) =>
        silent.listen(0, '127.0.0.1', () => resolve((silent.address() as AddressInfo).port)),
      );
      const config = { dialect: 'postgres' as const, url: `postgres://rewards@127.0.0.1:${port}/rewards` };
      const db = createDatabase(config);
      try {
        const metrics = createMetrics({ db, database: config });
        const started = performance.now();
        const text = await metrics.scrape();
        const seconds = (performance.now() - started) / 1000;
        expect(sampleOf(text, 'rewards_database_up')).toBe(0);
        expect(seconds).toBeGreaterThanOrEqual(1.9);
        expect(seconds).toBeLessThan(5);
        const inUse = sampleOf(text, 'rewards_database_pool_connections', { state: 'in_use' });
        expect(inUse).toBeGreaterThan(0);
        // The next scrape waits on the read still hanging rather than starting another: no more connections.
        const again = await metrics.scrape();
        expect(sampleOf(again, 'rewards_database_up')).toBe(0);
        expect(sampleOf(again, 'rewards_database_pool_connections', { state: 'in_use' })).toBe(inUse);
        expect(sockets.size).toBe(inUse);
      } finally {
        // The pool's connections fail when their sockets go, and then it can end.
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
        await db.destroy().catch(() => {});
      }
    },
  );
});

describe('METRICS_PORT', () => {
  it('is off unless set, listens on loopback unless told, and is never the public port', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.7' }).metrics).toEqual({ port: 9464, host: '10.0.0.7' });
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});
