import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode, type ApiScope } from '@rewards/contract';
import type { Db } from '../../db/database.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { errors } from '../../http/api-error.ts';
import { registerErrorHandler } from '../../http/error-handler.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID, seedOtherClient } from '../../../test/other-client.ts';
import { listAudit } from '../audit/service.ts';
import { findParticipantByUsername } from '../participants/store.ts';
import { apiCallerOf, requireApiKey } from './guard.ts';
import { createApiKey, listClientApiKeys, revokeClientApiKey } from './service.ts';

let unique = 0;
const named = (what: string) => `${what} ${++unique} ${Date.now().toString(36)}`;

/**
 * A tiny program-API-like route, registered here only: it reads a participant of the caller's
 * client. The client comes from the key; nothing in the request names one.
 */
async function guardedApp(db: Db): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get<{ Params: { username: string } }>(
    '/test/participants/:username',
    { onRequest: requireApiKey(db, 'participants:read') },
    async (request) => {
      const caller = apiCallerOf(request);
      const participant = await findParticipantByUsername(db, caller.clientId, request.params.username);
      if (!participant) throw errors.notFound();
      return { client: caller.clientId, key: caller.keyName, username: participant.username, firstName: participant.first_name };
    },
  );
  app.post('/test/points', { onRequest: requireApiKey(db, 'points:write') }, async (request) => ({
    client: apiCallerOf(request).clientId,
  }));
  // A route a developer forgot to guard: apiCallerOf refuses rather than act for nobody.
  app.get('/test/unguarded', async (request) => apiCallerOf(request));
  await app.ready();
  return app;
}

