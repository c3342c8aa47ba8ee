import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '@rewards/contract/console-webhooks';
import { seedDemo } from '../../db/seed/demo.ts';
import { runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { listAudit } from '../../modules/audit/service.ts';
import { createWebhookDelivery } from '../../modules/webhooks/delivery.ts';
import { tellWebhooks } from '../../modules/webhooks/service.ts';
import { startReceiver, verified, type TestReceiver } from '../../modules/webhooks/test-receiver.ts';

/** `rewards webhooks` (issue 29 §3, docs/decisions/084): the console's service from the command line. */
describe.each(dialects)('rewards webhooks on %s', (dialect) => {
  let database: TestDatabase;
  let dataDir: string;
  let receiver: TestReceiver;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    dataDir = mkdtempSync(join(tmpdir(), 'webhooks-cli-'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (args: string[], env: Record<string, string> = {}) =>
    runRewards(database, ['--operator', 'ops-bob', 'webhooks', ...args], {
      env: { DATA_DIR: dataDir, WEBHOOKS_ALLOW_LOOPBACK: 'on', ...env },
    });
  const json = async <T>(args: string[]): Promise<T> => {
    const result = await runRewards(database, ['--operator', 'ops-bob', '--json', 'webhooks', ...args], {
      env: { DATA_DIR: dataDir, WEBHOOKS_ALLOW_LOOPBACK: 'on' },
    });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  it('creates an endpoint with a secret shown once, lists, disables, enables, rotates, lists deliveries and sends one again', async () => {
    const created = await run([
      'create',
      '--client',
      'acme',
      '--url',
      receiver.url,
      '--events',
      'points.credited,code.redeemed',
      '--reason',
      'CRM',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const secret = /(whsec_[A-Za-z0-9+/]{43}=)/.exec(created.stdout)?.[1] ?? '';
    expect(secret).not.toBe('');
    expect(created.stdout).toContain('shown this once');
    const [endpoint] = await json<WebhookEndpoint[]>(['list', '--client', 'acme']);
    expect(endpoint).toMatchObject({
      url: receiver.url,
      events: ['points.credited', 'code.redeemed'],
      enabled: true,
      createdBy: 'ops-bob',
    });
    expect(JSON.stringify(endpoint)).not.toContain('whsec_');

    const disabled = await run(['disable', '--client', 'acme', '--endpoint', endpoint!.id, '--reason', 'maintenance']);
    expect(disabled.stdout).toContain(`Disabled webhook endpoint ${endpoint!.id}`);
    expect((await run(['list', '--client', 'acme'])).stdout).toContain('DISABLED');
    expect((await run(['enable', '--client', 'acme', '--endpoint', endpoint!.id, '--reason', 'back'])).code).toBe(0);

    const rotated = await json<WebhookEndpoint & { secret: string }>([
      'rotate-secret',
      '--client',
      'acme',
      '--endpoint',
      endpoint!.id,
      '--reason',
      'yearly',
    ]);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.previousSecretUntil).not.toBeNull();

    await database.db
      .transaction()
      .execute((trx) => tellWebhooks(trx, { clientId: 'acme', kind: 'points.credited', username: 'demo', data: { points: 3 } }));
    receiver.answerNext(500);
    await createWebhookDelivery({ db: database.db, dataDir, policy: { allowLoopback: true }, log: { info() {}, warn() {} } }).deliverDue();
    const [delivery] = await json<WebhookDelivery[]>(['deliveries', '--client', 'acme', '--endpoint', endpoint!.id]);
    expect(delivery).toMatchObject({ kind: 'points.credited', username: 'demo', status: 'pending', attempts: 1, lastStatus: 500 });
    expect((await run(['deliveries', '--client', 'acme', '--endpoint', endpoint!.id])).stdout).toContain('last 500');

    const resent = await run(['resend', '--client', 'acme', '--delivery', delivery!.id, '--reason', 'receiver fixed']);
    expect(resent.code, resent.stderr).toBe(0);
    await createWebhookDelivery({ db: database.db, dataDir, policy: { allowLoopback: true }, log: { info() {}, warn() {} } }).deliverDue();
    expect(receiver.received.map((r) => r.id)).toEqual([delivery!.eventId, delivery!.eventId]);
    // Both secrets sign during the overlap: the receiver still on the first one verifies.
    expect(verified(secret, receiver.received[1]!).data).toMatchObject({ points: 3, client: 'acme' });
    expect(verified(rotated.secret, receiver.received[1]!).type).toBe('points.credited');

    const actions = (await listAudit(database.db, { clientId: 'acme', action: 'webhooks', limit: 20 })).map((a) => a.action).sort();
    expect(actions).toEqual(
      [
        'webhooks.delivery.resend',
        'webhooks.endpoint.create',
        'webhooks.endpoint.disable',
        'webhooks.endpoint.enable',
        'webhooks.endpoint.rotate-secret',
      ].sort(),
    );
    const audit = await listAudit(database.db, { clientId: 'acme', action: 'webhooks', limit: 20 });
    expect(audit.every((a) => a.actor === 'ops-bob' && a.actor_kind === 'operator')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain('whsec_');

    const deleted = await run(['delete', '--client', 'acme', '--endpoint', endpoint!.id, '--reason', 'CRM retired']);
    expect(deleted.stdout).toContain(`Deleted webhook endpoint ${endpoint!.id}`);
    expect(await json<WebhookEndpoint[]>(['list', '--client', 'acme'])).toEqual([]);
    const [removal] = await listAudit(database.db, { clientId: 'acme', action: 'webhooks.endpoint.delete', limit: 1 });
    expect(removal).toMatchObject({ subject: endpoint!.id, actor: 'ops-bob' });
  });

  it('refuses bad input with one line and exit 2, changing nothing', async () => {
    const before = await database.db.selectFrom('webhook_endpoints').select('id').execute();
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [
        ['create', '--client', 'acme', '--url', receiver.url, '--events', 'points.credited,points.exploded', '--reason', 'x-ray'],
        {},
        /unknown points\.exploded/,
      ],
      [['create', '--client', 'acme', '--url', receiver.url, '--events', '*'], {}, /--reason <text> is required/],
      [['create', '--client', 'nobody', '--url', receiver.url, '--events', '*', '--reason', 'why not'], {}, /Unknown client "nobody"/],
      [
        ['create', '--client', 'acme', '--url', receiver.url, '--events', '*', '--reason', 'production'],
        { WEBHOOKS_ALLOW_LOOPBACK: 'off' },
        /must be https/,
      ],
      [
        ['create', '--client', 'acme', '--url', 'https://169.254.169.254/latest', '--events', '*', '--reason', 'metadata'],
        {},
        /private, link-local/,
      ],
      [['rotate-secret', '--client', 'acme', '--endpoint', 'we_nothing', '--reason', 'nope'], {}, /Not found/],
      [['delete', '--client', 'acme', '--endpoint', 'we_nothing', '--reason', 'nope'], {}, /Not found/],
      [['delete', '--client', 'acme', '--endpoint', 'we_x'], {}, /--reason <text> is required/],
      [
        ['rotate-secret', '--client', 'acme', '--endpoint', 'we_x', '--overlap-hours', '500', '--reason', 'nope'],
        {},
        /--overlap-hours must be/,
      ],
    ];
    for (const [args, env, message] of cases) {
      const result = await run(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await database.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual(before);
  });
});
