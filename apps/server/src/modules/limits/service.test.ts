import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../http/api-error.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { limitsOf, participantLimits, type LimitPolicy } from './policy.ts';
import { giveBack, participantLimitStanding, succeeded, takeSlots, unlockParticipant } from './service.ts';

const POLICY: LimitPolicy = {
  perAccount: 5,
  perAccountPerDay: 20,
  perAddress: 50,
  windowMinutes: 15,
  otsPerParticipant: 10,
  otsWindowMinutes: 15,
};
const CLIENT = 'acme';
const MINUTE = 60_000;
const refused = () => new ApiError(429, 1, 'limited', 'limited');

describe.each(dialects)('attempt limits on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.db.deleteFrom('attempt_limits').execute();
  });

  const signIn = (key: string, address = '192.0.2.1') => limitsOf(POLICY).signIn(key, address);
  /** Tries n attempts at `at`; how many got their slots. */
  async function attempts(n: number, key: string, at: Date, address?: string): Promise<number> {
    let granted = 0;
    for (let i = 0; i < n; i += 1) {
      try {
        await takeSlots(database.db, CLIENT, signIn(key, address), refused, at);
        granted += 1;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    }
    return granted;
  }

  it('grants 5 attempts a window; a new window starts when the old one has ended', async () => {
    const start = new Date('2026-11-25T08:00:00Z');
    expect(await attempts(7, 'anna', start)).toBe(5);
    expect(await attempts(1, 'anna', new Date(start.getTime() + 14 * MINUTE))).toBe(0);
    expect(await attempts(7, 'anna', new Date(start.getTime() + 15 * MINUTE))).toBe(5);
  });

  it('takes all subjects or none: a full account costs its address nothing', async () => {
    const at = new Date('2026-11-25T08:00:00Z');
    expect(await attempts(30, 'bert', at)).toBe(5);
    const standing = await database.db
      .selectFrom('attempt_limits')
      .select(['subject', 'taken'])
      .where('subject', 'like', 'sign-in-address:%')
      .execute();
    expect(standing).toEqual([{ subject: 'sign-in-address:192.0.2.1', taken: 5 }]);
  });

  it('stops an account at 20 attempts a day, however the windows fall, until the day has passed', async () => {
    const start = new Date('2026-11-25T00:00:00Z');
    let granted = 0;
    // Five attempts in each quarter of an hour, from many addresses: the daily ceiling still holds.
    for (let window = 0; window < 8; window += 1) {
      granted += await attempts(5, 'carl', new Date(start.getTime() + window * 16 * MINUTE), `198.51.100.${window}`);
    }
    expect(granted).toBe(20);
    expect(await attempts(1, 'carl', new Date(start.getTime() + 23 * 60 * MINUTE), '203.0.113.1')).toBe(0);
    expect(await attempts(1, 'carl', new Date(start.getTime() + 24 * 60 * MINUTE), '203.0.113.1')).toBe(1);
  });

  it('gives back the slots of an attempt that succeeded, and forgives what it names', async () => {
    const at = new Date('2026-11-25T08:00:00Z');
    expect(await attempts(4, 'dora', at)).toBe(4);
    const right = await takeSlots(database.db, CLIENT, signIn('dora'), refused, at);
    await succeeded(database.db, right, ['sign-in:dora']);
    const rows = await database.db.selectFrom('attempt_limits').select(['subject', 'taken']).orderBy('subject').execute();
    // The window's wrong guesses are forgiven, the day's are not, and the address keeps only the wrong ones.
    expect(rows).toEqual([
      { subject: 'sign-in-address:192.0.2.1', taken: 4 },
      { subject: 'sign-in:dora#day', taken: 4 },
    ]);
  });

  it('gives a slot back only to the window it was taken in', async () => {
    const at = new Date('2026-11-25T08:00:00Z');
    const old = await takeSlots(database.db, CLIENT, signIn('emil'), refused, at);
    expect(await attempts(5, 'emil', new Date(at.getTime() + 16 * MINUTE))).toBe(5);
    await giveBack(database.db, old);
    const row = await database.db
      .selectFrom('attempt_limits')
      .select('taken')
      .where('subject', '=', 'sign-in:emil')
      .executeTakeFirstOrThrow();
    expect(row.taken).toBe(5);
  });

  it('shows where a participant stands, and an operator unlock clears every limit on them', async () => {
    const participant = { id: 'p-1', client_id: CLIENT, username_key: 'fred', email: 'fred@example.com', account_number: '1000099' };
    const now = new Date();
    expect(await attempts(6, 'fred', now)).toBe(5);
    await takeSlots(
      database.db,
      CLIENT,
      limitsOf(POLICY).activation({ field: 'accountNumber', value: '1000099' }, '192.0.2.9'),
      refused,
      now,
    );
    const standing = await participantLimitStanding(database.db, POLICY, participant, now);
    expect(standing.filter((limit) => limit.taken > 0).map(({ name, taken, max }) => [name, taken, max])).toEqual([
      ['signIn', 5, 5],
      ['signIn per day', 5, 20],
      ['activationByAccountNumber', 1, 5],
      ['activationByAccountNumber per day', 1, 20],
    ]);
    expect(await unlockParticipant(database.db, POLICY, participant, now)).toBe(6);
    const subjects = Object.values(participantLimits(POLICY, participant))
      .flat()
      .map((limit) => limit.subject);
    expect(await database.db.selectFrom('attempt_limits').select('subject').where('subject', 'in', subjects).execute()).toEqual([]);
    expect(await attempts(1, 'fred', now)).toBe(1);
  });
});
