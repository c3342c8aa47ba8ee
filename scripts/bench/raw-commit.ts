/**
 * The disk's raw durable single-row commit rate, issue 18's floor for redemptions: a node:sqlite
 * file in the bench database's directory (same disk), with the server's journal mode and
 * `synchronous` (WAL, FULL: db/node-sqlite-dialect.ts), one-row transactions back to back.
 * Each COMMIT is an fsync; the portal's group commit (decision 014) shares one among the
 * redemptions that arrive together, so it can beat this rate although each redemption does more.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export interface RawCommitResult {
  commitsPerSecond: number;
  commits: number;
  seconds: number;
}

/** Runs synchronously for `seconds` (nothing else of the bench runs meanwhile; the portal is another process). */
export function rawCommitRate(directory: string, seconds: number): RawCommitResult {
  const file = join(directory, 'raw-commit.db');
  const db = new DatabaseSync(file);
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, note TEXT NOT NULL)');
    const begin = db.prepare('BEGIN');
    const insert = db.prepare('INSERT INTO t (at, note) VALUES (?, ?)');
    const commit = db.prepare('COMMIT');
    let commits = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    while (performance.now() < until) {
      begin.run();
      insert.run(Date.now(), 'one row');
      commit.run();
      commits++;
    }
    const elapsed = (performance.now() - started) / 1000;
    return { commitsPerSecond: Math.round(commits / elapsed), commits, seconds: Math.round(elapsed * 10) / 10 };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}
