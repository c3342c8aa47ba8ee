import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API_BASE, ErrorCode, adminPaths, type ApiScope, type LaunchTokenReply } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { listAudit } from '../audit/service.ts';
import { createAdminKey } from '../launch-as/admin-keys.ts';
import { createApiKey, revokeClientApiKey } from './service.ts';

let unique = 0;

/**
 * Decision 083: the admin API's launch-token call takes a client's API key with the launch-as
 * scope beside the installation's admin keys. The key's client is the only one it reaches.
 */
describe.each(dialects)('launch tokens with an API key on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const make = (clientId = 'acme', scopes: ApiScope[] = ['launch-as'], limits: { ratePerSecond?: number; burst?: number } = {}) =>
    createApiKey(t.database.db, {
      clientId,
      name: `Helpdesk ${++unique}`,
      scopes,
      ...limits,
      createdBy: 'owner@rewards.test',
      actorKind: 'staff',
      reason: 'helpdesk tool',
    });
  const launch = (key: string, body: Record<string, unknown>, remoteAddress = '10.2.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `${ADMIN_API_BASE}${adminPaths.launchTokens}`,
      remoteAddress,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'client-id': 'http://localhost:3000' },
      payload: JSON.stringify(body),
    });

  it("issues a link for its own client's participant, audited under the key's name", async () => {
    const { key, view } = await make();
    const reply = await launch(key, { username: 'demo', reason: 'ticket 29-1' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json<LaunchTokenReply>().url).toContain('/launch-as?token=');
    // Naming its own client is allowed, too.
    expect((await launch(key, { username: 'demo', reason: 'ticket 29-2', client: 'acme' })).statusCode).toBe(201);
    const issued = (await listAudit(t.database.db, { clientId: 'acme', action: 'launch-as.issue', limit: 20 })).find(
      (a) => a.actor === view.name,
    );
    expect(issued).toMatchObject({ actor_kind: 'api-key', subject: 'demo' });
    expect(JSON.parse(issued!.details)).toMatchObject({ via: 'api', apiKey: view.id, reason: expect.stringMatching(/^ticket 29-/) });
  });

  it("reaches no other client: naming one is 403, another client's participant 404", async () => {
    const globex = await make(OTHER_CLIENT_ID);
    expect((await launch(globex.key, { username: 'demo', reason: 'ticket', client: 'acme' })).statusCode).toBe(403);
    // "spent" is acme's only.
    expect((await launch(globex.key, { username: 'spent', reason: 'ticket' })).statusCode).toBe(404);
    const own = await launch(globex.key, { username: 'demo', reason: 'ticket' });
    expect(own.statusCode).toBe(201);
    expect(own.json<LaunchTokenReply>().url.startsWith('https://rewards.globex.example/')).toBe(true);
  });

  it('refuses a key without the launch-as scope (403), and a revoked one (401)', async () => {
    const reader = await make('acme', ['participants:read']);
    const refused = await launch(reader.key, { username: 'demo', reason: 'ticket' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ errorCode: ErrorCode.apiKeyScopeMissing });
    const { key, view } = await make();
    expect((await launch(key, { username: 'demo', reason: 'ticket' })).statusCode).toBe(201);
    await revokeClientApiKey(t.database.db, { clientId: 'acme', keyId: view.id, revokedBy: 'owner', actorKind: 'staff', reason: 'gone' });
    const revoked = await launch(key, { username: 'demo', reason: 'ticket' });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(revoked.json()).toMatchObject({ errorCode: ErrorCode.apiKeyInvalid });
  });

  it('still takes an admin key', async () => {
    const { key } = await t.database.db
      .transaction()
      .execute((trx) => createAdminKey(trx, { name: `desk-${++unique}`, clientId: 'acme', createdBy: 'ops', origin: 'test' }));
    expect((await launch(key, { username: 'demo', reason: 'ticket' })).statusCode).toBe(201);
  });

  it("takes the key's rate before the work: 10 of 100 parallel calls with a burst of 10", async () => {
    const { key } = await make('acme', ['launch-as'], { burst: 10, ratePerSecond: 0.01 });
    const before = await t.database.db.selectFrom('launch_tokens').select('id').execute();
    const statuses = (await Promise.all(Array.from({ length: 100 }, () => launch(key, { username: 'demo', reason: 'burst' })))).map(
      (r) => r.statusCode,
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    expect(await t.database.db.selectFrom('launch_tokens').select('id').execute()).toHaveLength(before.length + 10);
  }, 60_000);
});
