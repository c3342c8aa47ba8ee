import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, ErrorCode, type StatementReply, type UserData } from '@rewards/contract';
// The operator's command in a process of its own: these stories are about someone else writing.
import { spawnRewards as runRewards } from '../../../test/cli.ts';
import { appOver, type AppOver } from '../../../test/app-over.ts';
import { createDatabase } from '../../db/database.ts';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

/**
 * GET user, the statement and the session check are served from per-process caches while
 * nothing is committed (docs/decisions/027). These stories are about what someone else
 * writes: the operator's CLI (its own process) and a second portal process over the same
 * database. Each shows on the participant's very next request.
 */
/** The CLI is a process per run (~0.4 s, several seconds when the machine is busy). */
const CLI_TIMEOUT = 90_000;

describe.each(dialects)('what others write shows on the next request, on %s', (dialect) => {
  let t: TestApp;
  let second: AppOver;
  let secondDb: ReturnType<typeof createDatabase>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // A second portal process: its own connections to the same database.
    secondDb = createDatabase(t.database.config);
    second = await appOver({ ...t.database, db: secondDb });
  });
  afterAll(async () => {
    await second.close();
    await secondDb.destroy();
    await t.close();
  });

  const user = (session: string, portal: Pick<AppOver, 'api'> = t) => portal.api('GET', apiPaths.user, { session });
  const statement = async (session: string, username: string) =>
    (await t.api('GET', apiPaths.statement(username, 'en-US'), { session })).json<StatementReply>();
  const acme = (...args: string[]) => [...args, '--client', 'acme'];

  it("shows an operator's award in Dana's balance and statement at once", { timeout: CLI_TIMEOUT }, async () => {
    const { sessionId } = await t.login('demo');
    // Asked twice: the second answer may come from the cache.
    for (let i = 0; i < 2; i++) expect((await user(sessionId)).json<UserData>().accountBalance).toBe(12_500);
    const before = await statement(sessionId, 'demo');
    expect(await statement(sessionId, 'demo')).toEqual(before);

    const award = await runRewards(t.database, [
      'points',
      'award',
      '--client',
      'acme',
      '--username',
      'demo',
      '--points',
      '250',
      '--reason',
      'Quarterly bonus',
    ]);
    expect(award.code).toBe(0);

    expect((await user(sessionId)).json<UserData>().accountBalance).toBe(12_750);
    const after = await statement(sessionId, 'demo');
    expect(after.accountHistoryList).toHaveLength(before.accountHistoryList.length + 1);
    expect(after.accountHistoryList.map((e) => e.description)).toContain('Quarterly bonus');
    expect(after.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(12_750);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it(
    'refuses a session the operator ended, and one of a participant set inactive, on the next request',
    { timeout: CLI_TIMEOUT },
    async () => {
      const sam = await t.login('spent');
      const kim = await t.login('merch');
      for (const session of [sam.sessionId, kim.sessionId]) expect((await user(session)).statusCode).toBe(200);
      expect((await t.api('GET', apiPaths.statement('spent', 'en-US'), { session: sam.sessionId })).statusCode).toBe(200);

      expect((await runRewards(t.database, acme('participants', 'sessions', 'end', 'spent'))).code).toBe(0);
      expect((await runRewards(t.database, acme('participants', 'set-status', 'merch', 'inactive'))).code).toBe(0);

      for (const session of [sam.sessionId, kim.sessionId]) {
        const reply = await user(session);
        expect(reply.statusCode).toBe(401);
        expect(reply.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
      }
      expect((await t.api('GET', apiPaths.statement('spent', 'en-US'), { session: sam.sessionId })).statusCode).toBe(401);
    },
  );

  it("shows what a participant did on a second portal process on the first one's next request", async () => {
    const { sessionId } = await t.login('demo');
    expect((await user(sessionId)).json<UserData>().locale.code).toBe('en-US');
    expect((await user(sessionId, second)).statusCode).toBe(200);

    const changed = await second.api('POST', apiPaths.userLocale, { session: sessionId, body: { locale: { code: 'fr-FR' } } });
    expect(changed.json<UserData>().locale.code).toBe('fr-FR');
    expect((await user(sessionId)).json<UserData>().locale.code).toBe('fr-FR');

    expect((await second.api('GET', apiPaths.logout, { session: sessionId })).statusCode).toBe(204);
    expect((await user(sessionId)).statusCode).toBe(401);
  });
});
