// Decision 079: the log is JSON lines, one per request with its request id (the trusted proxy's
// X-Request-Id, else our own), and never a password, token, link or secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, SESSION_HEADER } from '@rewards/contract';
import { CONSOLE_API_BASE, consolePaths } from '@rewards/contract/console';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { DEMO_CATALOG_PARTNER_SECRET } from '../db/seed/demo-catalog.ts';
import { DEMO_PASSWORD, seedDemo } from '../db/seed/demo.ts';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD } from '../db/seed/demo-staff.ts';
import { totpCode } from '../modules/staff/secrets.ts';
import { databaseUrlOf, rewardsJson } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { startServer } from '../../test/server-process.ts';
import { createSmtpSink } from '../../test/smtp-sink.ts';

interface Line {
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; route?: string };
  res?: { statusCode: number };
}

describe('request ids and request lines', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(() => database.drop());

  /** An app logging at debug into `lines`, with TRUST_PROXY as given. */
  async function appLogging(trustProxy?: string) {
    const lines: Line[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
    });
    const env = { LOG_LEVEL: 'debug', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) };
    const app = await buildApp({ config: { ...loadConfig(env), webDist: undefined }, db: database.db, logStream });
    return { app, lines };
  }
  const completed = (lines: Line[]) => lines.filter((line) => line.msg === 'request completed');

  it("takes the trusted proxy's X-Request-Id, and makes its own for anyone else or a malformed one", async () => {
    const { app, lines } = await appLogging('loopback');
    try {
      const ask = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
        app.inject({ method: 'GET', url: '/healthz', headers, remoteAddress });
      await ask({ 'x-request-id': 'edge-7f3a9c:01' });
      await ask({ 'x-request-id': 'edge-from-outside' }, '203.0.113.9');
      await ask({ 'x-request-id': 'two words' });
      await ask({ 'x-request-id': 'x'.repeat(129) });
      await ask({});
      const ids = completed(lines).map((line) => line.reqId);
      expect(ids[0]).toBe('edge-7f3a9c:01');
      for (const id of ids.slice(1)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(new Set(ids).size).toBe(5);
    } finally {
      await app.close();
    }
  });

  it('takes it from whoever connects directly when TRUST_PROXY is a count of proxies (as Fastify believes them)', async () => {
    const { app, lines } = await appLogging('1');
    try {
      await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-42' }, remoteAddress: '10.1.2.3' });
      expect(completed(lines).map((line) => line.reqId)).toEqual(['lb-42']);
    } finally {
      await app.close();
    }
  });

  it('never reads the header without a trusted proxy', async () => {
    const { app, lines } = await appLogging();
    try {
      await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'edge-7f3a9c' } });
      expect(completed(lines).map((line) => line.reqId)).not.toContain('edge-7f3a9c');
    } finally {
      await app.close();
    }
  });

  it('writes one line per request, with its route and its path but never its query string', async () => {
    const { app, lines } = await appLogging();
    try {
      await app.inject({ method: 'GET', url: '/reset-password?passwordGuid=Secret-Guid-0123456789abcdefghijk' });
      await app.inject({
        method: 'GET',
        url: `${API_BASE}/viewConfig/bundle/fr-FR?state=Secret-State-42`,
        headers: { 'client-id': 'http://localhost:3000' },
      });
      const done = completed(lines);
      expect(done.map((line) => [line.req?.method, line.req?.url, line.req?.route, line.res?.statusCode])).toEqual([
        ['GET', '/reset-password', undefined, 404],
        ['GET', `${API_BASE}/viewConfig/bundle/fr-FR`, `${API_BASE}/viewConfig/bundle/:locale`, 400],
      ]);
      expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
      expect(JSON.stringify(lines)).not.toMatch(/Secret-/);
    } finally {
      await app.close();
    }
  });
});

/** A request with a Host of our choosing (fetch sets its own), as the console's pages send on their origin. */
function consoleCall(
  base: string,
  path: string,
  body: unknown,
  cookie?: string,
): Promise<{ status: number; body: string; cookie: string | undefined }> {
  const origin = 'http://console.localhost:3000';
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${CONSOLE_API_BASE}${path}`,
      {
        method: 'POST',
        headers: {
          host: new URL(origin).host,
          origin,
          'content-type': 'application/json',
          ...(cookie ? { cookie: `rewards_console=${cookie}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const set = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('rewards_console='));
          resolve({ status: res.statusCode ?? 0, body: text, cookie: set?.slice('rewards_console='.length).split(';')[0] });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Polls until `check` returns something, or fails after `ms`. */
