import { CompiledQuery, PostgresAdapter, sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { padded, pieces, placeholders, statementText } from '../../db/statement-shapes.ts';
import type { ImportLinesTable } from './tables.ts';

/** The staged lines' and rejects' SQL (service.ts says what they are for). */

export interface StagedLine {
  line: number;
  fields: string | null;
  problem: string | null;
}

/** Staged rows per INSERT: 6 parameters each, far under both engines' limits. */
const STAGE_ROWS = 500;

/**
 * One chunk of staged rows in one transaction (one commit), as multi-row INSERTs of few shapes
 * (see pieces()). The text is written by hand and kept per shape, as the ledger's bulk path does
 * (modules/ledger/bulk.ts): Kysely's builder made a tree of 3,000 values per statement only to
 * print the same text again, a few seconds of CPU per million lines.
 */
export async function insertStaged(db: Db, rows: ReadonlyArray<Insertable<ImportLinesTable>>): Promise<void> {
  if (rows.length === 0) return;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.transaction().execute(async (trx) => {
    for (const [from, to] of pieces(rows.length, STAGE_ROWS)) {
      const parameters: unknown[] = [];
      for (let i = from; i < to; i += 1) {
        const row = rows[i]!;
        parameters.push(row.job_id, row.line, row.fields ?? null, row.problem ?? null, row.key ?? null, row.alt_key ?? null);
      }
      await trx.executeQuery(CompiledQuery.raw(insertStagedText(to - from, postgres), parameters));
    }
  });
}

/** The staging INSERT's text per shape (rows, engine): a million-line upload asks for the same 500-row text 2,000 times. */
function insertStagedText(rows: number, postgres: boolean): string {
  return statementText(`imports.staged:${rows}:${postgres}`, () => {
    const p = placeholders(postgres);
    const values = Array.from({ length: rows }, () => `(${Array.from({ length: 6 }, p).join(', ')})`).join(', ');
    return `insert into import_lines (job_id, line, fields, problem, "key", alt_key) values ${values} on conflict (job_id, line) do nothing`;
  });
}

export async function stagedAfter(db: Db, jobId: string, after: number, limit: number): Promise<StagedLine[]> {
  return db
    .selectFrom('import_lines')
    .select(['line', 'fields', 'problem'])
    .where('job_id', '=', jobId)
    .where('line', '>', after)
    .orderBy('line')
    .limit(limit)
    .execute();
}

/** Staged lines by their line numbers (any order; lines not staged are left out). */
export async function stagedLines(db: Db, jobId: string, lines: readonly number[]): Promise<StagedLine[]> {
  const out: StagedLine[] = [];
  for (let from = 0; from < lines.length; from += LINES_PER_READ) {
    const rows = await db
      .selectFrom('import_lines')
      .select(['line', 'fields', 'problem'])
      .where('job_id', '=', jobId)
      .where('line', 'in', padded(lines.slice(from, from + LINES_PER_READ)))
      .execute();
    for (const row of rows) out.push(row);
  }
  return out;
}

/** Line numbers per IN list of stagedLines: a power of two (see padded()), under both engines' parameter limits. */
const LINES_PER_READ = 1_024;

/** Whether any staged line of the job has an alternate key (an events file: whether it has returns; the partial index of present ones). */
export async function anyAltKey(db: Db, jobId: string): Promise<boolean> {
  const row = await db
    .selectFrom('import_lines')
    .select('line')
    .where('job_id', '=', jobId)
    .where('alt_key', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether two staged lines of the job share a key (or an alternate key): one walk of the staging
 * index in key order, so a phase whose file repeats none skips the per-batch look-ups of
 * firstLinesOf (at 1,000,000 lines, 2,000 reads of 512 keys a phase).
 */
export async function anyKeyRepeats(db: Db, jobId: string, column: 'key' | 'alt_key'): Promise<boolean> {
  const row = await db
    .selectFrom('import_lines')
    .select(column)
    .where('job_id', '=', jobId)
    .where(column, 'is not', null)
    .groupBy(column)
    .having((eb) => eb.fn.countAll(), '>', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The first line of the file with each of these keys (by the staging index). */
export async function firstLinesOf(db: Db, jobId: string, column: 'key' | 'alt_key', keys: string[]): Promise<Map<string, number>> {
  const first = new Map<string, number>();
  const distinct = [...new Set(keys)];
  for (let from = 0; from < distinct.length; from += 512) {
    const rows = await db
      .selectFrom('import_lines')
      .select([column, (eb) => eb.fn.min('line').as('first')])
      .where('job_id', '=', jobId)
      .where(column, 'in', padded(distinct.slice(from, from + 512)))
      .groupBy(column)
      .execute();
    for (const row of rows) first.set(row[column] as string, Number(row.first));
  }
  return first;
}

export async function insertRejects(
  db: Db,
  jobId: string,
  phase: 'preview' | 'run',
  rejects: ReadonlyArray<{ line: number; reason: string }>,
): Promise<void> {
  for (let from = 0; from < rejects.length; from += 500) {
    await db
      .insertInto('import_rejects')
      .values(rejects.slice(from, from + 500).map((r) => ({ job_id: jobId, phase, line: r.line, reason: r.reason })))
      .onConflict((oc) => oc.columns(['job_id', 'phase', 'line']).doNothing())
      .execute();
  }
}

export async function rejectsAfter(
  db: Db,
  jobId: string,
  phase: 'preview' | 'run',
  after: number,
  limit: number,
): Promise<Array<{ line: number; reason: string }>> {
  return db
    .selectFrom('import_rejects')
    .select(['line', 'reason'])
    .where('job_id', '=', jobId)
    .where('phase', '=', phase)
    .where('line', '>', after)
    .orderBy('line')
    .limit(limit)
    .execute();
}

/**
 * A job's staged lines, once it ended (its rejects stay, for the CSV); whether there were any. As
 * deleteStaged: the table emptied at once when they are all it holds, otherwise in ranges.
 */
export async function deleteStagedLines(db: Db, jobId: string): Promise<boolean> {
  return deleteJobRows(db, jobId, ['import_lines']);
}

/**
 * SQLite: when every staged line is this job's, one DELETE without a WHERE empties the table
 * (whether there were any; undefined when another job has lines staged, and on PostgreSQL). SQLite
 * then frees the pages of the table and its indexes without writing them (its truncate
 * optimization), where a DELETE of some rows writes every page it empties to the WAL and the
 * checkpoint copies it again: at 1,000,000 lines 575 MB against 2, and 0.2 s on the event loop
 * against seconds in ranges (decision 091, amended 2026-11-28, night). The check and the DELETE are
 * one transaction (the caller's, if it is one): a line another job stages meanwhile waits for it,
 * and is kept.
 */
async function emptiedIfOnlyJob(db: Db, jobId: string): Promise<boolean | undefined> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return undefined;
  const empty = async (trx: Db) => {
    // Two seeks of the (job_id, line) key: a line of any job sorting before or after this one.
    for (const op of ['<', '>'] as const) {
      if (await trx.selectFrom('import_lines').select('line').where('job_id', op, jobId).limit(1).executeTakeFirst()) return undefined;
    }
    const { numDeletedRows } = await trx.deleteFrom('import_lines').executeTakeFirst();
    return numDeletedRows > 0n;
  };
  return db.isTransaction ? empty(db) : db.transaction().execute(empty);
}

/**
 * A phase's rejects: a preview computed again from the start (its holder died) replaces its own,
 * and one that outlived a discard removes what it wrote after it. In ranges, as deleteStaged.
 */
export async function deleteRejects(db: Db, jobId: string, phase: 'preview' | 'run'): Promise<void> {
  const range = await db
    .selectFrom('import_rejects')
    .select((eb) => [eb.fn.min('line').as('low'), eb.fn.max('line').as('high')])
    .where('job_id', '=', jobId)
    .where('phase', '=', phase)
    .executeTakeFirst();
  if (range?.low === null || range?.low === undefined) return;
  const high = Number(range.high);
  for (let from = Number(range.low); from <= high; from += DELETE_LINES) {
    await db
      .deleteFrom('import_rejects')
      .where('job_id', '=', jobId)
      .where('phase', '=', phase)
      .where('line', '>=', from)
      .where('line', '<', from + DELETE_LINES)
      .execute();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Line numbers per DELETE when a staged job is thrown away. */
const DELETE_LINES = 20_000;

/**
 * All a job staged, its lines and rejects (a staging that failed, or a discard; the job's row is
 * the jobs module's); whether there was anything. The lines by emptying the table when they are all
 * it holds (emptiedIfOnlyJob, SQLite); otherwise, and the rejects, in ranges of DELETE_LINES line
 * numbers, yielding to the event loop between them: node:sqlite runs a statement synchronously,
 * and one DELETE of a million staged lines held the process for 8 s (decision 064, amended); in the
 * caller's transaction the whole stays atomic.
 */
export async function deleteStaged(db: Db, jobId: string): Promise<boolean> {
  return deleteJobRows(db, jobId, ['import_lines', 'import_rejects']);
}

async function deleteJobRows(db: Db, jobId: string, tables: ReadonlyArray<'import_lines' | 'import_rejects'>): Promise<boolean> {
  let found = false;
  for (const table of tables) {
    const emptied = table === 'import_lines' ? await emptiedIfOnlyJob(db, jobId) : undefined;
    if (emptied ?? (await deleteInRanges(db, jobId, table))) found = true;
  }
  return found;
}

async function deleteInRanges(db: Db, jobId: string, table: 'import_lines' | 'import_rejects'): Promise<boolean> {
  const range = await db
    .selectFrom(table)
    .select((eb) => [eb.fn.min('line').as('low'), eb.fn.max('line').as('high')])
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  if (range?.low === null || range?.low === undefined) return false;
  const high = Number(range.high);
  for (let from = Number(range.low); from <= high; from += DELETE_LINES) {
    await db
      .deleteFrom(table)
      .where('job_id', '=', jobId)
      .where('line', '>=', from)
      .where('line', '<', from + DELETE_LINES)
      .execute();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

/** Free pages SQLite gives back per transaction (4 MB of 4 kB pages: ~10 ms of the writer on a quiet machine). */
const RELEASE_PAGES = 1_000;

/**
 * Gives the space of deleted staged lines and rejects back to the file system, or makes it
 * reusable (docs/decisions/064, amended 2026-11-28). Called once staged rows were deleted (a
 * discard, a refused upload, a job's end, a failed preview); on SQLite it takes every free page,
 * whoever freed it.
 * - SQLite (auto_vacuum = INCREMENTAL since migration 037): `incremental_vacuum` moves the last
 *   pages into free ones and cuts the file, RELEASE_PAGES per transaction with a turn of the event
 *   loop between (node:sqlite holds the event loop for a statement), until the freelist is empty
 *   or a round frees nothing (a database not switched). In WAL mode the file is cut when the
 *   moved pages reach it: a passive checkpoint (no waiting for readers) does that now; if a reader
 *   holds it back, the next automatic one does.
 * - PostgreSQL: VACUUM of the two tables, so their dead rows' space is free for the next upload
 *   now rather than when autovacuum comes by, and the emptied pages at a table's end go back to
 *   the file system. The indexes keep their pages (only a REINDEX gives them back), and a B-tree
 *   page that a VACUUM deletes is reusable only once no transaction older than that deletion is
 *   left, which that VACUUM itself does not see (PostgreSQL 15: "newly deleted, 0 reusable"):
 *   a second VACUUM records them as free, so the next upload reuses them instead of growing the
 *   indexes by an upload's worth (measured: with one VACUUM, 56 MB of indexes after a discard of
 *   200,000 lines grew to 112 MB over the next; with two, they stay at 56 MB).
 */
export async function releaseStagingSpace(db: Db): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (let round = 0; round < 2; round += 1) await sql`vacuum import_lines, import_rejects`.execute(db);
    return;
  }
  const freePages = async () => Number((await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db)).rows[0]?.freelist_count);
  for (let free = await freePages(); free > 0;) {
    await db.transaction().execute(async (trx) => {
      // node:sqlite's run() steps a statement once, and this pragma frees one page per step (a row
      // each): it is iterated to its end, which our driver does on the writer inside a transaction.
      const step = trx.getExecutor().stream(CompiledQuery.raw(`pragma incremental_vacuum(${RELEASE_PAGES})`), 1);
      for await (const _ of step);
    });
    const left = await freePages();
    if (left >= free) break;
    free = left;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await sql`pragma wal_checkpoint(passive)`.execute(db);
}
