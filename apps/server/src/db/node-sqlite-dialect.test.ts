import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeSqliteDialect } from './node-sqlite-dialect.ts';

interface Tables {
  items: { id: number; name: string; qty: number };
}

const dir = mkdtempSync(join(tmpdir(), 'rewards-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
let path: string;
let db: Kysely<Tables>;

beforeEach(async () => {
  path = join(dir, `driver-${counter++}.db`);
  db = new Kysely<Tables>({ dialect: nodeSqliteDialect(path, { statementCacheSize: 4 }) });
  await sql`create table items (id integer primary key, name text not null unique, qty integer not null check (qty >= 0))`.execute(db);
});
afterEach(() => db.destroy());

/** What another process sees: a separate connection to the file. */
function committedNames(): string[] {
  const other = new DatabaseSync(path, { readOnly: true });
  try {
    return other
      .prepare('select name from items order by id')
      .all()
      .map((row) => String(row.name));
  } finally {
    other.close();
  }
}

describe('the node:sqlite driver', () => {
  it('reuses a prepared statement with new parameters each time, and keeps working past its cache size', async () => {
    await db
      .insertInto('items')
      .values([
        { id: 1, name: 'apple', qty: 3 },
        { id: 2, name: 'pear', qty: 5 },
      ])
      .execute();
    const byId = (id: number) => db.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ name: 'apple' });
    expect(await byId(2)).toEqual({ name: 'pear' });
    expect(await byId(3)).toBeUndefined();
    // More distinct statements than the cache holds (4): the evicted ones are prepared again.
    for (let round = 0; round < 2; round += 1) {
      for (const column of ['id', 'name', 'qty'] as const) {
        for (let limit = 1; limit <= 3; limit += 1) {
          const rows = await db.selectFrom('items').select(column).orderBy('id').limit(limit).execute();
          expect(rows).toHaveLength(Math.min(limit, 2));
        }
      }
    }
    expect(await byId(2)).toEqual({ name: 'pear' });
  });

  it('answers each of many concurrent transactions with its own result, all durable once answered', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('items')
            .values({ id: i + 1, name: `item-${i}`, qty: i })
            .execute();
          const row = await trx
            .selectFrom('items')
            .select('qty')
            .where('id', '=', i + 1)
            .executeTakeFirstOrThrow();
          return row.qty * 10;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i * 10));
    // Answered means committed: another connection sees every row.
    expect(committedNames()).toHaveLength(40);
  });

  it('rolls back only the transaction that failed, whatever else shared its commit', async () => {
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((name, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('items')
            .values({ id: i + 1, name, qty: 1 })
            .execute();
          if (name === 'b') throw new Error('b changed its mind');
          // A broken constraint fails this one transaction, not its batch.
          if (name === 'c')
            await trx
              .updateTable('items')
              .set({ qty: -1 })
              .where('id', '=', i + 1)
              .execute();
          return name;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(committedNames()).toEqual(['a', 'd']);
  });

  it('fails a write outside a transaction alone, and its caller then sees the row it collided with', async () => {
    const [first, twin] = await Promise.allSettled([
      db.insertInto('items').values({ id: 1, name: 'same', qty: 1 }).execute(),
      db.insertInto('items').values({ id: 2, name: 'same', qty: 2 }).execute(),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(twin.status).toBe('rejected');
    expect(await db.selectFrom('items').select(['id', 'name']).execute()).toEqual([{ id: 1, name: 'same' }]);
  });
});

describe('group commit and a crash', () => {
  it('keeps every acknowledged transaction when the process is killed in the middle of a batch', async () => {
    const file = join(dir, 'crash.db');
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', '..', 'test', 'group-commit-child.ts'), file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: number[] = [];
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', () => resolve());
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) if (/^\d+$/.test(line)) acknowledged.push(Number(line));
        // Killed while 16 writers keep batches open: some transactions are surely in flight.
        if (acknowledged.length >= 2000 && !child.killed) child.kill('SIGKILL');
      });
    });
    expect(acknowledged.length).toBeGreaterThanOrEqual(2000);
    const survivor = new DatabaseSync(file);
    const kept = new Set(
      survivor
        .prepare('select id from acks')
        .all()
        .map((row) => Number(row.id)),
    );
    survivor.close();
    const lost = acknowledged.filter((id) => !kept.has(id));
    expect(lost).toEqual([]);
  }, 60_000);
});
