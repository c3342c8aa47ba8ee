import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase, dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import type { DatabaseConfig } from '../../config.ts';
import { expirePoints } from '../../modules/expiry/run.ts';
import { addExpiryClient, lotsOf, move, participant, setPolicy } from '../../modules/expiry/test-support.ts';
import type { NewLedgerEntry } from '../../modules/ledger/tables.ts';
import { createDatabase, type Db } from '../database.ts';
import { migrateTo, migrateToLatest } from '../migrate.ts';

/** A deterministic generator, so every run gives the same long history. */
function generator(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

describe.each(dialects)('migration 026 on the ledger of an existing database, %s', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  const a = participant('old', 0);
  const b = participant('old', 1);
  const entries: NewLedgerEntry[] = [];
  const entry = (participantId: string, amount: number, occurredAt: string): NewLedgerEntry => {
    const row: NewLedgerEntry = {
      id: randomUUID(),
      client_id: 'old',
      participant_id: participantId,
      occurred_at: occurredAt,
      description: 'Before lots',
      description_key: null,
      description_params: null,
      amount,
      kind: amount > 0 ? 'award' : 'redemption',
      reference: null,
      created_at: occurredAt,
    };
    entries.push(row);
    return row;
  };

  beforeAll(async () => {
    let config: DatabaseConfig;
    if (dialect === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'rewards-026-'));
      config = { dialect, path: join(dir, 'rewards.db') };
      drop = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const place = await createEmptyPostgresDatabase();
      config = { dialect, url: place.url };
      drop = place.drop;
    }
    db = createDatabase(config);
    await migrateTo(db, '025-points-expiry');
    await addExpiryClient(db, 'old', 3, { type: 'none' });
    // a: 100 and 50 earned, 120 spent, 30 earned, 20 spent.
    entry(a, 100, '2025-01-01T10:00:00.000Z');
    entry(a, 50, '2025-01-05T10:00:00.000Z');
    entry(a, -120, '2025-02-01T10:00:00.000Z');
    entry(a, 30, '2025-02-10T10:00:00.000Z');
    entry(a, -20, '2025-03-01T10:00:00.000Z');
    // b: a long history, never below zero, several entries a day.
    const random = generator(19);
    let balance = 0;
    for (let i = 0; i < 600; i += 1) {
      const spend = balance > 100 && random(3) === 0;
      const amount = spend ? -(1 + random(Math.min(balance, 400))) : 10 + random(90);
      balance += amount;
      entry(b, amount, new Date(Date.UTC(2025, 0, 1) + i * 4 * 3_600_000).toISOString());
    }
    await db.insertInto('ledger_entries').values(entries).execute();
    for (const id of [a, b]) {
      const sum = entries.filter((e) => e.participant_id === id).reduce((total, e) => total + e.amount, 0);
      await db.updateTable('participants').set({ balance: sum }).where('id', '=', id).execute();
    }
    await migrateToLatest(db);
  }, 120_000);
  afterAll(async () => {
    await db.destroy();
    await drop();
  });

  it('makes a lot per past credit, spent oldest first by the past debits, with the consumptions that say so', async () => {
    const [first, second, , third, fourth] = entries;
    expect((await lotsOf(db, a)).map((l) => [l.entry_id, l.earned_on, l.expires_on, Number(l.amount), Number(l.remaining)])).toEqual([
      [first!.id, '2025-01-01', null, 100, 0],
      [second!.id, '2025-01-05', null, 50, 10],
      [third!.id, '2025-02-10', null, 30, 30],
    ]);
    const consumed = await db
      .selectFrom('lot_consumptions')
      .select(['entry_id', 'lot_id', 'amount'])
      .where('entry_id', 'in', [entries[2]!.id, fourth!.id])
      .execute();
    expect(
      new Set(consumed.map((c) => `${c.entry_id === fourth!.id ? 'second debit' : 'first debit'} ${c.lot_id} ${Number(c.amount)}`)),
    ).toEqual(new Set([`first debit ${first!.id} 100`, `first debit ${second!.id} 20`, `second debit ${second!.id} 20`]));
  });

  it('leaves a long history exact: the open lots are the balance, every point explained', async () => {
    // b's remaining lots are the last credits, as a first-in first-out walk of the same history says.
    const credits = entries.filter((e) => e.participant_id === b && e.amount > 0);
    let spent = -entries.filter((e) => e.participant_id === b && e.amount < 0).reduce((t, e) => t + e.amount, 0);
    const expected = new Map<string, number>();
    for (const credit of [...credits].sort((x, y) => (x.occurred_at.slice(0, 10) + x.id < y.occurred_at.slice(0, 10) + y.id ? -1 : 1))) {
      const take = Math.min(spent, credit.amount);
      spent -= take;
      expected.set(credit.id, credit.amount - take);
    }
    const lots = await lotsOf(db, b);
    expect(lots).toHaveLength(credits.length);
    expect(new Map(lots.map((l) => [l.entry_id, Number(l.remaining)]))).toEqual(expected);
    await expectLedgerMatchesBalances(db);
  });

  it('so that a policy turned on later is exact: new points get their date, old ones stay undated', async () => {
    await setPolicy(db, 'old', { type: 'rolling', months: 1 });
    await move(db, 'old', a, 25, '2026-01-10T10:00:00.000Z');
    await expirePoints(db, { clientId: 'old', asOf: '2026-02-11', now: () => new Date('2026-03-01T00:00:00Z') });
    expect((await lotsOf(db, a)).map((l) => Number(l.remaining))).toEqual([0, 10, 30, 0]);
    await expectLedgerMatchesBalances(db);
  });
});
