import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type UserData } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_PASSWORD } from '../../../test/other-client.ts';

describe.each(dialects)('signed-in participant endpoints on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const guarded: Array<[string, string, unknown?]> = [
    ['GET', '/user'],
    ['POST', '/user/locale', { locale: { code: 'fr-FR' } }],
    ['GET', '/user/program-names'],
    ['PUT', '/user/acknowledge-privacy-notice'],
  ];

  it.each(guarded)('%s %s answers 401 with a JSON error without a session', async (method, path, body) => {
    for (const session of [undefined, 'not-a-session', 'A'.repeat(43)]) {
      const reply = await t.api(method as 'GET', path, { body, session });
      expect(reply.statusCode).toBe(401);
      expect(reply.json()).toEqual({
        errorCode: ErrorCode.sessionRequired,
        responseMessage: 'error.session.expired',
        message: 'No valid session',
      });
    }
  });

  it.each(guarded)('%s %s answers 401 for a session of another client', async (method, path, body) => {
    const globex = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    const reply = await t.api(method as 'GET', path, { body, session: globex.sessionId });
    expect(reply.statusCode).toBe(401);
  });

  it.each(guarded)('%s %s answers 401 for an expired session, and changes nothing', async (method, path, body) => {
    const { sessionId } = await t.login('spent');
    await t.database.db
      .updateTable('sessions')
      .set({ idle_expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const reply = await t.api(method as 'GET', path, { body, session: sessionId });
    expect(reply.statusCode).toBe(401);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
    const sam = await t.database.db
      .selectFrom('participants')
      .select(['locale', 'privacy_ack_version'])
      .where('username', '=', 'spent')
      .executeTakeFirstOrThrow();
    expect(sam).toEqual({ locale: 'en-US', privacy_ack_version: 0 });
  });

  it('refuses an oversized session header as bad input', async () => {
    const reply = await t.api('GET', '/user', { session: 'x'.repeat(300) });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ responseMessage: 'error.validation' });
  });

  it('returns the signed-in user with every field of spec section 3', async () => {
    const { sessionId } = await t.login('demo');
    const reply = await t.api('GET', '/user', { session: sessionId });
    expect(reply.statusCode).toBe(200);
    const user = reply.json<UserData>();
    expect(Object.keys(user).sort()).toEqual(
      [
        'accountBalance',
        'accountBalanceUnavailable',
        'accountNumber',
        'adminAsUser',
        'authenticated',
        'firstName',
        'isInActiveHasPoints',
        'lastName',
        'locale',
        'participantFeatures',
        'participantRules',
        'pendingPoints',
        'privacyNotice',
        'rewardsOffering',
        'rewardsOfferingUnavailable',
        'sessionId',
        'ssoAuthenticated',
        'userId',
        'userName',
      ].sort(),
    );
    expect(user.sessionId).toBe(sessionId);
    // The demo's web orders hold points (db/seed/demo-events.ts): released on days still to come.
    expect(user.pendingPoints.points).toBeGreaterThan(0);
    expect(user.pendingPoints.releases.every((r) => r.availableOn > new Date().toISOString().slice(0, 10))).toBe(true);
  });

  it('tells the balance variants apart: null for never earned, 0 for all spent', async () => {
    expect((await t.login('newbie')).accountBalance).toBeNull();
    expect((await t.login('spent')).accountBalance).toBe(0);
    const merch = await t.login('merch');
    expect(merch).toMatchObject({
      locale: { code: 'ar', dir: 'rtl' },
      rewardsOffering: { merchandise: true, experiences: false },
      participantFeatures: { ots: false },
      participantRules: [],
    });
  });

  it('saves the chosen language and returns it with its direction', async () => {
    const { sessionId } = await t.login('spent');
    const reply = await t.api('POST', '/user/locale', { session: sessionId, body: { locale: { code: 'ar' } } });
    expect(reply.statusCode).toBe(200);
    expect(reply.json<UserData>().locale).toEqual({ code: 'ar', dir: 'rtl' });
    const again = await t.login('spent');
    expect(again.locale).toEqual({ code: 'ar', dir: 'rtl' });
  });

  it('refuses a language the client does not offer, and malformed ones, changing nothing', async () => {
    const { sessionId } = await t.login('newbie');
    const unsupported = await t.api('POST', '/user/locale', { session: sessionId, body: { locale: { code: 'de-DE' } } });
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json()).toMatchObject({ errorCode: ErrorCode.unsupportedLocale, responseMessage: 'error.unsupportedLocale' });
    for (const body of [{}, { locale: 'fr-FR' }, { locale: { code: '<script>' } }, { locale: { code: 'x'.repeat(500) } }]) {
      const reply = await t.api('POST', '/user/locale', { session: sessionId, body });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ responseMessage: 'error.validation' });
    }
    expect((await t.api('GET', '/user', { session: sessionId })).json<UserData>().locale.code).toBe('en-US');
  });

  it('lists the programs whose rules the participant can read', async () => {
    const { sessionId } = await t.login('demo');
    const reply = await t.api('GET', '/user/program-names', { session: sessionId });
    expect(reply.json()).toEqual({ participantRules: ['Sales Incentive 2026', 'Service Awards'] });
  });

  it('records the privacy notice acknowledgement for the current version', async () => {
    const { sessionId } = await t.login('inactive');
    const reply = await t.api('PUT', '/user/acknowledge-privacy-notice', { session: sessionId });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ privacyNotice: { hasAcknowledged: true, version: 1 } });
    expect((await t.login('inactive')).privacyNotice).toEqual({ hasAcknowledged: true, version: 1 });
  });

  it('does not let an administrator acting as the participant acknowledge for them', async () => {
    const { sessionId } = await t.login('newbie');
    await t.database.db.updateTable('sessions').set({ admin_as_user: 1 }).execute();
    const reply = await t.api('PUT', '/user/acknowledge-privacy-notice', { session: sessionId });
    expect(reply.statusCode).toBe(403);
    expect((await t.api('GET', '/user', { session: sessionId })).json<UserData>()).toMatchObject({
      adminAsUser: true,
      privacyNotice: { hasAcknowledged: false },
    });
    await t.database.db.updateTable('sessions').set({ admin_as_user: 0 }).execute();
  });
});

describe.each(dialects)('session lifetime on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const agePastIdle = () =>
    t.database.db
      .updateTable('sessions')
      .set({ idle_expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
  const agePastLifetime = () =>
    t.database.db
      .updateTable('sessions')
      .set({ absolute_expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();

  it.each([
    ['idle timeout', agePastIdle],
    ['absolute lifetime', agePastLifetime],
  ])('answers 401 once the %s has passed, and forgets the session', async (_name, age) => {
    const { sessionId } = await t.login('demo');
    await age();
    const reply = await t.api('GET', '/user', { session: sessionId });
    expect(reply.statusCode).toBe(401);
    expect(await t.database.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });

  it('sets the idle and absolute expiry from the configuration', async () => {
    const before = Date.now();
    await t.login('demo');
    const session = await t.database.db.selectFrom('sessions').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const idle = Date.parse(session.idle_expires_at) - before;
    const absolute = Date.parse(session.absolute_expires_at) - before;
    expect(idle).toBeGreaterThanOrEqual(30 * 60_000);
    expect(idle).toBeLessThan(31 * 60_000);
    expect(absolute).toBeGreaterThanOrEqual(12 * 3_600_000);
    expect(absolute).toBeLessThan(12 * 3_600_000 + 60_000);
  });
});