/** Issue 29 §1 (docs/decisions/083): keys per client, their guard, scopes and per-key limits. */
describe.each(dialects)('API keys on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    await seedDemo(db);
    await seedOtherClient(db);
    app = await guardedApp(db);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const make = (
    options: { clientId?: string; scopes?: ApiScope[]; ratePerSecond?: number; burst?: number; name?: string } = {},
    now?: Date,
  ) =>
    createApiKey(
      db,
      {
        clientId: options.clientId ?? 'acme',
        name: options.name ?? named('CRM sync'),
        scopes: options.scopes ?? ['participants:read'],
        ...(options.ratePerSecond === undefined ? {} : { ratePerSecond: options.ratePerSecond }),
        ...(options.burst === undefined ? {} : { burst: options.burst }),
        createdBy: 'owner@acme.example',
        actorKind: 'staff',
        reason: 'ticket 29',
        origin: 'http://console.localhost:3000',
      },
      now,
    );
  const call = (key: string | undefined, path = '/test/participants/demo', remoteAddress = '10.0.0.1', method: 'GET' | 'POST' = 'GET') =>
    app.inject({ method, url: path, remoteAddress, headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
  let addresses = 0;
  /** An address of its own, so the bad-key throttle of one test never meets another's. */
  const address = () => `10.1.${Math.floor(++addresses / 250)}.${addresses % 250}`;

  it('makes a key shown once, keeps only its hash, lists it and audits the create', async () => {
    const name = named('CRM');
    const made = await make({ name, scopes: ['points:write', 'participants:read'] });
    expect(made.key).toMatch(/^rk_live_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.view).toMatchObject({
      client: 'acme',
      name,
      prefix: made.key.slice(0, 20),
      // In the list's order, whatever order they were named in.
      scopes: ['participants:read', 'points:write'],
      ratePerSecond: 200,
      burst: 400,
      createdBy: 'owner@acme.example',
      lastUsedAt: null,
      revokedAt: null,
    });
    const row = await db.selectFrom('api_keys').selectAll().where('id', '=', made.view.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(made.key.slice(21));
    const listed = await listClientApiKeys(db, 'acme');
    expect(listed.find((k) => k.id === made.view.id)).toEqual(made.view);
    expect((await listClientApiKeys(db, OTHER_CLIENT_ID)).find((k) => k.id === made.view.id)).toBeUndefined();
    const audit = (await listAudit(db, { clientId: 'acme', action: 'api-keys.create', limit: 50 })).find((a) => a.subject === name);
    expect(audit).toMatchObject({ actor: 'owner@acme.example', actor_kind: 'staff', origin: 'http://console.localhost:3000' });
    expect(JSON.parse(audit!.details)).toMatchObject({
      id: made.view.id,
      reason: 'ticket 29',
      scopes: ['participants:read', 'points:write'],
    });
    expect(audit!.details).not.toContain(made.key.slice(21));
  });

  it('refuses bad input with a 400 and makes nothing', async () => {
    const before = (await listClientApiKeys(db, 'acme')).length;
    const refused = async (input: Parameters<typeof make>[0], status = 400) => {
      await expect(make(input)).rejects.toMatchObject({ statusCode: status });
    };
    await refused({ scopes: [] });
    await refused({ scopes: ['points:write', 'root' as ApiScope] });
    await refused({ ratePerSecond: 0 });
    await refused({ ratePerSecond: Number.NaN });
    await refused({ ratePerSecond: 1e9 });
    await refused({ burst: 0 });
    await refused({ burst: 1.5 });
    await refused({ name: '   ' });
    await refused({ clientId: 'no-such-client' }, 404);
    expect(await listClientApiKeys(db, 'acme')).toHaveLength(before);
  });

  it('gives a name once per client among keys not revoked', async () => {
    const name = named('Shop');
    const first = await make({ name });
    await expect(make({ name })).rejects.toMatchObject({ statusCode: 409, errorCode: ErrorCode.apiKeyNameTaken });
    // Another client may use the name; so may a new key once the old one is revoked.
    await make({ name, clientId: OTHER_CLIENT_ID });
    await revokeClientApiKey(db, {
      clientId: 'acme',
      keyId: first.view.id,
      revokedBy: 'owner@acme.example',
      actorKind: 'staff',
      reason: 'rotated',
    });
    const second = await make({ name });
    expect(second.view.name).toBe(name);
  });

  it('makes one of two keys of one name asked for at once', async () => {
    const name = named('Twins');
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => make({ name })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect((await listClientApiKeys(db, 'acme')).filter((k) => k.name === name)).toHaveLength(1);
  });

  it('answers 401 with www-authenticate Bearer for a missing, malformed, unknown or wrong key', async () => {
    const { key } = await make();
    const from = address();
    const wrongSecret = `${key.slice(0, 21)}${'A'.repeat(43)}`;
    const unknownId = `rk_live_000000000000_${key.slice(21)}`;
    for (const bad of [undefined, '', 'nonsense', key.slice(0, -1), `${key}x`, wrongSecret, unknownId, key.toUpperCase()]) {
      const reply = await call(bad, '/test/participants/demo', from);
      expect(reply.statusCode, String(bad)).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer realm="rewards"/);
      expect(reply.json()).toEqual({
        errorCode: ErrorCode.apiKeyInvalid,
        responseMessage: 'error.forbidden',
        message: 'Missing or invalid API key',
      });
    }
    const basic = await app.inject({
      method: 'GET',
      url: '/test/participants/demo',
      remoteAddress: address(),
      headers: { authorization: `Basic ${key}` },
    });
    expect(basic.statusCode).toBe(401);
    // The scheme's name is case-insensitive.
    const lower = await app.inject({
      method: 'GET',
      url: '/test/participants/demo',
      remoteAddress: address(),
      headers: { authorization: `bearer ${key}` },
    });
    expect(lower.statusCode).toBe(200);
  });

  it("reads the key's own client only: the request cannot name another", async () => {
    const acme = await make();
    const globex = await make({ clientId: OTHER_CLIENT_ID });
    expect((await call(acme.key)).json()).toMatchObject({
      client: 'acme',
      username: 'demo',
      firstName: expect.not.stringMatching(/^Gina$/),
    });
    expect((await call(globex.key)).json()).toMatchObject({ client: OTHER_CLIENT_ID, username: 'demo', firstName: 'Gina' });
    // "spent" lives in acme only: globex's key finds nobody, whatever the request says.
    expect((await call(acme.key, '/test/participants/spent')).statusCode).toBe(200);
    const other = await app.inject({
      method: 'GET',
      url: '/test/participants/spent?client=acme',
      remoteAddress: address(),
      headers: { authorization: `Bearer ${globex.key}`, 'client-id': 'http://localhost:3000' },
    });
    expect(other.statusCode).toBe(404);
  });

  it('answers 403 to a key without the scope, and refuses a route without the guard', async () => {
    const { key } = await make({ scopes: ['participants:read'] });
    const reply = await call(key, '/test/points', address(), 'POST');
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.apiKeyScopeMissing });
    expect(reply.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect((await call(key, '/test/unguarded')).statusCode).toBe(401);
  });

  it('refuses a revoked key on its next call, and revokes once', async () => {
    const { key, view } = await make();
    expect((await call(key)).statusCode).toBe(200);
    const revoked = await revokeClientApiKey(db, {
      clientId: 'acme',
      keyId: view.id,
      revokedBy: 'owner@acme.example',
      actorKind: 'staff',
      reason: 'leaked in a log',
    });
    expect(revoked.already).toBe(false);
    expect(revoked.view).toMatchObject({ revokedBy: 'owner@acme.example', revokeReason: 'leaked in a log' });
    expect(revoked.view.revokedAt).not.toBeNull();
    expect((await call(key, '/test/participants/demo', address())).statusCode).toBe(401);
    const again = await revokeClientApiKey(db, {
      clientId: 'acme',
      keyId: view.id,
      revokedBy: 'x',
      actorKind: 'operator',
      reason: 'again',
    });
    expect(again).toMatchObject({ already: true, view: { revokedBy: 'owner@acme.example' } });
    const audits = (await listAudit(db, { clientId: 'acme', action: 'api-keys.revoke', limit: 100 })).filter((a) =>
      a.details.includes(view.id),
    );
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]!.details)).toMatchObject({ reason: 'leaked in a log' });
  });

  it("does not revoke another client's key (404)", async () => {
    const { key, view } = await make({ clientId: OTHER_CLIENT_ID });
    await expect(
      revokeClientApiKey(db, { clientId: 'acme', keyId: view.id, revokedBy: 'owner@acme.example', actorKind: 'staff', reason: 'not mine' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      revokeClientApiKey(db, {
        clientId: 'acme',
        keyId: 'ffffffffffff',
        revokedBy: 'owner@acme.example',
        actorKind: 'staff',
        reason: 'nobody',
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect((await call(key, '/test/participants/demo', address())).statusCode).toBe(200);
  });

  it('lets exactly the burst through of 100 parallel calls, the rest 429 with Retry-After', async () => {
    const { key } = await make({ burst: 10, ratePerSecond: 0.01 });
    const from = address();
    const replies = await Promise.all(Array.from({ length: 100 }, () => call(key, '/test/participants/demo', from)));
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    for (const refused of replies.filter((r) => r.statusCode === 429)) {
      expect(refused.json()).toMatchObject({ errorCode: ErrorCode.apiKeyRateLimited });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(100);
    }
  }, 60_000);

  it('refills the bucket at the key’s rate, and says when the next token comes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2031-01-01T00:00:00Z');
    vi.setSystemTime(start);
    const { key } = await make({ burst: 2, ratePerSecond: 0.5 }, start);
    const from = address();
    expect((await call(key, '/test/participants/demo', from)).statusCode).toBe(200);
    expect((await call(key, '/test/participants/demo', from)).statusCode).toBe(200);
    const empty = await call(key, '/test/participants/demo', from);
    expect(empty.statusCode).toBe(429);
    expect(empty.headers['retry-after']).toBe('2');
    vi.setSystemTime(start.getTime() + 1_000);
    const half = await call(key, '/test/participants/demo', from);
    expect(half.statusCode).toBe(429);
    expect(half.headers['retry-after']).toBe('1');
    vi.setSystemTime(start.getTime() + 2_000);
    expect((await call(key, '/test/participants/demo', from)).statusCode).toBe(200);
    expect((await call(key, '/test/participants/demo', from)).statusCode).toBe(429);
    // Never above the burst, however long the key rested.
    vi.setSystemTime(start.getTime() + 3_600_000);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(key, '/test/participants/demo', from)).statusCode);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it('writes last used at most about once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2031-02-01T00:00:00Z');
    vi.setSystemTime(start);
    const { key, view } = await make({}, start);
    const lastUsed = async () => (await listClientApiKeys(db, 'acme')).find((k) => k.id === view.id)?.lastUsedAt;
    await call(key);
    expect(await lastUsed()).toBe(start.toISOString());
    vi.setSystemTime(start.getTime() + 30_000);
    await call(key);
    expect(await lastUsed()).toBe(start.toISOString());
    vi.setSystemTime(start.getTime() + 61_000);
    await call(key);
    expect(await lastUsed()).toBe(new Date(start.getTime() + 61_000).toISOString());
  });

  it("audits a key's first use of each scope once", async () => {
    const name = named('Scopes');
    const { key, view } = await make({ name, scopes: ['participants:read', 'points:write'] });
    await Promise.all(Array.from({ length: 10 }, () => call(key)));
    await call(key, '/test/points', '10.0.0.1', 'POST');
    await call(key, '/test/points', '10.0.0.1', 'POST');
    const firstUses = (await listAudit(db, { clientId: 'acme', action: 'api-keys.scope-first-used', limit: 100 })).filter(
      (a) => a.actor === name,
    );
    expect(firstUses.map((a) => a.subject).sort()).toEqual(['participants:read', 'points:write']);
    expect(firstUses.every((a) => a.actor_kind === 'api-key' && a.details.includes(view.id))).toBe(true);
  });

  it('throttles an address that tries bad keys, good keys included', async () => {
    const { key } = await make();
    const from = address();
    for (let i = 0; i < 20; i++)
      expect((await call(`rk_live_${'0'.repeat(12)}_${'B'.repeat(43)}`, '/test/participants/demo', from)).statusCode).toBe(401);
    const throttled = await call(key, '/test/participants/demo', from);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ errorCode: ErrorCode.apiKeyThrottled });
    // Another address is not concerned.
    expect((await call(key, '/test/participants/demo', address())).statusCode).toBe(200);
  });
});
