import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { ledgerSum } from '../../modules/ledger/store.ts';
import { DEMO_CLIENT_ID, seedDemo } from './demo.ts';

describe.each(dialects)('the demo program on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  const participant = (username: string) =>
    database.db.selectFrom('participants').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  it('has the six participants of the README with account numbers 1000001 to 1000006', async () => {
    const rows = await database.db.selectFrom('participants').select(['username', 'account_number', 'email']).orderBy('account_number').execute();
    expect(rows.map((r) => `${r.account_number} ${r.username} ${r.email}`)).toEqual([
      '1000001 demo demo@example.com',
      '1000002 spent spent@example.com',
      '1000003 newbie newbie@example.com',
      '1000004 pending pending@example.com',
      '1000005 inactive inactive@example.com',
      '1000006 merch merch@example.com',
    ]);
  });

  it("keeps every cached balance equal to the ledger's sum", async () => {
    const rows = await database.db.selectFrom('participants').select(['id', 'username', 'balance']).execute();
    for (const row of rows) {
      expect([row.username, await ledgerSum(database.db, DEMO_CLIENT_ID, row.id)]).toEqual([row.username, row.balance]);
    }
  });

  it("gives Dana 12,500 points from at least 40 entries over at least six months, earned and spent", async () => {
    const dana = await participant('demo');
    expect(dana.balance).toBe(12_500);
    const entries = await database.db.selectFrom('ledger_entries').select(['occurred_at', 'amount']).where('participant_id', '=', dana.id).orderBy('occurred_at').execute();
    expect(entries.length).toBeGreaterThanOrEqual(40);
    const first = Date.parse(entries[0]?.occurred_at ?? '');
    const last = Date.parse(entries.at(-1)?.occurred_at ?? '');
    expect(last - first).toBeGreaterThanOrEqual(182 * 86_400_000);
    expect(entries.some((e) => e.amount < 0)).toBe(true);
    expect(entries.some((e) => e.amount > 0)).toBe(true);
  });

  it('leaves Sam at zero after awards and redemptions, and Nina with no history', async () => {
    const sam = await participant('spent');
    expect(sam.balance).toBe(0);
    const samEntries = await database.db.selectFrom('ledger_entries').select('amount').where('participant_id', '=', sam.id).execute();
    expect(samEntries.some((e) => e.amount < 0) && samEntries.some((e) => e.amount > 0)).toBe(true);
    const nina = await participant('newbie');
    expect(nina.balance).toBeNull();
  });

  it('stores passwords as argon2id hashes only', async () => {
    const rows = await database.db.selectFrom('participants').select('password_hash').execute();
    for (const row of rows) expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });
});
