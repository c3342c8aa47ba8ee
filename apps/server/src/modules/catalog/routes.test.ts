import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type JSONWebKeySet } from 'jose';
import { ErrorCode, JWKS_PATH, type ClientData, type UserData } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, DEMO_ORIGIN, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_PASSWORD } from '../../../test/other-client.ts';
import { SIGNING_KEY_FILE } from './signing-key.ts';

describe.each(dialects)('catalog links on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rewards-catalog-'));
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function publishedKeys(app = t.app) {
    const reply = await app.inject({ method: 'GET', url: JWKS_PATH });
    expect(reply.statusCode).toBe(200);
    return { reply, jwks: reply.json<JSONWebKeySet>() };
  }

  async function linkFor(type: string, username = 'demo') {
    const { sessionId } = await t.login(username);
    return t.api('GET', `/user/catalog-url/${type}`, { session: sessionId });
  }

  it('publishes only the public key, with a kid, for a few minutes of caching', async () => {
    const { reply, jwks } = await publishedKeys();
    expect(reply.headers['cache-control']).toBe('public, max-age=300');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(jwks.keys).toHaveLength(1);
    const [key] = jwks.keys;
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(key?.kid).toEqual(expect.any(String));
    expect(key).not.toHaveProperty('d');
  });

  it.each(['merchandise', 'experiences'])('gives Dana a signed, short-lived %s link that says who she is', async (type) => {
    const reply = await linkFor(type);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const url = new URL(reply.json<{ catalogUrl: string }>().catalogUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${DEMO_ORIGIN}/demo-catalog/${type}`);
    const token = url.searchParams.get('token') ?? '';
    const { jwks } = await publishedKeys();
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: DEMO_ORIGIN, audience: 'demo-catalog' });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: jwks.keys[0]?.kid });
    const dana = await t.database.db
      .selectFrom('participants')
      .select('id')
      .where('client_id', '=', 'acme')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    expect(payload).toMatchObject({ sub: dana.id, name: 'Dana Demo', locale: 'en-US', balance: 12_500, client: 'acme', offering: type });
    expect(payload.jti).toEqual(expect.any(String));
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBeLessThanOrEqual(300);
    expect(payload.exp ?? 0).toBeGreaterThan(payload.iat ?? 0);
  });

  it('makes a different token each time (a fresh jti)', async () => {
    const tokenOf = async () => new URL((await linkFor('merchandise')).json<{ catalogUrl: string }>().catalogUrl).searchParams.get('token');
    expect(await tokenOf()).not.toBe(await tokenOf());
  });

  it('refuses an unknown catalog type with 400', async () => {
    const reply = await linkFor('travel');
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation });
  });

  it('refuses an offering the participant does not have with 403', async () => {
    expect((await linkFor('merchandise', 'merch')).statusCode).toBe(200);
    const reply = await linkFor('experiences', 'merch');
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.forbidden });
  });

  it('refuses an administrator acting as the participant with 403', async () => {
    const { sessionId } = await t.login('spent');
    await t.database.db.updateTable('sessions').set({ admin_as_user: 1 }).execute();
    const reply = await t.api('GET', '/user/catalog-url/merchandise', { session: sessionId });
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.forbidden, responseMessage: 'error.forbidden' });
    await t.database.db.updateTable('sessions').set({ admin_as_user: 0 }).execute();
  });

  it('lets an inactive participant with points open the merchandise catalog (the spec sends them there)', async () => {
    expect((await linkFor('merchandise', 'inactive')).statusCode).toBe(200);
  });

  it('answers 401 without a session, and for a session of another client', async () => {
    expect((await t.api('GET', '/user/catalog-url/merchandise')).statusCode).toBe(401);
    const globex = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((await t.api('GET', '/user/catalog-url/merchandise', { session: globex.sessionId })).statusCode).toBe(401);
  });

  it('says the catalog is down (503, catalog.error.down) when the client has none for an offering', async () => {
    await t.database.db.deleteFrom('client_catalogs').where('client_id', '=', 'acme').where('kind', '=', 'experiences').execute();
    const reply = await linkFor('experiences');
    expect(reply.statusCode).toBe(503);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.catalogUnavailable, responseMessage: 'catalog.error.down' });
    // One catalog of two missing: only that tile is down, user data does not mark everything unavailable.
    expect((await t.login('demo')).rewardsOfferingUnavailable).toBe(false);
    await t.database.db.deleteFrom('client_catalogs').where('client_id', '=', 'acme').where('kind', '=', 'merchandise').execute();
    expect((await t.login('demo')).rewardsOfferingUnavailable).toBe(true);
    expect((await t.login('merch')).rewardsOfferingUnavailable).toBe(true);
    await t.database.db
      .insertInto('client_catalogs')
      .values([
        { client_id: 'acme', kind: 'merchandise', url: '/demo-catalog/merchandise', partner_id: 'demo-catalog' },
        { client_id: 'acme', kind: 'experiences', url: '/demo-catalog/experiences', partner_id: 'demo-catalog' },
      ])
      .execute();
    expect((await t.login('demo')).rewardsOfferingUnavailable).toBe(false);
  });

  it('resolves a relative catalog URL against the origin the participant uses, and keeps an absolute one', async () => {
    const local = new URL((await linkFor('merchandise')).json<{ catalogUrl: string }>().catalogUrl);
    expect(local.origin).toBe(DEMO_ORIGIN);
    await t.database.db
      .updateTable('client_catalogs')
      .set({ url: 'https://shop.partner.example/acme?campaign=2026' })
      .where('kind', '=', 'merchandise')
      .execute();
    const external = new URL((await linkFor('merchandise')).json<{ catalogUrl: string }>().catalogUrl);
    expect(`${external.origin}${external.pathname}`).toBe('https://shop.partner.example/acme');
    expect(external.searchParams.get('campaign')).toBe('2026');
    expect(external.searchParams.get('token')).toEqual(expect.any(String));
    // A URL that is no web address is a misconfiguration: the catalog is down, not a script.
    await t.database.db.updateTable('client_catalogs').set({ url: 'javascript:alert(1)' }).where('kind', '=', 'merchandise').execute();
    expect((await linkFor('merchandise')).json()).toMatchObject({ responseMessage: 'catalog.error.down' });
    await t.database.db
      .updateTable('client_catalogs')
      .set({ url: '/demo-catalog/merchandise' })
      .where('kind', '=', 'merchandise')
      .execute();
  });

  it('tells the web the travel link in client data; another client has none', async () => {
    const acme = await t.api('GET', '/viewConfig/client');
    expect(acme.json<ClientData>().catalogs).toEqual({ travelUrl: '/demo-catalog/travel' });
    const globex = await t.api('GET', '/viewConfig/client', { origin: OTHER_ORIGIN });
    expect(globex.json<ClientData>().catalogs).toEqual({ travelUrl: null });
  });

  it('marks no offering unavailable for a participant of a client without catalogs who has no offering', async () => {
    const globex = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((globex as UserData).rewardsOfferingUnavailable).toBe(false);
  });

  it('keeps the generated key in the data directory (0600) and signs with it again after a restart', async () => {
    const file = join(dataDir, SIGNING_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const before = await publishedKeys();
    const token = new URL((await linkFor('merchandise')).json<{ catalogUrl: string }>().catalogUrl).searchParams.get('token') ?? '';
    const again = await createTestApp(dialect, { DATA_DIR: dataDir });
    try {
      const after = await publishedKeys(again.app);
      expect(after.jwks).toEqual(before.jwks);
      const { sessionId } = await again.login('demo');
      const fresh = new URL(
        (await again.api('GET', '/user/catalog-url/merchandise', { session: sessionId })).json<{ catalogUrl: string }>().catalogUrl,
      );
      expect(decodeProtectedHeader(fresh.searchParams.get('token') ?? '').kid).toBe(before.jwks.keys[0]?.kid);
      // A link made before the restart still verifies against the keys published after it.
      await expect(jwtVerify(token, createLocalJWKSet(after.jwks))).resolves.toBeTruthy();
    } finally {
      await again.close();
    }
  });

  it('signs with a configured key instead, and publishes its public half only', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'configured-1' };
    const other = await createTestApp(dialect, { CATALOG_SIGNING_KEY: JSON.stringify(jwk) });
    try {
      const { jwks } = await publishedKeys(other.app);
      expect(jwks.keys).toEqual([{ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid: 'configured-1', alg: 'ES256', use: 'sig' }]);
      const { sessionId } = await other.login('demo');
      const url = new URL(
        (await other.api('GET', '/user/catalog-url/experiences', { session: sessionId })).json<{ catalogUrl: string }>().catalogUrl,
      );
      const { protectedHeader } = await jwtVerify(url.searchParams.get('token') ?? '', createLocalJWKSet(jwks), {
        audience: 'demo-catalog',
      });
      expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: 'configured-1' });
    } finally {
      await other.close();
    }
  });
});
