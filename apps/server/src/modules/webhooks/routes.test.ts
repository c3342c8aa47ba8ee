import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import {
  consoleWebhooksPaths as paths,
  programWebhooksPaths as apiPaths,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookSecretReply,
} from '@rewards/contract/console-webhooks';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { listAudit } from '../audit/service.ts';
import { makeKey, programCall } from '../program-api/test-support.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';
import { createWebhookDelivery } from './delivery.ts';
import { tellWebhooks } from './service.ts';
import { startReceiver, verified, type TestReceiver } from './test-receiver.ts';

/**
 * The console's and the program API's webhooks (decision 084) on the service the command uses;
 * who may call which console route is in staff/authorization.test.ts, which key which program
 * route in program-api/routes-table.test.ts.
 */
describe.each(dialects)('webhook endpoints through the console and the program API on %s', (dialect) => {
  let t: ConsoleTestApp;
  let manager: EnrolledStaff;
  let owner: EnrolledStaff;
  let receiver: TestReceiver;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    manager = await enrolStaff(t, 'hooks-manager@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] });
    owner = await enrolStaff(t, 'hooks-owner@rewards.test', { owner: true });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const deliverNow = () =>
    createWebhookDelivery({
      db: t.database.db,
      dataDir: t.config.catalog.dataDir,
      policy: t.config.webhooks,
      log: { info() {}, warn() {} },
    }).deliverDue();

  it('adds an endpoint shown once, lists it, disables and enables it, rotates its secret, and shows and resends its deliveries', async () => {
    const made = await t.console('POST', paths.endpoints('acme'), {
      cookie: manager.cookie,
      body: { url: receiver.url, events: ['points.credited', 'points.debited'], description: 'CRM', reason: 'ticket 29' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { endpoint, secret } = made.json<WebhookSecretReply>();
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({
      url: receiver.url,
      events: ['points.credited', 'points.debited'],
      enabled: true,
      createdBy: manager.email,
    });
    expect(made.headers['cache-control']).toBe('no-store');

    const listed = await t.console('GET', paths.endpoints('acme'), { cookie: manager.cookie });
    expect(listed.json<WebhookEndpointList>().endpoints.find((e) => e.id === endpoint.id)).toEqual(endpoint);
    expect(listed.body).not.toContain('whsec_');

    const off = await t.console('PATCH', paths.endpoint('acme', endpoint.id), {
      cookie: manager.cookie,
      body: { enabled: false, reason: 'maintenance' },
    });
    expect(off.json<WebhookEndpoint>()).toMatchObject({ enabled: false, disabledReason: 'maintenance' });
    const on = await t.console('PATCH', paths.endpoint('acme', endpoint.id), {
      cookie: manager.cookie,
      body: { enabled: true, reason: 'back' },
    });
    expect(on.json<WebhookEndpoint>()).toMatchObject({ enabled: true, disabledAt: null });

    const rotated = await t.console('POST', paths.rotateSecret('acme', endpoint.id), {
      cookie: manager.cookie,
      body: { reason: 'yearly' },
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json<WebhookSecretReply>();
    expect(fresh.secret).not.toBe(secret);
    expect(fresh.endpoint.previousSecretUntil).not.toBeNull();

    await t.database.db
      .transaction()
      .execute((trx) => tellWebhooks(trx, { clientId: 'acme', kind: 'points.credited', username: 'demo', data: { points: 9 } }));
    receiver.answerNext(500);
    await deliverNow();
    const page = await t.console('GET', paths.deliveries('acme', endpoint.id), { cookie: manager.cookie });
    const [delivery] = page.json<WebhookDeliveryList>().deliveries;
    expect(delivery).toMatchObject({ kind: 'points.credited', username: 'demo', status: 'pending', attempts: 1, lastStatus: 500 });
    expect(JSON.parse(delivery!.payload)).toMatchObject({ type: 'points.credited', data: { client: 'acme', points: 9 } });

    const resent = await t.console('POST', paths.resend('acme', delivery!.id), { cookie: manager.cookie, body: { reason: 'fixed' } });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json<WebhookDelivery>()).toMatchObject({ status: 'pending', attempts: 0 });
    await deliverNow();
    expect(receiver.received.map((r) => r.id)).toEqual([delivery!.eventId, delivery!.eventId]);
    for (const request of receiver.received) expect(verified(fresh.secret, request).type).toBe('points.credited');

    const audit = await listAudit(t.database.db, { clientId: 'acme', action: 'webhooks.', limit: 20 });
    expect(
      audit
        .filter((a) => a.actor === manager.email)
        .map((a) => a.action)
        .sort(),
    ).toEqual(
      [
        'webhooks.delivery.resend',
        'webhooks.endpoint.create',
        'webhooks.endpoint.disable',
        'webhooks.endpoint.enable',
        'webhooks.endpoint.rotate-secret',
      ].sort(),
    );
  });

  it('refuses bad bodies with 400, an inward URL with its own code, and another client’s endpoint or a missing client with 404, changing nothing', async () => {
    const count = async () => (await t.database.db.selectFrom('webhook_endpoints').select('id').execute()).length;
    const before = await count();
    const bodies: unknown[] = [
      {},
      { url: receiver.url, events: [], reason: 'why not' },
      { url: receiver.url, events: ['points.exploded'], reason: 'why not' },
      { url: receiver.url, events: ['*'] },
      { url: 'x'.repeat(2001), events: ['*'], reason: 'too long' },
      { url: receiver.url, events: ['*'], reason: 'why not', extra: { nested: ['deep'] }, description: 'd'.repeat(201) },
    ];
    for (const body of bodies) {
      const reply = await t.console('POST', paths.endpoints('acme'), { cookie: manager.cookie, body });
      expect(reply.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      // The refusal and, on the console's API, which fields (decision 087): nothing else, no detail of the server.
      const { params, ...refusal } = reply.json<{ params?: Record<string, unknown> }>();
      expect(Object.keys(refusal).sort()).toEqual(['errorCode', 'message', 'responseMessage']);
      if (params) expect(Object.keys(params).sort()).toEqual(['fields', 'where']);
    }
    for (const url of [
      'http://10.0.0.1/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/',
      'not a url',
      'ftp://x.example/',
    ]) {
      const reply = await t.console('POST', paths.endpoints('acme'), {
        cookie: manager.cookie,
        body: { url, events: ['*'], reason: 'inward' },
      });
      expect(reply.statusCode, url).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.webhookUrlRefused, responseMessage: 'webhooks.error.urlRefused' });
    }
    const other = await t.console('POST', paths.endpoints(OTHER_CLIENT_ID), {
      cookie: owner.cookie,
      body: { url: receiver.url, events: ['*'], reason: 'globex' },
    });
    const otherId = other.json<WebhookSecretReply>().endpoint.id;
    expect((await t.console('GET', paths.deliveries('acme', otherId), { cookie: manager.cookie })).statusCode).toBe(404);
    expect(
      (await t.console('PATCH', paths.endpoint('acme', otherId), { cookie: manager.cookie, body: { enabled: false, reason: 'x-client' } }))
        .statusCode,
    ).toBe(404);
    expect((await t.console('GET', paths.endpoints('no-such-client'), { cookie: owner.cookie })).statusCode).toBe(404);
    expect((await t.console('GET', `${paths.deliveries('acme', 'we_x')}?cursor=!!`, { cookie: manager.cookie })).statusCode).toBe(400);
    expect(await count()).toBe(before + 1);
  });

  it('lets a key with webhooks:manage manage its own client’s endpoints only; in production only https', async () => {
    const { key } = await makeKey(t.database.db, 'acme', ['webhooks:manage']);
    const { key: globexKey } = await makeKey(t.database.db, OTHER_CLIENT_ID, ['webhooks:manage']);
    const made = await programCall(t.app, 'POST', apiPaths.endpoints, { key, body: { url: receiver.url, events: ['code.redeemed'] } });
    expect(made.statusCode, made.body).toBe(201);
    const { endpoint, secret } = made.json<WebhookSecretReply>();
    expect(secret).toMatch(/^whsec_/);
    expect((await programCall(t.app, 'GET', apiPaths.endpoint(endpoint.id), { key })).json<WebhookEndpoint>()).toEqual(endpoint);
    expect((await programCall(t.app, 'GET', apiPaths.endpoint(endpoint.id), { key: globexKey })).statusCode).toBe(404);
    expect((await programCall(t.app, 'GET', apiPaths.endpoints, { key: globexKey })).body).not.toContain(endpoint.id);

    const rotated = await programCall(t.app, 'POST', apiPaths.rotateSecret(endpoint.id), { key });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json<WebhookSecretReply>().endpoint.previousSecretUntil).not.toBeNull();
    const patched = await programCall(t.app, 'PATCH', apiPaths.endpoint(endpoint.id), { key, body: { events: ['*'] } });
    expect(patched.json<WebhookEndpoint>().events).toEqual(['*']);
    expect((await programCall(t.app, 'PATCH', apiPaths.endpoint(endpoint.id), { key, body: {} })).statusCode).toBe(400);
    expect((await programCall(t.app, 'DELETE', apiPaths.endpoint(endpoint.id), { key: globexKey })).statusCode).toBe(404);
    expect((await programCall(t.app, 'DELETE', apiPaths.endpoint(endpoint.id), { key })).statusCode).toBe(204);
    expect((await programCall(t.app, 'GET', apiPaths.endpoint(endpoint.id), { key })).statusCode).toBe(404);
    const audit = await listAudit(t.database.db, { clientId: 'acme', action: 'webhooks.endpoint', limit: 50 });
    expect(
      audit
        .filter((a) => a.subject === endpoint.id)
        .map((a) => [a.action, a.actor_kind])
        .reverse(),
    ).toEqual([
      ['webhooks.endpoint.create', 'api-key'],
      ['webhooks.endpoint.rotate-secret', 'api-key'],
      ['webhooks.endpoint.update', 'api-key'],
      ['webhooks.endpoint.delete', 'api-key'],
    ]);
  });
});

describe.each(dialects)('webhook URLs under the production policy on %s', (dialect) => {
  let t: ConsoleTestApp;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect, { WEBHOOKS_ALLOW_LOOPBACK: 'off' });
  });
  afterAll(() => t.close());

  it('refuses http and loopback when the setting is off', async () => {
    const { key } = await makeKey(t.database.db, 'acme', ['webhooks:manage']);
    for (const url of ['http://127.0.0.1:9/in', 'https://127.0.0.1/in', 'https://[::1]/in', 'https://100.64.1.1/in']) {
      const reply = await programCall(t.app, 'POST', apiPaths.endpoints, { key, body: { url, events: ['*'] } });
      expect(reply.statusCode, url).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.webhookUrlRefused });
    }
    expect(await t.database.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual([]);
  });
});
