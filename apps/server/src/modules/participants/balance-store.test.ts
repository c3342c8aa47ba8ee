import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { addGeneratedParticipants } from '../../../test/points-files.ts';
import { appendLedgerEntry, consoleStatementRows, writeToLedger } from '../ledger/service.ts';
import { findStatementVersion, moveBalance } from './service.ts';
import { balanceAfter } from './console-store.ts';

const CLIENT = 'acme';

/** The database as `db`, counting every statement it runs (issue 30 §3: a read across two modules stays one statement). */
function counting(db: Db): { db: Db; statements: () => number } {
  let statements = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => {
      statements += 1;
      return result;
    },
  };
  return { db: db.withPlugin(plugin), statements: () => statements };
}

describe.each(dialects)("the participants' balance beside the ledger on %s", (dialect) => {
  let database: TestDatabase;
  // Each test its own participant (generated ids acme-pt0000000, …), so no test reads another's postings.
  let next = 0;
  const participant = () => `${CLIENT}-pt${String(next++).padStart(7, '0')}`;
  const post = (participantId: string, amount: number, occurredAt: string) =>
    writeToLedger(database.db, (trx) =>
      appendLedgerEntry(
        trx,
        { clientId: CLIENT, participantId, occurredAt, description: 'Balance test', amount, kind: amount > 0 ? 'award' : 'redemption' },
        new Date(),
        { requireCovered: amount < 0 },
      ),
    );

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    await addGeneratedParticipants(database.db, CLIENT, 4);
  });
  afterAll(() => database.drop());

  it("reads the statement's version (the participant's row and the ledger's entry count) in one statement", async () => {
    const who = participant();
    await post(who, 100, '2026-11-01T10:00:00.000Z');
    await post(who, -30, '2026-11-02T10:00:00.000Z');
    await post(who, 5, '2026-11-03T10:00:00.000Z');
    const counted = counting(database.db);
    const version = await findStatementVersion(counted.db, CLIENT, who);
    expect(counted.statements()).toBe(1);
    expect(version).toMatchObject({ username_key: who.slice(`${CLIENT}-`.length), balance: 75 });
    expect(Number(version?.entries)).toBe(3);
    expect(await findStatementVersion(database.db, CLIENT, `${CLIENT}-nobody`)).toBeUndefined();
  });

  it("reads the console's balance after an entry (the cached balance less the ledger's newer entries) in one statement", async () => {
    const who = participant();
    await post(who, 40, '2026-11-01T10:00:00.000Z');
    await post(who, 2, '2026-11-02T10:00:00.000Z');
    await post(who, -10, '2026-11-03T10:00:00.000Z');
    const [newest, middle, oldest] = await consoleStatementRows(database.db, CLIENT, who, undefined, 3);
    const counted = counting(database.db);
    expect(await balanceAfter(counted.db, CLIENT, who, newest!)).toBe(32);
    expect(await balanceAfter(counted.db, CLIENT, who, middle!)).toBe(42);
    expect(await balanceAfter(counted.db, CLIENT, who, oldest!)).toBe(40);
    expect(counted.statements()).toBe(3);
  });

  it('moves the balance in the caller’s transaction, a covered debit only when the balance covers it', async () => {
    const who = participant();
    const moves = await writeToLedger(database.db, async (trx) => [
      await moveBalance(trx, CLIENT, who, 10),
      await moveBalance(trx, CLIENT, who, -20, { covered: true }),
      await moveBalance(trx, CLIENT, who, -4, { covered: true }),
      await moveBalance(trx, CLIENT, `${CLIENT}-nobody`, 5),
    ]);
    expect(moves).toEqual([10, undefined, 6, undefined]);
    // Only the balance moved here (no entry): put it back, so the ledger still sums to it.
    await writeToLedger(database.db, (trx) => moveBalance(trx, CLIENT, who, -6));
  });
});
