import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { previewImportJob } from './preview.ts';
import { runImportJob } from './run.ts';
import { confirmImport, stageImport } from './service.ts';
import { JOB_CACHE_KB, JOB_CHECKPOINT_PAGES, withJobTuning } from './sqlite-tuning.ts';

/** A promise and the function that settles it: the test says when a "job" ends, no timers. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe.each(dialects)('the import job’s SQLite settings on %s', (dialect) => {
  let database: TestDatabase;
  const settings = async () =>
    dialect === 'sqlite'
      ? Promise.all(
          ['cache_size', 'wal_autocheckpoint'].map(async (name) =>
            Number(Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0]),
          ),
        )
      : [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('holds the command’s cache and checkpoint interval while any job runs, and puts back what the connection had after the last', async () => {
    const before = await settings();
    const tuned = dialect === 'sqlite' ? [-JOB_CACHE_KB, JOB_CHECKPOINT_PAGES] : [];
    const first = gate();
    const second = gate();
    const inOne = gate();
    const inTwo = gate();
    const seen: number[][] = [];
    const one = withJobTuning(database.db, async () => {
      seen.push(await settings());
      inOne.open();
      await first.wait;
      return 'one';
    });
    const two = withJobTuning(database.db, async () => {
      seen.push(await settings());
      inTwo.open();
      await second.wait;
      // The first job has ended: the settings stay while this one runs.
      seen.push(await settings());
      return 'two';
    });
    await Promise.all([inOne.wait, inTwo.wait]);
    first.open();
    expect(await one).toBe('one');
    second.open();
    expect(await two).toBe('two');
    expect(seen).toEqual([tuned, tuned, tuned]);
    expect(await settings()).toEqual(before);
    // A job that fails gives the settings back too.
    await expect(
      withJobTuning(database.db, async () => {
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    expect(await settings()).toEqual(before);
  });

  it('a whole import job leaves the connection as it found it', async () => {
    const before = await settings();
    const actor = { name: 'pm@acme.test', kind: 'staff' as const, origin: 'test' };
    async function* body() {
      yield 'username,points,date,description,external_id\ndemo,5,2026-08-01,August,tuning-1\n';
    }
    const job = await stageImport(database.db, actor, 'acme', 'points', 'august.csv', body());
    expect(await previewImportJob(database.db, job.id)).toBe('staged');
    await confirmImport(database.db, actor, 'acme', job.id, 'tuning test');
    expect(await runImportJob(database.db, job.id)).toBe('done');
    expect(await settings()).toEqual(before);
  });
});
