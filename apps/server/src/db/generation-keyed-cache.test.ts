import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { createDatabase, type Db } from './database.ts';
import { dataGeneration } from './read-cache.ts';
import { clockOptions, fetched, generationKey, loadOnMiss, perDatabase } from './read-cache.ts';

interface Note {
  body: string;
}

/**
 * A read cache made as the modules make theirs (sessions, GET user): lru-cache per database, the
 * data generation in the key, loaded each time where the database has no generation.
 */
function generationCache(options: { max: number; ttl?: number }) {
  const cacheOf = perDatabase(
    () => new LRUCache<string, Note, () => Promise<Note | undefined>>({ ...options, ...clockOptions, ...loadOnMiss((load) => load()) }),
  );
  return {
    get(db: Db, key: string, load: () => Promise<Note | undefined>): Promise<Note | undefined> {
      const at = generationKey(db, key);
      return at === undefined ? load() : fetched(cacheOf(db).fetch(at, { context: load }));
    },
    /** What the hot paths do: the value at hand without a promise, or undefined. */
    peek(db: Db, key: string): Note | undefined {
      const at = generationKey(db, key);
      return at === undefined ? undefined : cacheOf(db).get(at);
    },
  };
}

/** Another process committing to the file, as the CLI or a second portal process would. */
async function commitFromAnotherProcess(path: string, value: string): Promise<void> {
  const script = `const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(process.argv[1]);
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare("UPDATE notes SET body = ? WHERE id = 1").run(process.argv[2]);
    db.close();`;
  await promisify(execFile)(process.execPath, ['-e', script, path, value]);
}