async function poll<T>(what: string, check: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// A real portal process from source: its own deadline, not the suite's 20 s.
describe.each(dialects)("the log of a real server's day on %s", { timeout: 240_000 }, (dialect) => {
  it('holds no password, token, link or secret of the demo or of what it issued, at the most talkative level', async () => {
    const database = await createTestDatabase(dialect);
    const dataDir = mkdtempSync(join(tmpdir(), 'rewards-logs-'));
    // Mail over SMTP: without SMTP_URL, development prints a participant's link in the log on purpose (decision 072).
    const smtp = await createSmtpSink();
    await smtp.up();
    await seedDemo(database.db, new Date(), { dataDir });
    const url = databaseUrlOf(database);
    const server = await startServer(url, { DATA_DIR: dataDir, SMTP_URL: smtp.url, LOG_LEVEL: 'trace' });
    /** Everything the test was given that must never be written down. */
    const secrets = new Map<string, string>([
      ['participant password', DEMO_PASSWORD],
      ['staff password', DEMO_STAFF_PASSWORD],
      ['demo catalog secret', DEMO_CATALOG_PARTNER_SECRET],
      ...DEMO_STAFF.map((person): [string, string] => [`TOTP secret of ${person.email}`, person.totpSecret]),
    ]);
    let requests = 0;
    const api = async (path: string, init: { body?: unknown; session?: string } = {}) => {
      requests += 1;
      return fetch(`${server.base}${API_BASE}${path}`, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: {
          'client-id': 'http://localhost:3000',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.session ? { [SESSION_HEADER]: init.session } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    };
    try {
      // A participant signs in.
      const login = await api('/login', { body: { username: 'demo', password: DEMO_PASSWORD } });
      expect(login.status).toBe(200);
      const session = login.headers.get(SESSION_HEADER) ?? '';
      expect(session).not.toBe('');
      secrets.set('session id', session);

      // A punch-out link, opened: the demo catalog redeems it with the portal over the partner API (the demo secret).
      const link = await api('/user/catalog-url/merchandise', { session });
      expect(link.status).toBe(200);
      const catalogUrl = new URL(((await link.json()) as { catalogUrl: string }).catalogUrl, server.base);
      const punchOut = catalogUrl.searchParams.get('token') ?? '';
      expect(punchOut.split('.')).toHaveLength(3);
      secrets.set('punch-out link', catalogUrl.href).set('punch-out token', punchOut);
      requests += 1;
      const page = await fetch(`${server.base}${catalogUrl.pathname}${catalogUrl.search}`);
      expect(page.status).toBe(200);

      // A support administrator's launch-as link, from the command, opened.
      const issued = await rewardsJson<{ url: string }>(
        url,
        ['launch-as', 'demo', '--client', 'acme', '--admin', 'anna', '--reason', 'ticket 4711'],
        {
          env: { DATA_DIR: dataDir },
        },
      );
      const launchToken = new URL(issued.url).searchParams.get('token') ?? '';
      secrets.set('launch link', issued.url).set('launch token', launchToken);
      const launched = await api('/launchAs', { body: { token: launchToken } });
      expect(launched.status).toBe(200);
      secrets.set('launched session id', launched.headers.get(SESSION_HEADER) ?? 'missing');

      // A staff member signs in: password, then a code of the authenticator app.
      const agent = DEMO_STAFF.find((person) => person.email === 'agent@acme.example')!;
      requests += 2;
      const half = await consoleCall(server.base, consolePaths.signIn, { email: agent.email, password: DEMO_STAFF_PASSWORD });
      expect(half.status, half.body).toBe(200);
      const full = await consoleCall(server.base, consolePaths.signInTotp, { code: totpCode(agent.totpSecret) }, half.cookie);
      expect(full.status, full.body).toBe(200);
      secrets.set('staff half session', half.cookie ?? 'missing').set('staff session', full.cookie ?? 'missing');

      // A password reset: the mail's link and token, then the new password through it.
      expect((await api('/forgotPassword', { body: { userName: 'demo', emailAddress: 'demo@example.com' } })).status).toBe(200);
      const mail = await poll('the reset mail', () => smtp.received.find((m) => m.text.includes('passwordGuid=')));
      const resetLink = /https?:\/\/\S+passwordGuid=([A-Za-z0-9_-]{43})/.exec(mail.text);
      expect(resetLink).not.toBeNull();
      secrets.set('reset link', resetLink![0]).set('reset token', resetLink![1]!);
      const newPassword = 'Brand-New-Secret-2027!';
      secrets.set('new password', newPassword);
      const saved = await api('/savePassword', { body: { passwordGuid: resetLink![1], password: newPassword } });
      expect(saved.status).toBe(200);
      // And the reset link's page, with its token in the query string.
      requests += 1;
      await fetch(`${server.base}/reset-password?passwordGuid=${resetLink![1]}`);
    } finally {
      expect(await server.stop()).toBe(0);
      await smtp.down();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }

    const log = server.log();
    // JSON lines, every one.
    const lines = log.map((text) => JSON.parse(text) as Line & { level: number });
    // One line per request, each with a request id (the demo catalog's own calls to the partner API are requests too).
    const done = lines.filter((line) => line.msg === 'request completed');
    expect(done.length).toBeGreaterThanOrEqual(requests);
    for (const line of done) expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
    // At trace a request also has its line as it arrives; no request line has a query string.
    for (const line of lines.filter((l) => l.req)) expect(line.req?.url).not.toContain('?');
    expect(new Set(done.map((line) => line.reqId)).size).toBe(done.length);
    const whole = log.join('\n');
    const found = [...secrets].filter(([, secret]) => whole.includes(secret)).map(([what]) => what);
    expect(found).toEqual([]);
    expect(whole).not.toMatch(/passwordGuid|token=/);
  });
});
