import { SqliteAdapter, sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * The one set of SQLite settings of an import (docs/decisions/091): every phase of the job (stage,
 * preview, run), whether the console's upload or `rewards points import` / `participants import`
 * runs it, sets them on the writer connection of its process and puts back what the connection had
 * when the last import of the process ends. Each changes how much is written, never what a
 * statement does, so the requests that share the connection meanwhile see the same data and the
 * same checks.
 * - cache_size 8 MB (SQLite's default is 2 MB; 32 MB wrote no less): a batch changes a page of the
 *   participants (their balance) and of the statement index per line, scattered; with the default
 *   the cache spilled those pages to the WAL again and again inside each batch.
 * - wal_autocheckpoint: with the default (1,000 pages, 4 MB) every batch's commit copied every page
 *   it changed back into the database file; the participants' and the ledger indexes' pages that
 *   each batch changes again are copied once per interval instead (JOB_CHECKPOINT_PAGES).
 * - foreign_keys stays on. The command turned it off before decision 091, to be rid of the
 *   statement journal SQLite keeps for each multi-row statement while it is on (since 2026-11-28 the
 *   run's entries go in one statement per batch, modules/ledger/bulk.ts, so it copies each page
 *   once a batch rather than once per hundred rows); that journal, and the
 *   sub-journal of the group-commit driver's savepoint (the batch's logical transaction), are
 *   temporary files deleted at the statement's or the batch's end, so most of what they write never
 *   reaches the disk (/proc's cancelled_write_bytes). `temp_store = memory` would keep them off the
 *   files altogether but in the process's memory: at 1,000,000 lines the job then handed the kernel
 *   19.0 GB instead of 33.9 (the difference had all been cancelled) and peaked at 700 MB resident
 *   instead of ~320, past the import's 400 MB budget. Not set.
 */

/** The writer's page cache during an import, in KB. */
export const JOB_CACHE_KB = 8 * 1024;
/**
 * WAL pages between checkpoints during an import (4 KB each: 256 MB; SQLite's default is 1,000):
 * the command's interval of decision 022, which the job had cut to a quarter (64 MB) because a
 * checkpoint runs in some commit, on the event loop (in the server, a request's). Measured at
 * 1,000,000 lines (decision 091): with 64 MB the job took 1.33× the command's old loop and handed
 * the kernel 33.9 GB; with 256 MB 1.19× and 29.5 GB. Fewer, longer checkpoints: a request that
 * commits one waits for it (not measured yet: how long, in the server under an import).
 */
export const JOB_CHECKPOINT_PAGES = 65_536;

/** Per database: the imports running, and the settings the connection had before the first of them. */
const state = new WeakMap<Db, { jobs: number; before?: Promise<Record<string, number>> }>();

async function pragma(db: Db, name: string): Promise<number> {
  const { rows } = await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db);
  return Number(Object.values(rows[0] ?? {})[0]);
}

/**
 * Runs `work` with the import's settings on SQLite (a no-op on PostgreSQL). Imports of several
 * clients may run at once in one process: the first sets them, the last puts back what the
 * connection had before the first (read once, so an import starting while another ends never takes
 * the import's values for the originals).
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
      // Another import may have started while the originals were read.
      if (before && entry.jobs === 0)
        for (const [name, value] of Object.entries(before)) await sql.raw(`pragma ${name} = ${value}`).execute(db);
    }
  }
}
