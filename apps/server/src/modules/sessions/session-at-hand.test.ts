import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { DEMO_CLIENT_ID } from '../../db/seed/demo.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { liveSessionAtHand } from './service.ts';

// GET user's promise-free path (docs/decisions/027) serves a session only when resumeSession would
// serve the very same row without a write; everything else goes the ordinary way.

const MINUTE = 60_000;

describe.each(dialects)('a session at hand on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('is the cached row while it is live and not due for its touch, and nothing otherwise', async () => {
    const { sessionId } = await t.login('demo');
    const db = t.database.db;
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(200);
    const now = Date.now();
    const row = liveSessionAtHand(db, DEMO_CLIENT_ID, sessionId, now);
    if (dialect === 'postgres') {
      // No data generation there: never at hand, every request reads (decision 027).
      expect(row).toBeUndefined();
      return;
    }
    expect(row).toMatchObject({ client_id: DEMO_CLIENT_ID, admin_as_user: 0 });
    // Due for the once-a-minute touch (a write), idle too long, or another client's: not at hand.
    expect(liveSessionAtHand(db, DEMO_CLIENT_ID, sessionId, Date.parse(row!.last_seen_at) + MINUTE)).toBeUndefined();
    expect(liveSessionAtHand(db, DEMO_CLIENT_ID, sessionId, Date.parse(row!.idle_expires_at))).toBeUndefined();
    expect(liveSessionAtHand(db, 'globex', sessionId, now)).toBeUndefined();
    expect(liveSessionAtHand(db, DEMO_CLIENT_ID, 'A'.repeat(43), now)).toBeUndefined();
    // A commit (here the logout) empties the cache: the next request reads and refuses.
    expect((await t.api('GET', '/logout', { session: sessionId })).statusCode).toBe(204);
    expect(liveSessionAtHand(db, DEMO_CLIENT_ID, sessionId)).toBeUndefined();
    const refused = await t.api('GET', '/user', { session: sessionId });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
  });
});
