import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { seedDemo } from '../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';

/** Two builds side by side, as `npm run build` leaves them: the participant app and the console (decision 050). */
function fakeBuild(marker: string): string {
  const dist = mkdtempSync(join(tmpdir(), `rewards-${marker}-`));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), `<!doctype html><html><body>${marker}<!--client-data--></body></html>`);
  writeFileSync(join(dist, 'assets', `${marker}-abc123.js`), `console.log('${marker}');`);
  return dist;
}

describe.each(dialects)('the console web app and the participant app, each on its own host (%s)', (dialect) => {
  const webDist = fakeBuild('portal');
  const consoleDist = fakeBuild('console');
  const CONSOLE = 'console.localhost:3000';
  const CLIENT = 'localhost:3000';
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist, consoleDist }, db: database.db });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    rmSync(webDist, { recursive: true, force: true });
    rmSync(consoleDist, { recursive: true, force: true });
  });

  const get = (url: string, host: string) => app.inject({ method: 'GET', url, headers: { host } });

  it('answers every /console/ path on the console host with the console page, uncached, and its assets for a year', async () => {
    for (const url of ['/console/', '/console/sign-in', '/console/participants/acme/p-1', '/console/enrol']) {
      const reply = await get(url, CONSOLE);
      expect(reply.statusCode, url).toBe(200);
      expect(reply.headers['content-type']).toContain('text/html');
      expect(reply.body).toContain('console');
      expect(reply.body).not.toContain('portal');
      expect(reply.headers['cache-control']).toBe('no-cache');
      // The same document policy as the portal's: no inline script.
      expect(String(reply.headers['content-security-policy'])).toContain("script-src 'self'");
    }
    const asset = await get('/console/assets/console-abc123.js', CONSOLE);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/console', CONSOLE)).headers.location).toBe('/console/');
    expect((await get('/', CONSOLE)).headers.location).toBe('/console/');
  });

  it('refuses the participant app on the console host', async () => {
    for (const url of ['/login', '/home', '/assets/portal-abc123.js', '/index.html']) {
      const reply = await get(url, CONSOLE);
      expect(reply.statusCode, url).toBe(404);
      expect(reply.body).not.toContain('portal');
    }
  });

  it("refuses the console on a client's host, page and assets", async () => {
    for (const url of ['/console/', '/console/sign-in', '/console/assets/console-abc123.js', '/console']) {
      const reply = await get(url, CLIENT);
      expect(reply.statusCode, url).toBe(404);
      expect(reply.body).not.toContain('console');
    }
    // The participant app itself is as it was.
    const page = await get('/login', CLIENT);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('portal');
    expect((await get('/assets/portal-abc123.js', CLIENT)).statusCode).toBe(200);
  });

  it('keeps the console API on its host: the page routes do not swallow it', async () => {
    expect((await get('/api/console/v1/me', CONSOLE)).statusCode).toBe(401);
    expect((await get('/api/console/v1/me', CLIENT)).statusCode).toBe(404);
  });
});
