import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { insertJob } from '../jobs/service.ts';
import { insertStaged } from './store.ts';
import { jobRows, pointsFile, postedEntries } from './test-support.ts';
import { previewImportJob } from './preview.ts';
import { runImportJob, startImportJobs } from './run.ts';
import {
  STAGED_IMPORT_MAX_AGE_MS,
  confirmImport,
  discardImport,
  discardStaleImports,
  readImport,
  stageImport,
  type ImportActor,
} from './service.ts';

const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };

/** Issue 20 §2, decision 064 (amended): a staged import thrown away by hand, or by the clean-up after a day unconfirmed. */
describe.each(dialects)('discarding staged imports on %s', (dialect) => {
  let database: TestDatabase;
  const count = (table: 'import_lines' | 'import_rejects', jobId: string) => jobRows(database.db, table, jobId);
  const audit = (jobId: string) =>
    database.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'actor_kind', 'subject', 'details', 'at'])
      .where('action', '=', 'imports.discard')
      .where('details', 'like', `%${jobId}%`)
      .execute();
  const posted = (prefix: string) => postedEntries(database.db, prefix);
  /** Uploaded and previewed (as the jobs loop does it). */
  const stage = async (file: string, ...lines: string[]) => {
    const job = await stageImport(database.db, actor, 'acme', 'points', file, pointsFile(lines));
    expect(await previewImportJob(database.db, job.id)).toBe('staged');
    return (await readImport(database.db, 'acme', job.id))!;
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('discards a staged import in one go: status, staged lines and preview rejects gone, audited; nothing posted', async () => {
    const job = await stage('june.csv', 'demo,10,2026-06-01,June,d-1', 'nobody,5,2026-06-01,June,d-2', 'demo,3,2026-06-01,June,d-3');
    expect(job.preview).toMatchObject({ added: 2, rejected: 1 });
    expect(await count('import_lines', job.id)).toBe(3);
    expect(await count('import_rejects', job.id)).toBe(1);

    const at = new Date('2026-11-26T10:00:00.000Z');
    const discarded = await discardImport(database.db, actor, 'acme', job.id, 'wrong month', { now: at });
    expect(discarded).toMatchObject({ status: 'discarded', finishedAt: at.toISOString(), lines: 3, rejects: [] });
    // The row keeps what the preview said, for the history.
    expect(discarded.preview).toEqual(job.preview);
    expect(await count('import_lines', job.id)).toBe(0);
    expect(await count('import_rejects', job.id)).toBe(0);
    const entries = await audit(job.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: 'pm@acme.test', actor_kind: 'staff', subject: 'june.csv', at: at.toISOString() });
    expect(JSON.parse(entries[0]!.details)).toEqual({ job: job.id, kind: 'points', fileName: 'june.csv', lines: 3, reason: 'wrong month' });
    expect(await posted('d-')).toBe(0);

    // A second discard, and a confirm after it: 409, nothing changed (one audit entry still).
    await expect(discardImport(database.db, actor, 'acme', job.id, null)).rejects.toMatchObject({
      statusCode: 409,
      message: `This import ("june.csv", job ${job.id}) was discarded already: only an import being previewed or awaiting confirmation can be discarded; nothing was changed`,
    });
    await expect(confirmImport(database.db, actor, 'acme', job.id, 'too late')).rejects.toMatchObject({ statusCode: 409 });
    expect(await audit(job.id)).toHaveLength(1);
    expect(await runImportJob(database.db, job.id)).toBe('not-running');
    expect(await posted('d-')).toBe(0);
  });

  it('refuses to discard a job that runs or ended (409), and one of another client or none (404)', async () => {
    const job = await stage('july.csv', 'demo,10,2026-07-01,July,e-1');
    await expect(discardImport(database.db, actor, 'globex', job.id, null)).rejects.toMatchObject({ statusCode: 404 });
    await expect(discardImport(database.db, actor, 'acme', 'no-such-job', null)).rejects.toMatchObject({ statusCode: 404 });
    await confirmImport(database.db, actor, 'acme', job.id, 'July points');
    await expect(discardImport(database.db, actor, 'acme', job.id, null)).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('is running: only an import being previewed or awaiting confirmation can be discarded'),
    });
    expect(await runImportJob(database.db, job.id)).toBe('done');
    await expect(discardImport(database.db, actor, 'acme', job.id, null)).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('is done'),
    });
    expect((await readImport(database.db, 'acme', job.id))!.status).toBe('done');
    expect(await posted('e-')).toBe(1);
    expect(await audit(job.id)).toEqual([]);
  });

  it('of a discard and a confirm at once exactly one wins', async () => {
    for (let i = 0; i < 5; i += 1) {
      const job = await stage(`race-${i}.csv`, `demo,1,2026-08-01,Race,race-${i}`);
      const [confirmed, discarded] = await Promise.allSettled([
        confirmImport(database.db, actor, 'acme', job.id, 'race confirm'),
        discardImport(database.db, actor, 'acme', job.id, 'race discard'),
      ]);
      expect([confirmed.status, discarded.status].filter((s) => s === 'fulfilled')).toHaveLength(1);
      const status = (await readImport(database.db, 'acme', job.id))!.status;
      expect(status).toBe(confirmed.status === 'fulfilled' ? 'running' : 'discarded');
      if (status === 'running') expect(await runImportJob(database.db, job.id)).toBe('done');
      else expect(await database.db.selectFrom('job_slots').select('job_id').where('job_id', '=', job.id).execute()).toEqual([]);
    }
  });

  it('discards, as the system, staged imports a day old and uploads abandoned as long; younger and running ones stay', async () => {
    const old = await stage('old.csv', 'demo,1,2026-09-01,Sept,s-1', 'demo,2,2026-09-01,Sept,s-2');
    const young = await stage('young.csv', 'demo,1,2026-09-01,Sept,s-3');
    const readied = Date.parse(
      (await database.db.selectFrom('jobs').select('updated_at').where('id', '=', old.id).executeTakeFirstOrThrow()).updated_at,
    );
    // The young one was previewed an hour later (by the clock the clean-up is given).
    const hourLater = new Date(readied + 3_600_000).toISOString();
    await database.db.updateTable('jobs').set({ updated_at: hourLater }).where('id', '=', young.id).execute();
    // An upload whose process died while staging: a row left "staging" with a staged line.
    const abandoned = 'abandoned-upload';
    await insertJob(database.db, {
      id: abandoned,
      client_id: 'acme',
      kind: 'points',
      status: 'staging',
      file_name: 'cut.csv',
      created_by: actor.name,
      created_at: new Date(readied).toISOString(),
      updated_at: new Date(readied).toISOString(),
      params: '{}',
      total: 0,
      done: 0,
      cursor: 0,
    });
    await insertStaged(database.db, [{ job_id: abandoned, line: 2, fields: '["demo","1"]', problem: null, key: 's-9', alt_key: null }]);
    // A running job as old is not the clean-up's.
    const running = await stage('running.csv', 'demo,1,2026-09-01,Sept,s-4');
    await confirmImport(database.db, actor, 'acme', running.id, 'September');
    await database.db
      .updateTable('jobs')
      .set({ updated_at: new Date(readied - 1).toISOString() })
      .where('id', '=', running.id)
      .execute();

    const status = async (id: string) =>
      (await database.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    // Just under a day: nothing.
    expect(await discardStaleImports(database.db, new Date(readied + STAGED_IMPORT_MAX_AGE_MS - 1))).toBe(0);
    expect(await status(old.id)).toBe('staged');
    // A day on: the old one and the abandoned upload, not the young one (nor the running one).
    const dayLater = new Date(readied + STAGED_IMPORT_MAX_AGE_MS + 1);
    expect(await discardStaleImports(database.db, dayLater)).toBe(2);
    expect(await status(old.id)).toBe('discarded');
    expect(await status(abandoned)).toBe('discarded');
    expect(await status(young.id)).toBe('staged');
    expect(await status(running.id)).toBe('running');
    expect(await count('import_lines', old.id)).toBe(0);
    expect(await count('import_lines', abandoned)).toBe(0);
    expect(await count('import_lines', young.id)).toBe(1);
    const entries = await audit(old.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: 'system', actor_kind: 'system', subject: 'old.csv', at: dayLater.toISOString() });
    expect(JSON.parse(entries[0]!.details)).toMatchObject({ job: old.id, lines: 2, reason: 'not confirmed within 24 hours' });
    // Again at the same time: nothing more to do.
    expect(await discardStaleImports(database.db, dayLater)).toBe(0);
    expect(await runImportJob(database.db, running.id)).toBe('done');
    // The young one's day comes an hour later.
    expect(await discardStaleImports(database.db, new Date(Date.parse(hourLater) + STAGED_IMPORT_MAX_AGE_MS + 1))).toBe(1);
    expect(await status(young.id)).toBe('discarded');
  });

  it('is run by the periodic loop that resumes the jobs (main.ts startImportJobs), at start and on each tick', async () => {
    const job = await stage('loop.csv', 'demo,1,2026-10-01,Oct,l-1');
    const warnings: string[] = [];
    const loop = startImportJobs(
      database.db,
      { warn: (m) => warnings.push(m) },
      { everyMs: 60_000, now: () => new Date(Date.now() + STAGED_IMPORT_MAX_AGE_MS + 60_000) },
    );
    try {
      const deadline = Date.now() + 20_000;
      while ((await readImport(database.db, 'acme', job.id))!.status !== 'discarded') {
        if (Date.now() > deadline) throw new Error('the loop did not discard the staged import');
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await loop.stop();
    }
    expect(await count('import_lines', job.id)).toBe(0);
    expect(await audit(job.id)).toEqual([expect.objectContaining({ actor: 'system', actor_kind: 'system' })]);
    expect(warnings).toEqual([]);
  });
});
