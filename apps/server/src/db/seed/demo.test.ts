import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { ledgerSum } from '../../modules/ledger/store.ts';
import { DEMO_CLIENT_ID, seedDemo } from './demo.ts';
import { NEIGHBOUR_CLIENT_ID, NIMBUS_PENDING } from './demo-neighbour.ts';

describe.each(dialects)('the demo program on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  const participant = (username: string) =>
    database.db
      .selectFrom('participants')
      .selectAll()
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('username', '=', username)
      .executeTakeFirstOrThrow();

  it('has the eight participants of the README with account numbers 1000001 to 1000008', async () => {
    const rows = await database.db
      .selectFrom('participants')
      .select(['username', 'account_number', 'email'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .orderBy('account_number')
      .execute();
    expect(rows.map((r) => `${r.account_number} ${r.username} ${r.email}`)).toEqual([
      '1000001 demo demo@example.com',
      '1000002 spent spent@example.com',
      '1000003 newbie newbie@example.com',
      '1000004 pending pending@example.com',
      '1000005 inactive inactive@example.com',
      '1000006 merch merch@example.com',
      '1000007 bigspender bigspender@example.com',
      '1000008 waiting waiting@example.com',
    ]);
  });

  it("keeps every cached balance equal to the ledger's sum, in both demo programs", async () => {
    const rows = await database.db.selectFrom('participants').select(['id', 'client_id', 'username', 'balance']).execute();
    for (const row of rows) {
      expect([row.username, await ledgerSum(database.db, row.client_id, row.id)]).toEqual([row.username, row.balance]);
    }
  });

  it('gives Dana 12,500 points from at least 40 entries over at least six months, earned and spent', async () => {
    const dana = await participant('demo');
    expect(dana.balance).toBe(12_500);
    const entries = await database.db
      .selectFrom('ledger_entries')
      .select(['occurred_at', 'amount'])
      .where('participant_id', '=', dana.id)
      .orderBy('occurred_at')
      .execute();
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

  it('gives Bea Bigspender 10,000 entries over about three years, never below zero, her balance their sum', async () => {
    const bea = await participant('bigspender');
    expect(bea).toMatchObject({
      first_name: 'Bea',
      last_name: 'Bigspender',
      status: 'active',
      locale: 'en-US',
      offers_merchandise: 1,
      offers_experiences: 1,
      ots_enabled: 1,
    });
    const entries = await database.db
      .selectFrom('ledger_entries')
      .select(['occurred_at', 'amount', 'description_key'])
      .where('participant_id', '=', bea.id)
      .orderBy('occurred_at')
      .execute();
    expect(entries).toHaveLength(10_000);
    expect(bea.balance).toBe(await ledgerSum(database.db, DEMO_CLIENT_ID, bea.id));
    let running = 0;
    for (const entry of entries) {
      running += entry.amount;
      expect(running).toBeGreaterThanOrEqual(0);
    }
    expect(entries.some((e) => e.amount < 0)).toBe(true);
    expect(entries.every((e) => e.description_key?.startsWith('ledger.'))).toBe(true);
    const span = Date.parse(entries.at(-1)?.occurred_at ?? '') - Date.parse(entries[0]?.occurred_at ?? '');
    expect(span).toBeGreaterThan(2.9 * 365 * 86_400_000);
    const programs = await database.db
      .selectFrom('participant_programs')
      .select('program_name')
      .where('participant_id', '=', bea.id)
      .execute();
    expect(programs.map((p) => p.program_name)).toEqual(['Sales Incentive 2026']);
  });

  it('gives every demo entry a translation key, so histories read in every language', async () => {
    // An event's credit and a release read in the rules' own words, in the client's language (decisions 097, 098).
    const unkeyed = await database.db
      .selectFrom('ledger_entries')
      .select('description')
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('description_key', 'is', null)
      .where((eb) =>
        eb.or([eb('reference', 'is', null), eb.and([eb('reference', 'not like', 'event:%'), eb('reference', 'not like', 'release:%')])]),
      )
      .execute();
    expect(unkeyed).toEqual([]);
  });

  it('stores passwords as argon2id hashes only', async () => {
    const rows = await database.db.selectFrom('participants').select('password_hash').execute();
    for (const row of rows) expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('has a second program, Nimbus Miles, on its own hosts, in French first, with its own "demo"', async () => {
    const hosts = await database.db
      .selectFrom('client_hosts')
      .select('hostname')
      .where('client_id', '=', NEIGHBOUR_CLIENT_ID)
      .orderBy('hostname')
      .execute();
    expect(hosts.map((h) => h.hostname)).toEqual(['127.0.0.2', 'nimbus.localhost']);
    const client = await database.db
      .selectFrom('clients')
      .select(['name', 'default_locale', 'brand_color'])
      .where('id', '=', NEIGHBOUR_CLIENT_ID)
      .executeTakeFirstOrThrow();
    expect(client).toEqual({ name: 'Nimbus Miles', default_locale: 'fr-FR', brand_color: '#0e7490' });
    const demos = await database.db
      .selectFrom('participants')
      .select(['client_id', 'first_name', 'balance'])
      .where('username', '=', 'demo')
      .orderBy('client_id')
      .execute();
    expect(demos).toEqual([
      { client_id: DEMO_CLIENT_ID, first_name: 'Dana', balance: 12_500 },
      { client_id: NEIGHBOUR_CLIENT_ID, first_name: 'Noémie', balance: 3_250 },
    ]);
  });

  it('has, in Nimbus, a participant to activate with account number and date of birth', async () => {
    const client = await database.db
      .selectFrom('clients')
      .select('activation_fields')
      .where('id', '=', NEIGHBOUR_CLIENT_ID)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(client.activation_fields)).toEqual(['accountNumber', 'dateOfBirth']);
    const escale = await database.db
      .selectFrom('participants')
      .select(['username', 'account_number', 'date_of_birth', 'status'])
      .where('client_id', '=', NEIGHBOUR_CLIENT_ID)
      .where('date_of_birth', 'is not', null)
      .execute();
    expect(escale).toEqual([
      {
        username: NIMBUS_PENDING.username,
        account_number: NIMBUS_PENDING.accountNumber,
        date_of_birth: NIMBUS_PENDING.dateOfBirth,
        status: 'pending',
      },
    ]);
  });
});
