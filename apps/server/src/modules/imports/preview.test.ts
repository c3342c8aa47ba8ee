import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob } from '@rewards/contract/console-imports';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { insertJob } from '../jobs/service.ts';
import { previewImportJob, type PreviewEnd } from './preview.ts';
import { importRunner, startImportJobs } from './run.ts';
import {
  STAGED_IMPORT_MAX_AGE_MS,
  confirmImport,
  discardImport,
  discardStaleImports,
  readImport,
  stageImport,
  type ImportActor,
} from './service.ts';
import { insertStaged } from './store.ts';
import { jobRows, pointsFile, postedEntries, POINTS_HEADER as HEADER } from './test-support.ts';

const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };

/** `count` points lines; every fifth names nobody (a reject), so a file of 30 has 6 rejects at lines 6, 11, … */
const pointsLines = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${i % 5 === 4 ? 'nobody' : 'demo'},${i + 1},2026-11-01,Nov,${prefix}-${i}`);

/** Decision 064, amended 2026-11-26 (2): the preview is a phase of the job, computed by whoever holds its lease. */
describe.each(dialects)('the import preview as a phase of the job on %s', (dialect) => {
  let database: TestDatabase;
  const upload = (file: string, lines: string[]) => stageImport(database.db, actor, 'acme', 'points', file, pointsFile(lines));
  const read = async (id: string) => (await readImport(database.db, 'acme', id))!;
  const rows = (table: 'import_lines' | 'import_rejects', jobId: string) => jobRows(database.db, table, jobId);
  const posted = (prefix: string) => postedEntries(database.db, `${prefix}-`);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('answers the upload before the preview exists; a confirm meanwhile is refused; the jobs loop computes it', async () => {
    const job = await upload('loop.csv', pointsLines('pl', 10));
    expect(job).toMatchObject({ status: 'previewing', lines: 10, done: 0, preview: null, rejects: [] });
    expect(await rows('import_lines', job.id)).toBe(10);
    expect(await rows('import_rejects', job.id)).toBe(0);
    await expect(confirmImport(database.db, actor, 'acme', job.id, 'too early')).rejects.toMatchObject({
      statusCode: 409,
      message: `This import ("loop.csv", job ${job.id}) is still being previewed: confirm it once its preview is ready; nothing was started`,
    });
    expect(await database.db.selectFrom('job_slots').select('job_id').where('job_id', '=', job.id).execute()).toEqual([]);

    const warnings: string[] = [];
    const loop = startImportJobs(database.db, { warn: (m) => warnings.push(m) }, { everyMs: 60_000 });
    let ready: ImportJob;
    try {
      const deadline = Date.now() + 20_000;
      while ((ready = await read(job.id)).status === 'previewing') {
        if (Date.now() > deadline) throw new Error('the loop did not preview the job');
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await loop.stop();
    }
    expect(ready).toMatchObject({ status: 'staged', lines: 10, done: 0 });
    expect(ready.preview).toEqual({ added: 8, updated: 0, unchanged: 0, rejected: 2, unknownUsernames: 2, pointsIn: 40, pointsOut: 0 });
    expect(ready.rejects).toEqual([
      { line: 6, reason: 'unknown username nobody' },
      { line: 11, reason: 'unknown username nobody' },
    ]);
    expect(warnings).toEqual([]);
    expect(await posted('pl')).toBe(0);
    // Now it can be confirmed.
    expect((await confirmImport(database.db, actor, 'acme', job.id, 'November')).status).toBe('running');
  });

  it('shows its progress while previewing, and is taken over from the start once the lease of a holder that died lapsed: rejects replaced, not doubled', async () => {
    const job = await upload('crash.csv', pointsLines('pc', 30));
    let clock = Date.parse('2026-11-26T12:00:00.000Z');
    const now = () => new Date(clock);
    const crash = new Error('killed');
    const seen: Array<Pick<ImportJob, 'status' | 'done' | 'preview'>> = [];
    // The first process dies after its first batch of 10: its lease is never ended.
    await expect(
      previewImportJob(database.db, job.id, {
        batchSize: 10,
        now,
        holder: 'first',
        afterBatch: async () => {
          const { status, done, preview } = await read(job.id);
          seen.push({ status, done, preview });
          throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(seen).toEqual([{ status: 'previewing', done: 10, preview: null }]);
    expect(await rows('import_rejects', job.id)).toBe(2);
    // Something the dead holder wrote that a fresh preview would not (the state had changed): it must not survive.
    await database.db.insertInto('import_rejects').values({ job_id: job.id, phase: 'preview', line: 999, reason: 'stale' }).execute();

    // Another process: refused while the lease holds (two never compute one preview at once), takes over once it lapsed.
    expect(await previewImportJob(database.db, job.id, { batchSize: 10, now, holder: 'second' })).toBe('busy');
    await expect(confirmImport(database.db, actor, 'acme', job.id, 'not yet')).rejects.toMatchObject({ statusCode: 409 });
    clock += 3 * 60_000;
    const batches: number[] = [];
    expect(
      await previewImportJob(database.db, job.id, { batchSize: 10, now, holder: 'second', afterBatch: (done) => void batches.push(done) }),
    ).toBe('staged');
    // From the first line, once.
    expect(batches).toEqual([10, 20, 30]);
    const ready = await read(job.id);
    expect(ready).toMatchObject({ status: 'staged', done: 0, preview: { added: 24, rejected: 6, unknownUsernames: 6 } });
    expect(ready.rejects.map((r) => r.line)).toEqual([6, 11, 16, 21, 26, 31]);
    expect(await rows('import_rejects', job.id)).toBe(6);
    // The first holder, back from the dead, finds nothing to do.
    expect(await previewImportJob(database.db, job.id, { now, holder: 'first' })).toBe('not-previewing');
    expect(await rows('import_rejects', job.id)).toBe(6);
  });

  it('stops between batches when its process shuts down, leaving the job previewing and the lease free for the restarted one', async () => {
    const job = await upload('restart.csv', pointsLines('ps', 30));
    let stopping: Promise<void> | undefined;
    const runner = importRunner(
      database.db,
      { warn: (m) => expect.fail(m) },
      {
        batchSize: 10,
        // SIGTERM after the first batch: main.ts stops the loop (not awaited here, the stop waits for this very preview).
        afterBatch: () => void (stopping ??= runner.stop()),
      },
    );
    runner.kick(job.id);
    const deadline = Date.now() + 20_000;
    while (!stopping) {
      if (Date.now() > deadline) throw new Error('the preview did not start');
      await new Promise((resolve) => setImmediate(resolve));
    }
    await stopping;
    expect(await read(job.id)).toMatchObject({ status: 'previewing', done: 10, preview: null });
    // The restarted process takes it at once (no lease to wait out) and computes it whole.
    expect(await previewImportJob(database.db, job.id, { holder: 'restarted' })).toBe('staged');
    expect(await read(job.id)).toMatchObject({ status: 'staged', preview: { added: 24, rejected: 6 } });
    expect(await rows('import_rejects', job.id)).toBe(6);
  });

  it('of two holders starting the same preview at once, one computes it', async () => {
    const job = await upload('pair.csv', pointsLines('pp', 30));
    const batches = { a: 0, b: 0 };
    const ends: PreviewEnd[] = await Promise.all(
      (['a', 'b'] as const).map((holder) =>
        previewImportJob(database.db, job.id, { batchSize: 10, holder, afterBatch: () => void (batches[holder] += 1) }),
      ),
    );
    expect(ends.filter((e) => e === 'staged')).toHaveLength(1);
    expect(ends.filter((e) => e !== 'staged')[0]).toMatch(/^(busy|not-previewing)$/);
    expect(batches.a + batches.b).toBe(3);
    expect(await read(job.id)).toMatchObject({ status: 'staged', preview: { added: 24, rejected: 6 } });
    expect(await rows('import_rejects', job.id)).toBe(6);
  });

  it('may be discarded while previewing: the preview stops, and no line nor reject is left', async () => {
    const job = await upload('wrong.csv', pointsLines('pd', 30));
    let discarded: ImportJob | undefined;
    const end = await previewImportJob(database.db, job.id, {
      batchSize: 10,
      afterBatch: async (done) => {
        // The program manager discards it after the first batch, as the preview goes on.
        if (done === 10) discarded = await discardImport(database.db, actor, 'acme', job.id, 'wrong file');
      },
    });
    expect(end).toBe('gone');
    expect(discarded).toMatchObject({ status: 'discarded', preview: null, lines: 30 });
    expect(await read(job.id)).toMatchObject({ status: 'discarded', preview: null, rejects: [] });
    expect(await rows('import_lines', job.id)).toBe(0);
    expect(await rows('import_rejects', job.id)).toBe(0);
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'imports.discard')
      .where('subject', '=', 'wrong.csv')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ job: job.id, lines: 30, reason: 'wrong file' });
    await expect(confirmImport(database.db, actor, 'acme', job.id, 'after all')).rejects.toMatchObject({ statusCode: 409 });
    expect(await posted('pd')).toBe(0);
  });

  it('of a preview finishing and a discard at once, the discard holds whichever comes first, leaving nothing behind', async () => {
    for (let i = 0; i < 5; i += 1) {
      const job = await upload(`race-${i}.csv`, pointsLines(`pr${i}`, 30));
      const [previewed, discarded] = await Promise.allSettled([
        previewImportJob(database.db, job.id, { batchSize: 10 }),
        discardImport(database.db, actor, 'acme', job.id, 'race'),
      ]);
      // Previewing and staged are both discardable: the discard always wins, the preview stops or had just finished.
      expect(discarded.status).toBe('fulfilled');
      expect(previewed).toMatchObject({ status: 'fulfilled', value: expect.stringMatching(/^(staged|gone|not-previewing)$/) });
      expect((await read(job.id)).status).toBe('discarded');
      expect(await rows('import_lines', job.id)).toBe(0);
      expect(await rows('import_rejects', job.id)).toBe(0);
    }
  });

  it('is discarded by the clean-up once it made no progress for a day (a preview that keeps failing), not before', async () => {
    const at = Date.parse('2026-11-20T08:00:00.000Z');
    const id = 'stuck-preview';
    await insertJob(database.db, {
      id,
      client_id: 'acme',
      kind: 'points',
      status: 'previewing',
      file_name: 'stuck.csv',
      created_by: actor.name,
      created_at: new Date(at).toISOString(),
      updated_at: new Date(at).toISOString(),
      params: JSON.stringify({ header: HEADER.split(',') }),
      total: 1,
      done: 0,
      cursor: 0,
    });
    await insertStaged(database.db, [
      { job_id: id, line: 2, fields: '["demo","1","2026-11-01","x","ps-1"]', problem: null, key: 'ps-1', alt_key: null },
    ]);
    const status = async () =>
      (await database.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    await discardStaleImports(database.db, new Date(at + STAGED_IMPORT_MAX_AGE_MS - 1));
    expect(await status()).toBe('previewing');
    await discardStaleImports(database.db, new Date(at + STAGED_IMPORT_MAX_AGE_MS + 1));
    expect(await status()).toBe('discarded');
    expect(await rows('import_lines', id)).toBe(0);
  });
});
