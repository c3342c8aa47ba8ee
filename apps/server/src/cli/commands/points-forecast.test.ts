import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewardsJson, runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { addExpiryClient, move, participant } from '../../modules/expiry/test-support.ts';
import type { ExpiryForecast } from '../../modules/expiry/forecast.ts';

/** `rewards points forecast` (issue 19 §4): the operator's view of what expires when, on both engines. */
describe.each(dialects)('rewards points forecast on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Rolling 3 months: 120 and 80 earned in January expire in April; 30 earned in September, in December.
    await addExpiryClient(database.db, 'roll', 2, { type: 'rolling', months: 3 });
    await move(database.db, 'roll', participant('roll', 0), 120, '2026-01-10T10:00:00.000Z');
    await move(database.db, 'roll', participant('roll', 1), 80, '2026-01-12T10:00:00.000Z');
    await move(database.db, 'roll', participant('roll', 1), 30, '2026-09-12T10:00:00.000Z');
    // Spent oldest first: 20 of the 80 that expire in April.
    await move(database.db, 'roll', participant('roll', 1), -20, '2026-01-20T10:00:00.000Z');
    // Inactivity 6 months: the whole balance goes 6 months after the last earning or spending.
    await addExpiryClient(database.db, 'idle', 1, { type: 'inactivity', months: 6 });
    await move(database.db, 'idle', participant('idle', 0), 50, '2026-01-10T10:00:00.000Z');
    await move(database.db, 'idle', participant('idle', 0), -10, '2026-02-15T10:00:00.000Z');
  }, 60_000);
  afterAll(() => database.drop());

  it('counts what expires in each of the next twelve months, and the outstanding balance before and after', async () => {
    const forecast = await rewardsJson<ExpiryForecast>(database, ['points', 'forecast', '--client', 'roll', '--as-of', '2026-02-01']);
    expect(forecast).toMatchObject({ clientId: 'roll', policy: 'rolling', from: '2026-02-01', until: '2027-02-01' });
    expect(forecast.months).toHaveLength(13);
    expect(forecast.months.filter((m) => m.points > 0)).toEqual([
      { month: '2026-04', points: 180 },
      { month: '2026-12', points: 30 },
    ]);
    expect([forecast.outstanding, forecast.expiring, forecast.outstandingAfter]).toEqual([210, 210, 0]);

    const human = await runRewards(database, ['points', 'forecast', '--client', 'roll', '--as-of', '2026-02-01']);
    expect(human.stdout).toContain('  2026-04     180\n');
    expect(human.stdout).toContain('Outstanding today: 210 points; expected to expire in twelve months: 210; left after: 0.');
    const csv = await runRewards(database, ['points', 'forecast', '--client', 'roll', '--as-of', '2026-02-01', '--csv']);
    expect(csv.stdout.split(/\r?\n/).slice(0, 5)).toEqual(['month,points', '2026-02,0', '2026-03,0', '2026-04,180', '2026-05,0']);
  }, 60_000);

  it('under an inactivity policy, the whole balance on the day six months after the last spending', async () => {
    const forecast = await rewardsJson<ExpiryForecast>(database, ['points', 'forecast', '--client', 'idle', '--as-of', '2026-03-01']);
    expect(forecast.months.filter((m) => m.points > 0)).toEqual([{ month: '2026-08', points: 40 }]);
    expect(forecast.outstanding).toBe(40);
  }, 60_000);

  it('refuses a missing or unknown client and a bad day with one line, exit 2', async () => {
    for (const args of [[], ['--client', 'nobody'], ['--client', 'roll', '--as-of', 'soon']]) {
      const run = await runRewards(database, ['points', 'forecast', ...args]);
      expect([run.code, run.stderr.split('\n').filter(Boolean).length], args.join(' ')).toEqual([2, 1]);
    }
  }, 60_000);
});
