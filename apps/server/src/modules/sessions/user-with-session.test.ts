import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { apiPaths, ErrorCode, type UserData } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { hashSessionId } from './session-id.ts';
import { findSessionWithUser } from './store.ts';

/**
 * On PostgreSQL, GET user reads the session, its participant and their programs in one
 * statement (docs/decisions/034); on SQLite through its caches (decision 027). The rules must
 * be the same on both: these stories are where a join could go wrong.
 */
describe.each(dialects)('GET user reads the session and its participant together, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const user = (session: string) => t.api('GET', apiPaths.user, { session });
  const sessionRow = (sessionId: string) =>
    t.database.db.selectFrom('sessions').selectAll().where('id_hash', '=', hashSessionId(sessionId)).executeTakeFirstOrThrow();
  const participantId = async (username: string, clientId = 'acme') =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', clientId)
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  it('slides the idle expiry once a minute has passed since the session was last seen, and not before', async () => {
    const { sessionId } = await t.login('demo');
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    const soon = new Date(Date.now() + 60_000).toISOString();
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: twoMinutesAgo, idle_expires_at: soon })
      .where('id_hash', '=', hashSessionId(sessionId))
      .execute();

    const before = Date.now();
    expect((await user(sessionId)).statusCode).toBe(200);
    const slid = await sessionRow(sessionId);
    expect(Date.parse(slid.last_seen_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(slid.idle_expires_at) - before).toBeGreaterThanOrEqual(30 * 60_000 - 1_000);

    // Seen just now: the next request within the minute writes nothing.
    expect((await user(sessionId)).statusCode).toBe(200);
    expect(await sessionRow(sessionId)).toEqual(slid);
  });

  it('refuses a session whose participant belongs to another client', async () => {
    const { sessionId } = await t.login('demo');
    // A forged row: acme's session naming globex's participant. The participant must be looked up within acme.
    await t.database.db
      .updateTable('sessions')
      .set({ participant_id: await participantId('demo', OTHER_CLIENT_ID) })
      .where('id_hash', '=', hashSessionId(sessionId))
      .execute();
    const reply = await user(sessionId);
    expect(reply.statusCode).toBe(401);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
  });

  it("answers from the participant's row as it is now: status, balance and programs in their order", async () => {
    const { sessionId } = await t.login('demo');
    const demo = await participantId('demo');
    await t.database.db.updateTable('participants').set({ status: 'inactive' }).where('id', '=', demo).execute();
    await t.database.db
      .updateTable('participant_programs')
      .set({ position: sql<number>`10 - position` })
      .where('participant_id', '=', demo)
      .execute();

    const data = (await user(sessionId)).json<UserData>();
    expect(data).toMatchObject({ userName: 'demo', accountBalance: 12_500, isInActiveHasPoints: true, sessionId });
    expect(data.participantRules).toEqual(['Service Awards', 'Sales Incentive 2026']);

    await t.database.db.deleteFrom('participant_programs').where('participant_id', '=', demo).execute();
    expect((await user(sessionId)).json<UserData>().participantRules).toEqual([]);
  });
});

// The statement itself is PostgreSQL's only (SQLite serves GET user from its caches).
describe.runIf(dialects.includes('postgres'))('the session-with-user statement on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
  });
  afterAll(() => t.close());

  it('reads it as one prepared statement, which only the given client can match', async () => {
    const { sessionId } = await t.login('spent');
    const idHash = hashSessionId(sessionId);
    const names = await t.database.db.connection().execute(async (connection) => {
      expect(await findSessionWithUser(connection, OTHER_CLIENT_ID, idHash)).toBeUndefined();
      const found = await findSessionWithUser(connection, 'acme', idHash);
      expect(found?.participant?.username).toBe('spent');
      expect(found?.session.id_hash).toBe(idHash);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection);
      return rows.map((row) => row.statement);
    });
    expect(names.filter((statement) => statement.includes('json_agg'))).toHaveLength(1);
  });
});
