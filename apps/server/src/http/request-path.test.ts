import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { seedDemo } from '../db/seed/demo.ts';
import { createTestDatabase, dialects } from '../../test/databases.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// The request path through Fastify's compilers, helmet and compress (docs/decisions/056).

// What every API reply carries (decision 056: OWASP's REST set, the resource policy and no-referrer)…
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
// …and what only a rendered page needs, which the API leaves out.
const PAGE_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe.each(dialects)('every reply of the request path on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it("carries the API's security headers and none of a page's, whatever its status", async () => {
    const bundle = await t.api('GET', '/viewConfig/bundle/fr-FR');
    const replies = {
      200: await t.api('GET', '/viewConfig/client'),
      304: await t.api('GET', '/viewConfig/bundle/fr-FR', { headers: { 'if-none-match': String(bundle.headers.etag) } }),
      400: await t.api('GET', '/viewConfig/bundle/x'),
      401: await t.api('GET', '/user'),
      404: await t.api('GET', '/no-such-thing'),
    };
    for (const [status, reply] of Object.entries(replies)) {
      expect(reply.statusCode, status).toBe(Number(status));
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(reply.headers[name], `${name} on ${status}`).toBe(value);
      for (const name of PAGE_ONLY_HEADERS) expect(reply.headers[name], `${name} on ${status}`).toBeUndefined();
    }
  });

  it("sends a participant's GET user with every security header, no-store and JSON", async () => {
    const { sessionId } = await t.login('demo');
    const reply = await t.api('GET', '/user', { session: sessionId });
    expect(reply.statusCode).toBe(200);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(reply.headers[name], name).toBe(value);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
    expect(reply.json()).toMatchObject({ sessionId, userName: 'demo', authenticated: true });
  });

  it('answers a revalidated bundle with a bare 304: its ETag, no body, no length, no type', async () => {
    const first = await t.api('GET', '/viewConfig/bundle/ar');
    const again = await t.api('GET', '/viewConfig/bundle/ar', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(again.body).toBe('');
    expect(again.headers['content-length']).toBeUndefined();
    expect(again.headers['content-type']).toBeUndefined();
  });

  it('answers HEAD with exactly the headers of GET, a 304 included', async () => {
    const comparable = (headers: Record<string, unknown>) => {
      const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
      return rest;
    };
    const etag = String((await t.api('GET', '/viewConfig/bundle/en-US')).headers.etag);
    for (const [path, extra] of [
      ['/viewConfig/client', {}],
      ['/viewConfig/bundle/en-US', {}],
      ['/viewConfig/bundle/en-US', { 'if-none-match': etag }],
    ] as const) {
      const get = await t.api('GET', path, { headers: extra });
      const head = await t.api('HEAD', path, { headers: extra });
      expect(get.statusCode).toBe(head.statusCode);
      if (get.statusCode === 200) {
        expect(comparable(get.headers)).toEqual(comparable(head.headers));
        expect(Number(get.headers['content-length'])).toBe(get.rawPayload.length);
      } else {
        // Fastify's HEAD route adds a content-length of 0 to a 304; a GET's 304 has none.
        expect(comparable(get.headers)).toEqual({ ...comparable(head.headers), 'content-length': undefined });
      }
    }
    expect((await t.api('GET', '/viewConfig/client')).headers['cache-control']).toBe('no-store');
  });

  it('answers from the caches exactly as from a fresh load: the same bytes, a 304, a refused language', async () => {
    // The first asks load (the client's languages, the bundle, their brotli forms); the rest come from the caches.
    const asks: { path: string; headers: Record<string, string> }[] = [
      { path: '/viewConfig/client', headers: { 'accept-encoding': 'br' } },
      { path: '/viewConfig/bundle/fr-FR', headers: { 'accept-encoding': 'gzip' } },
      { path: '/viewConfig/bundle/FR-fr', headers: {} },
    ];
    for (const { path, headers } of asks) {
      const first = await t.api('GET', path, { headers });
      const again = await t.api('GET', path, { headers });
      expect(again.statusCode, path).toBe(200);
      expect(again.rawPayload.equals(first.rawPayload), path).toBe(true);
      expect(again.headers['content-encoding'], path).toBe(first.headers['content-encoding']);
      expect(again.headers.etag, path).toBe(first.headers.etag);
    }
    const etag = String((await t.api('GET', '/viewConfig/bundle/fr-FR')).headers.etag);
    expect((await t.api('GET', '/viewConfig/bundle/fr-FR', { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    // A language the client does not offer, asked while its languages are at hand.
    const refused = await t.api('GET', '/viewConfig/bundle/de-DE');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ errorCode: ErrorCode.unsupportedLocale });
  });

  it('answers GET user and its HEAD with the same headers, and a 401 with the security headers and no-store', async () => {
    const { sessionId } = await t.login('demo');
    const comparable = (headers: Record<string, unknown>) => {
      const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
      return rest;
    };
    // Twice: the first read fills the caches, the second is served from them.
    for (let i = 0; i < 2; i++) {
      const get = await t.api('GET', '/user', { session: sessionId });
      const head = await t.api('HEAD', '/user', { session: sessionId });
      expect(get.statusCode).toBe(200);
      expect(comparable(get.headers)).toEqual(comparable(head.headers));
      expect(Number(get.headers['content-length'])).toBe(get.rawPayload.length);
      expect(get.json()).toMatchObject({ sessionId, userName: 'demo' });
    }
    // The refusal carries the same security headers and no-store.
    const refused = await t.api('GET', '/user', { session: 'A'.repeat(43) });
    expect(refused.statusCode).toBe(401);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(refused.headers[name], name).toBe(value);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('still refuses a malformed header or path parameter with the 400 it gave before', async () => {
    const { sessionId } = await t.login('demo');
    const longSession = await t.api('GET', '/user', { headers: { 'x-session-id': 'x'.repeat(257) } });
    expect(longSession.statusCode).toBe(400);
    expect(longSession.json()).toEqual({
      errorCode: ErrorCode.validation,
      responseMessage: 'error.validation',
      message: 'Invalid headers: x-session-id',
    });
    const badLocale = await t.api('GET', '/viewConfig/bundle/x');
    expect(badLocale.json()).toEqual({
      errorCode: ErrorCode.validation,
      responseMessage: 'error.validation',
      message: 'Invalid params: locale',
    });
    // A session id of the wrong shape but a bearable size is no session: 401, as before.
    expect((await t.api('GET', '/user', { headers: { 'x-session-id': 'not-a-session' } })).statusCode).toBe(401);
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(200);
  });

  it('refuses an origin that is no address, every time it is sent, and serves a known one each time', async () => {
    for (let i = 0; i < 2; i++) {
      const reply = await t.api('GET', '/viewConfig/client', { origin: 'not an origin' });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.unknownClient });
      expect((await t.api('GET', '/viewConfig/client', { origin: 'http://unknown.example' })).json()).toMatchObject({
        errorCode: ErrorCode.unknownClient,
      });
      expect((await t.api('GET', '/viewConfig/client')).statusCode).toBe(200);
    }
  });
});

describe.each(dialects)('request logging on %s', (dialect) => {
  it('writes each request id, UUID-shaped and distinct, on the lines of that request only', async () => {
    const database = await createTestDatabase(dialect);
    const lines: { reqId?: string; msg: string }[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { reqId?: string; msg: string }),
      ),
    );
    await seedDemo(database.db);
    const app = await buildApp({
      config: { ...loadConfig({ LOG_LEVEL: 'debug', CLIENT_CACHE_SECONDS: '0' }), webDist: undefined },
      db: database.db,
      logStream,
    });
    for (let i = 0; i < 2; i++)
      await app.inject({ method: 'GET', url: '/api/v1.0/viewConfig/client', headers: { 'client-id': 'http://localhost' } });
    await app.close();
    await database.drop();
    // One line per request at debug, when it ends (decision 079); the line as it arrives is trace's.
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toHaveLength(2);
    for (const line of completed) expect(line.reqId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(completed[0]?.reqId).not.toBe(completed[1]?.reqId);
  });
});
