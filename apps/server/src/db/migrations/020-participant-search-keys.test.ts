import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase, dialects } from '../../../test/databases.ts';
import type { DatabaseConfig } from '../../config.ts';
import { searchKeyColumns } from '../../modules/participants/search-keys.ts';
import { searchParticipants } from '../../modules/participants/search.ts';
import { createDatabase, type Db } from '../database.ts';
import { migrateTo, migrateToLatest } from '../migrate.ts';
import type { NewParticipant } from '../../modules/participants/tables.ts';

/** More than two of the migration's batches of 1,000. */
const PARTICIPANTS = 2_345;

describe.each(dialects)('migration 020 on the participants of an existing database, %s', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    let config: DatabaseConfig;
    if (dialect === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'rewards-020-'));
      config = { dialect, path: join(dir, 'rewards.db') };
      drop = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const place = await createEmptyPostgresDatabase();
      config = { dialect, url: place.url };
      drop = place.drop;
    }
    db = createDatabase(config);
    await migrateTo(db, '019-catalog-punchouts');
    const now = new Date().toISOString();
    await db
      .insertInto('clients')
      .values({
        id: 'before',
        name: 'Before Search',
        portal_url: 'https://before.example',
        default_locale: 'en-US',
        logo: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        brand_color: '#000000',
        privacy_notice_version: 0,
        sso_type: 'login_only',
        sso_logout_type: 'login',
        site_name: 'Before',
        site_url: 'https://before.example',
        password_rules: JSON.stringify({
          minLength: 8,
          maxLength: 64,
          requireUpper: false,
          requireLower: false,
          requireDigit: false,
          requireSymbol: false,
          notUsername: false,
        }),
        activation_fields: '[]',
        countries: '[]',
        created_at: now,
      })
      .execute();
    const names = [
      ['Jörg', 'Müller'],
      ['Zoë', 'Ångström'],
      ['Dana', 'Demo'],
    ] as const;
    const rows = Array.from({ length: PARTICIPANTS }, (_, i) => {
      const [first, last] = names[i % names.length]!;
      return {
        id: `p-${String(i).padStart(5, '0')}`,
        client_id: 'before',
        username: `User.${i}`,
        username_key: `user.${i}`,
        email: `User.${i}@Before.example`,
        first_name: first,
        last_name: last,
        password_hash: '!',
        status: 'active',
        locale: 'en-US',
        account_number: `A${i}`,
        offers_merchandise: 1,
        offers_experiences: 1,
        ots_enabled: 1,
        privacy_ack_version: 0,
        date_of_birth: null,
        balance: null,
        created_at: now,
      };
    });
    // Rows as written before migration 020: the search columns do not exist yet.
    for (let from = 0; from < rows.length; from += 500)
      await db
        .insertInto('participants')
        .values(rows.slice(from, from + 500) as unknown as NewParticipant[])
        .execute();
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    await drop();
  });

  it("fills every existing participant's keys with the function every writer uses", async () => {
    const rows = await db.selectFrom('participants').selectAll().execute();
    expect(rows).toHaveLength(PARTICIPANTS);
    for (const row of rows) expect(row).toMatchObject(searchKeyColumns(row));
    expect(rows.find((row) => row.id === 'p-00001')).toMatchObject({
      search_first_last: 'zoe angstrom',
      search_last_first: 'angstrom zoe',
      search_email: 'user.1@before.example',
      search_username: 'user.1',
      search_account: 'a1',
    });
  });

  it('makes them searchable at once', async () => {
    const found = await searchParticipants(db, { clientIds: ['before'], query: 'MULLER JO', page: { limit: 100 } });
    expect(found.participants).toHaveLength(100);
    expect(found.participants.every((p) => p.lastName === 'Müller')).toBe(true);
    expect((await searchParticipants(db, { clientIds: ['before'], query: 'user.2344@' })).participants.map((p) => p.id)).toEqual([
      'p-02344',
    ]);
  });
});
