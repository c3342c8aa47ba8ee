import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@rewards/contract';
import { dialects } from '../../test/databases.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

// Client data, bundles and the statement in the form the caller accepts, compressed once
// (http/compressed-once); other replies by @fastify/compress when big enough (docs/decisions/056).

const BROWSER = 'gzip, deflate, br, zstd';

describe.each(dialects)('client data and bundles, compressed as the caller accepts, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.api(method, path, { headers });

  it.each(['/viewConfig/client', '/viewConfig/bundle/fr-FR'])(
    'sends %s to a browser in brotli, and as gzip or plain bytes to those who ask for them',
    async (path) => {
      const plain = await get(path);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      const identity = plain.rawPayload;

      const br = await get(path, { 'accept-encoding': BROWSER });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
      expect(brotliDecompressSync(br.rawPayload).equals(identity)).toBe(true);
      expect(br.rawPayload.length).toBeLessThan(identity.length / 3);

      const gzip = await get(path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).equals(identity)).toBe(true);
      // Brotli refused: the next best.
      expect((await get(path, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');

      for (const refused of ['identity', 'br;q=0', 'deflate, zstd', '*;q=0']) {
        const reply = await get(path, { 'accept-encoding': refused });
        expect(reply.headers['content-encoding'], refused).toBeUndefined();
        expect(reply.rawPayload.equals(identity), refused).toBe(true);
      }
    },
  );

  it('gives every form of a bundle one weak tag, and answers 304 to it whichever form is asked for', async () => {
    const path = '/viewConfig/bundle/ar';
    const plain = await get(path);
    const br = await get(path, { 'accept-encoding': BROWSER });
    const gzip = await get(path, { 'accept-encoding': 'gzip' });
    const tag = String(plain.headers.etag);
    expect(tag).toMatch(/^W\/"[^"]+"$/);
    for (const reply of [br, gzip]) expect(reply.headers.etag).toBe(tag);

    const revalidated = await get(path, { 'accept-encoding': BROWSER, 'if-none-match': tag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.etag).toBe(tag);
    expect(revalidated.headers.vary).toBe('accept-encoding');
    expect(revalidated.headers['cache-control']).toBe('no-cache');
    expect(revalidated.body).toBe('');
    expect(revalidated.headers['content-encoding']).toBeUndefined();
    // Compared weakly, in a list, or as *.
    for (const header of [tag, tag.slice(2), `"other", ${tag}`, '*'])
      expect((await get(path, { 'accept-encoding': 'gzip', 'if-none-match': header })).statusCode, header).toBe(304);
    expect((await get(path, { 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
  });

  it('gives every form a new tag when an operator rewords the bundle, and the new words in brotli', async () => {
    const path = '/viewConfig/bundle/en-US';
    const before = await get(path, { 'accept-encoding': BROWSER });
    await t.database.db
      .insertInto('translations')
      .values({ client_id: 'acme', locale: 'en-US', key: 'login.title', text: 'Welcome to Acme Loyalty' })
      .execute();
    const stale = await get(path, { 'accept-encoding': BROWSER, 'if-none-match': String(before.headers.etag) });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers.etag).not.toBe(before.headers.etag);
    expect(JSON.parse(brotliDecompressSync(stale.rawPayload).toString()).bundleList['en-US'].properties['login.title']).toBe(
      'Welcome to Acme Loyalty',
    );
  });

  it("sends a participant's statement in brotli to a browser, as a GET's and a HEAD's same headers, and plain to others", async () => {
    const { sessionId } = await t.login('demo');
    const path = apiPaths.statement('demo', 'en-US');
    const plain = await t.api('GET', path, { session: sessionId });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.headers['cache-control']).toBe('no-store');
    const br = await t.api('GET', path, { session: sessionId, headers: { 'accept-encoding': BROWSER } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gzip = await t.api('GET', path, { session: sessionId, headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    const head = await t.api('HEAD', path, { session: sessionId, headers: { 'accept-encoding': BROWSER } });
    const { date: _date, ...headHeaders } = head.headers;
    const { date: _date2, ...getHeaders } = br.headers;
    expect(headHeaders).toEqual(getHeaders);
    // Someone else's statement is still refused, whatever the caller accepts.
    expect(
      (await t.api('GET', apiPaths.statement('spent', 'en-US'), { session: sessionId, headers: { 'accept-encoding': BROWSER } }))
        .statusCode,
    ).toBe(403);
  });

  it('compresses a big dynamic reply on the fly as asked, and leaves a small one as it is', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': BROWSER } });
    expect(document.statusCode).toBe(200);
    expect(document.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(document.rawPayload).toString())).toMatchObject({ openapi: '3.1.0' });
    const plainDocument = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(plainDocument.headers['content-encoding']).toBeUndefined();

    const { sessionId } = await t.login('demo');
    const user = await t.api('GET', '/user', { session: sessionId, headers: { 'accept-encoding': BROWSER } });
    expect(user.statusCode).toBe(200);
    expect(user.headers['content-encoding']).toBeUndefined();
    expect(user.json()).toMatchObject({ sessionId, userName: 'demo' });
  });

  it('answers HEAD with the headers GET sends, for every form and for a 304', async () => {
    const comparable = (headers: Record<string, unknown>) => {
      const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
      return rest;
    };
    const tag = String((await get('/viewConfig/bundle/en-US', { 'accept-encoding': BROWSER })).headers.etag);
    for (const [path, headers] of [
      ['/viewConfig/client', { 'accept-encoding': BROWSER }],
      ['/viewConfig/client', { 'accept-encoding': 'gzip' }],
      ['/viewConfig/bundle/en-US', { 'accept-encoding': BROWSER }],
      ['/viewConfig/bundle/en-US', { 'accept-encoding': 'gzip' }],
      ['/viewConfig/bundle/en-US', { 'accept-encoding': BROWSER, 'if-none-match': tag }],
    ] as const) {
      const getReply = await get(path, headers);
      const headReply = await get(path, headers, 'HEAD');
      expect(headReply.statusCode).toBe(getReply.statusCode);
      expect(headReply.body).toBe('');
      if (getReply.statusCode === 200) expect(comparable(headReply.headers)).toEqual(comparable(getReply.headers));
      // Fastify's HEAD route adds a content-length of 0 to a 304; a GET's 304 has none.
      else expect({ ...comparable(headReply.headers), 'content-length': undefined }).toEqual(comparable(getReply.headers));
    }
  });
});
