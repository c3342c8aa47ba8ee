import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { previewImportJob } from './preview.ts';
import { runImportJob } from './run.ts';
import { confirmImport, discardImport, readImport, stageImport, type ImportActor } from './service.ts';
import { deleteStagedLines, insertStaged } from './store.ts';
import { jobRows, pointsFile, postedEntries } from './test-support.ts';

const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };

/** Job ids sorting before and after any UUID: staged lines of other jobs on both sides of the one that runs. */
const BEFORE = '00000000-0000-4000-8000-000000000000';
const AFTER = 'ffffffff-ffff-4fff-bfff-ffffffffffff';

/**
 * Docs/decisions/091, amended 2026-11-28, night: at the end of a run or by a discard a job's staged
 * lines go; on SQLite the table is emptied at once when they are all it holds, and only then.
 * Another job's staged lines, whichever side of the job's id they sort, stay and run as staged.
 */
describe.each(dialects)('a job’s staged lines deleted, at the end of its run or by a discard, on %s', (dialect) => {
  let database: TestDatabase;
  const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `demo,${i + 1},2026-11-01,Nov,${prefix}-${i}`);
  const all = async () =>
    Number(
      (
        await database.db
          .selectFrom('import_lines')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const importFile = async (file: string, prefix: string, count: number) => {
    const job = await stageImport(database.db, actor, 'acme', 'points', file, pointsFile(lines(prefix, count)));
    expect(await previewImportJob(database.db, job.id)).toBe('staged');
    return job.id;
  };
  const run = async (jobId: string) => {
    await confirmImport(database.db, actor, 'acme', jobId, 'end of run test');
    expect(await runImportJob(database.db, jobId, { batchSize: 4 })).toBe('done');
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('keeps the lines another job staged, on either side of its id, and empties the staging once it is the only job there', async () => {
    const other = await importFile('other.csv', 'eo', 6);
    const stray = (jobId: string) =>
      [1, 2, 3].map((line) => ({ job_id: jobId, line, fields: '[]', problem: null, key: `k${line}`, alt_key: null }));
    await insertStaged(database.db, [...stray(BEFORE), ...stray(AFTER)]);
    const first = await importFile('first.csv', 'ef', 10);
    expect(await all()).toBe(6 + 3 + 3 + 10);

    await run(first);
    expect(await jobRows(database.db, 'import_lines', first)).toBe(0);
    expect([
      await jobRows(database.db, 'import_lines', other),
      await jobRows(database.db, 'import_lines', BEFORE),
      await jobRows(database.db, 'import_lines', AFTER),
    ]).toEqual([6, 3, 3]);
    expect(await postedEntries(database.db, 'ef-')).toBe(10);

    // One side left: still not emptied whole.
    expect(await deleteStagedLines(database.db, BEFORE)).toBe(true);
    expect(await all()).toBe(6 + 3);
    expect(await deleteStagedLines(database.db, AFTER)).toBe(true);
    expect(await all()).toBe(6);

    // The other job, staged before the first ran, runs as it was previewed, and is then the staging's only job.
    await run(other);
    expect((await readImport(database.db, 'acme', other))?.result).toMatchObject({ added: 6, rejected: 0 });
    expect(await postedEntries(database.db, 'eo-')).toBe(6);
    expect(await all()).toBe(0);
    // Nothing left to delete: said so, on both paths.
    expect(await deleteStagedLines(database.db, other)).toBe(false);
  });

  it('a discard keeps the lines another job staged, and empties the staging when the job is alone in it', async () => {
    const kept = await importFile('kept.csv', 'dk', 5);
    const dropped = await importFile('dropped.csv', 'dd', 7);
    expect(await all()).toBe(12);
    expect((await discardImport(database.db, actor, 'acme', dropped, 'wrong file')).status).toBe('discarded');
    expect([await jobRows(database.db, 'import_lines', dropped), await jobRows(database.db, 'import_lines', kept)]).toEqual([0, 5]);
    expect((await discardImport(database.db, actor, 'acme', kept, 'wrong too')).status).toBe('discarded');
    expect(await all()).toBe(0);
    expect([await postedEntries(database.db, 'dk-'), await postedEntries(database.db, 'dd-')]).toEqual([0, 0]);
  });
});
