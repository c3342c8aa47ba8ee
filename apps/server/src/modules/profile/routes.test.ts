import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, DEMO_PASSWORD, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_PASSWORD } from '../../../test/other-client.ts';

const NEW_PASSWORD = 'Garden-Path-42';

describe.each(dialects)('changing the password on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const change = (session: string | undefined, body: unknown) => t.api('PUT', '/user/password', { session, body });
  const signInStatus = async (username: string, password: string) =>
    (await t.api('POST', '/login', { body: { username, password } })).statusCode;

  it('changes the password, keeps this session and ends the others', async () => {
    const here = await t.login('newbie');
    const elsewhere = await t.login('newbie');
    const someoneElse = await t.login('demo');

    const reply = await change(here.sessionId, { oldPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ otherSessionsEnded: 1 });

    expect((await t.api('GET', '/user', { session: here.sessionId })).statusCode).toBe(200);
    expect((await t.api('GET', '/user', { session: elsewhere.sessionId })).statusCode).toBe(401);
    expect((await t.api('GET', '/user', { session: someoneElse.sessionId })).statusCode).toBe(200);
    expect(await signInStatus('newbie', DEMO_PASSWORD)).toBe(401);
    expect(await signInStatus('newbie', NEW_PASSWORD)).toBe(200);
    const stored = await t.database.db
      .selectFrom('participants')
      .select('password_hash')
      .where('username', '=', 'newbie')
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a wrong current password with 400 (not 401: the session is fine), changing nothing', async () => {
    const { sessionId } = await t.login('inactive');
    const other = await t.login('inactive');
    const reply = await change(sessionId, { oldPassword: 'not-my-password', newPassword: NEW_PASSWORD });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({
      errorCode: ErrorCode.wrongCurrentPassword,
      responseMessage: 'profile.error.wrongPassword',
      message: 'The current password is not correct',
    });
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(200);
    expect((await t.api('GET', '/user', { session: other.sessionId })).statusCode).toBe(200);
    expect(await signInStatus('inactive', DEMO_PASSWORD)).toBe(200);
  });

  it('throttles wrong current passwords like sign-in, sharing the per-account limit', async () => {
    const { sessionId } = await t.login('spent');
    const limit = t.config.limits.perAccount;
    for (let i = 0; i < limit; i += 1) {
      const reply = await change(sessionId, { oldPassword: `guess-${i}`, newPassword: NEW_PASSWORD });
      expect(reply.statusCode).toBe(400);
    }
    const blocked = await change(sessionId, { oldPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ errorCode: ErrorCode.loginThrottled, responseMessage: 'profile.error.throttled' });
    // The same counter guards sign-in: the account is locked there too, even with the right password.
    expect(await signInStatus('spent', DEMO_PASSWORD)).toBe(429);
    // The session itself is untouched and the password is still the old one.
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(200);
    await t.database.db.deleteFrom('attempt_limits').execute();
    expect(await signInStatus('spent', DEMO_PASSWORD)).toBe(200);
  });

  it.each([
    ['too short', 'Ab1!xyz'],
    ['too long', `Ab1!${'x'.repeat(130)}`],
    ['no uppercase letter', 'garden-path-42'],
    ['no lowercase letter', 'GARDEN-PATH-42'],
    ['no digit', 'Garden-Path-xx'],
    ['no symbol', 'GardenPath42xx'],
    ['containing the username', 'My-Demo-Garden-42'],
  ])('refuses a new password %s, changing nothing', async (_rule, newPassword) => {
    const { sessionId } = await t.login('demo');
    const reply = await change(sessionId, { oldPassword: DEMO_PASSWORD, newPassword });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.passwordRulesNotMet, responseMessage: 'profile.error.rules' });
    expect(await signInStatus('demo', DEMO_PASSWORD)).toBe(200);
    expect(await signInStatus('demo', newPassword)).toBe(401);
  });

  it('refuses the current password as the new one', async () => {
    const { sessionId } = await t.login('demo');
    const other = await t.login('demo');
    const reply = await change(sessionId, { oldPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.samePassword, responseMessage: 'profile.error.samePassword' });
    expect((await t.api('GET', '/user', { session: other.sessionId })).statusCode).toBe(200);
  });

  it('does not let an administrator acting as the participant change their password', async () => {
    const { sessionId } = await t.login('merch');
    await t.database.db.updateTable('sessions').set({ admin_as_user: 1 }).execute();
    const reply = await change(sessionId, { oldPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD });
    await t.database.db.updateTable('sessions').set({ admin_as_user: 0 }).execute();
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.forbidden, responseMessage: 'error.forbidden' });
    expect(await signInStatus('merch', DEMO_PASSWORD)).toBe(200);
  });

  it('answers 401 without a session, with a malformed one, or one of another client', async () => {
    const body = { oldPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD };
    for (const session of [undefined, 'not-a-session', 'A'.repeat(43)]) {
      const reply = await change(session, body);
      expect(reply.statusCode).toBe(401);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
    }
    const globex = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((await change(globex.sessionId, body)).statusCode).toBe(401);
    expect(
      (
        await t.api('PUT', '/user/password', {
          session: globex.sessionId,
          body: { oldPassword: OTHER_PASSWORD, newPassword: NEW_PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
    expect(await signInStatus('demo', DEMO_PASSWORD)).toBe(200);
    expect((await t.api('POST', '/login', { body: { username: 'demo', password: OTHER_PASSWORD }, origin: OTHER_ORIGIN })).statusCode).toBe(
      200,
    );
  });

  it('refuses bad input with a translated validation error, changing nothing', async () => {
    const { sessionId } = await t.login('demo');
    const bodies = [
      {},
      { oldPassword: DEMO_PASSWORD },
      { newPassword: NEW_PASSWORD },
      { oldPassword: '', newPassword: NEW_PASSWORD },
      { oldPassword: DEMO_PASSWORD, newPassword: '' },
      { oldPassword: DEMO_PASSWORD, newPassword: `Ab1!${'x'.repeat(200)}` },
      { oldPassword: 'x'.repeat(201), newPassword: NEW_PASSWORD },
      { oldPassword: 42, newPassword: NEW_PASSWORD },
      'not json',
    ];
    for (const body of bodies) {
      const reply = await change(sessionId, body);
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation, responseMessage: 'error.validation' });
      expect(reply.body).not.toMatch(/at .*\.ts|select|update/i);
    }
    const broken = await t.api('PUT', '/user/password', { session: sessionId, rawBody: '{"oldPassword": "x", ' });
    expect(broken.statusCode).toBe(400);
    expect(await signInStatus('demo', DEMO_PASSWORD)).toBe(200);
  });
});
