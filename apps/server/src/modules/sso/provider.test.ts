import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DISCOVERED_MAX, DISCOVERY_CACHE_MS, providerConfig, type ProviderSettings } from './provider.ts';

/**
 * The cache of discovered providers (no SQL: one engine is enough). A local provider answers the
 * discovery documents of any issuer under it (`/<name>`) and counts what it is asked.
 */
describe('the discovered providers kept by a process', () => {
  let server: Server;
  let base = '';
  const asked = new Map<string, number>();
  /** Names whose next discovery fails (the provider answers 503 once). */
  const failOnce = new Set<string>();

  beforeAll(async () => {
    server = createServer((request, response) => {
      const name = /^\/([^/]+)\/\.well-known\/openid-configuration$/.exec(request.url ?? '')?.[1];
      if (!name) return void response.writeHead(404).end();
      asked.set(name, (asked.get(name) ?? 0) + 1);
      if (failOnce.delete(name)) return void response.writeHead(503).end();
      const issuer = `${base}/${name}`;
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** A provider of its own for one test, and settings for it. */
  function provider(): { name: string; settings: ProviderSettings } {
    const name = randomUUID();
    return { name, settings: { issuer: `${base}/${name}`, clientId: 'rewards', clientSecret: 'secret-1' } };
  }

  it('discovers once for concurrent sign-ins, and again only once DISCOVERY_CACHE_MS has passed', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // lru-cache reads a start of 0 as "no time limit"; a real process's clock is never at 0.
      vi.advanceTimersByTime(1);
      const { name, settings } = provider();
      const key = `client-${name}`;
      const [first, ...others] = await Promise.all([1, 2, 3].map(() => providerConfig(key, settings)));
      expect(asked.get(name)).toBe(1);
      for (const other of others) expect(other).toBe(first);
      expect(first!.serverMetadata().token_endpoint).toBe(`${settings.issuer}/token`);

      vi.advanceTimersByTime(DISCOVERY_CACHE_MS);
      expect(await providerConfig(key, settings)).toBe(first);
      expect(asked.get(name)).toBe(1);
      vi.advanceTimersByTime(1);
      expect(await providerConfig(key, settings)).not.toBe(first);
      expect(asked.get(name)).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('discovers again at once when the issuer, client id or secret changes', async () => {
    const { name, settings } = provider();
    const key = `client-${name}`;
    const first = await providerConfig(key, settings);
    const changed = await providerConfig(key, { ...settings, clientSecret: 'secret-2' });
    expect(changed).not.toBe(first);
    expect(asked.get(name)).toBe(2);
    // The new settings' configuration replaced the old one.
    expect(await providerConfig(key, { ...settings, clientSecret: 'secret-2' })).toBe(changed);
    expect(await providerConfig(key, { ...settings, clientId: 'other' })).not.toBe(changed);
    expect(asked.get(name)).toBe(3);
  });

  it('keeps no failed discovery: the next sign-in asks the provider again', async () => {
    const { name, settings } = provider();
    const key = `client-${name}`;
    failOnce.add(name);
    await expect(providerConfig(key, settings)).rejects.toThrow();
    const config = await providerConfig(key, settings);
    expect(asked.get(name)).toBe(2);
    expect(await providerConfig(key, settings)).toBe(config);
    expect(asked.get(name)).toBe(2);
  });

  it('keeps at most DISCOVERED_MAX providers, the least recently used out first', async () => {
    const { name, settings } = provider();
    const keys = Array.from({ length: DISCOVERED_MAX + 1 }, (_, i) => `bound-${name}-${i}`);
    const [oldest, second] = [keys[0]!, keys[1]!];
    const kept = await providerConfig(oldest, settings);
    // The others, a hundred at a time: one discovery each (every key is a client of its own).
    for (let from = 1; from < DISCOVERED_MAX; from += 100) {
      await Promise.all(keys.slice(from, Math.min(from + 100, DISCOVERED_MAX)).map((key) => providerConfig(key, settings)));
    }
    expect(asked.get(name)).toBe(DISCOVERED_MAX);
    // The oldest is used again, then one more client is discovered: the second oldest goes.
    expect(await providerConfig(oldest, settings)).toBe(kept);
    await providerConfig(keys[DISCOVERED_MAX]!, settings);
    expect(asked.get(name)).toBe(DISCOVERED_MAX + 1);
    expect(await providerConfig(oldest, settings)).toBe(kept);
    expect(asked.get(name)).toBe(DISCOVERED_MAX + 1);
    await providerConfig(second, settings);
    expect(asked.get(name)).toBe(DISCOVERED_MAX + 2);
  });
});
