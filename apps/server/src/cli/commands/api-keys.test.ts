import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyView } from '@rewards/contract';
import { seedDemo } from '../../db/seed/demo.ts';
import { rewardsJson, runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID, seedOtherClient } from '../../../test/other-client.ts';
import { listAudit } from '../../modules/audit/service.ts';
import { sha256 } from '../../modules/api-keys/secrets.ts';

/** `rewards api-keys` (issue 29 §1, docs/decisions/083): the console's service from the command line. */
describe.each(dialects)('rewards api-keys on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    await seedOtherClient(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  const run = (...args: string[]) => runRewards(database, ['--operator', 'ops-alice', 'api-keys', ...args]);

  it('makes a key shown once, lists it without the secret, and revokes it', async () => {
    const created = await run(
      'create',
      '--client',
      'acme',
      '--name',
      'CRM sync',
      '--scopes',
      'points:write, participants:read',
      '--reason',
      'ticket 29',
    );
    expect(created.code, created.stderr).toBe(0);
    const key = /(rk_live_[0-9a-f]{12}_[A-Za-z0-9_-]{43})/.exec(created.stdout)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(created.stdout).toContain('only time the key is shown');
    expect(created.stdout).toContain('participants:read, points:write; 200/s, burst 400');
    const id = key.slice(8, 20);

    const row = await database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(sha256(key.slice(21)));
    expect(row.created_by).toBe('ops-alice');

    const listed = await run('list', '--client', 'acme');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('CRM sync');
    expect(listed.stdout).toContain(`rk_live_${id}_…`);
    expect(listed.stdout).toContain('participants:read,points:write');
    expect(listed.stdout).toContain('200/s burst 400');
    expect(listed.stdout).toContain('by ops-alice');
    expect(listed.stdout).toContain('last used never');
    expect(listed.stdout).not.toContain(key.slice(21));
    expect((await run('list', '--client', OTHER_CLIENT_ID)).stdout).toContain(`No API keys in ${OTHER_CLIENT_ID}.`);

    const revoked = await run('revoke', '--client', 'acme', '--key', id, '--reason', 'rotated');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked API key "CRM sync" (${id}).`);
    expect((await run('revoke', '--client', 'acme', '--key', id, '--reason', 'rotated')).stdout).toContain('was already revoked');
    const json = await rewardsJson<ApiKeyView[]>(database, ['api-keys', 'list', '--client', 'acme']);
    expect(json.find((k) => k.id === id)).toMatchObject({ revokedBy: 'ops-alice', revokeReason: 'rotated', lastUsedAt: null });

    const audit = await listAudit(database.db, { clientId: 'acme', action: 'api-keys.', limit: 10 });
    expect(audit.filter((a) => a.details.includes(id)).map((a) => [a.action, a.actor, a.actor_kind])).toEqual([
      ['api-keys.revoke', 'ops-alice', 'operator'],
      ['api-keys.create', 'ops-alice', 'operator'],
    ]);
  });

  it('takes the limits from flags, and prints JSON with the key once', async () => {
    const made = await rewardsJson<ApiKeyView & { key: string }>(database, [
      'api-keys',
      'create',
      '--client',
      OTHER_CLIENT_ID,
      '--name',
      'Shop',
      '--scopes',
      'codes:write',
      '--rate',
      '2.5',
      '--burst',
      '7',
      '--reason',
      'new shop',
    ]);
    expect(made).toMatchObject({ client: OTHER_CLIENT_ID, name: 'Shop', scopes: ['codes:write'], ratePerSecond: 2.5, burst: 7 });
    expect(made.key.startsWith(`${made.prefix}_`)).toBe(true);
    const bucket = await database.db.selectFrom('api_key_buckets').selectAll().where('key_id', '=', made.id).executeTakeFirstOrThrow();
    expect(Number(bucket.tokens)).toBe(7);
  });

  it('refuses what is wrong with one line and exit 2, and changes nothing', async () => {
    const before = await database.db.selectFrom('api_keys').select('id').execute();
    const other = await rewardsJson<ApiKeyView>(database, [
      'api-keys',
      'create',
      '--client',
      OTHER_CLIENT_ID,
      '--name',
      'Theirs',
      '--scopes',
      'points:read',
      '--reason',
      'theirs',
    ]);
    const refusals: Array<[string[], RegExp]> = [
      [['create', '--client', 'acme', '--name', 'x', '--scopes', 'points:read'], /--reason/],
      [['create', '--client', 'acme', '--name', 'x', '--scopes', 'points:read,root', '--reason', 'why not'], /unknown root/],
      [['create', '--client', 'acme', '--name', 'x', '--scopes', ' , ', '--reason', 'why not'], /at least one/],
      [['create', '--client', 'acme', '--name', 'x', '--scopes', 'points:read', '--rate', '0', '--reason', 'why not'], /--rate/],
      [['create', '--client', 'acme', '--name', 'x', '--scopes', 'points:read', '--burst', '1.5', '--reason', 'why not'], /--burst/],
      [['create', '--client', 'nowhere', '--name', 'x', '--scopes', 'points:read', '--reason', 'why not'], /Unknown client "nowhere"/],
      [
        ['create', '--client', OTHER_CLIENT_ID, '--name', 'Theirs', '--scopes', 'points:read', '--reason', 'again'],
        /named "Theirs" already/,
      ],
      // Another client's key is not found from this one.
      [['revoke', '--client', 'acme', '--key', other.id, '--reason', 'not mine'], /No such API key in this client/],
      [['revoke', '--client', 'acme', '--key', other.id], /--reason/],
    ];
    for (const [args, message] of refusals) {
      const refused = await run(...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(message);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
    const after = await database.db.selectFrom('api_keys').select(['id', 'revoked_at']).execute();
    expect(after).toHaveLength(before.length + 1);
    expect(after.every((k) => k.revoked_at === null || before.some((b) => b.id === k.id))).toBe(true);
  });
});
