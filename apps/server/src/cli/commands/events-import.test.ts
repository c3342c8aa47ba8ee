import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRewards } from '../../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { addGeneratedParticipants, generatedUsername } from '../../../test/points-files.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { createRule } from '../../modules/earning-rules/service.ts';

/** `rewards events import` (issue 32 §1, decision 099): the console's events import job, run by the command. */
describe.each(dialects)('rewards events import on %s', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const clientId = `evimp-${randomBytes(4).toString('hex')}`;
  const [alice, bob] = [generatedUsername(0), generatedUsername(1)];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await insertTestClient(database.db, clientId, { time_zone: 'Europe/Paris' });
    await addGeneratedParticipants(database.db, clientId, 2);
    const operator = { kind: 'operator' as const, name: 'ops', origin: 'test' };
    const launched = { now: new Date('2026-01-01T00:00:00Z') };
    await createRule(
      database.db,
      operator,
      clientId,
      {
        id: 'per-euro',
        name: 'Store purchases',
        event: 'purchase',
        earn: { pointsPer: 2, per: '1.00' },
        text: { 'en-US': '2 points per euro' },
      },
      'launch',
      launched,
    );
    await createRule(
      database.db,
      operator,
      clientId,
      {
        id: 'held',
        name: 'Welcome',
        event: 'purchase',
        earn: { points: 10 },
        pendingDays: 14,
        caps: { participant: { points: 10, per: 'ever' } },
      },
      'launch',
      launched,
    );
    dir = mkdtempSync(join(tmpdir(), 'events-import-'));
  });
  afterAll(async () => {
    await expectLedgerMatchesBalances(database.db);
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[]) => runRewards(database, ['--operator', 'ops-eve', ...args]);
  const balance = async (username: string) =>
    Number(
      (
        await database.db
          .selectFrom('participants')
          .select('balance')
          .where('client_id', '=', clientId)
          .where('username_key', '=', username)
          .executeTakeFirstOrThrow()
      ).balance ?? 0,
    );

  it('previews with --dry-run (each line its points), asks for --yes, imports once, and a second run is all repeats', async () => {
    const file = join(dir, 'shop.csv');
    writeFileSync(
      file,
      [
        'event_id,type,username,occurred_at,amount,currency,store',
        `s-1,purchase,${alice},2026-06-05T10:00:00+02:00,12.50,EUR,Lyon`,
        `s-2,purchase,${bob},2026-06-05T11:00:00Z,3,EUR,`,
        `s-3,purchase,${alice},2026-06-06T10:00:00Z,7.99,EUR,Paris`,
        `s-4,purchase,nobody,2026-06-06T10:00:00Z,1,EUR,Paris`,
      ].join('\n'),
    );
    const dry = await run(['events', 'import', '--client', clientId, '--file', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Events (dry run: nothing posted) from');
    expect(dry.stdout).toContain('3 added, 0 updated, 0 unchanged, 1 rejected.');
    expect(dry.stdout).toContain('line 5: No participant "nobody" in this program');
    expect(dry.stdout).toContain('points: 46 credited, 20 pending');
    expect(dry.stdout).toContain(`line 2 s-1 ${alice}: added, 25 points (+10 pending): Welcome 10 (pending 14 days) + Store purchases 25`);
    expect(dry.stdout).toContain(`line 4 s-3 ${alice}: added, 15 points: Store purchases 15`);
    expect(await balance(alice)).toBe(0);

    const refused = await run(['events', 'import', '--client', clientId, '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Add --dry-run to see what');
    expect(await balance(alice)).toBe(0);

    const done = await runRewards(database, [
      '--operator',
      'ops-eve',
      '--json',
      'events',
      'import',
      '--client',
      clientId,
      '--file',
      file,
      '--yes',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      dryRun: false,
      lines: 4,
      added: 3,
      unchanged: 0,
      rejected: 1,
      pointsIn: 46,
      pendingPoints: 20,
    });
    expect([await balance(alice), await balance(bob)]).toEqual([40, 6]);

    const again = await run(['events', 'import', '--client', clientId, '--file', file, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 added, 0 updated, 3 unchanged, 1 rejected.');
    expect([await balance(alice), await balance(bob)]).toEqual([40, 6]);
  });

  it('takes a return line: the dry run shows what it takes back, the import takes it once', async () => {
    const file = join(dir, 'returns.csv');
    writeFileSync(
      file,
      [
        'id,type,username,occurredAt,amount,currency,ref.originalEventId',
        `t-1,purchase,${bob},2026-07-01T10:00:00Z,20,EUR,`,
        `t-2,return,${bob},2026-07-02T10:00:00Z,5,EUR,t-1`,
        `t-3,return,${bob},2026-07-02T10:00:00Z,,,t-9`,
      ].join('\n'),
    );
    const before = await balance(bob);
    const dry = await run(['events', 'import', '--client', clientId, '--file', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('points: 40 credited, 0 pending, 10 taken back by returns');
    expect(dry.stdout).toContain(`line 3 t-2 ${bob}: returned, -10 points: Return of t-1: Store purchases -10`);
    expect(dry.stdout).toContain('line 4: No event "t-9" in this program to return: send the original event first');
    const done = await run(['events', 'import', '--client', clientId, '--file', file, '--yes']);
    expect(done.code, done.stderr).toBe(0);
    expect(await balance(bob)).toBe(before + 30);
    const again = await run(['events', 'import', '--client', clientId, '--file', file, '--yes']);
    expect(again.stdout).toContain('0 added, 0 updated, 2 unchanged, 1 rejected.');
    expect(await balance(bob)).toBe(before + 30);
  });

  it('refuses a file whose header is not an events file, importing nothing', async () => {
    const file = join(dir, 'points.csv');
    writeFileSync(file, ['username,points,date,description,external_id', `${alice},5,2026-06-01,x,p-1`].join('\n'));
    const refused = await run(['events', 'import', '--client', clientId, '--file', file, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('missing column(s) type, occurredAt; the header is id,type,username,occurredAt');
  });
});
