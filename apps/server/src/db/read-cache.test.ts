import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { API_BASE, CLIENT_HEADER, ClientData } from '@rewards/contract';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { dialects } from '../../test/databases.ts';
import { createTestApp, DEMO_ORIGIN, type TestApp } from '../../test/test-app.ts';
import { createDatabase, type Db } from './database.ts';
import { cachedRead, clearReadCache, configureReadCache } from './read-cache.ts';

/** A second server process over the same database: its own connection, its own cache. */
async function secondProcess(t: TestApp, cacheSeconds: string): Promise<{ app: FastifyInstance; db: Db }> {
  const db = createDatabase(t.database.config);
  const config = { ...loadConfig({ LOG_LEVEL: 'silent', CLIENT_CACHE_SECONDS: cacheSeconds }), webDist: undefined };
  const app = await buildApp({ config, db });
  await app.ready();
  return { app, db };
}

async function clientName(app: FastifyInstance): Promise<string> {
  const reply = await app.inject({ method: 'GET', url: `${API_BASE}/viewConfig/client`, headers: { [CLIENT_HEADER]: DEMO_ORIGIN } });
  return ClientData.parse(reply.json()).clientBranding.clientName;
}

async function bundleTitle(app: FastifyInstance): Promise<{ title: string | undefined; etag: string | undefined }> {
  const reply = await app.inject({ method: 'GET', url: `${API_BASE}/viewConfig/bundle/en-US`, headers: { [CLIENT_HEADER]: DEMO_ORIGIN } });
  const body = reply.json<{ bundleList: Record<string, { properties: Record<string, string> }> }>();
  return { title: body.bundleList['en-US']?.properties['login.title'], etag: reply.headers.etag as string | undefined };
}

describe.each(dialects)('configuration cached in each process on %s', (dialect) => {
  let t: TestApp;
  let slow: { app: FastifyInstance; db: Db };
  let quick: { app: FastifyInstance; db: Db };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    slow = await secondProcess(t, '3600');
    quick = await secondProcess(t, '1');
  });
  afterAll(async () => {
    for (const p of [slow, quick]) {
      await p.app.close();
      await p.db.destroy();
    }
    await t.close();
  });

  it("shows an operator's change on every process once its cache lifetime has passed, and not before", async () => {
    // Entries expire by the caches' clock (performance.now): set, it moves exactly as far as the test says.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // lru-cache reads a start of 0 as "no time limit"; a real process's clock is never at 0.
      vi.advanceTimersByTime(1);
      // Everything below is loaded on the set clock, none of it left from the apps' start.
      for (const p of [slow, quick]) clearReadCache(p.db);
      expect(await clientName(slow.app)).toBe('Acme Rewards');
      expect(await clientName(quick.app)).toBe('Acme Rewards');
      const before = await bundleTitle(quick.app);

      // The operator renames the program and rewords the login title, from outside the servers.
      await t.database.db.updateTable('clients').set({ name: 'Acme Loyalty' }).where('id', '=', 'acme').execute();
      await t.database.db
        .insertInto('translations')
        .values({ client_id: 'acme', locale: 'en-US', key: 'login.title', text: 'Welcome to Acme Loyalty' })
        .execute();

      // Within its second, the process with a one-second cache still answers from it.
      vi.advanceTimersByTime(1_000);
      expect(await clientName(quick.app)).toBe('Acme Rewards');
      expect(await bundleTitle(quick.app)).toEqual(before);
      // Once more than the second has passed, it shows both.
      vi.advanceTimersByTime(1);
      expect(await clientName(quick.app)).toBe('Acme Loyalty');
      const after = await bundleTitle(quick.app);
      expect(after.title).toBe('Welcome to Acme Loyalty');
      // The bundle's ETag moves with its content, so a browser's revalidation fetches the new one.
      expect(after.etag).not.toBe(before.etag);
      // A process whose cache lives an hour still answers from it: the cache is really used.
      expect(await clientName(slow.app)).toBe('Acme Rewards');
      // Without a cache (the tests' default) the change shows at once.
      expect(await clientName(t.app)).toBe('Acme Loyalty');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the configuration read cache (docs/decisions/027)', () => {
  // The cache only needs an object's identity; a fake database is enough here.
  const fakeDb = () => ({ isTransaction: false }) as unknown as Db;

  it('keeps an answer until cleared, never "not found", and nothing once configured off', async () => {
    const db = fakeDb();
    configureReadCache(db, 60);
    const load = vi.fn(async () => 'client-a');
    expect(await cachedRead(db, 'host:a', load)).toBe('client-a');
    expect(await cachedRead(db, 'host:a', load)).toBe('client-a');
    expect(load).toHaveBeenCalledTimes(1);
    const notFound = vi.fn(async () => undefined);
    await cachedRead(db, 'host:none', notFound);
    await cachedRead(db, 'host:none', notFound);
    expect(notFound).toHaveBeenCalledTimes(2);
    clearReadCache(db);
    await cachedRead(db, 'host:a', load);
    expect(load).toHaveBeenCalledTimes(2);

    const uncached = fakeDb();
    configureReadCache(uncached, 0);
    const uncachedLoad = vi.fn(async () => 'client-a');
    await cachedRead(uncached, 'host:a', uncachedLoad);
    await cachedRead(uncached, 'host:a', uncachedLoad);
    expect(uncachedLoad).toHaveBeenCalledTimes(2);
  });

  it('answers a hit without loading, and gives callers that ask while a load runs that one load (decision 027)', async () => {
    const db = fakeDb();
    configureReadCache(db, 60);
    let finish: (value: object) => void = () => undefined;
    const load = vi.fn(() => new Promise<object>((resolve) => (finish = resolve)));
    const first = cachedRead(db, 'clientData:a', load);
    const second = cachedRead(db, 'clientData:a', load);
    expect(load).toHaveBeenCalledTimes(1);
    const data = { clientName: 'A' };
    finish(data);
    expect(await first).toBe(data);
    expect(await second).toBe(data);
    expect(await cachedRead(db, 'clientData:a', load)).toBe(data);
    expect(load).toHaveBeenCalledTimes(1);
    // A failed load is not kept: the next caller loads again.
    const failing = vi.fn(async () => Promise.reject(new Error('down')));
    await expect(cachedRead(db, 'clientData:b', failing)).rejects.toThrow('down');
    await expect(cachedRead(db, 'clientData:b', failing)).rejects.toThrow('down');
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
