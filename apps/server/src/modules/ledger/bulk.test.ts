import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { addGeneratedParticipants } from '../../../test/points-files.ts';
import { padded, pieces } from '../../db/statement-shapes.ts';
import { appendLedgerEntries } from './bulk.ts';
import type { LedgerMovement } from './store.ts';

describe('statement shapes', () => {
  it('cuts rows into full chunks and powers of two, and pads IN lists to a power of two', () => {
    expect(pieces(250, 100)).toEqual([
      [0, 100],
      [100, 200],
      [200, 232],
      [232, 248],
      [248, 250],
    ]);
    expect(pieces(0, 100)).toEqual([]);
    expect(padded(['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'c']);
  });
});

describe.each(dialects)('appendLedgerEntries on %s', (dialect) => {
  let database: TestDatabase;
  const id = (n: number) => `acme-pt${String(n).padStart(7, '0')}`;
  const move = (participant: number, amount: number, reference?: string): LedgerMovement => ({
    clientId: 'acme',
    participantId: id(participant),
    occurredAt: '2026-03-01T12:00:00.000Z',
    description: 'Bulk',
    amount,
    kind: amount > 0 ? 'award' : 'adjustment',
    ...(reference ? { reference } : {}),
  });
  const balance = async (n: number) =>
    (await database.db.selectFrom('participants').select('balance').where('id', '=', id(n)).executeTakeFirstOrThrow()).balance;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    await addGeneratedParticipants(database.db, 'acme', 3);
  });
  afterAll(() => database.drop());

  it('refuses, in the order given, the debits the balance does not cover at their turn', async () => {
    const result = await database.db.transaction().execute((trx) =>
      appendLedgerEntries(trx, 'acme', [move(0, -10), move(0, 100), move(0, -60), move(0, -60), move(1, 5), move(1, -5)], new Date(), {
        requireCovered: true,
      }),
    );
    expect(result).toMatchObject({ appended: [1, 2, 4, 5], refused: [0, 3] });
    expect(await balance(0)).toBe(40);
    // Movements that cancel out still turn "no entry yet" (null) into a balance of 0.
    expect(await balance(1)).toBe(0);
    expect(await balance(2)).toBeNull();
    await expectLedgerMatchesBalances(database.db);
  });

  it('writes nothing when a reference is taken or a participant does not exist', async () => {
    await database.db.transaction().execute((trx) => appendLedgerEntries(trx, 'acme', [move(2, 7, 'bulk:1')]));
    const taken = database.db
      .transaction()
      .execute((trx) => appendLedgerEntries(trx, 'acme', [move(2, 3, 'bulk:2'), move(2, 3, 'bulk:1')]));
    await expect(taken).rejects.toThrow();
    const nobody = database.db.transaction().execute((trx) => appendLedgerEntries(trx, 'acme', [move(2, 3), move(99, 3)]));
    await expect(nobody).rejects.toThrow('No such participant');
    expect(await balance(2)).toBe(7);
    await expectLedgerMatchesBalances(database.db);
  });

  it('takes the balances the caller read in the same transaction, and still refuses a participant not among them', async () => {
    // The import reads each balance with the participant's id (one query, locked on PostgreSQL).
    const result = await database.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('participants')
        .select(['id', 'balance'])
        .where('id', 'in', [id(0), id(2)])
        .execute();
      const balances = new Map(rows.map((row) => [row.id, row.balance === null ? null : Number(row.balance)]));
      return appendLedgerEntries(trx, 'acme', [move(2, 5), move(0, -50), move(2, -12), move(0, -40)], new Date(), {
        requireCovered: true,
        balances,
      });
    });
    expect(result).toMatchObject({ appended: [0, 2, 3], refused: [1] });
    expect(await balance(0)).toBe(0);
    expect(await balance(2)).toBe(0);
    const missing = database.db
      .transaction()
      .execute((trx) => appendLedgerEntries(trx, 'acme', [move(0, 1), move(1, 1)], new Date(), { balances: new Map([[id(0), 0]]) }));
    await expect(missing).rejects.toThrow('No such participant');
    expect(await balance(0)).toBe(0);
    await expectLedgerMatchesBalances(database.db);
  });
});
