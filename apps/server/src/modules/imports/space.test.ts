import { existsSync, statSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { previewImportJob } from './preview.ts';
import { STAGED_IMPORT_MAX_AGE_MS, discardImport, discardStaleImports, readImport, stageImport, type ImportActor } from './service.ts';
import { POINTS_HEADER, jobRows } from './test-support.ts';

const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };
const LINES = 200_000;
const MB = 1024 * 1024;
/** The writer's journal_size_limit (db/node-sqlite-dialect.ts). */
const WAL_LIMIT = 16 * MB;

/** A points file of `total` lines, generated 1,000 lines at a time; one line in ten names nobody (a preview reject). */
async function* pointsLines(prefix: string, total: number): AsyncGenerator<string> {
  yield `${POINTS_HEADER}\n`;
  for (let i = 0; i < total; i += 1_000) {
    let text = '';
    for (let j = i; j < i + 1_000; j += 1) text += `${j % 10 === 9 ? 'nobody' : 'demo'},1,2026-09-01,September points,${prefix}-${j}\n`;
    yield text;
  }
}

/**
 * Issue 27 §4, docs/decisions/064 (amended 2026-11-28): a discarded upload gives its space back.
 * SQLite: the database file is no larger after the discard than before the upload. PostgreSQL:
 * the staging tables' rows are given back to the file system (the heap, VACUUMed and cut) and
 * what the indexes keep is reused: a second upload and discard leave them no larger than the first.
 */
describe.each(dialects)('the space of a discarded upload on %s', (dialect) => {
  let database: TestDatabase;

  /** SQLite: the database file and its WAL. PostgreSQL: the staging tables' heaps, and all their relations (indexes, TOAST). */
  async function sizes(): Promise<{ file: number; wal: number; heap: number; total: number }> {
    if (database.config.dialect === 'sqlite') {
      const { path } = database.config;
      return { file: statSync(path).size, wal: existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0, heap: 0, total: 0 };
    }
    const { rows } = await sql<{ heap: string; total: string }>`
      select pg_relation_size('import_lines') + pg_relation_size('import_rejects') as heap,
             pg_total_relation_size('import_lines') + pg_total_relation_size('import_rejects') as total`.execute(database.db);
    return { file: 0, wal: 0, heap: Number(rows[0]!.heap), total: Number(rows[0]!.total) };
  }
  const show = (s: Awaited<ReturnType<typeof sizes>>) =>
    dialect === 'sqlite'
      ? `file ${(s.file / MB).toFixed(2)} MB, WAL ${(s.wal / MB).toFixed(2)} MB`
      : `heap ${(s.heap / MB).toFixed(2)} MB, with indexes ${(s.total / MB).toFixed(2)} MB`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('is given back after a discard by hand and after the clean-up: 200,000 lines staged, previewed, discarded, twice', async () => {
    // The seed's pages in the file, not still in the WAL (the driver may checkpoint later): the
    // file's size before is then the one a discard must come back to.
    if (dialect === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(database.db);
    const before = await sizes();
    const started = Date.now();

    // By hand, once previewed (its rejects staged too).
    const first = await stageImport(database.db, actor, 'acme', 'points', 'september.csv', pointsLines('sp', LINES));
    expect(await previewImportJob(database.db, first.id)).toBe('staged');
    expect((await readImport(database.db, 'acme', first.id))!.preview).toMatchObject({ added: LINES * 0.9, rejected: LINES * 0.1 });
    const staged = await sizes();
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    let at = Date.now();
    const discarded = await discardImport(database.db, actor, 'acme', first.id, 'wrong month');
    const discardMs = Date.now() - at;
    stalls.disable();
    expect(discarded.status).toBe('discarded');
    expect(await jobRows(database.db, 'import_lines', first.id)).toBe(0);
    expect(await jobRows(database.db, 'import_rejects', first.id)).toBe(0);
    const afterFirst = await sizes();

    // By the clean-up a day later, the upload not yet previewed.
    const dayAgo = new Date(Date.now() - STAGED_IMPORT_MAX_AGE_MS - 60_000);
    const second = await stageImport(database.db, actor, 'acme', 'points', 'october.csv', pointsLines('oc', LINES), { now: dayAgo });
    await database.db.updateTable('jobs').set({ updated_at: dayAgo.toISOString() }).where('id', '=', second.id).execute();
    const stagedAgain = await sizes();
    at = Date.now();
    expect(await discardStaleImports(database.db)).toBe(1);
    const cleanUpMs = Date.now() - at;
    expect((await readImport(database.db, 'acme', second.id))!.status).toBe('discarded');
    const afterSecond = await sizes();

    console.info(
      `[${dialect}] ${LINES.toLocaleString('en-US')} lines, ${((Date.now() - started) / 1000).toFixed(1)} s: before ${show(before)}; staged and previewed ${show(staged)}; discarded ${show(afterFirst)} (the discard with its release ${discardMs} ms, longest event-loop stall ${(stalls.max / 1e6).toFixed(0)} ms); staged again ${show(stagedAgain)}; cleaned up ${show(afterSecond)} (${cleanUpMs} ms)`,
    );
    if (dialect === 'sqlite') {
      // The upload took tens of MB; the file is back to (at most) its size before it, both times.
      expect(staged.file).toBeGreaterThan(before.file + 20 * MB);
      expect(afterFirst.file).toBeLessThanOrEqual(before.file);
      expect(stagedAgain.file).toBeGreaterThan(before.file + 20 * MB);
      expect(afterSecond.file).toBeLessThanOrEqual(before.file);
      // The WAL, which the discard's one transaction filled with every page it changed, is cut back to its limit.
      expect(afterFirst.wal).toBeLessThanOrEqual(Math.max(before.wal, WAL_LIMIT));
      expect(afterSecond.wal).toBeLessThanOrEqual(Math.max(before.wal, WAL_LIMIT));
      const free = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(database.db);
      expect(Number(free.rows[0]!.freelist_count)).toBe(0);
    } else {
      expect(staged.heap).toBeGreaterThan(before.heap + 20 * MB);
      // The rows' pages go back to the file system; the indexes' stay, free for the next upload.
      expect(afterFirst.heap).toBeLessThanOrEqual(before.heap);
      expect(afterSecond.heap).toBeLessThanOrEqual(before.heap);
      // The indexes' freed pages are reused only once no transaction of the cluster is older than
      // their deletion: with the other test files' transactions running beside this one, that is not
      // certain (a full run saw 88 → 100 MB once), so only the heap is held here; decision 064.
    }
  }, 300_000);
});
