import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob } from '@rewards/contract/console-imports';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { ApiError } from '../../http/api-error.ts';
import { previewImportJob } from './preview.ts';
import { runImportJob } from './run.ts';
import { confirmImport, importRejectsCsv, readImport, stageImport, type ImportActor } from './service.ts';

const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };
const HEADER = 'username,points,date,description,external_id';

/** A body as the route hands it over: chunks of text, never one string of the whole file. */
async function* chunks(lines: Iterable<string>, per = 100): AsyncGenerator<string> {
  let buffer: string[] = [];
  for (const line of lines) {
    buffer.push(line);
    if (buffer.length >= per) {
      yield buffer.join('\n') + '\n';
      buffer = [];
    }
  }
  if (buffer.length > 0) yield buffer.join('\n') + '\n';
}

describe.each(dialects)('console imports on %s', (dialect) => {
  let database: TestDatabase;
  const balanceOf = async (username: string) =>
    Number(
      (
        await database.db
          .selectFrom('participants')
          .select('balance')
          .where('client_id', '=', 'acme')
          .where('username', '=', username)
          .executeTakeFirstOrThrow()
      ).balance,
    );
  const entries = async (prefix: string) =>
    database.db
      .selectFrom('ledger_entries')
      .select(['reference'])
      .where('client_id', '=', 'acme')
      .where('reference', 'like', `import:${prefix}%`)
      .execute();

  /** Uploaded, then previewed as the jobs loop does it (preview.test.ts covers the phase itself). */
  async function stageAndPreview(
    ...args: Parameters<typeof stageImport> extends [unknown, ...infer Rest] ? Rest : never
  ): Promise<ImportJob> {
    const uploaded = await stageImport(database.db, ...args);
    expect(uploaded).toMatchObject({ status: 'previewing', preview: null });
    expect(await previewImportJob(database.db, uploaded.id)).toBe('staged');
    return (await readImport(database.db, 'acme', uploaded.id))!;
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
  });
  afterAll(() => database.drop());

  it('previews a points file (added, unchanged, rejects with line numbers, unknown usernames, points in and out) writing nothing, then runs it', async () => {
    const demoBefore = await balanceOf('demo');
    const job = await stageAndPreview(
      actor,
      'acme',
      'points',
      'april.csv',
      chunks(
        [
          HEADER,
          'demo,30,2026-04-01,April,p-1',
          'newbie,20,2026-04-01,April,p-2',
          'demo,-10,2026-04-02,Fix,p-3',
          'nobody,5,2026-04-02,x,p-4',
          'demo,abc,2026-04-02,x,p-5',
          'demo,7,2026-04-02,again,p-1',
        ],
        2,
      ),
    );
    expect(job).toMatchObject({ status: 'staged', lines: 6, done: 0, result: null });
    expect(job.preview).toEqual({ added: 3, updated: 0, unchanged: 0, rejected: 3, unknownUsernames: 1, pointsIn: 50, pointsOut: 10 });
    expect(job.rejects).toEqual([
      { line: 5, reason: 'unknown username nobody' },
      { line: 6, reason: expect.stringContaining('points "abc"') },
      { line: 7, reason: 'external_id p-1 repeats line 2' },
    ]);
    expect(await entries('p-')).toEqual([]);
    expect(await balanceOf('demo')).toBe(demoBefore);

    const running = await confirmImport(database.db, actor, 'acme', job.id, 'April points, ticket 20');
    expect(running.status).toBe('running');
    expect(await runImportJob(database.db, job.id)).toBe('done');
    const done = (await readImport(database.db, 'acme', job.id))!;
    expect(done).toMatchObject({ status: 'done', done: 6, result: job.preview });
    expect(done.rejects.map((r) => r.line)).toEqual([5, 6, 7]);
    expect(await balanceOf('demo')).toBe(demoBefore + 20);
    expect((await entries('p-')).length).toBe(3);
    let csv = '';
    for await (const chunk of (await importRejectsCsv(database.db, 'acme', job.id))!) csv += String(chunk);
    expect(csv.split('\r\n')[0]).toBe('line,reason');
    expect(csv).toContain('5,unknown username nobody');
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('subject', '=', 'april.csv')
      // The two may be written within one millisecond: the action orders a tie.
      .orderBy('at')
      .orderBy('action')
      .execute();
    expect(audit).toEqual([
      { action: 'imports.confirm', actor: actor.name },
      { action: 'points.import', actor: actor.name },
    ]);
    await expectLedgerMatchesBalances(database.db);

    // The same file again is all unchanged (the command's idempotence), and a done job cannot be confirmed twice.
    await expect(confirmImport(database.db, actor, 'acme', job.id, 'again please')).rejects.toMatchObject({ statusCode: 409 });
  });

  it('refuses a header of another kind, and a file over the line limit, keeping nothing', async () => {
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await expect(stageImport(database.db, actor, 'acme', 'points', 'x.csv', chunks(['user,pts', 'demo,1']))).rejects.toThrow(
      /unknown column/,
    );
    await expect(
      stageImport(database.db, actor, 'acme', 'points', 'x.csv', chunks([HEADER, 'demo,1,2026-04-01,a,l-1', 'demo,1,2026-04-01,a,l-2']), {
        maxLines: 1,
      }),
    ).rejects.toThrow(/more than 1 lines/);
    await expect(stageImport(database.db, actor, 'acme', 'points', 'x.csv', chunks([]))).rejects.toBeInstanceOf(ApiError);
    expect(await count()).toBe(before);
    expect(
      Number(
        (
          await database.db
            .selectFrom('import_lines')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(0);
  });

  it('previews and runs a participants file: added, updated, unchanged and rejected as the command counts them', async () => {
    const header = 'username,first_name,last_name,email,account_number,locale,merchandise,experiences,ots,status,programs';
    const job = await stageAndPreview(
      actor,
      'acme',
      'participants',
      'people.csv',
      chunks([
        header,
        'ann.new,Ann,New,ann@acme.test,ACC-9001,,true,true,true,pending,',
        'bob.new,Bob,New,not-an-email,ACC-9002,,true,true,true,pending,',
        'ANN.NEW,Ann,Again,ann2@acme.test,ACC-9003,,true,true,true,pending,',
      ]),
    );
    expect(job.preview).toMatchObject({ added: 1, updated: 0, unchanged: 0, rejected: 2 });
    expect(job.rejects.map((r) => r.line)).toEqual([3, 4]);
    expect(job.rejects[1]!.reason).toContain('repeats line 2');
    await confirmImport(database.db, actor, 'acme', job.id, 'new starters');
    expect(await runImportJob(database.db, job.id)).toBe('done');
    expect((await readImport(database.db, 'acme', job.id))!.result).toMatchObject({ added: 1, rejected: 2 });
    const again = await stageAndPreview(
      actor,
      'acme',
      'participants',
      'people.csv',
      chunks([header, 'ann.new,Ann,New,ann@acme.test,ACC-9001,,true,true,true,pending,']),
    );
    expect(again.preview).toMatchObject({ added: 0, unchanged: 1 });
  });

  it('resumes after the process running it stops mid-job: the totals are right and no line is posted twice', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `${i % 2 ? 'demo' : 'newbie'},${i + 1},2026-05-01,May,r-${i}`);
    const job = await stageAndPreview(actor, 'acme', 'points', 'may.csv', chunks([HEADER, ...lines], 7));
    expect(job.preview).toMatchObject({ added: 40, rejected: 0, pointsIn: (40 * 41) / 2 });
    await confirmImport(database.db, actor, 'acme', job.id, 'May points');
    let clock = Date.now();
    const now = () => new Date(clock);
    // The first process dies after two batches: its lease is never ended.
    const crash = new Error('killed');
    await expect(
      runImportJob(database.db, job.id, {
        batchSize: 10,
        now,
        holder: 'first',
        afterBatch: (done) => {
          if (done >= 20) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect((await readImport(database.db, 'acme', job.id))!).toMatchObject({ status: 'running', done: 20 });
    // Another process: refused while the lease holds, takes over once it lapsed.
    expect(await runImportJob(database.db, job.id, { batchSize: 10, now, holder: 'second' })).toBe('busy');
    clock += 3 * 60_000;
    expect(await runImportJob(database.db, job.id, { batchSize: 10, now, holder: 'second' })).toBe('done');
    const done = (await readImport(database.db, 'acme', job.id))!;
    expect(done).toMatchObject({ status: 'done', done: 40, result: { added: 40, unchanged: 0, rejected: 0, pointsIn: 820 } });
    const posted = await entries('r-');
    expect(posted.length).toBe(40);
    expect(new Set(posted.map((p) => p.reference)).size).toBe(40);
    await expectLedgerMatchesBalances(database.db);
  });

  it('gives the client one job at a time: of 100 confirms at once exactly one starts, the others get 409 naming it', async () => {
    const staged: ImportJob[] = [];
    for (let i = 0; i < 5; i += 1)
      staged.push(await stageAndPreview(actor, 'acme', 'points', `burst-${i}.csv`, chunks([HEADER, `demo,1,2026-06-01,June,b-${i}`])));
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => confirmImport(database.db, actor, 'acme', staged[i % 5]!.id, 'burst test')),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won.length).toBe(1);
    const winner = (won[0] as PromiseFulfilledResult<{ id: string; fileName: string }>).value;
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ statusCode: 409, message: expect.stringContaining(winner.id) });
    const running = await database.db.selectFrom('jobs').select('id').where('status', '=', 'running').execute();
    expect(running).toEqual([{ id: winner.id }]);
    expect(await database.db.selectFrom('job_slots').select('job_id').where('client_id', '=', 'acme').execute()).toEqual([
      { job_id: winner.id },
    ]);
    // Once it ends the slot is free for the next.
    expect(await runImportJob(database.db, winner.id)).toBe('done');
    const next = staged.find((s) => s.id !== winner.id)!;
    expect((await confirmImport(database.db, actor, 'acme', next.id, 'after the burst')).status).toBe('running');
    expect(await runImportJob(database.db, next.id)).toBe('done');
  });

  it('ends a job whose header no longer reads as failed, freeing the slot', async () => {
    const job = await stageAndPreview(actor, 'acme', 'points', 'odd.csv', chunks([HEADER, 'demo,1,2026-06-03,June,f-1']));
    await confirmImport(database.db, actor, 'acme', job.id, 'odd one');
    await database.db
      .updateTable('jobs')
      .set({ params: JSON.stringify({ header: ['who', 'what'] }) })
      .where('id', '=', job.id)
      .execute();
    expect(await runImportJob(database.db, job.id)).toBe('failed');
    expect(await readImport(database.db, 'acme', job.id)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('unknown column'),
    });
    expect(await database.db.selectFrom('job_slots').select('job_id').where('client_id', '=', 'acme').execute()).toEqual([]);
    expect(await entries('f-')).toEqual([]);
  });

  it('stages a large file as it streams: the staged rows keep pace with what was read, in bounded chunks', async () => {
    const total = 50_000;
    let maxLag = 0;
    let read = 0;
    const staged = async () =>
      Number(
        (
          await database.db
            .selectFrom('import_lines')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const base = await staged();
    async function* body() {
      yield `${HEADER}\n`;
      for (let i = 0; i < total; i += 1000) {
        let text = '';
        for (let j = i; j < i + 1000; j += 1) text += `demo,1,2026-07-01,July,s-${j}\n`;
        read += 1000;
        maxLag = Math.max(maxLag, read - ((await staged()) - base));
        yield text;
      }
    }
    const job = await stageAndPreview(actor, 'acme', 'points', 'big.csv', body());
    expect(job).toMatchObject({ lines: total, preview: { added: total, rejected: 0, pointsIn: total } });
    // What is in memory at any time: the parser's buffers and one chunk of 500 rows, not the file.
    expect(maxLag).toBeLessThan(5_000);
  }, 120_000);
});
