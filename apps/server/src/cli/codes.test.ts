import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { seedDemo } from '../db/seed/demo.ts';
import { OTS_ALPHABET } from '../modules/ots/code.ts';
import { appOver, type AppOver } from '../../test/app-over.ts';
import { runRewards, rewardsJson } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../test/ledger-invariant.ts';

/** Several CLI processes in one story (each ~0.5 s, more on a busy machine). */
const CLI_STORY = 120_000;
const CODE = new RegExp(`^[${OTS_ALPHABET}]{4}(-[${OTS_ALPHABET}]{4}){3}$`);

interface BatchState {
  total: number;
  unused: number;
  redeemed: number;
  void: number;
  expired: number;
  codes: Array<{ hint: string; state: string; redeemedBy: string | null }>;
}

describe.each(dialects)('rewards codes on %s', (dialect) => {
  let database: TestDatabase;
  let portal: AppOver;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    portal = await appOver(database);
    dir = mkdtempSync(join(tmpdir(), 'rewards-codes-'));
  });
  afterAll(async () => {
    await portal.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'prints a batch of codes to a file only, which a participant redeems, and never overwrites that file',
    async () => {
      const out = join(dir, 'spring.csv');
      const made = await rewardsJson<{ count: number; batch: string }>(database, [
        'codes',
        'generate',
        '--client',
        'acme',
        '--count',
        '5',
        '--value',
        '300',
        '--batch',
        'spring',
        '--expires',
        '2099-12-31',
        '--out',
        out,
      ]);
      expect(made).toMatchObject({ count: 5, batch: 'spring' });

      const [header, ...lines] = readFileSync(out, 'utf8').trim().split('\r\n');
      expect(header).toBe('code,value,expires_at,batch');
      const codes = lines.map((line) => line.split(',')[0]!);
      expect(codes).toHaveLength(5);
      for (const code of codes) expect(code).toMatch(CODE);
      // The database keeps hashes and the last four characters, never a code itself.
      const stored = await database.db
        .selectFrom('ots_codes')
        .selectAll()
        .where('client_id', '=', 'acme')
        .where('batch', '=', 'spring')
        .execute();
      expect(stored).toHaveLength(5);
      expect(JSON.stringify(stored)).not.toContain(codes[0]!.replaceAll('-', '').slice(0, 8));
      expect(stored.map((c) => c.expires_at)).toEqual(Array(5).fill('2099-12-31T23:59:59.999Z'));

      const again = await runRewards(database, ['codes', 'generate', '--client', 'acme', '--count', '1', '--value', '10', '--out', out]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('exists already');
      expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(6);

      // A participant types it as people do: lower case, with spaces instead of dashes.
      const demo = await portal.login('demo');
      const typed = codes[0]!.toLowerCase().replaceAll('-', ' ');
      const redeemed = await portal.api('POST', '/ots/redeem', { session: demo.sessionId, body: { code: typed, userName: 'demo' } });
      expect(redeemed.statusCode).toBe(200);
      expect(redeemed.json()).toMatchObject({ value: 300 });

      const state = await rewardsJson<BatchState>(database, ['codes', 'list', '--client', 'acme', '--batch', 'spring']);
      expect(state).toMatchObject({ total: 5, unused: 4, redeemed: 1, void: 0, expired: 0 });
      expect(state.codes.find((c) => c.state === 'redeemed')).toMatchObject({ hint: codes[0]!.slice(-4), redeemedBy: 'demo' });

      const audit = await rewardsJson<Array<{ action: string; subject: string; details: unknown }>>(database, [
        'audit',
        '--client',
        'acme',
        '--action',
        'codes',
      ]);
      expect(audit[0]).toMatchObject({ action: 'codes.generate', subject: 'spring', details: { count: 5, value: 300 } });
      await expectLedgerMatchesBalances(database.db);
    },
    CLI_STORY,
  );

  it(
    'voids a code, which the portal then refuses, and voids what is left of a batch',
    async () => {
      const out = join(dir, 'summer.csv');
      await rewardsJson(database, [
        'codes',
        'generate',
        '--client',
        'acme',
        '--count',
        '4',
        '--value',
        '50',
        '--batch',
        'summer',
        '--out',
        out,
      ]);
      const codes = readFileSync(out, 'utf8')
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]!);
      const demo = await portal.login('demo');
      expect(
        (await portal.api('POST', '/ots/redeem', { session: demo.sessionId, body: { code: codes[0], userName: 'demo' } })).statusCode,
      ).toBe(200);

      const voided = await runRewards(database, ['codes', 'void', '--client', 'acme', '--code', codes[1]!]);
      expect(voided.code).toBe(0);
      expect(voided.stdout).toContain('Voided 1 code');
      const refused = await portal.api('POST', '/ots/redeem', { session: demo.sessionId, body: { code: codes[1], userName: 'demo' } });
      expect(refused.statusCode).toBe(410);
      expect(refused.json()).toMatchObject({ errorCode: ErrorCode.otsCodeVoid });

      const redeemedOne = await runRewards(database, ['codes', 'void', '--client', 'acme', '--code', codes[0]!]);
      expect(redeemedOne.code).toBe(2);
      expect(redeemedOne.stderr).toContain('was redeemed already');

      const rest = await rewardsJson<{ voided: number }>(database, ['codes', 'void', '--client', 'acme', '--batch', 'summer']);
      expect(rest.voided).toBe(2);
      const state = await rewardsJson<BatchState>(database, ['codes', 'list', '--client', 'acme', '--batch', 'summer']);
      expect(state).toMatchObject({ total: 4, unused: 0, redeemed: 1, void: 3 });

      const batches = await runRewards(database, ['codes', 'list', '--client', 'acme']);
      expect(batches.stdout).toMatch(/summer\s+4 codes\s+0 unused, 1 redeemed, 3 void, 0 expired/);
      const unknown = await runRewards(database, ['codes', 'void', '--client', 'acme', '--code', 'AAAA-AAAA-AAAA-AAAA']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No such code');
    },
    CLI_STORY,
  );
});
