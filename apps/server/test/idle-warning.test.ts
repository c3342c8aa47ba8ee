// What the web's idle warning relies on (apps/web/src/features/session-timeout/timing.ts): the
// idle time in client data, and a keep-alive at the warning that truly slides the idle expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientData } from '@rewards/contract';
import { dialects } from './databases.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const MINUTE = 60_000;

describe.each(dialects)('the idle warning’s server side on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SESSION_IDLE_MINUTES: '3' });
  });
  afterAll(() => t.close());

  const sessionRow = () => t.database.db.selectFrom('sessions').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();

  it('tells the portal the idle time in client data', async () => {
    const data = ClientData.parse((await t.api('GET', '/viewConfig/client')).json());
    expect(data.sessionIdleMinutes).toBe(3);
  });

  it('slides the idle expiry on the keep-alive the warning sends', async () => {
    const { sessionId } = await t.login('newbie');
    // The session as it is when the warning shows with a 3-minute idle time: its latest call was
    // 65 s ago (timing.ts warns no sooner), so the server last touched it at least that long ago.
    const lastSeen = new Date(Date.now() - 65_000).toISOString();
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: lastSeen, idle_expires_at: new Date(Date.now() + 3 * MINUTE - 65_000).toISOString() })
      .execute();

    const before = Date.now();
    const reply = await t.api('GET', '/user', { session: sessionId });
    expect(reply.statusCode).toBe(200);
    const session = await sessionRow();
    expect(Date.parse(session.idle_expires_at)).toBeGreaterThanOrEqual(before + 3 * MINUTE);
    expect(session.last_seen_at > lastSeen).toBe(true);
  });

  it('does not slide within a minute of the last touch (why the web ends a minute early)', async () => {
    const { sessionId } = await t.login('newbie');
    const { idle_expires_at: first } = await sessionRow();
    await t.api('GET', '/user', { session: sessionId });
    expect((await sessionRow()).idle_expires_at).toBe(first);
  });

  it('answers the keep-alive of an expired session with 401, the web’s timeout path', async () => {
    const { sessionId } = await t.login('newbie');
    await t.database.db
      .updateTable('sessions')
      .set({ idle_expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(401);
  });
});
