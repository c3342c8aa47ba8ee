import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CLIENT_HEADER, ErrorCode, type UserData } from '@rewards/contract';
import { appOver } from '../../../test/app-over.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, DEMO_ORIGIN, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { OTHER_PASSWORD } from '../../../test/other-client.ts';

describe.each(dialects)('sign-in and sign-out on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '100' });
  });
  afterAll(() => t.close());

  it('signs Dana in and returns her user data with a new session id', async () => {
    const reply = await t.api('POST', '/login', { body: { username: 'demo', password: 'Rewards-2026!' } });
    expect(reply.statusCode).toBe(200);
    const user = reply.json<UserData>();
    expect(user).toMatchObject({
      authenticated: true,
      userName: 'demo',
      firstName: 'Dana',
      lastName: 'Demo',
      accountNumber: '1000001',
      accountBalance: 12500,
      locale: { code: 'en-US', dir: 'ltr' },
      rewardsOffering: { merchandise: true, experiences: true },
      participantFeatures: { ots: true },
      adminAsUser: false,
      privacyNotice: { hasAcknowledged: false, version: 1 },
      participantRules: ['Sales Incentive 2026', 'Service Awards'],
    });
    expect(user.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(reply.headers['x-session-id']).toBe(user.sessionId);
    expect(reply.body).not.toContain('password');
  });

  it('gives a new session id at every sign-in and stores only its hash', async () => {
    const first = await t.login('demo');
    const second = await t.login('demo');
    expect(first.sessionId).not.toBe(second.sessionId);
    const stored = await t.database.db.selectFrom('sessions').select('id_hash').execute();
    expect(stored.map((s) => s.id_hash)).not.toContain(first.sessionId);
    expect(stored.every((s) => /^[0-9a-f]{64}$/.test(s.id_hash))).toBe(true);
  });

  it('ignores the case of the username', async () => {
    expect((await t.login('DEMO')).userName).toBe('demo');
  });

  it('answers an unknown user and a wrong password alike', async () => {
    const unknown = await t.api('POST', '/login', { body: { username: 'nobody-here', password: 'Rewards-2026!' } });
    const wrong = await t.api('POST', '/login', { body: { username: 'newbie', password: 'not-the-password' } });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({
      errorCode: ErrorCode.invalidCredentials,
      responseMessage: 'login.error.invalidCredentials',
      message: 'Invalid username or password',
    });
  });

  it('warns a participant who has not activated yet with 20013', async () => {
    const reply = await t.api('POST', '/login', { body: { username: 'pending', password: 'Rewards-2026!' } });
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ errorCode: 20013, responseMessage: 'login.warning.preActivation' });
  });

  it('does not tell a wrong password for a pending account apart from any other', async () => {
    const reply = await t.api('POST', '/login', { body: { username: 'pending', password: 'wrong-password' } });
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.invalidCredentials });
  });

  it('lets an inactive participant with points in, flagged isInActiveHasPoints', async () => {
    const user = await t.login('inactive');
    expect(user.isInActiveHasPoints).toBe(true);
    expect(user.accountBalance).toBe(1000);
  });

  it('throttles repeated failures on one account with 429, even with the right password', async () => {
    for (let i = 0; i < 3; i += 1) {
      const reply = await t.api('POST', '/login', { body: { username: 'spent', password: `wrong-${i}` } });
      expect(reply.statusCode).toBe(401);
    }
    const blocked = await t.api('POST', '/login', { body: { username: 'spent', password: 'Rewards-2026!' } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ errorCode: ErrorCode.loginThrottled, responseMessage: 'login.error.throttled' });
    // Other accounts from the same address are not locked out by it.
    expect((await t.login('merch')).userName).toBe('merch');
  });

  it('refuses bad input with a translated validation error and no detail of the server', async () => {
    for (const body of [{}, { username: 'demo' }, { username: '', password: 'x' }, { username: 'demo', password: 42 }, 'not json']) {
      const reply = await t.api('POST', '/login', { body });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation, responseMessage: 'error.validation' });
      expect(reply.body).not.toMatch(/at .*\.ts|select|insert/i);
    }
    const broken = await t.api('POST', '/login', { rawBody: '{"username": "demo", ' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ responseMessage: 'error.validation' });
  });

  it("signs in to the other client only with that client's origin and password", async () => {
    const there = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect(there.firstName).toBe('Gina');
    const crossed = await t.api('POST', '/login', { body: { username: 'demo', password: OTHER_PASSWORD } });
    expect(crossed.statusCode).toBe(401);
  });

  it('refuses a request without a known site origin', async () => {
    const missing = await t.api('POST', '/login', { body: { username: 'demo', password: 'x' }, origin: '' });
    const unknown = await t.api('POST', '/login', { body: { username: 'demo', password: 'x' }, origin: 'https://evil.example' });
    for (const reply of [missing, unknown]) {
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.unknownClient, responseMessage: 'error.unknownClient' });
    }
  });

  it('signs out: the session no longer works, and signing out again still succeeds', async () => {
    const { sessionId } = await t.login('newbie');
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(200);
    const out = await t.api('GET', '/logout', { session: sessionId });
    expect(out.statusCode).toBe(204);
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(401);
    expect((await t.api('GET', '/logout', { session: sessionId })).statusCode).toBe(204);
    expect((await t.api('GET', '/logout')).statusCode).toBe(204);
  });

  it('does not end a session of another client on sign-out', async () => {
    const { sessionId } = await t.login('demo');
    await t.api('GET', '/logout', { session: sessionId, origin: OTHER_ORIGIN });
    expect((await t.api('GET', '/user', { session: sessionId })).statusCode).toBe(200);
  });
});

