import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../db/seed/demo.ts';
import { REWARDS_CLI, runRewards, rewardsJson, databaseUrlOf } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../test/ledger-invariant.ts';
import { addGeneratedParticipants, writePointsFile } from '../../test/points-files.ts';

/** Several CLI processes in one story (each ~0.5 s, more on a busy machine). */
const CLI_STORY = 180_000;
/** The first batch of 500 lines commits in well under a second; a stuck import fails the test. */
const FIRST_BATCH_DEADLINE_MS = 60_000;

interface ImportJson {
  lines: number;
  added: number;
  unchanged: number;
  rejected: number;
  rejects: Array<{ line: number; reason: string }>;
}

describe.each(dialects)('rewards points on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    dir = mkdtempSync(join(tmpdir(), 'rewards-points-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const balanceOf = async (username: string, clientId = 'acme') =>
    (
      await database.db
        .selectFrom('participants')
        .select('balance')
        .where('client_id', '=', clientId)
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).balance ?? 0;
  const entriesWith = (reference: string) =>
    database.db.selectFrom('ledger_entries').selectAll().where('client_id', '=', 'acme').where('reference', '=', reference).execute();

  it(
    'awards and adjusts one participant, refusing a debit the balance does not cover',
    async () => {
      const before = await balanceOf('newbie');
      const award = await rewardsJson<{ balance: number }>(database, [
        'points',
        'award',
        '--client',
        'acme',
        '--username',
        'NEWBIE',
        '--points',
        '150',
        '--reason',
        'Top seller, March',
        '--date',
        '2026-03-31',
        '--operator',
        'ops-anna',
      ]);
      expect(award.balance).toBe(before + 150);
      const adjust = await rewardsJson<{ balance: number }>(database, [
        'points',
        'adjust',
        '--client',
        'acme',
        '--username',
        'newbie',
        '--points=-40',
        '--reason',
        'ticket 4711: posted twice',
      ]);
      expect(adjust.balance).toBe(before + 110);

      const tooMuch = await runRewards(database, [
        'points',
        'adjust',
        '--client',
        'acme',
        '--username',
        'newbie',
        '--points=-1000000',
        '--reason',
        'typo',
      ]);
      expect(tooMuch.code).toBe(2);
      expect(tooMuch.stderr).toContain('does not cover -1000000; nothing was posted');
      const unknown = await runRewards(database, [
        'points',
        'award',
        '--client',
        'acme',
        '--username',
        'nobody',
        '--points',
        '5',
        '--reason',
        'x',
      ]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No participant "nobody"');
      expect(await balanceOf('newbie')).toBe(before + 110);
      const noted = await rewardsJson<{ balance: number }>(database, [
        'points',
        'adjust',
        '--client',
        'acme',
        '--username',
        'newbie',
        '--points',
        '5',
        '--reason',
        'goodwill gesture',
        '--description',
        'Welcome back',
        '--note',
        'ticket 4712: call with Nina',
        '--operator',
        'ops-bob',
      ]);
      expect(noted.balance).toBe(before + 115);

      // The participant reads the award's reason; an adjustment's reason stays with the operators (its internal note).
      const entries = await database.db
        .selectFrom('ledger_entries as e')
        .innerJoin('participants as p', 'p.id', 'e.participant_id')
        .select([
          'e.amount',
          'e.kind',
          'e.occurred_at',
          'e.description',
          'e.description_key',
          'e.description_params',
          'e.internal_note',
          'e.posted_by',
        ])
        .where('p.username', '=', 'newbie')
        .where('e.kind', 'in', ['award', 'adjustment'])
        .orderBy('e.created_at')
        .execute();
      expect(entries.slice(-3)).toMatchObject([
        {
          amount: 150,
          kind: 'award',
          occurred_at: '2026-03-31T12:00:00.000Z',
          description_key: 'ledger.operator.award',
          description_params: '{"description":"Top seller, March"}',
        },
        {
          amount: -40,
          kind: 'adjustment',
          description: 'Balance adjustment',
          description_key: 'ledger.operator.adjustment',
          description_params: null,
          internal_note: 'ticket 4711: posted twice',
        },
        {
          amount: 5,
          kind: 'adjustment',
          description: 'Balance adjustment: Welcome back',
          description_key: 'ledger.operator.adjustmentNote',
          description_params: '{"description":"Welcome back"}',
          internal_note: 'ticket 4712: call with Nina',
          posted_by: 'ops-bob',
        },
      ]);
      const audit = await rewardsJson<Array<{ actor: string; action: string; subject: string; details: unknown }>>(database, [
        'audit',
        '--client',
        'acme',
        '--action',
        'points',
      ]);
      expect(audit.map((a) => a.action)).toEqual(['points.adjust', 'points.adjust', 'points.award']);
      const newbieId = (
        await database.db
          .selectFrom('participants')
          .select('id')
          .where('client_id', '=', 'acme')
          .where('username', '=', 'newbie')
          .executeTakeFirstOrThrow()
      ).id;
      expect(audit[0]).toMatchObject({
        actor: 'ops-bob',
        subject: newbieId,
        details: { username: 'newbie', points: 5, reason: 'goodwill gesture' },
      });
      expect(audit[2]).toMatchObject({ actor: 'ops-anna', subject: 'newbie', details: { points: 150, reason: 'Top seller, March' } });
      await expectLedgerMatchesBalances(database.db);
    },
    CLI_STORY,
  );

  it(
    "sets the agents' daily adjustment limit with the console's service, audited; a bad value changes nothing",
    async () => {
      const limitOf = async () =>
        (await database.db.selectFrom('clients').select('agent_daily_adjustment_limit').where('id', '=', 'acme').executeTakeFirstOrThrow())
          .agent_daily_adjustment_limit;
      const set = await rewardsJson<{ changed: string[] }>(database, [
        'clients',
        'update',
        '--client',
        'acme',
        '--agent-daily-limit',
        '250',
        '--operator',
        'ops-anna',
      ]);
      expect(set.changed).toEqual(['agentDailyAdjustmentLimit']);
      expect(await limitOf()).toBe(250);
      const bad = await runRewards(database, ['clients', 'update', '--client', 'acme', '--agent-daily-limit=-5']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--agent-daily-limit must be a whole number from 0 to 100000000');
      expect(await limitOf()).toBe(250);
      const [audit] = await rewardsJson<Array<{ actor: string; subject: string; details: unknown }>>(database, [
        'audit',
        '--client',
        'acme',
        '--action',
        'clients.settings',
      ]);
      expect(audit).toMatchObject({ actor: 'ops-anna', subject: 'acme', details: { agentDailyAdjustmentLimit: { from: 1000, to: 250 } } });
    },
    CLI_STORY,
  );

  it(
    'imports a file of good and bad lines, and a second run posts nothing twice',
    async () => {
      const file = join(dir, 'march.csv');
      const rejects = join(dir, 'march-rejects.csv');
      const spentBefore = await balanceOf('spent');
      // Columns in another order than the documented one; the header names them.
      writeFileSync(
        file,
        [
          'external_id,username,date,points,description',
          'm-1,demo,2026-03-01,100,March target met', // 2
          'm-2,spent,2026-03-02,250,', // 3: no description, a translated default
          'm-3,nobody,2026-03-02,10,x', // 4: unknown username
          'm-4,demo,2026-03-02,12.5,x', // 5: not a whole number
          'm-5,demo,2026-02-30,10,x', // 6: no such day
          ',demo,2026-03-02,10,x', // 7: no external_id
          'm-1,demo,2026-03-01,100,March target met', // 8: repeats line 2
          `m-6,spent,2026-03-03,-${spentBefore + 250 + 1},correction`, // 9: more than spent has, even after line 3
          'm-7,spent,2026-03-03,-200,"Correction, duplicate posting"', // 10: covered thanks to line 3
          'm-8,demo,2026-03-04T09:30:00+02:00,5,Early bird', // 11
          'm-9,demo,2026-03-04,5,a "quoted" word', // 12: not CSV (quotes inside an unquoted field)
        ].join('\n'),
      );
      const first = await rewardsJson<ImportJson>(database, ['points', 'import', file, '--client', 'acme', '--rejects', rejects]);
      expect(first).toMatchObject({ lines: 11, added: 4, unchanged: 0, rejected: 7 });
      expect(first.rejects).toEqual([
        { line: 4, reason: 'unknown username nobody' },
        { line: 5, reason: expect.stringContaining('points "12.5" is not a whole number') },
        { line: 6, reason: expect.stringContaining('date "2026-02-30" is not a date') },
        { line: 7, reason: 'external_id is missing' },
        { line: 8, reason: 'external_id m-1 repeats line 2' },
        { line: 9, reason: expect.stringContaining('would take the balance of spent below zero') },
        { line: 12, reason: expect.stringContaining('unreadable CSV') },
      ]);
      expect(readFileSync(rejects, 'utf8').split('\r\n')[0]).toBe('line,reason');
      expect(readFileSync(rejects, 'utf8')).toContain('5,"points ""12.5"" is not a whole number');
      expect(await balanceOf('spent')).toBe(spentBefore + 250 - 200);
      expect(await entriesWith('import:m-2')).toMatchObject([
        { amount: 250, description_key: 'ledger.import.award', description: 'Award received' },
      ]);
      expect(await entriesWith('import:m-8')).toMatchObject([
        {
          occurred_at: '2026-03-04T07:30:00.000Z',
          description_key: 'ledger.import.line',
          description_params: '{"description":"Early bird"}',
        },
      ]);

      const second = await rewardsJson<ImportJson>(database, ['points', 'import', file, '--client', 'acme']);
      expect(second).toMatchObject({ lines: 11, added: 0, unchanged: 4, rejected: 7 });
      for (const reference of ['import:m-1', 'import:m-2', 'import:m-7', 'import:m-8'])
        expect(await entriesWith(reference)).toHaveLength(1);

      // The same external_id with other content is a mistake, not a re-run.
      const changed = join(dir, 'march-changed.csv');
      writeFileSync(changed, 'username,points,date,description,external_id\ndemo,999,2026-03-01,March target met,m-1\n');
      const third = await runRewards(database, ['points', 'import', changed, '--client', 'acme']);
      expect(third.code).toBe(0);
      expect(third.stdout).toContain('0 added, 0 updated, 0 unchanged, 1 rejected');
      expect(third.stdout).toContain('line 2: external_id m-1 was already posted with different content');

      const badHeader = join(dir, 'bad-header.csv');
      writeFileSync(badHeader, 'user,points,date,description,external_id\n');
      const refused = await runRewards(database, ['points', 'import', badHeader, '--client', 'acme']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('unknown column(s) user');
      expect((await runRewards(database, ['points', 'import', join(dir, 'missing.csv'), '--client', 'acme'])).stderr).toContain(
        'no such file',
      );

      const audit = await rewardsJson<Array<{ action: string; details: unknown }>>(database, [
        'audit',
        '--client',
        'acme',
        '--action',
        'points.import',
      ]);
      // The import job's closing audit (decision 091): its counts, and the job.
      expect(audit.map((a) => a.details)).toMatchObject([
        { lines: 1, added: 0, unchanged: 0, rejected: 1, job: expect.any(String) },
        { lines: 11, added: 0, unchanged: 4, rejected: 7, job: expect.any(String) },
        { lines: 11, added: 4, unchanged: 0, rejected: 7, job: expect.any(String) },
      ]);
      await expectLedgerMatchesBalances(database.db);
    },
    CLI_STORY,
  );

  it(
    'finishes an import killed half-way when run again, with every line posted once',
    async () => {
      await addGeneratedParticipants(database.db, 'acme', 300);
      const file = join(dir, 'big.csv');
      const lines = 20_000;
      await writePointsFile(file, { lines, participants: 300, prefix: 'kill' });
      const posted = async () =>
        Number(
          (
            await database.db
              .selectFrom('ledger_entries')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('client_id', '=', 'acme')
              .where('reference', 'like', 'import:kill-%')
              .executeTakeFirstOrThrow()
          ).n,
        );

      const child = spawn(process.execPath, [REWARDS_CLI, 'points', 'import', file, '--client', 'acme', '--batch-size', '500'], {
        env: { ...process.env, DATABASE_URL: databaseUrlOf(database), LOG_LEVEL: 'silent' },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Killed as soon as the first batch is committed: a kill -9 gives it no time to tidy up.
      const deadline = Date.now() + FIRST_BATCH_DEADLINE_MS;
      while ((await posted()) === 0) {
        if (child.exitCode !== null) throw new Error(`the import ended (exit ${child.exitCode}) before a batch was seen`);
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`no batch committed within ${FIRST_BATCH_DEADLINE_MS} ms`);
        }
        await sleep(20);
      }
      child.kill('SIGKILL');
      expect(await exited).toBeNull();
      const afterKill = await posted();
      expect(afterKill).toBeGreaterThan(0);
      expect(afterKill).toBeLessThan(lines);
      await expectLedgerMatchesBalances(database.db);

      const rerun = await rewardsJson<ImportJson>(database, ['points', 'import', file, '--client', 'acme', '--batch-size', '5000']);
      expect(rerun.lines).toBe(lines);
      expect(rerun.unchanged).toBeGreaterThanOrEqual(afterKill);
      expect(rerun.added + rerun.unchanged + rerun.rejected).toBe(lines);
      expect(rerun.rejects.every((r) => r.reason.includes('below zero'))).toBe(true);
      const total = await posted();
      expect(total).toBe(rerun.added + rerun.unchanged);
      const distinct = await database.db
        .selectFrom('ledger_entries')
        .select((eb) => eb.fn.count('reference').distinct().as('n'))
        .where('client_id', '=', 'acme')
        .where('reference', 'like', 'import:kill-%')
        .executeTakeFirstOrThrow();
      expect(Number(distinct.n)).toBe(total);
      await expectLedgerMatchesBalances(database.db);
    },
    CLI_STORY,
  );
});
