import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type StatementReply } from '@rewards/contract';
import { appendLedgerEntry } from '../modules/ledger/store.ts';
import { move, setPolicy } from '../modules/expiry/test-support.ts';
import { runRewards, rewardsJson } from '../../test/cli.ts';
import { dialects } from '../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../test/ledger-invariant.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const SLOW = 120_000;
const BOM = '\uFEFF';

/** The CSV rows the API's statement should give: the web download's columns, dates in UTC. */
function expectedRows(reply: StatementReply): string[][] {
  let balance = 0;
  return reply.accountHistoryList.map((entry) => {
    balance += entry.amountOrAward;
    const description = /^[=+\-@\t\r]/.test(entry.description) ? `'${entry.description}` : entry.description;
    return [new Date(entry.date).toISOString().slice(0, 19).replace('T', ' '), description, String(entry.amountOrAward), String(balance)];
  });
}

describe.each(dialects)('rewards statements export on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'statements-cli-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const apiStatement = async (username: string, locale: string) => {
    const { sessionId } = await t.login(username);
    const reply = await t.api('GET', apiPaths.statement(username, locale), { session: sessionId });
    expect(reply.statusCode).toBe(200);
    return reply.json<StatementReply>();
  };
  const readCsv = async (path: string) => {
    const text = await readFile(path, 'utf8');
    expect(text.startsWith(BOM)).toBe(true);
    expect(text).toContain('\r\n');
    return parse(text, { bom: true }) as string[][];
  };

  it(
    "writes a participant's statement with the API's rows, balances and descriptions, in their language or another",
    async () => {
      // A description a spreadsheet would run as a formula, written by an operator.
      await t.database.db.transaction().execute(async (trx) => {
        const merch = await trx
          .selectFrom('participants')
          .select('id')
          .where('client_id', '=', 'acme')
          .where('username_key', '=', 'merch')
          .executeTakeFirstOrThrow();
        await appendLedgerEntry(trx, {
          clientId: 'acme',
          participantId: merch.id,
          occurredAt: '2026-11-01T08:00:00.000Z',
          description: '=HYPERLINK("http://evil.example")',
          amount: 5,
          kind: 'adjustment',
        });
      });

      const demoFile = join(dir, 'demo.csv');
      const summary = await rewardsJson<{ rows: number; participants: number }>(t.database, [
        'statements',
        'export',
        '--client',
        'acme',
        '--username',
        'DEMO',
        '--out',
        demoFile,
      ]);
      const demoApi = await apiStatement('demo', 'en-US');
      expect(summary).toMatchObject({ participants: 1, rows: demoApi.accountHistoryList.length });
      const demoCsv = await readCsv(demoFile);
      expect(demoCsv[0]).toEqual(['Date', 'Description', 'Points', 'Balance after']);
      expect(demoCsv.slice(1)).toEqual(expectedRows(demoApi));
      expect(demoCsv.at(-1)?.[3]).toBe('12500');

      // Merch reads Arabic: her statement is in Arabic unless a locale is asked for.
      const merchFile = join(dir, 'merch.csv');
      await rewardsJson(t.database, ['statements', 'export', '--client', 'acme', '--username', 'merch', '--out', merchFile]);
      const merchCsv = await readCsv(merchFile);
      expect(merchCsv[0]).toEqual(['التاريخ', 'الوصف', 'النقاط', 'الرصيد بعد العملية']);
      expect(merchCsv.slice(1)).toEqual(expectedRows(await apiStatement('merch', 'ar')));
      expect(merchCsv.map((row) => row[1])).toContain(`'=HYPERLINK("http://evil.example")`);

      const frFile = join(dir, 'demo-fr.csv');
      await rewardsJson(t.database, [
        'statements',
        'export',
        '--client',
        'acme',
        '--username',
        'demo',
        '--locale',
        'fr-fr',
        '--out',
        frFile,
      ]);
      expect((await readCsv(frFile)).slice(1)).toEqual(expectedRows(await apiStatement('demo', 'fr-FR')));
      await expectLedgerMatchesBalances(t.database.db);
    },
    SLOW,
  );

  it(
    "shows the expiry run's entries like any other (issue 19)",
    async () => {
      const db = t.database.db;
      const newbie = await db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', 'acme')
        .where('username_key', '=', 'newbie')
        .executeTakeFirstOrThrow();
      await setPolicy(db, 'acme', { type: 'rolling', months: 1 });
      await move(db, 'acme', newbie.id, 40, '2025-01-10T10:00:00.000Z');
      await setPolicy(db, 'acme', { type: 'none' });
      expect((await runRewards(t.database, ['points', 'expire', '--client', 'acme'])).code).toBe(0);

      const file = join(dir, 'newbie.csv');
      await rewardsJson(t.database, [
        'statements',
        'export',
        '--client',
        'acme',
        '--username',
        'newbie',
        '--locale',
        'en-US',
        '--out',
        file,
      ]);
      const rows = (await readCsv(file)).slice(1);
      expect(rows).toEqual(expectedRows(await apiStatement('newbie', 'en-US')));
      expect(rows.filter((row) => row[1] === 'Points expired').map((row) => row[2])).toEqual(['-40']);
      await expectLedgerMatchesBalances(db);
    },
    SLOW,
  );

  it(
    'writes every participant of one client in one file with a username column, and to stdout without --out',
    async () => {
      const allFile = join(dir, 'all.csv');
      const summary = await rewardsJson<{ rows: number; participants: number }>(t.database, [
        'statements',
        'export',
        '--client',
        'acme',
        '--all',
        '--out',
        allFile,
      ]);
      const all = await readCsv(allFile);
      expect(all[0]).toEqual(['username', 'Date', 'Description', 'Points', 'Balance after']);
      expect(all.length - 1).toBe(summary.rows);
      const counts = await t.database.db.selectFrom('participants').select(['participants.id']).where('client_id', '=', 'acme').execute();
      expect(summary.participants).toBe(counts.length);
      // Globex has a "demo" too: only acme's rows are here, equal to her own export.
      const demoRows = all.filter((row) => row[0] === 'demo').map((row) => row.slice(1));
      expect(demoRows).toEqual(expectedRows(await apiStatement('demo', 'en-US')));
      const spentRows = all.filter((row) => row[0] === 'spent');
      expect(spentRows.at(-1)?.[4]).toBe('0');

      const stdout = await runRewards(t.database, ['statements', 'export', '--client', 'acme', '--username', 'spent']);
      expect(stdout.code).toBe(0);
      expect((parse(stdout.stdout, { bom: true }) as string[][]).slice(1)).toEqual(spentRows.map((row) => row.slice(1)));
      expect(stdout.stderr.trim()).toBe(`Exported ${spentRows.length} entries of 1 participant(s) of acme.`);

      const refusals = await Promise.all([
        runRewards(t.database, ['statements', 'export', '--client', 'acme']),
        runRewards(t.database, ['statements', 'export', '--client', 'acme', '--username', 'demo', '--locale', 'de-DE']),
        runRewards(t.database, ['statements', 'export', '--client', 'acme', '--username', 'nobody']),
      ]);
      expect(refusals.map((r) => [r.code, r.stderr.trim()])).toEqual([
        [2, 'rewards: Give either --username <name> or --all'],
        [2, "rewards: --locale must be one of the client's locales (en-US, fr-FR, ar)"],
        [2, 'rewards: No participant "nobody" in client "acme"'],
      ]);
      const audit = await rewardsJson<Array<{ subject: string }>>(t.database, [
        'audit',
        '--action',
        'statements.export',
        '--client',
        'acme',
        '--limit',
        '2',
      ]);
      expect(audit.map((a) => a.subject)).toEqual(['spent', '*']);
    },
    SLOW,
  );
});
