import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { insertOtsCodes, newOtsCodeRows } from '../../modules/ots/store.ts';
import { seedDemo } from '../seed/demo.ts';
import { down, up } from './027-ots-batches.ts';

/** Print runs made before migration 027 get their name's claim, so a new run cannot take it (docs/decisions/063). */
describe.each(dialects)('migration 027, the batches, on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    // Back to the schema before 027, with runs made then (one of two times, one of none).
    await down(database.db as unknown as Kysely<unknown>);
    await insertOtsCodes(
      database.db,
      newOtsCodeRows('acme', [{ code: 'OLD-RUN-0001', value: 5, batch: 'old run' }], new Date('2026-01-02T00:00:00.000Z')),
    );
    await insertOtsCodes(
      database.db,
      newOtsCodeRows(
        'acme',
        [
          { code: 'OLD-RUN-0002', value: 5, batch: 'old run' },
          { code: 'NO-BATCH-0001', value: 5 },
        ],
        new Date('2026-01-01T00:00:00.000Z'),
      ),
    );
  });
  afterAll(() => database.drop());

  it('claims every existing run once, at its first code’s time, and none for codes without a batch', async () => {
    await up(database.db as unknown as Kysely<unknown>);
    const rows = await database.db.selectFrom('ots_batches').selectAll().orderBy('name').execute();
    expect(rows).toEqual([
      { client_id: 'acme', name: 'Demo 2026', created_at: expect.any(String) },
      { client_id: 'acme', name: 'old run', created_at: '2026-01-01T00:00:00.000Z' },
    ]);
  });
});
