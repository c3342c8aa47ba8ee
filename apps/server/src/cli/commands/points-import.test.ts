import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { runImportCommand } from '../import-job.ts';
import { operatorOrigin } from './audit.ts';

// In-process, where the CLI tests cannot look: the job the command runs, and the connection it leaves behind.
describe.each(dialects)('rewards points import as the import job on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const pragma = async (name: string) => Number(Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0]);
  const settings = async () =>
    dialect === 'sqlite' ? Promise.all(['foreign_keys', 'wal_autocheckpoint', 'cache_size', 'temp_store'].map(pragma)) : [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    dir = mkdtempSync(join(tmpdir(), 'points-import-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('previews with --dry-run, then posts each line once in small batches as a job, and gives the connection back as it found it', async () => {
    const before = await settings();
    const file = join(dir, 'april.csv');
    writeFileSync(
      file,
      [
        'username,points,date,description,external_id',
        'demo,30,2026-04-01,April,a-1',
        'newbie,20,2026-04-01,April,a-2',
        'demo,-10,2026-04-02,Fix,a-3',
        'nobody,5,2026-04-02,x,a-4',
        'newbie,-1000000,2026-04-03,Too much,a-5',
      ].join('\n'),
    );
    const run = (dryRun = false) =>
      runImportCommand(database.db, { kind: 'points', clientId: 'acme', file, operator: 'ops-test', batchSize: 2, dryRun });
    const entries = async () =>
      (await database.db.selectFrom('ledger_entries').select('id').where('reference', 'like', 'import:a-%').execute()).length;

    const dry = await run(true);
    expect(dry).toMatchObject({ dryRun: true, lines: 5, added: 3, unchanged: 0, rejected: 2 });
    expect(dry.rejects.map((r) => r.line)).toEqual([5, 6]);
    expect(await entries()).toBe(0);
    const first = await run();
    expect(first).toMatchObject({ dryRun: false, lines: 5, added: 3, unchanged: 0, rejected: 2 });
    expect(first.rejects).toEqual([
      { line: 5, reason: 'unknown username nobody' },
      { line: 6, reason: expect.stringContaining('would take the balance of newbie below zero') },
    ]);
    expect(await run()).toMatchObject({ lines: 5, added: 0, unchanged: 3, rejected: 2 });
    expect(await entries()).toBe(3);

    // The job's own audit, as the operator at this host; the console lists the jobs.
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'actor_kind', 'origin'])
      .where('client_id', '=', 'acme')
      .where('action', 'in', ['points.import', 'imports.confirm', 'imports.discard'])
      .execute();
    expect(audit.map((a) => [a.action, a.actor, a.actor_kind, a.origin]).sort()).toEqual([
      ['imports.confirm', 'ops-test', 'operator', operatorOrigin],
      ['imports.confirm', 'ops-test', 'operator', operatorOrigin],
      ['imports.discard', 'ops-test', 'operator', operatorOrigin],
      ['points.import', 'ops-test', 'operator', operatorOrigin],
      ['points.import', 'ops-test', 'operator', operatorOrigin],
    ]);
    const jobs = await database.db
      .selectFrom('jobs')
      .select('status')
      .where('id', 'in', [dry.job, first.job])
      .orderBy('created_at')
      .execute();
    expect(jobs.map((j) => j.status)).toEqual(['discarded', 'done']);
    if (dialect === 'sqlite') {
      expect(await settings()).toEqual(before);
      expect(before[0]).toBe(1);
    }
    await expectLedgerMatchesBalances(database.db);
  });
});
