import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { apiPaths, ErrorCode, type UserData } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { hashSessionId } from './session-id.ts';

/**
 * GET user reads the session, then its participant within the session's client; on SQLite through
 * the caches kept by data generation (decision 027), on PostgreSQL every time. The rules must be
 * the same on both.
 */
describe.each(dialects)('GET user reads the session and its participant, on %s', (dialect) => {
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

  it('refuses a session on the request after its logout, though the session was just served', async () => {
    const { sessionId } = await t.login('demo');
    expect((await user(sessionId)).statusCode).toBe(200);
    expect((await user(sessionId)).statusCode).toBe(200);
    expect((await t.api('GET', '/logout', { session: sessionId })).statusCode).toBe(204);
    const refused = await user(sessionId);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
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
