import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../db/seed/demo.ts';
import { recordAudit } from '../modules/audit/service.ts';
import { runRewards, rewardsJson, spawnRewards, SPAWN_TIMEOUT } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';

describe.each(dialects)('the rewards command on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  // These three run the real entry point in a process of its own: the exit codes and streams a shell sees.
  it('lists its commands with --help and exits 0', { timeout: SPAWN_TIMEOUT }, async () => {
    const run = await spawnRewards(database, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: rewards');
    expect(run.stdout).toMatch(/audit/);
  });

  it('refuses an unknown command or flag in one line with exit code 2', { timeout: SPAWN_TIMEOUT }, async () => {
    const unknown = await spawnRewards(database, ['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const badFlag = await spawnRewards(database, ['outbox', '--limit', 'lots']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr.trim()).toBe('rewards: --limit must be a whole number from 1 to 1000');
  });

  it('names the known clients when asked about an unknown one', { timeout: SPAWN_TIMEOUT }, async () => {
    const run = await spawnRewards(database, ['audit', '--client', 'initech']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown client "initech" (known: acme');
  });

  it('shows the audit log newest first, as text and as JSON', async () => {
    await recordAudit(
      database.db,
      {
        clientId: 'acme',
        actor: 'ops-anna',
        actorKind: 'operator',
        action: 'points.award',
        subject: 'demo',
        details: { points: 50, reason: 'ticket 42' },
        origin: 'cli@desk',
      },
      // After the demo seed's own entries (its earning rules, dated at the seed): these are the newest.
      new Date(Date.now() + 3_600_000),
    );
    await recordAudit(
      database.db,
      {
        clientId: 'acme',
        actor: 'ops-ben',
        actorKind: 'operator',
        action: 'clients.update',
        subject: 'acme',
        details: { fields: ['name'] },
      },
      new Date(Date.now() + 7_200_000),
    );
    const entries = await rewardsJson<Array<{ actor: string; action: string; details: unknown }>>(database, ['audit', '--client', 'acme']);
    // The demo seed's own entries (its earning rules) come after them.
    expect(entries.slice(0, 2).map((e) => e.actor)).toEqual(['ops-ben', 'ops-anna']);
    expect(entries[1]).toMatchObject({ action: 'points.award', details: { points: 50, reason: 'ticket 42' } });
    const onlyPoints = await rewardsJson<unknown[]>(database, ['audit', '--action', 'points']);
    expect(onlyPoints).toHaveLength(1);
    const text = await runRewards(database, ['audit', '--limit', '1']);
    expect(text.stdout.trim().split('\n')).toHaveLength(1);
    expect(text.stdout).toContain('clients.update');
  });
});
