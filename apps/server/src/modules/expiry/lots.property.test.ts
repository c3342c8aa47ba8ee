import fc from 'fast-check';
import type { ExpiryPolicy } from '@rewards/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { appendLedgerEntries } from '../ledger/bulk.ts';
import { appendLedgerEntry, InsufficientBalanceError, type LedgerKind } from '../ledger/store.ts';
import { spendingOrder, type Lot } from './lot-book.ts';
import { expirePoints } from './run.ts';
import { addExpiryClient, balanceOf, participant, setPolicy } from './test-support.ts';

/**
 * Issue 19, section 5: random sequences of earnings, codes, orders, adjustments, imports, policy
 * changes and expiry runs on random dates. After every step the participant's open lots sum to
 * the balance and none is below zero; after every debit no lot before the last one it took (in
 * spending order) holds anything; after every run nothing past its day is left open, and what
 * it expired was past its day (or, under inactivity, everything).
 */

const CLIENT = 'prop';
const POOL = 3_000;
const RUNS = 25;
const START = Date.UTC(2026, 0, 1);
const dayOf = (n: number) => new Date(START + n * 86_400_000).toISOString().slice(0, 10);
const at = (n: number) => `${dayOf(n)}T12:00:00.000Z`;
const LATER = () => new Date('2028-01-01T00:00:00Z');

const policy: fc.Arbitrary<ExpiryPolicy> = fc.oneof(
  fc.constant<ExpiryPolicy>({ type: 'none' }),
  fc.integer({ min: 1, max: 6 }).map((months): ExpiryPolicy => ({ type: 'rolling', months })),
  fc
    .record({ period: fc.constantFrom('month' as const, 'quarter' as const, 'year' as const), count: fc.integer({ min: 0, max: 2 }) })
    .map((p): ExpiryPolicy => ({ type: 'calendar', ...p })),
  fc.integer({ min: 1, max: 4 }).map((months): ExpiryPolicy => ({ type: 'inactivity', months })),
);
const day = fc.integer({ min: 0, max: 540 });
const points = fc.integer({ min: 1, max: 200 });

type Step =
  | { type: 'earn' | 'code'; amount: number; day: number }
  | { type: 'order'; amount: number; day: number }
  | { type: 'adjust'; amount: number; day: number }
  | { type: 'import'; lines: Array<{ amount: number; day: number }> }
  | { type: 'policy'; policy: ExpiryPolicy }
  | { type: 'expire'; day: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant('earn' as const), amount: points, day }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('code' as const), amount: points, day }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('order' as const), amount: fc.integer({ min: 1, max: 300 }), day }) },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('adjust' as const), amount: fc.integer({ min: -200, max: 200 }).filter((n) => n !== 0), day }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('import' as const),
      lines: fc.array(fc.record({ amount: fc.integer({ min: -150, max: 200 }).filter((n) => n !== 0), day }), {
        minLength: 1,
        maxLength: 8,
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('policy' as const), policy }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('expire' as const), day }) },
);

