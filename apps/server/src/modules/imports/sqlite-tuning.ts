import { SqliteAdapter, sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * The import job's SQLite settings while it runs (docs/decisions/064, amended): the writer's page
 * cache and checkpoint interval of the command's import (decision 022), set on the writer
 * connection the server process shares and put back when the last job of the process ends. Both
 * change how much is written, never what a statement does, so the requests that share the
 * connection meanwhile see the same data. `foreign_keys`, which the command also turns off, stays
 * on: that one would change every request's checks.
 * - cache_size: a batch changes a page of the participants (their balance) and of the statement
 *   index per line, scattered; with SQLite's 2 MB default the cache spilled those pages to the WAL
 *   again and again inside each batch.
 * - wal_autocheckpoint: with the default (1,000 pages, 4 MB) every batch's commit copied every
 *   page it changed back into the database file; the participants' pages that each batch changes
 *   again are copied once per interval instead.
 */

/** The writer's page cache during a job, in KB: the command's 8 MB (SQLite's default is 2 MB; 32 MB wrote no less). */
export const JOB_CACHE_KB = 8 * 1024;
/**
 * WAL pages between checkpoints during a job (4 KB each: 64 MB; SQLite's default is 1,000). A
 * quarter of the command's: a checkpoint runs in some request's commit, on the event loop.
 */
export const JOB_CHECKPOINT_PAGES = 16_384;

/** Per database: the jobs running, and the settings the connection had before the first of them. */
const state = new WeakMap<Db, { jobs: number; before?: Promise<Record<string, number>> }>();

async function pragma(db: Db, name: string): Promise<number> {
  const { rows } = await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db);
  return Number(Object.values(rows[0] ?? {})[0]);
}

/**
 * Runs `work` with the job's settings on SQLite (a no-op on PostgreSQL). Jobs of several clients
 * may run at once in one process: the first sets them, the last puts back what the connection had
 * before the first (read once, so a job starting while another ends never takes the job's values
 * for the originals).
 */
export async function withJobTuning<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return work();
  let entry = state.get(db);
  if (!entry) {
    entry = { jobs: 0 };
    state.set(db, entry);
  }
  entry.jobs += 1;
  entry.before ??= (async () => ({
    cache_size: await pragma(db, 'cache_size'),
    wal_autocheckpoint: await pragma(db, 'wal_autocheckpoint'),
  }))();
  try {
    const before = await entry.before;
    await sql.raw(`pragma cache_size = ${Math.min(before.cache_size!, -JOB_CACHE_KB)}`).execute(db);
    await sql.raw(`pragma wal_autocheckpoint = ${Math.max(before.wal_autocheckpoint!, JOB_CHECKPOINT_PAGES)}`).execute(db);
    return await work();
  } finally {
    entry.jobs -= 1;
    if (entry.jobs === 0) {
      const before = await entry.before.catch(() => undefined);
      // Another job may have started while the originals were read.
      if (before && entry.jobs === 0)
        for (const [name, value] of Object.entries(before)) await sql.raw(`pragma ${name} = ${value}`).execute(db);
    }
  }
}
