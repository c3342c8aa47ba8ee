import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { consoleApiKeysPaths as paths, type ApiKeyList, type ApiKeyView, type CreatedApiKey } from '@rewards/contract/console-api-keys';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { listAudit } from '../audit/service.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';

/** The console's API keys (issue 29 §1, docs/decisions/083); who may call what is in staff/authorization.test.ts. */
describe.each(dialects)('console API keys on %s', (dialect) => {
  let t: ConsoleTestApp;
  let manager: EnrolledStaff;
  let auditor: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    manager = await enrolStaff(t, 'keys-manager@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] });
    auditor = await enrolStaff(t, 'keys-auditor@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
  });
  afterAll(() => t.close());

  it('makes a key shown once, lists it without the key, and revokes it with a reason', async () => {
    const made = await t.console('POST', paths.keys('acme'), {
      cookie: manager.cookie,
      body: { name: 'CRM sync', scopes: ['participants:write', 'participants:read'], ratePerSecond: 50, reason: 'ticket 29' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { key, view } = made.json<CreatedApiKey>();
    expect(key).toMatch(/^rk_live_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(view).toMatchObject({
      name: 'CRM sync',
      scopes: ['participants:read', 'participants:write'],
      ratePerSecond: 50,
      burst: 400,
      createdBy: 'keys-manager@acme.test',
    });
    expect(made.headers['cache-control']).toBe('no-store');

    const listed = await t.console('GET', paths.keys('acme'), { cookie: auditor.cookie });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(key.slice(21));
    expect(listed.json<ApiKeyList>().keys.find((k) => k.id === view.id)).toEqual(view);

    const revoked = await t.console('POST', paths.revoke('acme', view.id), { cookie: manager.cookie, body: { reason: 'rotated' } });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<ApiKeyView>()).toMatchObject({ id: view.id, revokedBy: 'keys-manager@acme.test', revokeReason: 'rotated' });

    const audit = await listAudit(t.database.db, { clientId: 'acme', action: 'api-keys.', limit: 10 });
    expect(audit.filter((a) => a.details.includes(view.id)).map((a) => [a.action, a.actor, a.actor_kind])).toEqual([
      ['api-keys.revoke', 'keys-manager@acme.test', 'staff'],
      ['api-keys.create', 'keys-manager@acme.test', 'staff'],
    ]);
  });

  it('refuses a bad body with 400 and a taken name with 409, making nothing', async () => {
    const count = async () => (await t.database.db.selectFrom('api_keys').select('id').where('client_id', '=', 'acme').execute()).length;
    const before = await count();
    const bodies: unknown[] = [
      {},
      { name: 'x', scopes: [], reason: 'why not' },
      { name: 'x', scopes: ['root'], reason: 'why not' },
      { name: 'x', scopes: ['points:read', 'points:read'], reason: 'why not' },
      { name: 'x', scopes: ['points:read'], ratePerSecond: 0, reason: 'why not' },
      { name: 'x', scopes: ['points:read'], burst: 1_000_000, reason: 'why not' },
      { name: 'x', scopes: ['points:read'], reason: '' },
      { name: '', scopes: ['points:read'], reason: 'why not' },
    ];
    for (const body of bodies) {
      const reply = await t.console('POST', paths.keys('acme'), { cookie: manager.cookie, body });
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.json<{ errorCode: number }>().errorCode).toBe(ErrorCode.validation);
    }
    const first = await t.console('POST', paths.keys('acme'), {
      cookie: manager.cookie,
      body: { name: 'Shop', scopes: ['points:read'], reason: 'why not' },
    });
    expect(first.statusCode).toBe(201);
    const twin = await t.console('POST', paths.keys('acme'), {
      cookie: manager.cookie,
      body: { name: ' Shop ', scopes: ['points:read'], reason: 'why not' },
    });
    expect(twin.statusCode).toBe(409);
    expect(twin.json()).toMatchObject({ errorCode: ErrorCode.apiKeyNameTaken, responseMessage: 'apiKeys.error.nameTaken' });
    expect(await count()).toBe(before + 1);
  });

  it("cannot revoke another client's key through its own client (404), nor an unknown one", async () => {
    const owner = await enrolStaff(t, 'keys-owner@rewards.test', { owner: true });
    const theirs = await t.console('POST', paths.keys(OTHER_CLIENT_ID), {
      cookie: owner.cookie,
      body: { name: 'Globex CRM', scopes: ['points:read'], reason: 'their key' },
    });
    expect(theirs.statusCode).toBe(201);
    const id = theirs.json<CreatedApiKey>().view.id;
    const crossed = await t.console('POST', paths.revoke('acme', id), { cookie: manager.cookie, body: { reason: 'not mine' } });
    expect(crossed.statusCode).toBe(404);
    expect(
      (await t.console('POST', paths.revoke('acme', 'nothing'), { cookie: manager.cookie, body: { reason: 'nobody' } })).statusCode,
    ).toBe(404);
    const still = await t.console('GET', paths.keys(OTHER_CLIENT_ID), { cookie: owner.cookie });
    expect(still.json<ApiKeyList>().keys.find((k) => k.id === id)?.revokedAt).toBeNull();
    expect((await t.console('GET', paths.keys('nowhere'), { cookie: owner.cookie })).statusCode).toBe(404);
  });
});
