import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { createSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { createMailDelivery } from '../mail/delivery.ts';
import { createWebhookDelivery, DISABLE_AFTER_MS, KEEP_HISTORY_MS, RETRY_SCHEDULE_MS, type WebhookDeliveryPass } from './delivery.ts';
import { ulid } from './ids.ts';
import { createEndpoint, rotateSecret, type WebhookActor, type WebhookSettings } from './manage.ts';
import { tellWebhooks, type WebhookEventKind } from './service.ts';
import { startReceiver, verified, type TestReceiver } from './test-receiver.ts';

const operator: WebhookActor = { name: 'tester', kind: 'operator' };
const quiet = { info: () => {}, warn: () => {} };

describe.each(dialects)('webhook delivery (%s)', (dialect) => {
  let database: TestDatabase;
  let dataDir: string;
  let settings: WebhookSettings;
  let receiver: TestReceiver;
  let sink: SmtpSink;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'webhooks-'));
    settings = { dataDir, policy: { allowLoopback: true } };
    receiver = await startReceiver();
    sink = await createSmtpSink();
  });
  afterAll(async () => {
    await receiver.close();
    await sink.down();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    receiver.received.length = 0;
  });

  const db = () => database.db;
  /** Polls until `done` holds; every loop has a deadline. */
  async function until(what: string, done: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const newClient = () => `c-${ulid().slice(-10).toLowerCase()}`;
  const worker = (holder = 'worker-a'): WebhookDeliveryPass =>
    createWebhookDelivery({ db: db(), dataDir, policy: settings.policy, log: quiet, holder });

  async function endpointFor(clientId: string, events: string[] = ['*'], url = receiver.url) {
    return createEndpoint(db(), settings, operator, { clientId, url, events, reason: 'test receiver' });
  }

  async function tell(clientId: string, kind: WebhookEventKind, username: string | undefined, data: Record<string, unknown> = {}) {
    await db()
      .transaction()
      .execute((trx) => tellWebhooks(trx, { clientId, kind, username, data }));
  }

  const deliveryRows = (clientId: string) =>
    db().selectFrom('webhook_deliveries').selectAll().where('client_id', '=', clientId).orderBy('event_id').execute();

  /** Makes every pending delivery of the client due now (the schedule, driven without waiting). */
  const makeDue = (clientId: string) =>
    db()
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .where('client_id', '=', clientId)
      .where('status', '=', 'pending')
      .execute();

  it('posts a committed event signed by the Standard Webhooks scheme, which the library verifies', async () => {
    const client = newClient();
    const { secret, endpoint } = await endpointFor(client);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await tell(client, 'points.credited', 'ann', { points: 25, balanceAfter: 125, entryId: 'entry-1' });

    expect(await worker().deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    expect(request.headers['content-type']).toBe('application/json');
    const payload = verified(secret, request);
    expect(payload).toMatchObject({
      type: 'points.credited',
      data: { client, username: 'ann', points: 25, balanceAfter: 125, entryId: 'entry-1' },
    });
    expect(request.id).toMatch(/^msg_/);
    const [row] = await deliveryRows(client);
    expect(row).toMatchObject({
      endpoint_id: endpoint.id,
      status: 'delivered',
      attempts: 1,
      last_status: 200,
      last_error: null,
      claimed_by: null,
    });
  });

  it('retries a refused delivery on the schedule with the same webhook-id, and a second worker finds nothing due before then', async () => {
    const client = newClient();
    const { secret } = await endpointFor(client);
    await tell(client, 'code.redeemed', 'bea', { points: 10 });
    receiver.answerNext(500);

    const before = Date.now();
    expect(await worker().deliverDue()).toBe(1);
    const [failed] = await deliveryRows(client);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, last_error: 'answered 500' });
    const wait = new Date(failed!.next_attempt_at).getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[0]!);
    expect(wait).toBeLessThan(RETRY_SCHEDULE_MS[1]!);
    expect(await worker('worker-b').deliverDue()).toBe(0);

    await makeDue(client);
    expect(await worker('worker-b').deliverDue()).toBe(1);
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 200]);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    for (const request of receiver.received) verified(secret, request);
    expect(await deliveryRows(client)).toMatchObject([{ status: 'delivered', attempts: 2, last_status: 200 }]);
  });

  it('deletes the deliveries sent or given up, and their events, once older than the history kept; pending ones stay', async () => {
    const client = newClient();
    await endpointFor(client);
    for (const username of ['sent', 'failed', 'pending']) await tell(client, 'points.credited', username);
    expect(await worker().deliverDue()).toBe(3);
    // One given up, one waiting for a retry a day away (set here: the receiver's answers to parallel sends come in any order).
    const later = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const byName = (username: string) =>
      db().updateTable('webhook_deliveries').where('client_id', '=', client).where('username', '=', username);
    await byName('failed').set({ status: 'failed', delivered_at: null }).execute();
    await byName('pending').set({ status: 'pending', delivered_at: null, next_attempt_at: later }).execute();
    const names = async () => ({
      deliveries: (await deliveryRows(client)).map((row) => row.username),
      events: (await db().selectFrom('webhook_events').select('username').where('client_id', '=', client).orderBy('id').execute()).map(
        (event) => event.username,
      ),
    });

    // A new worker cleans up at its first pass (then once an hour): today's history stays.
    await worker('worker-today').deliverDue();
    expect(await names()).toEqual({ deliveries: ['sent', 'failed', 'pending'], events: ['sent', 'failed', 'pending'] });
    // Past the history kept (ids sort by time: the clock decides what is old), only the pending one and its event stay.
    const past = new Date(Date.now() + KEEP_HISTORY_MS + 3_600_000);
    await createWebhookDelivery({
      db: db(),
      dataDir,
      policy: settings.policy,
      log: quiet,
      holder: 'worker-later',
      now: () => past,
    }).deliverDue();
    expect(await names()).toEqual({ deliveries: ['pending'], events: ['pending'] });
  });

  it('gives up after the last retry of the schedule', async () => {
    const client = newClient();
    await endpointFor(client);
    await tell(client, 'points.debited', 'cai');
    await db().updateTable('webhook_deliveries').set({ attempts: RETRY_SCHEDULE_MS.length }).where('client_id', '=', client).execute();
    receiver.answerNext(503);
    await worker().deliverDue();
    expect(await deliveryRows(client)).toMatchObject([{ status: 'failed', attempts: RETRY_SCHEDULE_MS.length + 1, last_status: 503 }]);
  });

  it('sends nothing for a change that rolled back', async () => {
    const client = newClient();
    await endpointFor(client);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await tellWebhooks(trx, { clientId: client, kind: 'points.credited', username: 'dan', data: { points: 1 } });
          throw new Error('the change failed');
        }),
    ).rejects.toThrow('the change failed');
    expect(await worker().deliverDue()).toBe(0);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRows(client)).toHaveLength(0);
  });

  it("keeps one participant's events in order per endpoint: a later one waits while an earlier one is retried", async () => {
    const client = newClient();
    const { secret } = await endpointFor(client);
    await tell(client, 'points.credited', 'eve', { n: 1 });
    await tell(client, 'points.debited', 'eve', { n: 2 });
    // Only eve's first is due (her second waits behind it), so the one 500 is hers: a worker sends a few at once, in any order.
    receiver.answerNext(500);
    expect(await worker().deliverDue()).toBe(1);
    await tell(client, 'points.credited', 'fay', { n: 3 });
    expect(await worker().deliverDue()).toBe(1);
    // eve's first failed, her second waits; fay's went.
    const first = receiver.received.map((r) => verified(secret, r).data);
    expect(first.map((d) => d.n)).toEqual([1, 3]);
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 200]);
    expect(await worker().deliverDue()).toBe(0);

    await makeDue(client);
    await worker().deliverDue();
    await worker().deliverDue();
    const eve = receiver.received.map((r) => verified(secret, r).data).filter((d) => d.username === 'eve');
    expect(eve.map((d) => d.n)).toEqual([1, 1, 2]);
    expect((await deliveryRows(client)).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('delivers each event once when two workers pass at the same time', async () => {
    const client = newClient();
    await endpointFor(client);
    for (let i = 0; i < 30; i++) await tell(client, 'points.credited', `p${i % 7}`, { i });
    const a = worker('worker-a');
    const b = worker('worker-b');
    for (let round = 0; round < 40; round++) {
      const pending = (await deliveryRows(client)).filter((d) => d.status === 'pending').length;
      if (pending === 0) break;
      await Promise.all([a.deliverDue(), b.deliverDue()]);
    }
    const ids = receiver.received.map((r) => r.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect((await deliveryRows(client)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });

  it("tries again, with the same id, a delivery whose worker died while sending, once that worker's claim has run out", async () => {
    const client = newClient();
    const { secret } = await endpointFor(client);
    await tell(client, 'order.placed', 'gus', { points: 40 });
    const [row] = await deliveryRows(client);
    // A worker claimed it (attempt 1) and was killed before it wrote the outcome.
    const claimedUntil = new Date(Date.now() + 60_000).toISOString();
    await db()
      .updateTable('webhook_deliveries')
      .set({ claimed_by: 'dead-worker', claimed_until: claimedUntil, attempts: 1 })
      .where('id', '=', row!.id)
      .execute();
    expect(await worker().deliverDue()).toBe(0);
    await db()
      .updateTable('webhook_deliveries')
      .set({ claimed_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', row!.id)
      .execute();
    expect(await worker().deliverDue()).toBe(1);
    expect(receiver.received[0]!.id).toBe(row!.event_id);
    verified(secret, receiver.received[0]!);
    expect(await deliveryRows(client)).toMatchObject([{ status: 'delivered', attempts: 2, claimed_by: null }]);
  });

  it('lets a receiver that does not answer hold only its own delivery; its outcome is written when it answers', async () => {
    const silent = await startReceiver();
    try {
      const stuck = newClient();
      const other = newClient();
      await endpointFor(stuck, ['*'], silent.url);
      await endpointFor(other);
      silent.hold();
      await tell(stuck, 'points.credited', 'sam', { points: 1 });
      await tell(other, 'points.credited', 'oli', { points: 2 });
      const pass = createWebhookDelivery({ db: db(), dataDir, policy: settings.policy, log: quiet, holder: 'worker-a', passWaitMs: 50 });

      // The pass ends while the silent receiver still holds its request; the other client's delivery is written.
      expect(await pass.deliverDue()).toBeGreaterThanOrEqual(2);
      await silent.waitFor(1, 10_000);
      await until("the other client's delivery written", async () => (await deliveryRows(other))[0]?.status === 'delivered');
      const [held] = await deliveryRows(stuck);
      expect(held).toMatchObject({ status: 'pending', attempts: 1, claimed_by: 'worker-a' });
      // Still claimed: another worker's pass leaves it alone.
      await worker('worker-b').deliverDue();
      expect((await deliveryRows(stuck))[0]).toMatchObject({ attempts: 1, claimed_by: 'worker-a' });
      expect(silent.received).toHaveLength(1);

      silent.release();
      await pass.settled();
      const [answered] = await deliveryRows(stuck);
      expect(answered).toMatchObject({ status: 'delivered', attempts: 1, claimed_by: null, last_status: 200 });
      expect(silent.received.map((r) => r.id)).toEqual([held!.event_id]);
    } finally {
      await silent.close();
    }
  });

  it('signs with both secrets during a rotation overlap, so the receiver verifies with either; with the new one only after', async () => {
    const client = newClient();
    const { secret: oldSecret, endpoint } = await endpointFor(client);
    const { secret: newSecret, endpoint: rotated } = await rotateSecret(db(), settings, operator, {
      clientId: client,
      endpointId: endpoint.id,
      overlapHours: 24,
      reason: 'yearly rotation',
    });
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.previousSecretUntil).not.toBeNull();
    await tell(client, 'participant.updated', 'hal');
    await worker().deliverDue();
    const during = receiver.received[0]!;
    expect(during.signature.split(' ')).toHaveLength(2);
    expect(verified(oldSecret, during).type).toBe('participant.updated');
    expect(verified(newSecret, during).type).toBe('participant.updated');

    const { secret: latestSecret } = await rotateSecret(db(), settings, operator, {
      clientId: client,
      endpointId: endpoint.id,
      overlapHours: 0,
      reason: 'leaked',
    });
    const after = await db()
      .selectFrom('webhook_endpoints')
      .select('secret_sealed')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(after.secret_sealed).not.toContain('whsec_');
    await tell(client, 'participant.updated', 'hal');
    await worker().deliverDue();
    const latest = receiver.received[1]!;
    expect(latest.signature.split(' ')).toHaveLength(1);
    expect(verified(latestSecret, latest).type).toBe('participant.updated');
    expect(() => verified(newSecret, latest)).toThrow();
    const audit = await db().selectFrom('audit_log').select(['action', 'details']).where('client_id', '=', client).execute();
    // Sorted: the three are often written within one millisecond, so their times tie (a busy run saw them out of order).
    expect(audit.map((a) => a.action).sort()).toEqual([
      'webhooks.endpoint.create',
      'webhooks.endpoint.rotate-secret',
      'webhooks.endpoint.rotate-secret',
    ]);
    expect(audit.map((a) => a.details).join()).not.toContain('whsec_');
  });

  /** A client's row with a name (the notice says it). */
  /** A client with staff: active and disabled owners, its program manager and a disabled one, a support agent, another client's manager. */
  async function clientWithStaff(client: string) {
    const at = new Date().toISOString();
    await insertTestClient(db(), client, { name: `Shop ${client}`, created_at: at });
    await insertTestClient(db(), `${client}x`, { name: `Shop ${client}x`, created_at: at });
    const person = async (who: string, owner: boolean, status = 'active', role?: { client: string; role: string }) => {
      const email = `${who}-${client}@staff.test`;
      await db()
        .insertInto('staff')
        .values({
          id: `${who}-${client}`,
          email,
          email_key: email,
          name: `Name ${who}`,
          password_hash: null,
          status,
          owner: owner ? 1 : 0,
          totp_secret_sealed: null,
          totp_last_step: null,
          created_at: at,
          enrolled_at: at,
          last_sign_in_at: null,
        })
        .execute();
      if (role)
        await db()
          .insertInto('staff_roles')
          .values({ staff_id: `${who}-${client}`, client_id: role.client, role: role.role, granted_at: at, granted_by: 'test' })
          .execute();
      return email;
    };
    return {
      owner: await person('owner', true),
      manager: await person('manager', false, 'active', { client, role: 'program_manager' }),
      others: [
        await person('gone-owner', true, 'disabled'),
        await person('gone-manager', false, 'disabled', { client, role: 'program_manager' }),
        await person('agent', false, 'active', { client, role: 'support_agent' }),
        await person('elsewhere', false, 'active', { client: `${client}x`, role: 'program_manager' }),
      ],
    };
  }

  it('disables an endpoint whose deliveries have failed for three days, audits it and mails its owners and program managers', async () => {
    const client = newClient();
    const staff = await clientWithStaff(client);
    const { endpoint } = await createEndpoint(db(), settings, operator, {
      clientId: client,
      url: receiver.url,
      events: ['*'],
      description: 'CRM sync',
      reason: 'test receiver',
    });
    await db()
      .updateTable('webhook_endpoints')
      .set({ failing_since: new Date(Date.now() - DISABLE_AFTER_MS - 60_000).toISOString() })
      .where('id', '=', endpoint.id)
      .execute();
    await tell(client, 'points.expired', 'ida', { points: 5 });
    receiver.answerNext(502);
    await createWebhookDelivery({
      db: db(),
      dataDir,
      policy: settings.policy,
      log: quiet,
      consoleOrigin: 'https://console.example',
    }).deliverDue();
    const row = await db().selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(row.enabled).toBe(0);
    expect(row.disabled_reason).toMatch(/^every delivery failed since/);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_kind'])
      .where('client_id', '=', client)
      .orderBy('at')
      .execute();
    expect(audit.at(-1)).toEqual({ action: 'webhooks.endpoint.disable', actor_kind: 'system' });
    // Disabled: its pending retry is held, and new events are not told to it.
    await makeDue(client);
    expect(await worker().deliverDue()).toBe(0);
    await tell(client, 'points.expired', 'ida', { points: 5 });
    expect(await deliveryRows(client)).toHaveLength(1);

    // One mail to each active owner and program manager of the client, queued with the disabling.
    const queued = await db()
      .selectFrom('mail_outbox')
      .select(['to_address', 'client_id', 'template', 'locale'])
      .where('template', '=', 'webhookEndpointDisabled')
      .where('to_address', 'in', [staff.owner, staff.manager, ...staff.others])
      .orderBy('to_address')
      .execute();
    expect(queued).toEqual(
      [staff.manager, staff.owner].map((to) => ({ to_address: to, client_id: null, template: 'webhookEndpointDisabled', locale: 'en-US' })),
    );

    // Through the real mail worker to an SMTP server: what it says.
    await sink.up();
    const mail = createMailDelivery({ db: db(), mail: { ...loadConfig({}).mail, smtpUrl: sink.url }, log: quiet });
    try {
      while ((await mail.deliverDue()) > 0);
    } finally {
      mail.close();
    }
    const received = sink.received.filter((m) => m.to.includes(staff.owner));
    expect(received).toHaveLength(1);
    const [notice] = received;
    const host = new URL(receiver.url).host;
    expect(notice!.subject).toBe(`Webhook endpoint disabled: ${host} of Shop ${client}`);
    const link = `https://console.example/console/settings/webhooks?client=${client}`;
    for (const part of [
      'Hello Name owner,',
      `every delivery to it has failed since ${row.failing_since!.replace('T', ' ').replace(/\.\d+Z$/, '')} (UTC)`,
      `Endpoint: ${host}`,
      'Description: CRM sync',
      'Last error: answered 502',
      'enable the endpoint again in the console, under Settings → Webhooks',
      link,
    ])
      expect(notice!.text).toContain(part);
    expect(notice!.html).toContain(`href="${link}"`);
    // Neither the URL's path (it may hold the receiver's token) nor an enrolment's lines.
    expect(notice!.text + notice!.html).not.toContain(new URL(receiver.url).pathname);
    expect(notice!.text + notice!.html).not.toContain('works once');
    expect(sink.received.filter((m) => m.to.includes(staff.manager))).toHaveLength(1);
  });

  it('disables without a mail from a worker not given the console origin', async () => {
    const client = newClient();
    const staff = await clientWithStaff(client);
    const { endpoint } = await endpointFor(client);
    await db()
      .updateTable('webhook_endpoints')
      .set({ failing_since: new Date(Date.now() - DISABLE_AFTER_MS - 60_000).toISOString() })
      .where('id', '=', endpoint.id)
      .execute();
    await tell(client, 'points.expired', 'ida', { points: 5 });
    receiver.answerNext(502);
    await worker().deliverDue();
    const row = await db().selectFrom('webhook_endpoints').select('enabled').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(row.enabled).toBe(0);
    const queued = await db().selectFrom('mail_outbox').select('id').where('to_address', 'in', [staff.owner, staff.manager]).execute();
    expect(queued).toEqual([]);
  });

  it('refuses to send to an inward address found right before the send, and a success ends the failing streak', async () => {
    const client = newClient();
    const { endpoint } = await endpointFor(client);
    await tell(client, 'points.credited', 'jo');
    // The URL changed under the checks made when it was saved (a row written by an older version, or DNS since).
    await db().updateTable('webhook_endpoints').set({ url: 'http://10.1.2.3/hook' }).where('id', '=', endpoint.id).execute();
    await worker().deliverDue();
    expect(receiver.received).toHaveLength(0);
    const [row] = await deliveryRows(client);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status: null });
    expect(row!.last_error).toMatch(/^refused: the host resolves to a private/);
    const failing = await db()
      .selectFrom('webhook_endpoints')
      .select('failing_since')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(failing.failing_since).not.toBeNull();

    // In production (no loopback allowed), this machine's loopback is refused at the send too.
    await db().updateTable('webhook_endpoints').set({ url: receiver.url }).where('id', '=', endpoint.id).execute();
    await makeDue(client);
    await createWebhookDelivery({ db: db(), dataDir, policy: { allowLoopback: false }, log: quiet }).deliverDue();
    expect(receiver.received).toHaveLength(0);
    expect((await deliveryRows(client))[0]!.last_error).toBe('refused: the URL must be https');

    await makeDue(client);
    await worker().deliverDue();
    expect(receiver.received).toHaveLength(1);
    const healed = await db()
      .selectFrom('webhook_endpoints')
      .select('failing_since')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(healed.failing_since).toBeNull();
  });
});
