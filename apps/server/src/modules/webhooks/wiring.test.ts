import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consoleParticipantPaths } from '@rewards/contract/console-participants';
import { webhookPayload, type WebhookEventKind } from '@rewards/contract/console-webhooks';
import { dialects } from '../../../test/databases.ts';
import { previewImportJob } from '../imports/preview.ts';
import { runImportJob } from '../imports/run.ts';
import { confirmImport, stageImport } from '../imports/service.ts';
import { insertOtsCodes, newOtsCodeRows } from '../ots/store.ts';
import { participantId } from '../participants/console-actions-test-support.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';
import { createWebhookDelivery } from './delivery.ts';
import { createEndpoint } from './manage.ts';
import { startReceiver, verified, type TestReceiver } from './test-receiver.ts';

type Told = { type: string; timestamp: string; data: Record<string, unknown> };

/**
 * The events told by the code paths that make the changes (decision 084), each in the change's
 * transaction: delivered through a real receiver that verifies every signature.
 */
describe.each(dialects)('what the portal tells webhooks on %s', (dialect) => {
  let t: ConsoleTestApp;
  let manager: EnrolledStaff;
  let receiver: TestReceiver;
  let secret: string;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    manager = await enrolStaff(t, 'wired-manager@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] });
    receiver = await startReceiver();
    secret = (
      await createEndpoint(
        t.database.db,
        { dataDir: t.config.catalog.dataDir, policy: { allowLoopback: true } },
        { name: 'tester', kind: 'operator' },
        { clientId: 'acme', url: receiver.url, events: ['*'], reason: 'wiring' },
      )
    ).secret;
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  afterEach(() => {
    receiver.received.length = 0;
  });

  /** Delivers what is due (a pass at a time: one participant's events go in order, one per pass) and answers the payloads, each verified. */
  async function told(): Promise<Told[]> {
    const pass = createWebhookDelivery({
      db: t.database.db,
      dataDir: t.config.catalog.dataDir,
      policy: { allowLoopback: true },
      log: { info() {}, warn() {} },
    });
    for (let round = 0; round < 20 && (await pass.deliverDue()) > 0; round++);
    const payloads = receiver.received.map((request) => verified(secret, request) as Told);
    // Each as the API document's webhooks describe it.
    for (const payload of payloads) webhookPayload(payload.type as WebhookEventKind).parse(payload);
    return payloads;
  }

  it('tells points.credited and points.debited for console adjustments, with the entry and the balance after; nothing for one refused', async () => {
    const demo = await participantId(t.database.db, 'acme', 'demo');
    const adjust = (points: number) =>
      t.console('POST', consoleParticipantPaths.adjustments('acme', demo), {
        cookie: manager.cookie,
        body: { points, participantText: 'Webhook story', internalNote: 'ticket 29', requestId: randomUUID() },
      });
    const credit = await adjust(12);
    expect(credit.statusCode, credit.body).toBe(200);
    const debit = await adjust(-2);
    expect(debit.statusCode, debit.body).toBe(200);
    expect((await adjust(-9_999_999)).statusCode).toBe(409);

    const events = await told();
    expect(events.map((e) => e.type)).toEqual(['points.credited', 'points.debited']);
    const { entryId, balance } = credit.json<{ entryId: string; balance: number }>();
    expect(events[0]!.data).toMatchObject({
      client: 'acme',
      username: 'demo',
      points: 12,
      balanceAfter: balance,
      entryId,
      source: 'adjustment',
    });
    expect(events[1]!.data).toMatchObject({ points: -2, balanceAfter: balance - 2, entryId: debit.json<{ entryId: string }>().entryId });
    expect(typeof events[0]!.data.occurredAt).toBe('string');
  });

  it('tells code.redeemed when a participant redeems an on-the-spot code', async () => {
    await insertOtsCodes(t.database.db, newOtsCodeRows('acme', [{ code: 'HOOK-CODE-0001', value: 40 }], new Date()));
    const dana = await t.login('demo');
    const redeemed = await t.api('POST', '/ots/redeem', { session: dana.sessionId, body: { code: 'HOOK-CODE-0001', userName: 'demo' } });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const [event] = await told();
    expect(event).toMatchObject({
      type: 'code.redeemed',
      data: {
        client: 'acme',
        username: 'demo',
        points: 40,
        balanceAfter: redeemed.json<{ accountBalance: number }>().accountBalance,
        codeHint: '0001',
      },
    });
    expect(event!.data.entryId).toEqual(expect.any(String));
  });

  it('tells import.finished once for a whole points import, naming no participant', async () => {
    async function* file() {
      yield 'username,points,date,description,external_id\n';
      yield `demo,5,2026-04-01,Hooked,hook-${randomUUID()}\ndemo,6,2026-04-02,Hooked,hook-${randomUUID()}\n`;
    }
    const actor = { name: manager.email, kind: 'staff' as const, origin: 'test' };
    const staged = await stageImport(t.database.db, actor, 'acme', 'points', 'hooks.csv', file());
    expect(await previewImportJob(t.database.db, staged.id)).toBe('staged');
    await confirmImport(t.database.db, actor, 'acme', staged.id, 'webhook story');
    expect(await runImportJob(t.database.db, staged.id)).toBe('done');
    const events = await told();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'import.finished',
      data: { client: 'acme', jobId: staged.id, importKind: 'points', status: 'done', fileName: 'hooks.csv', lines: 2 },
    });
    expect(events[0]!.data).not.toHaveProperty('username');
    expect(receiver.received[0]!.headers['webhook-id']).toMatch(/^msg_/);
  });

  it('tells participant.updated with the names of the fields a console correction changed', async () => {
    const demo = await participantId(t.database.db, 'acme', 'demo');
    const changed = await t.console('POST', consoleParticipantPaths.details('acme', demo), {
      cookie: manager.cookie,
      body: { firstName: `Dana ${randomUUID().slice(0, 4)}`, reason: 'webhook story' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [event] = await told();
    expect(event).toMatchObject({ type: 'participant.updated', data: { username: 'demo', changed: ['firstName'] } });
  });
});
