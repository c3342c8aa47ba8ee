import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { addGeneratedParticipants } from '../../../test/points-files.ts';
import { appendLedgerEntry, InsufficientBalanceError, ledgerSum, type LedgerMovement } from './store.ts';
import { writeToLedger } from './service.ts';

const CLIENT = 'acme';

describe.each(dialects)('the ledger writer on %s', (dialect) => {
  let database: TestDatabase;
  // Each test its own participants, so no test reads another's postings.
  let nextParticipant = 0;
  const participants = (count: number) => Array.from({ length: count }, () => `${CLIENT}-pt${String(nextParticipant++).padStart(7, '0')}`);
  const movement = (participantId: string, amount: number, reference?: string): LedgerMovement => ({
    clientId: CLIENT,
    participantId,
    occurredAt: '2026-11-28T12:00:00.000Z',
    description: 'Writer test',
    amount,
    kind: amount > 0 ? 'award' : 'redemption',
    ...(reference ? { reference } : {}),
  });
  const post = (participantId: string, amount: number, reference?: string) =>
    writeToLedger(database.db, (trx) =>
      appendLedgerEntry(trx, movement(participantId, amount, reference), new Date(), { requireCovered: amount < 0 }),
    );
  const balance = async (participantId: string) =>
    (await database.db.selectFrom('participants').select('balance').where('id', '=', participantId).executeTakeFirstOrThrow()).balance;
  const entries = async (participantId: string) =>
    Number(
      (
        await database.db
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('participant_id', '=', participantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    await addGeneratedParticipants(database.db, CLIENT, 40);
    // A child whose parent is checked only at COMMIT: the way to make a commit fail on purpose.
    await sql`create table writer_test_parent (id integer primary key)`.execute(database.db);
    await sql`create table writer_test_child (id integer primary key, parent_id integer not null references writer_test_parent (id) deferrable initially deferred)`.execute(
      database.db,
    );
  });
  afterAll(() => database.drop());

  it('accepts exactly the 37 of 100 concurrent debits the balance covers, and the ledger sums to the balance', async () => {
    const [who] = participants(1) as [string];
    await post(who, 370);
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => post(who, -10)));
    const accepted = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(accepted).toHaveLength(37);
    expect(refused).toHaveLength(63);
    for (const r of refused) expect(r.reason).toBeInstanceOf(InsufficientBalanceError);
    expect(await balance(who)).toBe(0);
    expect(await ledgerSum(database.db, CLIENT, who)).toBe(0);
    expect(await entries(who)).toBe(38);
    await expectLedgerMatchesBalances(database.db);
  });

  it('keeps the neighbours of a refused posting posted, and undoes all the refused one wrote', async () => {
    const [a, b, c, d] = participants(4) as [string, string, string, string];
    const watched = <T>(work: (trx: Transaction<Database>) => Promise<T>) => writeToLedger(database.db, work);
    // What the last posting sees of the first: inside its transaction, and as committed data (a
    // plain read: SQLite's reader connection, another connection of PostgreSQL's pool).
    let seenByLast: { inside: number; committed: number } | undefined;
    const move = (trx: Transaction<Database>, who: string, amount: number, reference?: string) =>
      appendLedgerEntry(trx, movement(who, amount, reference), new Date(), { requireCovered: amount < 0 });
    // Sent in one turn of the event loop: on SQLite they share one transaction and one commit.
    const outcomes = await Promise.allSettled([
      watched((trx) => move(trx, a, 5)),
      // Writes a credit first, then is refused: the credit must go with it.
      watched(async (trx) => {
        await move(trx, c, 100);
        return move(trx, b, -1000);
      }),
      watched((trx) => move(trx, b, 7, `writer-test:${b}`)),
      // The same reference again: refused by the unique index (on SQLite after its twin in the
      // same group; on PostgreSQL whichever commits second).
      watched((trx) => move(trx, b, 7, `writer-test:${b}`)),
      watched(async (trx) => {
        const inside = await trx
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('participant_id', '=', a)
          .executeTakeFirstOrThrow();
        seenByLast = { inside: Number(inside.n), committed: await entries(a) };
        return move(trx, d, 11);
      }),
    ]);
    const statuses = outcomes.map((o) => o.status);
    expect([statuses[0], statuses[1], statuses[4]]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([statuses[2], statuses[3]].sort()).toEqual(['fulfilled', 'rejected']);
    if (dialect === 'sqlite') expect(statuses[2]).toBe('fulfilled');
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect([await balance(a), await balance(b), await balance(c), await balance(d)]).toEqual([5, 7, null, 11]);
    expect([await entries(a), await entries(b), await entries(c), await entries(d)]).toEqual([1, 1, 0, 1]);
    // SQLite: the first posting is in the last one's transaction and not yet committed, so the
    // five share one commit. PostgreSQL: a transaction each (the first is seen only once committed).
    if (dialect === 'sqlite') expect(seenByLast).toEqual({ inside: 1, committed: 0 });
    else expect(seenByLast?.inside).toBeLessThanOrEqual(seenByLast?.committed ?? 0);
    await expectLedgerMatchesBalances(database.db);
  });

  it('fails the whole group of a commit that fails, and posts nothing of it', async () => {
    const [a, b] = participants(2) as [string, string];
    const outcomes = await Promise.allSettled([
      post(a, 5),
      writeToLedger(database.db, async (trx) => {
        await appendLedgerEntry(trx, movement(b, 3));
        // No such parent: accepted now, refused by the COMMIT.
        await sql`insert into writer_test_child (id, parent_id) values (1, 42)`.execute(trx);
      }),
      post(b, 8),
    ]);
    if (dialect === 'sqlite') {
      // One commit for the three: none of them is acknowledged, none is written.
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const o of outcomes) expect(String((o as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/i);
      expect([await balance(a), await balance(b)]).toEqual([null, null]);
    } else {
      // A commit per posting: only the failing one's fails.
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect([await balance(a), await balance(b)]).toEqual([5, 8]);
    }
    const orphans = await sql<{ n: number | string }>`select count(*) as n from writer_test_child`.execute(database.db);
    expect(Number(orphans.rows[0]?.n)).toBe(0);
    // The writer goes on after a failed commit.
    await post(a, 2);
    expect(await balance(a)).toBe(dialect === 'sqlite' ? 2 : 7);
    await expectLedgerMatchesBalances(database.db);
  });

  it('answers a posting only after its commit: what it returns is already there to read', async () => {
    const [a] = participants(1) as [string];
    const ids = await Promise.all(Array.from({ length: 20 }, () => post(a, 1)));
    // Read on another connection (SQLite's reader; the pool on PostgreSQL): committed data only.
    const found = await database.db.selectFrom('ledger_entries').select('id').where('id', 'in', ids).execute();
    expect(found).toHaveLength(20);
    expect(await balance(a)).toBe(20);
  });
});

describe.runIf(dialects.includes('sqlite'))('the ledger writer and a crash', () => {
  it('keeps every acknowledged posting when the process is killed under load', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      await seedDemo(database.db);
      await addGeneratedParticipants(database.db, CLIENT, 1);
      const participantId = `${CLIENT}-pt0000000`;
      if (database.config.dialect !== 'sqlite') throw new Error('a SQLite file was asked for');
      const path = database.config.path;
      const child = spawn(process.execPath, [join(import.meta.dirname, 'writer-crash-child.ts'), path, CLIENT, participantId], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const acknowledged: string[] = [];
      let buffered = '';
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject);
        child.on('exit', () => resolve());
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          for (const line of lines) if (/^[0-9a-f-]{36}$/.test(line)) acknowledged.push(line);
          // Killed while 16 posters keep groups open: some postings are surely in flight.
          if (acknowledged.length >= 2000 && !child.killed) child.kill('SIGKILL');
        });
      });
      expect(acknowledged.length).toBeGreaterThanOrEqual(2000);
      const after = createDatabase({ dialect: 'sqlite', path });
      try {
        const kept = new Set(
          (await after.selectFrom('ledger_entries').select('id').where('participant_id', '=', participantId).execute()).map((r) => r.id),
        );
        expect(acknowledged.filter((id) => !kept.has(id))).toEqual([]);
        await expectLedgerMatchesBalances(after);
      } finally {
        await after.destroy();
      }
    } finally {
      await database.drop();
    }
  }, 60_000);
});
