import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewardsJson, runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { addExpiryClient, balanceOf, move, participant } from '../../modules/expiry/test-support.ts';

describe.each(dialects)('rewards points expire on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await addExpiryClient(database.db, 'cli', 2, { type: 'rolling', months: 1 });
    await move(database.db, 'cli', participant('cli', 0), 120, '2026-01-10T10:00:00.000Z');
    await move(database.db, 'cli', participant('cli', 1), 80, '2026-01-12T10:00:00.000Z');
    await move(database.db, 'cli', participant('cli', 1), 30, '2026-09-12T10:00:00.000Z');
  }, 60_000);
  afterAll(() => database.drop());

  it('tells what it would do with --dry-run, then does it, then finds nothing left', async () => {
    const dry = await runRewards(database, ['points', 'expire', '--client', 'cli', '--as-of', '2026-03-01', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(
      'cli (as of 2026-03-01, policy rolling): would expire 200 points of 2 participants (2 lots).\nDry run: nothing was changed.\n',
    );
    expect(await balanceOf(database.db, participant('cli', 1))).toBe(110);

    const done = await rewardsJson(database, ['points', 'expire', '--client', 'cli', '--as-of', '2026-03-01']);
    expect(done).toEqual({
      status: 'done',
      clients: [{ clientId: 'cli', asOf: '2026-03-01', policy: 'rolling', participants: 2, points: 200, lots: 2 }],
    });
    expect(await balanceOf(database.db, participant('cli', 1))).toBe(30);
    const again = await runRewards(database, ['points', 'expire', '--client', 'cli', '--as-of', '2026-03-01']);
    expect(again.stdout).toBe('cli (as of 2026-03-01, policy rolling): nothing to expire.\n');
    await expectLedgerMatchesBalances(database.db);
  }, 60_000);

  it('refuses a bad day, a day after today and an unknown client with one line, exit 2', async () => {
    for (const args of [
      ['--as-of', '2026-02-30'],
      ['--as-of', '2999-01-01'],
      ['--client', 'nobody'],
    ]) {
      const run = await runRewards(database, ['points', 'expire', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
  }, 60_000);
});
