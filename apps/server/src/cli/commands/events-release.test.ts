import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewardsJson, runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { addClientWithPendingLines, balancesAndPending, RELEASE_AT } from '../../modules/events/release-test-support.ts';

describe.each(dialects)('rewards events release on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await addClientWithPendingLines(database.db, 'rel', 2, 2);
  }, 60_000);
  afterAll(() => database.drop());

  it('releases nothing before the day, then what is due, then finds nothing left', async () => {
    const early = await runRewards(database, ['events', 'release', '--client', 'rel', '--now', '2026-03-11T23:00:00Z']);
    expect(early.code).toBe(0);
    expect(early.stdout).toBe('rel (as of 2026-03-11): nothing to release.\n');
    const done = await rewardsJson(database, ['events', 'release', '--client', 'rel', '--now', RELEASE_AT]);
    expect(done).toEqual({ status: 'done', clients: [{ clientId: 'rel', asOf: '2026-03-12', participants: 2, lines: 4, points: 40 }] });
    expect(await balancesAndPending(database.db, 'rel')).toEqual([
      [20, 0],
      [20, 0],
    ]);
    const again = await runRewards(database, ['events', 'release', '--client', 'rel', '--now', RELEASE_AT]);
    expect(again.stdout).toBe('rel (as of 2026-03-12): nothing to release.\n');
    await expectLedgerMatchesBalances(database.db);
  }, 60_000);

  it('refuses a time that is not one, a time later than now and an unknown client with one line, exit 2', async () => {
    for (const args of [
      ['--now', '2026-02-30T00:00:00Z'],
      ['--now', 'tomorrow'],
      ['--now', '2999-01-01T00:00:00Z'],
      ['--client', 'nobody'],
    ]) {
      const run = await runRewards(database, ['events', 'release', ...args]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
  }, 60_000);
});
