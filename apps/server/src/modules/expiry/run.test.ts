import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { appendLedgerEntry, InsufficientBalanceError } from '../ledger/store.ts';
import { takeLease } from '../jobs/lease.ts';
import { startDailyExpiry } from './daily.ts';
import { EXPIRED_KEY, expirePoints, ExpiryRunInputError, ExpiryStoppedError } from './run.ts';
import { addExpiryClient, balanceOf, expiryEntriesOf, lotsOf, move, participant, setPolicy } from './test-support.ts';

const LATER = () => new Date('2027-06-01T12:00:00Z');

describe.each(dialects)('points that expire on %s', (dialect) => {
  let database: TestDatabase;
  const db = () => database.db;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.drop());
  afterEach(async () => {
    await expectLedgerMatchesBalances(db());
  });

  it('rolling: each earning expires N months on, clamped to the month end; spent oldest expiry first; the run posts one entry naming the lots', async () => {
    await addExpiryClient(db(), 'roll', 2, { type: 'rolling', months: 1 });
    const p = participant('roll', 0);
    const first = await move(db(), 'roll', p, 100, '2026-01-31T10:00:00.000Z');
    const second = await move(db(), 'roll', p, 50, '2026-01-10T10:00:00.000Z');
    const third = await move(db(), 'roll', p, 40, '2026-03-10T10:00:00.000Z');
    const lots = await lotsOf(db(), p);
    expect(lots.map((l) => [l.entry_id, l.earned_on, l.expires_on])).toEqual([
      [second, '2026-01-10', '2026-02-10'],
      [first, '2026-01-31', '2026-02-28'],
      [third, '2026-03-10', '2026-04-10'],
    ]);
    // 60: all of the soonest (50, 10 Feb), then 10 of the next (28 Feb).
    const debit = await move(db(), 'roll', p, -60, '2026-02-01T10:00:00.000Z');
    const consumed = await db()
      .selectFrom('lot_consumptions')
      .select(['lot_id', 'amount'])
      .where('entry_id', '=', debit)
      .orderBy('amount')
      .execute();
    expect(consumed.map((c) => [c.lot_id, Number(c.amount)])).toEqual([
      [first, 10],
      [second, 50],
    ]);

    // 28 Feb's lot expires at the end of 28 Feb: as of that day nothing is due yet.
    expect(await expirePoints(db(), { clientId: 'roll', asOf: '2026-02-28', now: LATER })).toMatchObject({
      status: 'done',
      clients: [{ clientId: 'roll', participants: 0, points: 0, lots: 0 }],
    });
    const done = await expirePoints(db(), { clientId: 'roll', asOf: '2026-03-01', now: LATER });
    expect(done).toMatchObject({
      status: 'done',
      clients: [{ clientId: 'roll', asOf: '2026-03-01', participants: 1, points: 90, lots: 1 }],
    });
    const entries = await expiryEntriesOf(db(), p);
    expect(entries.map((e) => [Number(e.amount), e.description_key, e.reference])).toEqual([[-90, EXPIRED_KEY, `expiry:${p}:2026-03-01`]]);
    const closed = await db().selectFrom('lot_consumptions').select(['lot_id', 'amount']).where('entry_id', '=', entries[0]!.id).execute();
    expect(closed.map((c) => [c.lot_id, Number(c.amount)])).toEqual([[first, 90]]);
    expect(await balanceOf(db(), p)).toBe(40);

    // Idempotent: again, and a later day with nothing new due, post nothing.
    await expirePoints(db(), { clientId: 'roll', asOf: '2026-03-01', now: LATER });
    await expirePoints(db(), { clientId: 'roll', asOf: '2026-04-10', now: LATER });
    expect(await expiryEntriesOf(db(), p)).toHaveLength(1);
    await expirePoints(db(), { clientId: 'roll', asOf: '2026-04-11', now: LATER });
    expect((await expiryEntriesOf(db(), p)).map((e) => Number(e.amount))).toEqual([-90, -40]);
    expect(await balanceOf(db(), p)).toBe(0);
  });

  it('calendar: the end of the Nth quarter after the earning; a dry run tells and writes nothing', async () => {
    await addExpiryClient(db(), 'cal', 3, { type: 'calendar', period: 'quarter', count: 1 });
    const [a, b] = [participant('cal', 0), participant('cal', 1)];
    await move(db(), 'cal', a, 30, '2026-02-10T10:00:00.000Z');
    await move(db(), 'cal', a, 20, '2026-04-01T10:00:00.000Z');
    await move(db(), 'cal', b, 70, '2026-03-31T10:00:00.000Z');
    expect((await lotsOf(db(), a)).map((l) => l.expires_on)).toEqual(['2026-06-30', '2026-09-30']);

    const dry = await expirePoints(db(), { clientId: 'cal', asOf: '2026-07-01', dryRun: true, now: LATER });
    expect(dry).toEqual({
      status: 'dryRun',
      clients: [{ clientId: 'cal', asOf: '2026-07-01', policy: 'calendar', participants: 2, points: 100, lots: 2 }],
    });
    expect(await expiryEntriesOf(db(), a)).toEqual([]);
    await expirePoints(db(), { clientId: 'cal', asOf: '2026-07-01', now: LATER });
    expect([await balanceOf(db(), a), await balanceOf(db(), b)]).toEqual([20, 0]);
  });

  it('inactivity: the whole balance, N months after the last earning or spending', async () => {
    await addExpiryClient(db(), 'idle', 2, { type: 'inactivity', months: 6 });
    const [a, b] = [participant('idle', 0), participant('idle', 1)];
    await move(db(), 'idle', a, 100, '2026-01-15T10:00:00.000Z');
    await move(db(), 'idle', a, 50, '2026-01-20T10:00:00.000Z');
    await move(db(), 'idle', a, -30, '2026-02-28T10:00:00.000Z');
    await move(db(), 'idle', b, 80, '2026-01-15T10:00:00.000Z');
    await move(db(), 'idle', b, 10, '2026-05-02T10:00:00.000Z');
    expect((await lotsOf(db(), a)).every((l) => l.expires_on === null)).toBe(true);

    // a: last active 28 Feb, so inactive after the end of 28 Aug; b: after 2 Nov.
    await expirePoints(db(), { clientId: 'idle', asOf: '2026-08-28', now: LATER });
    expect(await balanceOf(db(), a)).toBe(120);
    const done = await expirePoints(db(), { clientId: 'idle', asOf: '2026-08-29', now: LATER });
    expect(done.clients[0]).toMatchObject({ participants: 1, points: 120, lots: 2 });
    expect([await balanceOf(db(), a), await balanceOf(db(), b)]).toEqual([0, 90]);
    // The expiry is no activity: b still goes on 3 Nov, a has nothing left.
    await expirePoints(db(), { clientId: 'idle', asOf: '2026-11-03', now: LATER });
    expect([await balanceOf(db(), a), await balanceOf(db(), b)]).toEqual([0, 0]);
    expect(await expiryEntriesOf(db(), a)).toHaveLength(1);
  });

  it('a changed policy applies to earnings from then on; points already earned keep their date', async () => {
    await addExpiryClient(db(), 'chg', 1, { type: 'rolling', months: 12 }, 'Pacific/Auckland');
    const p = participant('chg', 0);
    // 31 Jan, 20:00 UTC is already 1 Feb in Auckland.
    await move(db(), 'chg', p, 100, '2026-01-31T20:00:00.000Z');
    await setPolicy(db(), 'chg', { type: 'none' });
    await move(db(), 'chg', p, 60, '2026-03-01T00:00:00.000Z');
    await setPolicy(db(), 'chg', { type: 'calendar', period: 'year', count: 0 });
    await move(db(), 'chg', p, 5, '2026-03-02T00:00:00.000Z');
    expect((await lotsOf(db(), p)).map((l) => [l.earned_on, l.expires_on, Number(l.amount)])).toEqual([
      ['2026-02-01', '2027-02-01', 100],
      ['2026-03-01', null, 60],
      ['2026-03-02', '2026-12-31', 5],
    ]);
    // Spending takes the soonest date first, and the undated lot last.
    await move(db(), 'chg', p, -10, '2026-04-01T00:00:00.000Z');
    expect((await lotsOf(db(), p)).map((l) => Number(l.remaining))).toEqual([95, 60, 0]);
    await setPolicy(db(), 'chg', { type: 'none' });
    await expirePoints(db(), { clientId: 'chg', asOf: '2027-02-02', now: LATER });
    expect(await balanceOf(db(), p)).toBe(60);
  });

  it('refuses a day that is not one, or one after today, and an unknown client, changing nothing', async () => {
    await expect(expirePoints(db(), { asOf: '2026-02-30', now: LATER })).rejects.toThrow(ExpiryRunInputError);
    await expect(expirePoints(db(), { asOf: '2027-06-02', now: LATER })).rejects.toThrow(/after today/);
    await expect(expirePoints(db(), { clientId: 'nobody', now: LATER })).rejects.toThrow(ExpiryRunInputError);
  });

  it('100 concurrent debits take lots oldest expiry first, never below zero; the lots still sum to the balance', async () => {
    await addExpiryClient(db(), 'burst', 1, { type: 'rolling', months: 1 });
    const p = participant('burst', 0);
    // Ten lots of 50 earned on ten different days: ten different expiry days.
    for (let day = 10; day < 20; day += 1) await move(db(), 'burst', p, 50, `2026-05-${day}T10:00:00.000Z`);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, () =>
        db()
          .transaction()
          .execute((trx) =>
            appendLedgerEntry(
              trx,
              {
                clientId: 'burst',
                participantId: p,
                occurredAt: '2026-05-25T10:00:00.000Z',
                description: 'Order',
                amount: -7,
                kind: 'redemption',
              },
              new Date(),
              { requireCovered: true },
            ),
          ),
      ),
    );
    const granted = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(granted).toBe(71);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => o.reason instanceof InsufficientBalanceError)).toBe(true);
    expect(await balanceOf(db(), p)).toBe(500 - 7 * 71);
    // What is left is in the last lot (the latest expiry), nothing before it.
    expect((await lotsOf(db(), p)).map((l) => Number(l.remaining))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
  }, 60_000);

  it('the lease: one holder at a time, free again when ended or run out', async () => {
    let clock = new Date('2027-01-01T00:00:00Z');
    const now = () => clock;
    const first = await takeLease(db(), 'test-job', { now, ttlMs: 60_000 });
    expect(first).toBeDefined();
    expect(await takeLease(db(), 'test-job', { now })).toBeUndefined();
    expect(await first!.extend()).toBe(true);
    await first!.end();
    const second = await takeLease(db(), 'test-job', { now, ttlMs: 60_000 });
    expect(second).toBeDefined();
    clock = new Date(clock.getTime() + 61_000);
    // Its holder stopped extending (it died): another takes it, and the old holder has lost it.
    const third = await takeLease(db(), 'test-job', { now });
    expect(third).toBeDefined();
    expect(await second!.extend()).toBe(false);
    await third!.end();
    // The run under a lease held elsewhere does nothing and says so.
    const held = await takeLease(db(), 'expiry', { now: LATER });
    expect(await expirePoints(db(), { now: LATER })).toEqual({ status: 'busy', clients: [] });
    await held!.end();
  });

  it('a shutdown stops the run between batches: what was committed stays, the lease is free at once, a re-run finishes', async () => {
    await addExpiryClient(db(), 'stop', 3, { type: 'rolling', months: 1 });
    const people = [0, 1, 2].map((i) => participant('stop', i));
    for (const p of people) await move(db(), 'stop', p, 10, '2026-01-05T10:00:00.000Z');
    let stopping = false;
    // Decision 081: main.ts's SIGTERM sets `stopping`; the batch under way commits, the next is not begun.
    await expect(
      expirePoints(db(), {
        clientId: 'stop',
        asOf: '2026-03-01',
        now: LATER,
        batchSize: 1,
        stopping: () => stopping,
        afterBatch: () => void (stopping = true),
      }),
    ).rejects.toBeInstanceOf(ExpiryStoppedError);
    const expired = async () => (await Promise.all(people.map((p) => expiryEntriesOf(db(), p)))).filter((e) => e.length > 0).length;
    expect(await expired()).toBe(1);
    // No lease to wait out: the next process's run takes it now and does the rest.
    expect(await expirePoints(db(), { clientId: 'stop', asOf: '2026-03-01', now: LATER })).toMatchObject({
      status: 'done',
      clients: [{ participants: 2, points: 20 }],
    });
    expect(await expired()).toBe(3);
  });

  it('the server runs it once a day in each client’s zone, then the steps after it', async () => {
    await addExpiryClient(db(), 'daily', 1, { type: 'rolling', months: 1 }, 'America/New_York');
    const p = participant('daily', 0);
    await move(db(), 'daily', p, 25, '2026-09-10T15:00:00.000Z');
    await move(db(), 'daily', p, 35, '2026-09-11T15:00:00.000Z');
    let clock = new Date('2026-10-11T03:00:00Z'); // 10 Oct, 23:00 in New York
    const steps: string[] = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const daily = startDailyExpiry({
        db: db(),
        log: { info: () => {}, warn: (m) => steps.push(`warn ${m}`) },
        now: () => clock,
        checkEveryMs: 3_600_000,
        afterSteps: [async (_db, at) => void steps.push(at.toISOString())],
      });
      await daily.idle();
      expect(await balanceOf(db(), p)).toBe(60);
      clock = new Date('2026-10-11T05:00:00Z'); // 11 Oct, 01:00 there: 10 Oct's lot has expired
      await vi.advanceTimersByTimeAsync(3_600_000);
      await daily.idle();
      expect(await balanceOf(db(), p)).toBe(35);
      // Same day everywhere: the next check runs nothing.
      clock = new Date('2026-10-11T06:00:00Z');
      await vi.advanceTimersByTimeAsync(3_600_000);
      await daily.idle();
      await daily.stop();
      expect(steps).toEqual(['2026-10-11T03:00:00.000Z', '2026-10-11T05:00:00.000Z']);
    } finally {
      vi.useRealTimers();
    }
  });
});