describe.each(dialects)('throttling by address on %s', (dialect) => {
  let t: TestApp;
  // One proxy in front (docs/decisions/041): the client address is the one it appended, right-most.
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_MAX_FAILURES_PER_ADDRESS: '3', TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('stops an address that guesses across many accounts, and only that address', async () => {
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (const username of ['anna', 'bert', 'carl']) {
      const reply = await t.api('POST', '/login', { body: { username, password: 'guess' }, headers: from('203.0.113.9') });
      expect(reply.statusCode).toBe(401);
    }
    const blocked = await t.api('POST', '/login', { body: { username: 'demo', password: 'Rewards-2026!' }, headers: from('203.0.113.9') });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await t.api('POST', '/login', {
      body: { username: 'demo', password: 'Rewards-2026!' },
      headers: from('198.51.100.7'),
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('counts a caller that writes its own left-most X-Forwarded-For under the address the proxy appended', async () => {
    // The caller's forged entries come first; the proxy appends the address it saw.
    const via = (forged: string) => ({ 'x-forwarded-for': `${forged}, 203.0.113.44` });
    for (let i = 1; i <= 3; i++) {
      const reply = await t.api('POST', '/login', { body: { username: `nobody-${i}`, password: 'guess' }, headers: via(`198.18.0.${i}`) });
      expect(reply.statusCode).toBe(401);
    }
    for (const forged of ['198.18.0.99', '198.51.100.7', '10.0.0.1, 192.0.2.1']) {
      const blocked = await t.api('POST', '/login', { body: { username: 'demo', password: 'Rewards-2026!' }, headers: via(forged) });
      expect(blocked.statusCode).toBe(429);
    }
    // Naming the blocked address on the left gives another address nothing either way.
    const other = await t.api('POST', '/login', {
      body: { username: 'demo', password: 'Rewards-2026!' },
      headers: { 'x-forwarded-for': '203.0.113.44, 198.51.100.8' },
    });
    expect(other.statusCode).toBe(200);
  });

  it("with the proxies named by address, believes X-Forwarded-For only from them, and only the proxy's entry", async () => {
    const named = await appOver(t.database, { LOGIN_MAX_FAILURES_PER_ADDRESS: '3', TRUST_PROXY: '10.0.0.0/8' });
    try {
      // A new unknown username each time, so only the address limit can stop a guess.
      const login = (remoteAddress: string, forwardedFor: string, username = `nobody-${forwardedFor}`, password = 'guess') =>
        named.app.inject({
          method: 'POST',
          url: `${API_BASE}/login`,
          remoteAddress,
          headers: { 'content-type': 'application/json', [CLIENT_HEADER]: DEMO_ORIGIN, 'x-forwarded-for': forwardedFor },
          payload: JSON.stringify({ username, password }),
        });
      // Through the proxy 10.0.0.5: counted under the address it appended, whatever came before.
      for (const forged of ['198.18.1.1', '198.18.1.2', '198.18.1.3'])
        expect((await login('10.0.0.5', `${forged}, 203.0.113.66`)).statusCode).toBe(401);
      expect((await login('10.0.0.6', '198.18.1.4, 203.0.113.66', 'demo', 'Rewards-2026!')).statusCode).toBe(429);
      // Straight from 192.0.2.77 (no proxy): its X-Forwarded-For is not believed at all.
      for (const forged of ['198.18.2.1', '198.18.2.2', '198.18.2.3']) expect((await login('192.0.2.77', forged)).statusCode).toBe(401);
      expect((await login('192.0.2.77', '198.18.2.4', 'demo', 'Rewards-2026!')).statusCode).toBe(429);
    } finally {
      await named.close();
    }
  });
});
