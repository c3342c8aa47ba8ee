import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { IMPORT_MAX_LINE_BYTES, LineTooLong, importCsvParser, linesCapped } from './csv-input.ts';
import { POINTS_HEADER, postedEntries } from './test-support.ts';
import { stageImport, type ImportActor } from './service.ts';

const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };
const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * A points file whose line `at` is one line of `lineBytes` bytes, generated as it is read (never
 * whole in memory), in chunks of 64 kB; `pulled` counts the bytes the reader took.
 */
function enormousLine(lineBytes: number, at = 2): { body: AsyncGenerator<Buffer>; pulled: () => number } {
  let pulled = 0;
  async function* body() {
    const before = [POINTS_HEADER, ...Array.from({ length: at - 2 }, (_, i) => `demo,1,2026-08-01,August,big-${i}`)].join('\n') + '\n';
    pulled += before.length;
    yield Buffer.from(before);
    const filler = Buffer.alloc(CHUNK, 'x');
    for (let sent = 0; sent < lineBytes; sent += CHUNK) {
      pulled += CHUNK;
      yield filler;
    }
    yield Buffer.from('\ndemo,1,2026-08-01,August,after\n');
  }
  return { body: body(), pulled: () => pulled };
}

async function drain(source: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of source) n += 1;
  return n;
}

/** Issue 27 §4: a line past IMPORT_MAX_LINE_BYTES refuses the file there, while it streams, in every reader. */
describe('the line cap of imports', () => {
  it('takes a line of exactly the cap and refuses one byte more, naming the line, wherever the chunks break', async () => {
    const exact = 'x'.repeat(IMPORT_MAX_LINE_BYTES);
    const file = `a,b\r\nshort\n${exact}\n${exact}y\nlast\n`;
    for (const size of [1, 7, 4096, file.length]) {
      const chunks = Array.from({ length: Math.ceil(file.length / size) }, (_, i) => file.slice(i * size, (i + 1) * size));
      const error = await drain(linesCapped(chunks)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LineTooLong);
      expect(error).toMatchObject({ line: 4, cap: IMPORT_MAX_LINE_BYTES, quoted: false });
    }
    expect(await drain(linesCapped([`a,b\n${exact}\n${exact}`]))).toBe(1);
    expect(String(await drain(linesCapped([`a,b\n${'x'.repeat(2049)}\n`], 2048)).catch((e: unknown) => e))).toContain(
      'Line 2 is longer than 2,048 bytes (2 kB)',
    );
  });

  it('stops reading in the chunk where the line passes the cap: of a 100 MB line, no more than that chunk is read', async () => {
    const { body, pulled } = enormousLine(100 * MB);
    await expect(drain(importCsvParser(body))).rejects.toMatchObject({ line: 2, cap: IMPORT_MAX_LINE_BYTES });
    // The header, and the line's first 16 kB in 64 kB chunks: one chunk (plus what the stream read ahead of the parser).
    expect(pulled()).toBeLessThan(20 * CHUNK);
  });

  it('refuses a quoted field that runs on over many short lines past the cap (what the line count cannot see)', async () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `more text ${i}`);
    const file = `${POINTS_HEADER}\ndemo,1,2026-08-01,"starts here\n${lines.join('\n')}",q-1\n`;
    const error = await drain(importCsvParser([file])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LineTooLong);
    expect(error).toMatchObject({ quoted: true, cap: IMPORT_MAX_LINE_BYTES });
    // Somewhere inside the field, past its 16 kB (~14 bytes a line).
    expect((error as LineTooLong).line).toBeGreaterThan(1_000);
    expect((error as LineTooLong).message).toMatch(/^Line \d+ is inside a quoted field that runs on past 16,384 bytes \(16 kB\)/);
  });

  it('keeps reporting a record that is not CSV as skipped, and goes on', async () => {
    const parser = importCsvParser([`${POINTS_HEADER}\ndemo,1,2026-08-01,Au"gust,s-1\ndemo,2,2026-08-01,August,s-2\n`]);
    const skipped: number[] = [];
    parser.on('skip', (error: { lines?: number }) => skipped.push(error.lines ?? 0));
    const records: string[][] = [];
    for await (const { record } of parser as AsyncIterable<{ record: string[] }>) records.push(record);
    expect(records.map((r) => r[4])).toEqual(['external_id', 's-2']);
    expect(skipped).toEqual([2]);
  });
});

describe.each(dialects)('the line cap of imports on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const rows = async (table: 'jobs' | 'import_lines') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    dir = mkdtempSync(join(tmpdir(), 'line-cap-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an upload with a 100 MB line at that line while it streams: 400 naming the line and the cap, no job, nothing staged or posted', async () => {
    const before = { jobs: await rows('jobs'), lines: await rows('import_lines') };
    const { body, pulled } = enormousLine(100 * MB, 4);
    const refused = await stageImport(database.db, actor, 'acme', 'points', 'enormous.csv', body).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      statusCode: 400,
      message:
        'Line 4 is longer than 16,384 bytes (16 kB), the most an import line may have: is this the right file, a CSV with one record per line?; nothing was imported',
    });
    expect(pulled()).toBeLessThan(20 * CHUNK);
    // Refused as every refusal is: the job and the two lines staged before it deleted.
    expect({ jobs: await rows('jobs'), lines: await rows('import_lines') }).toEqual(before);
    expect(await postedEntries(database.db, 'big-')).toBe(0);
  });

  it('gives the commands the same cap: `points import` and `participants import` stop at the line, saying which', async () => {
    const long = 'x'.repeat(IMPORT_MAX_LINE_BYTES + 1);
    const points = join(dir, 'points.csv');
    writeFileSync(points, `${POINTS_HEADER}\ndemo,1,2026-08-01,August,cli-1\ndemo,1,2026-08-01,${long},cli-2\n`);
    const run = await runRewards(database, ['points', 'import', points, '--client', 'acme']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${points}: Line 3 is longer than 16,384 bytes (16 kB), the most an import line may have`);
    expect(await postedEntries(database.db, 'cli-')).toBe(0);

    const participants = join(dir, 'participants.csv');
    const header = 'username,first_name,last_name,email,account_number,locale,merchandise,experiences,ots,status,programs';
    writeFileSync(participants, `${header}\ncap.one,Cap,One,cap@acme.test,ACC-77,,true,true,true,pending,\n"${long}\n`);
    const people = await runRewards(database, ['participants', 'import', participants, '--client', 'acme']);
    expect(people.code).toBe(2);
    expect(people.stderr).toContain(`${participants}: Line 3 is longer than 16,384 bytes (16 kB)`);
    expect(await database.db.selectFrom('participants').select('id').where('username_key', '=', 'cap.one').execute()).toEqual([]);
  });
});
