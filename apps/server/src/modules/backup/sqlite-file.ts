import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync, backup } from 'node:sqlite';
import { BackupRefused } from './errors.ts';

/** Pages per backup step (16 MB of 4 kB pages): few hops to the thread pool, and progress to report. */
const PAGES_PER_STEP = 4096;

/**
 * An online copy of a live SQLite file with node:sqlite's backup API, the portal serving and
 * writing meanwhile. The source connection holds one read transaction for the whole copy: in WAL
 * mode writers go on beside it, and every step copies the same snapshot. (Without it, SQLite
 * starts the copy over at each step after another process's commit, and a busy portal never
 * lets it finish.) Resolves with the moment the snapshot was taken.
 */
export async function copySqliteOnline(
  sourcePath: string,
  targetPath: string,
  progress?: (done: number, total: number) => void,
): Promise<{ snapshotAt: Date; pages: number }> {
  if (!existsSync(sourcePath)) throw new BackupRefused(`there is no database at ${sourcePath}`);
  const source = new DatabaseSync(sourcePath, { readOnly: true });
  try {
    source.exec('PRAGMA busy_timeout = 5000');
    source.exec('BEGIN');
    // A read transaction starts at its first read: this is the snapshot.
    source.prepare('SELECT count(*) FROM sqlite_master').get();
    const snapshotAt = new Date();
    // Made owner-only before SQLite writes a page: it holds password hashes and sealed secrets.
    closeSync(openSync(targetPath, 'wx', 0o600));
    const pages = await backup(source, targetPath, {
      rate: PAGES_PER_STEP,
      progress: ({ totalPages, remainingPages }) => progress?.(totalPages - remainingPages, totalPages),
    });
    source.exec('COMMIT');
    return { snapshotAt, pages };
  } finally {
    source.close();
  }
}

/**
 * The copy made one self-contained file (rollback journal instead of WAL, so that opening it
 * read-only later leaves no -wal or -shm beside it; the portal turns WAL back on when it opens
 * it), then checked with `PRAGMA integrity_check`, and its migrations read. Refuses a copy
 * that fails the check, quoting the first problems.
 */
export function finishSqliteCopy(path: string): { check: string; migrations: string[] } {
  const copy = new DatabaseSync(path);
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
    const found = (copy.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    if (found.length !== 1 || found[0] !== 'ok')
      throw new BackupRefused(`the copy failed PRAGMA integrity_check: ${found.slice(0, 3).join('; ')}`);
    const table = copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
    const migrations =
      table === undefined
        ? []
        : (copy.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
    return { check: 'PRAGMA integrity_check: ok', migrations };
  } finally {
    copy.close();
  }
}

/** A SQLite file with something in it (an empty file, as an interrupted first start leaves, is not a database yet). */
export function sqliteFileInUse(path: string): boolean {
  for (const suffix of ['', '-wal']) {
    try {
      if (statSync(`${path}${suffix}`).size > 0) return true;
    } catch {
      // not there
    }
  }
  return false;
}

/**
 * Everything of a closed SQLite file's WAL moved into the file, and the -wal and -shm removed,
 * so that the file alone is the database and can be renamed.
 */
export function settleSqliteFile(path: string): void {
  const file = new DatabaseSync(path);
  try {
    const result = file.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number } | undefined;
    if (result && result.busy !== 0) throw new Error(`${path} is in use by another connection`);
  } finally {
    file.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}