describe('a read cache keyed by the data generation, over a SQLite file', () => {
  let dir: string;
  let path: string;
  let db: Db;
  let other: Db;
  let loads: number;
  const cache = generationCache({ max: 10 });

  // The note as the cache hands it out, counting the loads that really read the file.
  const note = (from: Db = db) =>
    cache
      .get(from, 'note', async () => {
        loads += 1;
        const { rows } = await sql<Note>`SELECT body FROM notes WHERE id = 1`.execute(from);
        return rows[0];
      })
      .then((found) => found?.body);
  const write = (to: Db, body: string) => sql`UPDATE notes SET body = ${body} WHERE id = 1`.execute(to);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rewards-generation-'));
    path = join(dir, 'cache.db');
    db = createDatabase({ dialect: 'sqlite', path });
    other = createDatabase({ dialect: 'sqlite', path });
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
    await sql`INSERT INTO notes VALUES (1, 'first')`.execute(db);
    loads = 0;
  });

  afterEach(async () => {
    await db.destroy();
    await other.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the file once while nothing is committed, and again after its own write', async () => {
    expect(await note()).toBe('first');
    expect(await note()).toBe('first');
    expect(loads).toBe(1);
    await write(db, 'second');
    expect(await note()).toBe('second');
    expect(loads).toBe(2);
  });

  it('sees its own commit at once, even within the event-loop turn that read the generation', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    const writing = write(db, 'second');
    // Let the UPDATE run in the open batch; its COMMIT waits for the next turn's setImmediate.
    for (let i = 0; i < 50; i++) await Promise.resolve();
    expect(await note()).toBe('first');
    // Resumes right after the COMMIT, in the same turn as the read above.
    await writing;
    expect(await note()).toBe('second');
  });

  it("shows another connection's commit on the next read", async () => {
    expect(await note()).toBe('first');
    await write(other, 'from the other connection');
    expect(await note()).toBe('from the other connection');
  });

  it("shows another process's commit on the next read", async () => {
    const before = dataGeneration(db);
    expect(await note()).toBe('first');
    await commitFromAnotherProcess(path, 'from the CLI');
    expect(dataGeneration(db)).not.toBe(before);
    expect(await note()).toBe('from the CLI');
    expect(await note()).toBe('from the CLI');
    expect(loads).toBe(2);
  });

  it('never keeps what a load read before a commit that raced it', async () => {
    // The load reads the old note, then someone commits before the load has answered.
    const raced = await cache.get(db, 'note', async () => {
      const { rows } = await sql<Note>`SELECT body FROM notes WHERE id = 1`.execute(db);
      await write(other, 'committed during the load');
      return rows[0];
    });
    expect(raced?.body).toBe('first');
    expect(await note()).toBe('committed during the load');
  });

  it('shares one load between concurrent callers, and keeps neither failures nor "not found"', async () => {
    expect(await Promise.all([note(), note(), note()])).toEqual(['first', 'first', 'first']);
    expect(loads).toBe(1);
    let attempts = 0;
    const flaky = () =>
      cache.get(db, 'flaky', async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('the disk hiccupped');
        return attempts === 2 ? undefined : { body: 'found' };
      });
    await expect(flaky()).rejects.toThrow('the disk hiccupped');
    expect(await flaky()).toBeUndefined();
    expect((await flaky())?.body).toBe('found');
    expect((await flaky())?.body).toBe('found');
    expect(attempts).toBe(3);
  });

  it('answers "not found", not an error, when the entry was evicted while its load ran', async () => {
    const small = generationCache({ max: 1 });
    let finish!: (found: Note | undefined) => void;
    const waiting = small.get(db, 'unknown', () => new Promise((resolve) => (finish = resolve)));
    // A second key pushes the first out while its load still runs.
    await small.get(db, 'other', async () => ({ body: 'other' }));
    finish(undefined);
    expect(await waiting).toBeUndefined();
    expect(small.peek(db, 'other')?.body).toBe('other');
  });

  it('keeps at most its number of entries, the least recently used going first', async () => {
    const small = generationCache({ max: 3 });
    const loaded: string[] = [];
    const get = (key: string) =>
      small.get(db, key, async () => {
        loaded.push(key);
        return { body: key };
      });
    for (const key of ['a', 'b', 'c', 'a', 'd']) await get(key);
    // 'b' was the least recently used when 'd' came.
    for (const key of ['a', 'c', 'b']) await get(key);
    expect(loaded).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('never drops an entry used every other lookup, however many new keys come', async () => {
    const small = generationCache({ max: 4 });
    const loaded: string[] = [];
    const get = (key: string) =>
      small.get(db, key, async () => {
        loaded.push(key);
        return { body: key };
      });
    for (const key of ['hot', 'b', 'c', 'd']) await get(key);
    for (const key of ['e', 'f', 'g', 'h', 'i', 'j', 'k']) {
      expect(small.peek(db, 'hot')?.body).toBe('hot');
      await get(key);
    }
    expect(loaded.filter((key) => key === 'hot')).toEqual(['hot']);
    expect(small.peek(db, 'b')).toBeUndefined();
  });

  it('hands out at once, without a promise, exactly what get would answer from memory', async () => {
    expect(cache.peek(db, 'note')).toBeUndefined();
    const loading = note();
    // Not before the load has answered: the caller then goes through get and shares that load.
    expect(cache.peek(db, 'note')).toBeUndefined();
    expect(await loading).toBe('first');
    expect(cache.peek(db, 'note')?.body).toBe('first');
    await write(other, 'second');
    expect(cache.peek(db, 'note')).toBeUndefined();
    expect(await note()).toBe('second');
    expect(cache.peek(db, 'note')?.body).toBe('second');
    expect(loads).toBe(2);
    const memory = createDatabase({ dialect: 'sqlite', path: ':memory:' });
    try {
      await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(memory);
      await sql`INSERT INTO notes VALUES (1, 'in memory')`.execute(memory);
      await note(memory);
      expect(cache.peek(memory, 'note')).toBeUndefined();
    } finally {
      await memory.destroy();
    }
  });

  it('hands out nothing older than its time limit', async () => {
    // The caches read their age off `performance.now()`: a set clock moves exactly as far as the test says.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // lru-cache reads a start of 0 as "no time limit"; a real process's clock is never at 0.
      vi.advanceTimersByTime(1);
      const aging = generationCache({ max: 10, ttl: 1_000 });
      let agingLoads = 0;
      const get = async () => (await aging.get(db, 'k', async () => ({ body: `value ${(agingLoads += 1)}` })))?.body;
      expect(await get()).toBe('value 1');
      vi.advanceTimersByTime(1_000);
      expect(aging.peek(db, 'k')?.body).toBe('value 1');
      expect(await get()).toBe('value 1');
      vi.advanceTimersByTime(1);
      expect(aging.peek(db, 'k')).toBeUndefined();
      expect(await get()).toBe('value 2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('loads every time where the database cannot tell what changed (in memory, in a transaction)', async () => {
    const memory = createDatabase({ dialect: 'sqlite', path: ':memory:' });
    try {
      expect(dataGeneration(memory)).toBeUndefined();
      await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(memory);
      await sql`INSERT INTO notes VALUES (1, 'in memory')`.execute(memory);
      expect(await note(memory)).toBe('in memory');
      expect(await note(memory)).toBe('in memory');
      expect(loads).toBe(2);
    } finally {
      await memory.destroy();
    }
    await db.transaction().execute(async (trx) => {
      expect(dataGeneration(trx)).toBeUndefined();
    });
  });
});
