import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from './import-report.ts';
import { apiPaths, ErrorCode } from '@rewards/contract';
import { runRewards, rewardsJson } from '../../test/cli.ts';
import { dialects } from '../../test/databases.ts';
import { OTHER_PASSWORD } from '../../test/other-client.ts';
import { createTestApp, DEMO_PASSWORD, OTHER_ORIGIN, type TestApp } from '../../test/test-app.ts';

const HEADER = 'username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status';
const NEW_PASSWORD = 'Fresh-Start-2026!';
/** Each test runs the real command several times, a process each: seconds on a busy machine. */
const SLOW = 120_000;

describe.each(dialects)('rewards participants on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'participants-cli-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const login = (username: string, password = DEMO_PASSWORD, origin?: string) =>
    t.api('POST', apiPaths.login, { body: { username, password }, origin });
  const acme = (...args: string[]) => [...args, '--client', 'acme'];
  const countOf = async (usernameKey: string) =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', 'acme')
        .where('username_key', '=', usernameKey)
        .execute()
    ).length;

  it(
    'creates a pending participant who activates on the portal, and an active one with an initial password',
    async () => {
      const created = await rewardsJson<{ status: string; passwordSet: boolean }>(
        t.database,
        acme(
          'participants',
          'create',
          'Olive',
          '--first-name',
          'Olive',
          '--last-name',
          'Oyl',
          '--email',
          'olive@example.com',
          '--account-number',
          '4000001',
          '--program',
          'Gold Club',
          '--locale',
          'FR-fr',
          '--operator',
          'ops-anna',
        ),
      );
      expect(created).toMatchObject({ status: 'pending', passwordSet: false });
      // Nobody knows her password until she activates: sign-in fails as for any wrong password.
      expect((await login('olive', DEMO_PASSWORD)).statusCode).toBe(401);
      const activated = await t.api('POST', apiPaths.activate, {
        body: { characteristics: { accountNumber: '4000001', lastName: 'oyl' }, password: NEW_PASSWORD, acceptedPrivacyNoticeVersion: 1 },
      });
      expect(activated.statusCode).toBe(200);
      const signedIn = await login('OLIVE', NEW_PASSWORD);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toMatchObject({ userName: 'Olive', locale: { code: 'fr-FR' }, participantRules: ['Gold Club'] });

      const passwordFile = join(dir, 'password.txt');
      await writeFile(passwordFile, `${NEW_PASSWORD}\n`);
      const active = await runRewards(
        t.database,
        acme(
          'participants',
          'create',
          'popeye',
          '--first-name',
          'Popeye',
          '--last-name',
          'Sailor',
          '--email',
          'popeye@example.com',
          '--account-number',
          '4000002',
          '--status',
          'active',
          '--offerings',
          'merchandise,ots',
          '--password-file',
          passwordFile,
        ),
      );
      expect(active.code).toBe(0);
      expect(active.stdout).toContain('Created popeye (active, account 4000002)');
      expect((await login('popeye', NEW_PASSWORD)).json()).toMatchObject({
        rewardsOffering: { merchandise: true, experiences: false },
        participantFeatures: { ots: true },
      });

      // Refusals change nothing: a taken username (case ignored), a taken account number, a weak password, a foreign locale.
      const refusals = await Promise.all([
        runRewards(
          t.database,
          acme(
            'participants',
            'create',
            'DEMO',
            '--first-name',
            'A',
            '--last-name',
            'B',
            '--email',
            'a@example.com',
            '--account-number',
            '4000009',
          ),
        ),
        runRewards(
          t.database,
          acme(
            'participants',
            'create',
            'newone',
            '--first-name',
            'A',
            '--last-name',
            'B',
            '--email',
            'a@example.com',
            '--account-number',
            '1000001',
          ),
        ),
        runRewards(
          t.database,
          acme(
            'participants',
            'create',
            'newtwo',
            '--first-name',
            'A',
            '--last-name',
            'B',
            '--email',
            'a@example.com',
            '--account-number',
            '4000010',
            '--locale',
            'de-DE',
          ),
        ),
      ]);
      expect(refusals.map((r) => [r.code, r.stderr.trim()])).toEqual([
        [2, 'rewards: Username "DEMO" is already taken in client "acme"'],
        [2, 'rewards: Account number 1000001 already belongs to "demo"'],
        [2, 'rewards: locale "de-DE" is not one of the client\'s (en-US, fr-FR, ar)'],
      ]);
      await writeFile(passwordFile, 'short\n');
      const weak = await runRewards(
        t.database,
        acme(
          'participants',
          'create',
          'weakling',
          '--first-name',
          'A',
          '--last-name',
          'B',
          '--email',
          'a@example.com',
          '--account-number',
          '4000011',
          '--password-file',
          passwordFile,
        ),
      );
      expect(weak.stderr.trim()).toBe("rewards: The password does not meet the client's password rules");
      expect(await countOf('newone')).toBe(0);
      expect(await countOf('weakling')).toBe(0);

      const audit = await rewardsJson<Array<{ actor: string; subject: string; details: Record<string, unknown> }>>(t.database, [
        'audit',
        '--action',
        'participants.create',
        '--client',
        'acme',
      ]);
      expect(audit.map((a) => a.subject)).toEqual(['popeye', 'Olive']);
      expect(audit[1]).toMatchObject({ actor: 'ops-anna', details: { status: 'pending', passwordSet: false } });
    },
    SLOW,
  );

  it(
    "shows what an operator needs, never the password hash, and only the named client's participant",
    async () => {
      const { sessionId } = await t.login('demo');
      expect(sessionId).toBeTruthy();
      const run = await runRewards(t.database, acme('participants', 'show', 'Demo', '--json'));
      expect(run.code).toBe(0);
      expect(run.stdout).not.toMatch(/argon2|password_hash|passwordHash/);
      const shown = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(shown).toMatchObject({ username: 'demo', status: 'active', balance: 12_500, accountNumber: '1000001', throttled: [] });
      expect(shown.liveSessions).toBeGreaterThanOrEqual(1);
      expect((shown.latestEntries as unknown[]).length).toBe(10);
      expect(shown.programs).toContain('Sales Incentive 2026');
      // globex has its own "demo": asked about acme, the command shows acme's.
      const globex = await rewardsJson<{ clientId: string }>(t.database, ['participants', 'show', 'demo', '--client', 'globex']);
      expect(globex.clientId).toBe('globex');
      const unknown = await runRewards(t.database, acme('participants', 'show', 'nobody'));
      expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'rewards: No participant "nobody" in client "acme"']);
    },
    SLOW,
  );

  it(
    'sets a participant inactive, which ends their sessions and their sign-in, and active again',
    async () => {
      const { sessionId } = await t.login('spent');
      const inactive = await rewardsJson<{ from: string; status: string; sessionsEnded: number }>(
        t.database,
        acme('participants', 'set-status', 'spent', 'inactive'),
      );
      expect(inactive).toMatchObject({ from: 'active', status: 'inactive', sessionsEnded: 1 });
      expect((await t.api('GET', apiPaths.user, { session: sessionId })).statusCode).toBe(401);
      const refused = await login('spent');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ errorCode: ErrorCode.accountInactive });
      expect(await rewardsJson<{ changed: boolean }>(t.database, acme('participants', 'set-status', 'spent', 'inactive'))).toMatchObject({
        changed: false,
      });
      await rewardsJson(t.database, acme('participants', 'set-status', 'spent', 'active'));
      expect((await login('spent')).statusCode).toBe(200);
      const bad = await runRewards(t.database, acme('participants', 'set-status', 'spent', 'asleep'));
      expect([bad.code, bad.stderr.trim()]).toEqual([2, 'rewards: status must be pending, active, inactive (found "asleep")']);
    },
    SLOW,
  );

  it(
    "corrects a participant's name, e-mail, date of birth and programs, which the portal shows at once; what is not given stays",
    async () => {
      const { sessionId } = await t.login('newbie');
      const updated = await rewardsJson<{ changed: string[] }>(
        t.database,
        acme(
          'participants',
          'update',
          'Newbie',
          '--first-name',
          'Nina-Maria',
          '--email',
          'nina.m@example.com',
          '--date-of-birth',
          '1992-07-30',
          '--program',
          'Gold Club',
        ),
      );
      expect(updated.changed).toEqual(['firstName', 'email', 'programs', 'dateOfBirth']);
      expect((await t.api('GET', apiPaths.user, { session: sessionId })).json()).toMatchObject({
        firstName: 'Nina-Maria',
        lastName: 'Newbie',
      });
      const shown = await rewardsJson<Record<string, unknown>>(t.database, acme('participants', 'show', 'newbie'));
      expect(shown).toMatchObject({
        email: 'nina.m@example.com',
        dateOfBirth: '1992-07-30',
        programs: ['Gold Club'],
        accountNumber: '1000003',
        status: 'active',
      });
      // The same again changes nothing; --no-programs and an empty date clear them.
      expect(await rewardsJson(t.database, acme('participants', 'update', 'newbie', '--email', 'nina.m@example.com'))).toMatchObject({
        changed: [],
      });
      expect(await rewardsJson(t.database, acme('participants', 'update', 'newbie', '--no-programs', '--date-of-birth', ''))).toMatchObject(
        { changed: ['programs', 'dateOfBirth'] },
      );
      // Refused, changing nothing: nothing asked, another's account number, an impossible date.
      for (const [args, reason] of [
        [[], /^rewards: Nothing to change: give at least one of --first-name/],
        [['--account-number', '1000002'], /^rewards: Account number 1000002 already belongs to "spent"$/],
        [['--date-of-birth', '1990-02-30'], /^rewards: date_of_birth "1990-02-30" is not a day of the calendar$/],
      ] as const) {
        const refused = await runRewards(t.database, acme('participants', 'update', 'newbie', ...args));
        expect(refused.code).toBe(2);
        expect(refused.stderr.trim()).toMatch(reason);
      }
      expect(await rewardsJson(t.database, acme('participants', 'show', 'newbie'))).toMatchObject({
        accountNumber: '1000003',
        dateOfBirth: null,
        programs: [],
      });
      const audit = await rewardsJson<Array<{ action: string; details: unknown }>>(
        t.database,
        acme('audit', '--action', 'participants.update'),
      );
      expect(audit.map((entry) => entry.details)).toEqual([
        { username: 'newbie', changed: ['programs', 'dateOfBirth'] },
        { username: 'newbie', changed: ['firstName', 'email', 'programs', 'dateOfBirth'] },
      ]);
    },
    SLOW,
  );

  it(
    'unlocks a participant throttled by failed sign-ins, and signs one out everywhere',
    async () => {
      for (let i = 0; i < 5; i += 1) expect((await login('merch', 'wrong-password')).statusCode).toBe(401);
      expect((await login('merch')).statusCode).toBe(429);
      const shown = await rewardsJson<{ throttled: string[]; failures: { signIn: number } }>(
        t.database,
        acme('participants', 'show', 'merch'),
      );
      expect(shown).toMatchObject({ throttled: ['signIn'], failures: { signIn: 5 } });
      expect(await rewardsJson(t.database, acme('participants', 'unlock', 'MERCH'))).toEqual({ username: 'merch', failuresCleared: 5 });
      const first = await login('merch');
      expect(first.statusCode).toBe(200);
      const second = await login('merch');
      const sessions = [first, second].map((reply) => reply.json<{ sessionId: string }>().sessionId);
      expect(await rewardsJson(t.database, acme('participants', 'sessions', 'end', 'merch', '--reason', 'ticket 9: lost phone'))).toEqual({
        username: 'merch',
        sessionsEnded: 2,
      });
      for (const session of sessions) expect((await t.api('GET', apiPaths.user, { session })).statusCode).toBe(401);
      const actions = await rewardsJson<Array<{ action: string; details: Record<string, number> }>>(t.database, [
        'audit',
        '--client',
        'acme',
        '--limit',
        '2',
      ]);
      expect(actions).toMatchObject([
        { action: 'participants.sessions-end', details: { username: 'merch', sessionsEnded: 2, reason: 'ticket 9: lost phone' } },
        { action: 'participants.unlock', details: { failuresCleared: 5 } },
      ]);
    },
    SLOW,
  );

  it(
    'imports a file with good and bad lines, and a re-run adds nothing twice',
    async () => {
      const file = join(dir, 'enrol.csv');
      const rejectsFile = join(dir, 'rejects.csv');
      // Columns in another order than the documented header: the header row names them.
      await writeFile(
        file,
        [
          'status,username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs',
          ',ann.lee,Ann,Lee,ann@example.com,fr-FR,6000001,yes,no,1,Sales Incentive 2026|Gold Club',
          'active,"bo.ng",Bo,"Ng, Jr.",bo@example.com,,6000002,true,true,false,',
          ',cyd,Cyd,Bad,not-an-email,en-US,6000003,yes,no,1,',
          ',dee,Dee,Locale,dee@example.com,de-DE,6000004,yes,no,1,',
          ',ANN.LEE,Ann,Again,ann2@example.com,en-US,6000005,yes,no,1,',
          ',eve,Eve,Taken,eve@example.com,en-US,1000002,yes,no,1,',
          ',fay,Fay',
          ',gus,Gus,Flag,gus@example.com,en-US,6000007,maybe,no,1,',
          ',Demo,Dana,Demo,demo@example.com,en-US,1000001,yes,yes,yes,Sales Incentive 2026|Service Awards',
          '',
        ].join('\r\n'),
      );
      const first = await rewardsJson<ImportReport>(t.database, acme('participants', 'import', file, '--rejects', rejectsFile));
      expect(first).toMatchObject({ added: 2, updated: 1, unchanged: 0, rejected: 6 });
      expect(first.rejects).toEqual([
        { line: 4, reason: 'email "not-an-email" is not an email address' },
        { line: 5, reason: 'locale "de-DE" is not one of the client\'s (en-US, fr-FR, ar)' },
        { line: 6, reason: 'username "ANN.LEE" repeats line 2' },
        { line: 7, reason: 'account number 1000002 belongs to another participant ("spent")' },
        { line: 8, reason: 'expected 11 fields, found 3' },
        { line: 9, reason: 'merchandise must be true, false, 1, 0, yes or no (found "maybe")' },
      ]);
      expect((await readFile(rejectsFile, 'utf8')).split('\r\n')[0]).toBe('line,reason');

      const ann = await rewardsJson<Record<string, unknown>>(t.database, acme('participants', 'show', 'ann.lee'));
      expect(ann).toMatchObject({
        status: 'pending',
        locale: 'fr-FR',
        programs: ['Sales Incentive 2026', 'Gold Club'],
        offerings: { merchandise: true, experiences: false, ots: true },
      });
      const bo = await rewardsJson<Record<string, unknown>>(t.database, acme('participants', 'show', 'bo.ng'));
      expect(bo).toMatchObject({ status: 'active', lastName: 'Ng, Jr.', locale: 'en-US' });
      // Demo was active and stays so (an empty status changes nothing); her ots flag and programs changed.
      const demo = await rewardsJson<Record<string, unknown>>(t.database, acme('participants', 'show', 'demo'));
      expect(demo).toMatchObject({
        status: 'active',
        balance: 12_500,
        offerings: { ots: true },
        programs: ['Sales Incentive 2026', 'Service Awards'],
      });
      // Nobody enrolled by a file can sign in before activating or resetting a password.
      expect((await login('bo.ng', DEMO_PASSWORD)).statusCode).toBe(401);
      expect((await login('demo')).statusCode).toBe(200);

      const again = await rewardsJson<ImportReport>(t.database, acme('participants', 'import', file));
      expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 3, rejected: 6 });
      expect(await countOf('ann.lee')).toBe(1);

      // A changed line updates; "pending" never undoes an activation; inactive signs out.
      const { sessionId } = await t.login('demo');
      await writeFile(
        file,
        [
          HEADER,
          'ann.lee,Ann,Lee-Smith,ann@example.com,fr-FR,6000001,yes,no,1,Sales Incentive 2026|Gold Club,',
          'bo.ng,Bo,"Ng, Jr.",bo@example.com,,6000002,true,true,false,,pending',
          'demo,Dana,Demo,demo@example.com,en-US,1000001,yes,yes,yes,Sales Incentive 2026|Service Awards,inactive',
        ].join('\n'),
      );
      const changed = await runRewards(t.database, acme('participants', 'import', file));
      expect(changed.stdout.trim()).toBe(`Participants from ${file}: 0 added, 2 updated, 1 unchanged, 0 rejected.`);
      expect(await rewardsJson(t.database, acme('participants', 'show', 'bo.ng'))).toMatchObject({ status: 'active' });
      expect((await t.api('GET', apiPaths.user, { session: sessionId })).statusCode).toBe(401);
      await rewardsJson(t.database, acme('participants', 'set-status', 'demo', 'active'));

      const audit = await rewardsJson<Array<{ subject: string; details: Record<string, number> }>>(t.database, [
        'audit',
        '--action',
        'participants.import',
        '--client',
        'acme',
      ]);
      // Demo's sessions of this and the earlier stories all ended.
      expect(audit[0]?.details.sessionsEnded).toBeGreaterThanOrEqual(1);
      // The import job's closing audit (decision 091): its counts (and the job, the lines), the sessions ended.
      expect(audit.map((a) => ({ ...a.details, sessionsEnded: Math.min(a.details.sessionsEnded ?? 0, 1) }))).toMatchObject([
        { added: 0, updated: 2, unchanged: 1, rejected: 0, sessionsEnded: 1 },
        { added: 0, updated: 0, unchanged: 3, rejected: 6, sessionsEnded: 0 },
        { added: 2, updated: 1, unchanged: 0, rejected: 6, sessionsEnded: 0 },
      ]);
      // The other client is untouched by acme's file: its own demo keeps its name.
      expect((await login('demo', OTHER_PASSWORD, OTHER_ORIGIN)).statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'refuses a file it cannot import as a whole, changing nothing',
    async () => {
      const badHeader = join(dir, 'bad-header.csv');
      await writeFile(badHeader, 'username,first_name,surname\nzed,Zed,Zero\n');
      const missing = await runRewards(t.database, acme('participants', 'import', badHeader));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(
        'missing last_name, email, locale, account_number, merchandise, experiences, ots, programs, status; unknown "surname"',
      );
      const absent = await runRewards(t.database, acme('participants', 'import', join(dir, 'absent.csv')));
      expect([absent.code, absent.stderr.trim()]).toEqual([2, `rewards: Cannot read ${join(dir, 'absent.csv')}: no such file`]);
      const goodFile = join(dir, 'good.csv');
      await writeFile(goodFile, `${HEADER}\nzed,Zed,Zero,zed@example.com,,6000099,no,no,no,,\n`);
      const noRejects = await runRewards(
        t.database,
        acme('participants', 'import', goodFile, '--rejects', join(dir, 'absent', 'rejects.csv')),
      );
      expect([noRejects.code, noRejects.stderr.trim()]).toEqual([
        2,
        `rewards: Cannot write --rejects ${join(dir, 'absent', 'rejects.csv')}`,
      ]);
      expect(await countOf('zed')).toBe(0);
    },
    SLOW,
  );
});
