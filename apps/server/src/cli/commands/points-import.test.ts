import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { requireClient } from '../cli-context.ts';
import { importPoints } from './points-import.ts';

// In-process, where the CLI tests cannot look: the connection the import leaves behind.
describe.each(dialects)('importPoints on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const pragma = async (name: string) => Number(Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0]);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    dir = mkdtempSync(join(tmpdir(), 'points-import-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('posts each line once in small batches, and gives the connection back as it found it', async () => {
    const before =
      dialect === 'sqlite' ? [await pragma('foreign_keys'), await pragma('wal_autocheckpoint'), await pragma('cache_size')] : [];
    const file = join(dir, 'april.csv');
    writeFileSync(
      file,
      [
        'username,points,date,description,external_id',
        'demo,30,2026-04-01,April,a-1',
        'newbie,20,2026-04-01,April,a-2',
        'demo,-10,2026-04-02,Fix,a-3',
        'nobody,5,2026-04-02,x,a-4',
        'newbie,-1000000,2026-04-03,Too much,a-5',
      ].join('\n'),
    );
    const client = await requireClient(database.db, 'acme');
    const run = () => importPoints(database.db, client, file, statSync(file).size, { batchSize: 2, operator: 'test' });
    expect(await run()).toMatchObject({ lines: 5, added: 3, unchanged: 0, rejected: 2 });
    expect(await run()).toMatchObject({ lines: 5, added: 0, unchanged: 3, rejected: 2 });
    if (dialect === 'sqlite') {
      expect([await pragma('foreign_keys'), await pragma('wal_autocheckpoint'), await pragma('cache_size')]).toEqual(before);
      expect(before[0]).toBe(1);
    }
    await expectLedgerMatchesBalances(database.db);
  });
});
