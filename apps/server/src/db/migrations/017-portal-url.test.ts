import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { seedOtherClient } from '../../../test/other-client.ts';
import { seedDemo } from '../seed/demo.ts';
import { down, up } from './017-portal-url.ts';

/** Clients made before migration 017 get a portal address from their hosts (docs/decisions/041). */
describe.each(dialects)('migration 017, the portal address, on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    await seedOtherClient(database.db);
    // A public address sorts before the public name; the name wins.
    await database.db.insertInto('client_hosts').values({ hostname: '10.0.0.9', client_id: 'globex' }).execute();
    // Back to the schema before 017, with rows made then: the column and its values go.
    await down(database.db as unknown as Kysely<unknown>);
  });
  afterAll(() => database.drop());

  it('gives each client https and its first public host name, or a local name on the default port over http', async () => {
    await up(database.db as unknown as Kysely<unknown>);
    const rows = await database.db.selectFrom('clients').select(['id', 'portal_url']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'acme', portal_url: 'http://localhost:3000' },
      { id: 'globex', portal_url: 'https://rewards.globex.example' },
      { id: 'nimbus', portal_url: 'http://nimbus.localhost:3000' },
    ]);
  });
});