describe.each(dialects)('lots under random sequences (fast-check) on %s', (dialect) => {
  let database: TestDatabase;
  const db = () => database.db;
  let next = 0;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await addExpiryClient(db(), CLIENT, POOL, { type: 'none' });
  }, 120_000);
  afterAll(() => database.drop());

  const lotsOf = async (participantId: string): Promise<Array<Lot & { amount: number }>> =>
    (
      await db()
        .selectFrom('point_lots')
        .select(['id', 'participant_id', 'earned_on', 'expires_on', 'remaining', 'amount'])
        .where('participant_id', '=', participantId)
        .execute()
    ).map((r) => ({
      id: r.id,
      participantId: r.participant_id,
      earnedOn: r.earned_on,
      expiresOn: r.expires_on,
      remaining: Number(r.remaining),
      amount: Number(r.amount),
    }));

  const consumedBy = async (entryId: string) =>
    (await db().selectFrom('lot_consumptions').select(['lot_id', 'amount']).where('entry_id', '=', entryId).execute()).map((c) => c.lot_id);

  const post = async (p: string, amount: number, occurredAt: string, kind: LedgerKind): Promise<string | undefined> => {
    try {
      return await db()
        .transaction()
        .execute((trx) =>
          appendLedgerEntry(trx, { clientId: CLIENT, participantId: p, occurredAt, description: kind, amount, kind }, LATER(), {
            requireCovered: amount < 0,
          }),
        );
    } catch (error) {
      if (error instanceof InsufficientBalanceError) return undefined;
      throw error;
    }
  };

  /** A debit took lots in spending order: none before the last one it took still holds points. */
  const expectOldestFirst = async (p: string, entryId: string) => {
    const taken = new Set(await consumedBy(entryId));
    const lots = (await lotsOf(p)).sort(spendingOrder);
    const last = lots.reduce((index, lot, i) => (taken.has(lot.id) ? i : index), -1);
    expect(lots.slice(0, last).filter((lot) => lot.remaining > 0)).toEqual([]);
  };

  it('keeps the open lots equal to the balance, never below zero, and expires the oldest points', async () => {
    await fc.assert(
      fc.asyncProperty(policy, fc.array(step, { minLength: 1, maxLength: 20 }), async (initial, steps) => {
        const p = participant(CLIENT, next++);
        let current = initial;
        await setPolicy(db(), CLIENT, initial);
        for (const s of steps) {
          if (s.type === 'earn' || s.type === 'code') await post(p, s.amount, at(s.day), s.type === 'code' ? 'ots' : 'award');
          else if (s.type === 'order' || s.type === 'adjust') {
            const amount = s.type === 'order' ? -s.amount : s.amount;
            const id = await post(p, amount, at(s.day), s.type === 'order' ? 'redemption' : 'adjustment');
            if (id && amount < 0) await expectOldestFirst(p, id);
          } else if (s.type === 'import') {
            await db()
              .transaction()
              .execute((trx) =>
                appendLedgerEntries(
                  trx,
                  CLIENT,
                  s.lines.map((line) => ({
                    clientId: CLIENT,
                    participantId: p,
                    occurredAt: at(line.day),
                    description: 'Imported',
                    amount: line.amount,
                    kind: line.amount > 0 ? 'award' : 'adjustment',
                  })),
                  LATER(),
                  { requireCovered: true },
                ),
              );
          } else if (s.type === 'policy') {
            current = s.policy;
            await setPolicy(db(), CLIENT, s.policy);
          } else {
            const asOf = dayOf(s.day);
            const before = new Map((await lotsOf(p)).map((lot) => [lot.id, lot]));
            await expirePoints(db(), { clientId: CLIENT, asOf, now: LATER });
            const entries = await db()
              .selectFrom('ledger_entries')
              .select('id')
              .where('participant_id', '=', p)
              .where('reference', '=', `expiry:${p}:${asOf}`)
              .execute();
            const after = await lotsOf(p);
            for (const entry of entries)
              for (const lotId of await consumedBy(entry.id)) {
                const lot = before.get(lotId)!;
                // Past its day, or (inactivity) the whole balance went.
                if (!(lot.expiresOn !== null && lot.expiresOn < asOf))
                  expect(current.type === 'inactivity' && after.every((l) => l.remaining === 0)).toBe(true);
              }
            expect(after.filter((lot) => lot.remaining > 0 && lot.expiresOn !== null && lot.expiresOn < asOf)).toEqual([]);
          }
          const lots = await lotsOf(p);
          expect(lots.filter((lot) => lot.remaining < 0 || lot.remaining > lot.amount)).toEqual([]);
          expect(lots.reduce((sum, lot) => sum + lot.remaining, 0)).toBe((await balanceOf(db(), p)) ?? 0);
        }
      }),
      { numRuns: RUNS },
    );
    await expectLedgerMatchesBalances(db());
  }, 300_000);
});
