import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@rewards/contract';
import { rewardsJson } from '../../../test/cli.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { addParticipant } from '../account/test-support.ts';
import { copyParticipant } from '../sso/test-support.ts';
import { searchKeyColumns } from './search-keys.ts';
import { searchParticipants } from './search.ts';

/** The CLI is a process per run (~0.4 s, several seconds when the machine is busy). */
const CLI_TIMEOUT = 90_000;
const HEADER = 'username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status';

/**
 * Every way a participant is written keeps the search keys right: the operator's commands
 * (create, import, update), activation with a new username, the demo seed and the test helpers.
 */
describe.each(dialects)('participants written by every path are found, on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'search-writers-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const acme = (...args: string[]) => [...args, '--client', 'acme'];
  const found = async (query: string) =>
    (await searchParticipants(t.database.db, { clientIds: ['acme'], query })).participants.map((p) => p.username);

  it('`participants create`', { timeout: CLI_TIMEOUT }, async () => {
    await rewardsJson(
      t.database,
      acme(
        'participants',
        'create',
        'olive.o',
        '--first-name',
        'Olivé',
        '--last-name',
        'Oyl',
        '--email',
        'Olive@Example.com',
        '--account-number',
        '4000001',
      ),
    );
    for (const query of ['olive', 'oyl ol', 'olive@ex', '4000001', 'olive.o']) expect(await found(query), query).toEqual(['olive.o']);
  });

  it('`participants import`, adding and then changing', { timeout: CLI_TIMEOUT }, async () => {
    const file = join(dir, 'people.csv');
    await writeFile(file, [HEADER, 'imp.one,Ingrid,Importée,ingrid@example.com,en-US,5000001,yes,no,1,,', ''].join('\n'));
    expect(await rewardsJson(t.database, acme('participants', 'import', file))).toMatchObject({ added: 1 });
    expect(await found('importee in')).toEqual(['imp.one']);
    await writeFile(file, [HEADER, 'imp.one,Ingrid,Umbenannt,ingrid.u@example.com,en-US,5000009,yes,no,1,,', ''].join('\n'));
    expect(await rewardsJson(t.database, acme('participants', 'import', file))).toMatchObject({ updated: 1 });
    for (const query of ['umbenannt', 'ingrid.u@', '5000009']) expect(await found(query), query).toEqual(['imp.one']);
    for (const query of ['importee', 'ingrid@', '5000001']) expect(await found(query), query).toEqual([]);
  });

  it('`participants update`', { timeout: CLI_TIMEOUT }, async () => {
    expect(await found('nina new')).toEqual(['newbie']);
    await rewardsJson(
      t.database,
      acme('participants', 'update', 'newbie', '--first-name', 'Nadège', '--email', 'nadege@example.com', '--account-number', '1000099'),
    );
    for (const query of ['nadege', 'newbie na', 'nadege@', '1000099']) expect(await found(query), query).toEqual(['newbie']);
    for (const query of ['nina', 'newbie@', '1000003']) expect(await found(query), query).toEqual([]);
  });

  it('activation with a username of their own', async () => {
    await addParticipant(t, { username: 'given.name', lastName: 'Picker', accountNumber: '2000077', email: 'gp@example.com' });
    expect(await found('given')).toEqual(['given.name']);
    const reply = await t.api('POST', apiPaths.activate, {
      body: {
        characteristics: { accountNumber: '2000077', lastName: 'Picker' },
        password: 'Fresh-Start-2026!',
        acceptedPrivacyNoticeVersion: 1,
        username: 'Chosen.Name',
      },
    });
    expect(reply.statusCode).toBe(200);
    expect(await found('chosen')).toEqual(['Chosen.Name']);
    expect(await found('given')).toEqual([]);
  });

  it("the demo seed and the test helpers: every row's keys are made from its values", async () => {
    await copyParticipant(t.database.db, 'nimbus', 'skyler', 'skyler.copy');
    expect(
      (await searchParticipants(t.database.db, { clientIds: ['nimbus'], query: 'skyler.c' })).participants.map((p) => p.username),
    ).toEqual(['skyler.copy']);
    const rows = await t.database.db.selectFrom('participants').selectAll().execute();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(row, `${row.client_id}:${row.username}`).toMatchObject(searchKeyColumns(row));
  });
});
