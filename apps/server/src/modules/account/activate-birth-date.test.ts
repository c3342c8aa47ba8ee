import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../cli/import-report.ts';
import { apiPaths, ErrorCode, type ClientData, type UserData } from '@rewards/contract';
import { rewardsJson, runRewards } from '../../../test/cli.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';

// Decision 039: a client asks for the date of birth; the operator sets it and imports the dates;
// activation compares them exactly. The test client Globex (French) is the one that asks.
const HEADER = 'username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status,date_of_birth';
const PASSWORD = 'Fresh-Start-2026!';
/** Several runs of the real command, a process each: seconds on a busy machine. */
const SLOW = 120_000;

describe.each(dialects)('activating with a date of birth on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'birth-date-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const globex = (...args: string[]) => [...args, '--client', 'globex'];
  const activate = (accountNumber: string, dateOfBirth: string) =>
    t.api('POST', apiPaths.activate, {
      body: { characteristics: { accountNumber, dateOfBirth }, password: PASSWORD },
      origin: OTHER_ORIGIN,
    });

  it('is set by the operator, imported with the participants and compared exactly', { timeout: SLOW }, async () => {
    // Before any request reaches Globex, so no cached client data predates the change.
    const update = await runRewards(t.database, globex('clients', 'update', '--activation-fields', 'accountNumber,dateOfBirth'));
    expect(update.stderr).toBe('');
    expect(update.code).toBe(0);

    const file = join(dir, 'people.csv');
    await writeFile(
      file,
      [
        HEADER,
        'born,Bea,Born,born@globex.example,,9100001,no,no,no,,,1987-03-14',
        'undated,Uma,Undated,undated@globex.example,,9100002,no,no,no,,,',
        'leap,Lea,Leap,leap@globex.example,,9100003,no,no,no,,,1990-02-30',
        'later,Lou,Later,later@globex.example,,9100004,no,no,no,,,2999-01-01',
        'slashes,Sol,Slashes,slashes@globex.example,,9100005,no,no,no,,,14/03/1987',
        'leapday,Leo,Leapday,leapday@globex.example,,9100006,no,no,no,,,2000-02-29',
      ].join('\n'),
    );
    const report = await rewardsJson<ImportReport>(t.database, globex('participants', 'import', file));
    expect(report).toMatchObject({ added: 3, rejected: 3 });
    expect(report.rejects).toEqual([
      { line: 4, reason: 'date_of_birth "1990-02-30" is not a day of the calendar' },
      { line: 5, reason: 'date_of_birth "2999-01-01" is in the future' },
      { line: 6, reason: 'date_of_birth "14/03/1987" must be written YYYY-MM-DD, e.g. 1987-03-14' },
    ]);
    expect(await rewardsJson(t.database, globex('participants', 'show', 'born'))).toMatchObject({ dateOfBirth: '1987-03-14' });
    expect(await rewardsJson(t.database, globex('participants', 'show', 'undated'))).toMatchObject({ dateOfBirth: null });

    // A file without the column leaves the dates on file as they are.
    const withoutDates = join(dir, 'without-dates.csv');
    await writeFile(
      withoutDates,
      [HEADER.replace(',date_of_birth', ''), 'born,Bea,Born,born@globex.example,,9100001,no,no,no,,'].join('\n'),
    );
    expect(await rewardsJson<ImportReport>(t.database, globex('participants', 'import', withoutDates))).toMatchObject({
      unchanged: 1,
      updated: 0,
    });
    // One participant enrolled by hand: the same check, as one line on stderr.
    const create = await runRewards(
      t.database,
      globex(
        'participants',
        'create',
        'byhand',
        '--first-name',
        'Hal',
        '--last-name',
        'Hand',
        '--email',
        'hal@globex.example',
        '--account-number',
        '9100009',
        '--date-of-birth',
        '1987-02-29',
      ),
    );
    expect(create.code).toBe(2);
    expect(create.stderr.trim()).toBe('rewards: date_of_birth "1987-02-29" is not a day of the calendar');

    // The portal asks for it...
    const data = (await t.api('GET', apiPaths.clientData, { origin: OTHER_ORIGIN })).json<ClientData>();
    expect(data.clientBranding.activationFields).toEqual(['accountNumber', 'dateOfBirth']);

    // ...refuses a wrong date, and any date for a participant with none on file, alike...
    const wrong = await activate('9100001', '1987-03-15');
    const none = await activate('9100002', '1987-03-14');
    for (const reply of [wrong, none]) {
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.activationFailed, responseMessage: 'account.error.activationFailed' });
    }
    // ...and activates with the right one.
    const right = await activate('9100001', '1987-03-14');
    expect(right.statusCode).toBe(200);
    expect(right.json<UserData>()).toMatchObject({ authenticated: true, userName: 'born' });
    const leapday = await activate('9100006', '2000-02-29');
    expect(leapday.statusCode).toBe(200);
  });
});
