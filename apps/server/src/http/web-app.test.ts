import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientData } from '@rewards/contract';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { seedDemo } from '../db/seed/demo.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';

describe('the served web app', () => {
  const dist = mkdtempSync(join(tmpdir(), 'rewards-dist-'));
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div><!--client-data--></body></html>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), script);
    writeFileSync(join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
    database = await createTestDatabase('sqlite');
    await seedDemo(database.db);
    // A client wording with markup in it must not be able to close the data block.
    await database.db
      .insertInto('translations')
      .values({ client_id: 'acme', locale: 'en-US', key: 'login.title', text: '</script><script>alert(1)</script>' })
      .execute();
    app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: dist }, db: database.db });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    rmSync(dist, { recursive: true, force: true });
  });

  it("answers any page path with index.html carrying the site's client data as inert JSON", async () => {
    for (const url of ['/', '/login', '/home', '/activity-history']) {
      const reply = await app.inject({ method: 'GET', url, headers: { host: 'localhost:3000' } });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toContain('text/html');
      const block = /<script id="client-data" type="application\/json">(.*?)<\/script>/s.exec(reply.body);
      const data = ClientData.parse(JSON.parse(block?.[1] ?? 'null'));
      expect(data.clientBranding.clientName).toBe('Acme Rewards');
      expect(data.bundleList['en-US']?.properties['login.title']).toBe('</script><script>alert(1)</script>');
      expect(reply.body).not.toContain('<script>alert(1)');
    }
  });

  it("gives the page a policy that allows no inline script, and helmet's other headers for documents", async () => {
    const reply = await app.inject({ method: 'GET', url: '/login', headers: { host: 'localhost:3000' } });
    const csp = String(reply.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(reply.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['x-frame-options']).toBe('SAMEORIGIN');
    // An asset is a file the browser renders too: the same list.
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['content-security-policy']).toBe(csp);
  });

  it('sends the page compressed to a browser that accepts it, the same page either way', async () => {
    const plain = await app.inject({ method: 'GET', url: '/login', headers: { host: 'localhost:3000' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const br = await app.inject({
      method: 'GET',
      url: '/login',
      headers: { host: 'localhost:3000', 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await app.inject({ method: 'GET', url: '/home', headers: { host: 'localhost:3000', 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // Brotli refused by its weight: gzip; both refused: the page as it is.
    const noBrotli = await app.inject({
      method: 'GET',
      url: '/login',
      headers: { host: 'localhost:3000', 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(noBrotli.headers['content-encoding']).toBe('gzip');
    const neither = await app.inject({
      method: 'GET',
      url: '/login',
      headers: { host: 'localhost:3000', 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    expect(neither.headers['content-encoding']).toBeUndefined();
    expect(neither.body).toBe(plain.body);
  });

  it('serves an unknown site the bare page, which then shows its error', async () => {
    const reply = await app.inject({ method: 'GET', url: '/login', headers: { host: 'unknown.example' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).not.toContain('id="client-data"');
  });

  it('sends hashed assets brotli-compressed when accepted, cached for a year', async () => {
    const reply = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['cache-control']).toContain('immutable');
    const plain = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("keeps unknown API paths as JSON 404s with the API's headers rather than the page", async () => {
    for (const url of ['/api/v1.0/nothing', '/api/nothing']) {
      const reply = await app.inject({ method: 'GET', url, headers: { 'client-id': 'http://localhost' } });
      expect(reply.statusCode, url).toBe(404);
      expect(reply.json()).toMatchObject({ responseMessage: 'error.notFound' });
      expect(reply.headers['content-security-policy'], url).toBe("default-src 'none';frame-ancestors 'none'");
      expect(reply.headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
  });
});
