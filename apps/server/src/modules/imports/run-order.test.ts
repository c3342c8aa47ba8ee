import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { addGeneratedParticipants, generatedUsername } from '../../../test/points-files.ts';
import { previewImportJob } from './preview.ts';
import { participantOrder } from './run-order.ts';
import { runImportJob } from './run.ts';
import { confirmImport, importRejects, readImport, stageImport, type ImportActor } from './service.ts';
import { pointsFile } from './test-support.ts';

const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };

/**
 * A points job runs by participant, not in the file's order (run-order.ts, decision 091 amended):
 * the outcome of every line must be the one the file's order gives, as the preview (which walks
 * the file's order) promised.
 */
describe.each(dialects)('the run of a points import in participant order on %s', (dialect) => {
  let database: TestDatabase;
  // Usernames sort in this order: a < b < c. The file names them out of that order.
  const [a, b, c] = [0, 1, 2].map(generatedUsername) as [string, string, string];
  const balanceOf = async (username: string) =>
    (
      await database.db
        .selectFrom('participants')
        .select('balance')
        .where('client_id', '=', 'acme')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).balance;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    // This file's own database: no other test's lines move their balances.
    await addGeneratedParticipants(database.db, 'acme', 3);
  });
  afterAll(() => database.drop());

  /** Lines 2… of the file; comments say why each is there. */
  const LINES = [
    `${c},100,2026-05-01,C earns,ord-1`, // 2
    `${b},-10,2026-05-01,B spends first,ord-2`, // 3: refused, b has nothing yet in the file's order
    `${a},50,2026-05-01,A earns,ord-3`, // 4
    `${b},30,2026-05-01,B earns,ord-4`, // 5
    `${a},-40,2026-05-01,A spends,ord-5`, // 6: covered by line 4
    `${c},-60,2026-05-01,C spends,ord-6`, // 7: covered by line 2
    `${a},5,2026-05-01,A again,ord-1`, // 8: repeats line 2's external id, though A runs before C
    `nobody-here,5,2026-05-01,Unknown,ord-7`, // 9
    `${b},-25,2026-05-01,B spends,ord-8`, // 10: covered by line 5
    `${c},-50,2026-05-01,C spends too much,ord-9`, // 11: refused, 40 left
    `${a},-10,2026-05-01,A spends the rest,ord-10`, // 12
  ];

  it("groups each participant's lines in file order, the lines without a username first", async () => {
    const job = await stageImport(database.db, actor, 'acme', 'points', 'order.csv', pointsFile([...LINES, 'x,"unclosed']));
    const order = await participantOrder(database.db, job.id, 0, 1);
    // Line 9 (no such participant) sorts by its username like any other; the unreadable line 13 has none.
    expect(Array.from(order)).toEqual([13, 9, 4, 6, 8, 12, 3, 5, 10, 2, 7, 11]);
  });

  it('posts what the preview promised, line by line, and resumes from its position after a crash', async () => {
    const uploaded = await stageImport(database.db, actor, 'acme', 'points', 'order.csv', pointsFile(LINES));
    expect(await previewImportJob(database.db, uploaded.id)).toBe('staged');
    const previewed = (await readImport(database.db, 'acme', uploaded.id))!;
    const previewRejects = await importRejects(database.db, uploaded.id, 'preview', 0, 100);
    expect(previewRejects.map((r) => r.line)).toEqual([3, 8, 9, 11]);
    await confirmImport(database.db, actor, 'acme', uploaded.id, 'order');
    const confirmed = await database.db.selectFrom('jobs').select('params').where('id', '=', uploaded.id).executeTakeFirstOrThrow();
    expect(JSON.parse(confirmed.params)).toMatchObject({ order: 'participant' });

    let clock = Date.now();
    const now = () => new Date(clock);
    const crash = new Error('killed');
    await expect(
      runImportJob(database.db, uploaded.id, {
        batchSize: 3,
        now,
        holder: 'first',
        afterBatch: (done) => {
          if (done >= 6) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect((await readImport(database.db, 'acme', uploaded.id))!).toMatchObject({ status: 'running', done: 6 });
    clock += 3 * 60_000;
    expect(await runImportJob(database.db, uploaded.id, { batchSize: 3, now, holder: 'second' })).toBe('done');

    const ran = (await readImport(database.db, 'acme', uploaded.id))!;
    expect(ran).toMatchObject({ status: 'done', done: 11 });
    expect(ran.result).toEqual(previewed.preview);
    expect(ran.result).toMatchObject({ added: 7, rejected: 4, unknownUsernames: 1, pointsIn: 180, pointsOut: 135 });
    expect(await importRejects(database.db, uploaded.id, 'run', 0, 100)).toEqual(previewRejects);
    expect([await balanceOf(a), await balanceOf(b), await balanceOf(c)].map(Number)).toEqual([0, 5, 40]);
    await expectLedgerMatchesBalances(database.db);
  });

  it("runs a job confirmed before the participant order in the file's order, its cursor a line number", async () => {
    const lines = [`${a},7,2026-06-01,A,old-1`, `${b},8,2026-06-01,B,old-2`, `${a},-7,2026-06-01,A,old-3`];
    const uploaded = await stageImport(database.db, actor, 'acme', 'points', 'old.csv', pointsFile(lines));
    expect(await previewImportJob(database.db, uploaded.id)).toBe('staged');
    await confirmImport(database.db, actor, 'acme', uploaded.id, 'old');
    // As confirmImport wrote params before 2026-11-28: no order.
    const row = await database.db.selectFrom('jobs').select('params').where('id', '=', uploaded.id).executeTakeFirstOrThrow();
    const { order: _order, ...params } = JSON.parse(row.params) as { order?: string };
    await database.db
      .updateTable('jobs')
      .set({ params: JSON.stringify(params) })
      .where('id', '=', uploaded.id)
      .execute();
    const cursors: number[] = [];
    const cursor = async () =>
      Number((await database.db.selectFrom('jobs').select('cursor').where('id', '=', uploaded.id).executeTakeFirstOrThrow()).cursor);
    expect(await runImportJob(database.db, uploaded.id, { batchSize: 1, afterBatch: async () => void cursors.push(await cursor()) })).toBe(
      'done',
    );
    expect(cursors).toEqual([2, 3, 4]);
    expect((await readImport(database.db, 'acme', uploaded.id))!.result).toMatchObject({ added: 3, rejected: 0 });
  });
});
