import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, CLIENT_HEADER, ClientData, SESSION_HEADER, UserData } from '@rewards/contract';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.ts';
import { CookieJar, signInAtProvider, signOutAtProvider, startTestProvider, type TestProvider } from '../../../test/oidc-provider.ts';
import { createMetrics, type Metrics } from '../metrics/metrics.ts';
import { sampleOf } from '../metrics/test-support.ts';
import { hashSessionId } from '../sessions/session-id.ts';
import { OTHER_CLIENT_ID, seedOtherClient } from '../../../test/other-client.ts';
import { configureSsoForTest, copyParticipant } from './test-support.ts';

const ACME_HOST = 'localhost:3000';
const GLOBEX_HOST = 'rewards.globex.example';

/** The provider's test accounts: what is typed on its login page → the claims it vouches for. */
const ACCOUNTS = {
  dana: { preferred_username: 'DEMO', name: 'Dana Demo' },
  stranger: { preferred_username: 'nobody-here' },
  pat: { preferred_username: 'pending' },
  gina: { preferred_username: 'gina.globex' },
  nameless: { name: 'No Username' },
};

describe.each(dialects)('single sign-on with OpenID Connect on %s', (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let provider: TestProvider;
  let metrics: Metrics;
  let logs = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'sso-test-'));

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedDemo(database.db);
    await seedOtherClient(database.db);
    await copyParticipant(database.db, OTHER_CLIENT_ID, 'demo', 'gina.globex');
    provider = await startTestProvider({
      redirectUris: [`http://${ACME_HOST}${API_BASE}/sso/callback`, `http://${GLOBEX_HOST}${API_BASE}/sso/callback`],
      postLogoutRedirectUris: ['https://intranet.acme.example/'],
      accounts: ACCOUNTS,
    });
    await configureSsoForTest(database.db, dataDir, 'acme', provider);
    await configureSsoForTest(database.db, dataDir, OTHER_CLIENT_ID, provider, {
      siteName: 'Globex Hub',
      siteUrl: 'https://hub.globex.example/',
    });
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const config = { ...loadConfig({ LOG_LEVEL: 'info', CLIENT_CACHE_SECONDS: '0', DATA_DIR: dataDir }), webDist: undefined };
    metrics = createMetrics({ db: database.db, database: database.config });
    app = await buildApp({ config, db: database.db, logStream, metrics });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await provider.close();
    await database.drop();
  });

  /** The browser's "Sign in with …" click: the portal's answer and the binding cookie it set. */
  async function startSignIn(host = ACME_HOST) {
    const reply = await app.inject({ method: 'GET', url: `${API_BASE}/sso/login`, headers: { host } });
    const cookie = String(reply.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    return { status: reply.statusCode, location: String(reply.headers.location), cookie };
  }

  /** The provider's redirect back to the portal, as the browser follows it. */
  async function arrive(callback: URL, cookie: string, host = ACME_HOST) {
    const reply = await app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { host, cookie } });
    expect(reply.statusCode).toBe(302);
    return String(reply.headers.location);
  }

  /** The whole round trip for one provider account: where the portal finally sends the browser. */
  async function signIn(login: string, host = ACME_HOST) {
    const start = await startSignIn(host);
    const callback = await signInAtProvider(start.location, login);
    return arrive(callback, start.cookie, host);
  }

  const getUser = (sessionId: string, origin = 'http://localhost:3000') =>
    app.inject({ method: 'GET', url: `${API_BASE}/user`, headers: { [CLIENT_HEADER]: origin, [SESSION_HEADER]: sessionId } });

  const handoffOf = (location: string) => new URL(location, 'http://x').searchParams.get('JSESSIONID') ?? '';

  it('tells the web to offer "Sign in with" the client site, and never the provider secret', async () => {
    const reply = await app.inject({
      method: 'GET',
      url: `${API_BASE}/viewConfig/client`,
      headers: { [CLIENT_HEADER]: 'http://localhost:3000' },
    });
    const data = ClientData.parse(reply.json());
    expect(data.ssoConfig).toEqual({
      clientSite: { name: 'Acme Intranet', url: 'https://intranet.acme.example/' },
      ssoType: 'login_and_sso',
      ssoLogoutType: 'sso',
      signIn: true,
      loginForm: true,
    });
    expect(reply.body).not.toContain(provider.clientSecret);
    expect(reply.body).not.toContain(provider.issuer);
  });

  it("takes the redirect URI's protocol from X-Forwarded-Proto only when a trusted proxy sends it (TRUST_PROXY, decision 041)", async () => {
    const cases: Array<[trust: string, peer: string, protocol: string]> = [
      ['1', '127.0.0.1', 'https'],
      ['10.0.0.0/8', '10.0.0.5', 'https'],
      ['10.0.0.0/8', '192.0.2.7', 'http'],
      ['false', '127.0.0.1', 'http'],
    ];
    for (const [trust, peer, protocol] of cases) {
      const config = {
        ...loadConfig({ LOG_LEVEL: 'silent', CLIENT_CACHE_SECONDS: '0', DATA_DIR: dataDir, TRUST_PROXY: trust }),
        webDist: undefined,
      };
      const proxied = await buildApp({ config, db: database.db });
      try {
        const reply = await proxied.inject({
          method: 'GET',
          url: `${API_BASE}/sso/login`,
          remoteAddress: peer,
          headers: { host: ACME_HOST, 'x-forwarded-proto': 'https' },
        });
        expect(reply.statusCode).toBe(302);
        const redirectUri = new URL(String(reply.headers.location)).searchParams.get('redirect_uri');
        expect(redirectUri, `TRUST_PROXY=${trust} from ${peer}`).toBe(`${protocol}://${ACME_HOST}${API_BASE}/sso/callback`);
      } finally {
        await proxied.close();
      }
    }
  });

  it('signs a participant in through the provider, matching the claim without regard to case', async () => {
    const start = await startSignIn();
    expect(start.status).toBe(302);
    const authorization = new URL(start.location);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toBe(`http://${ACME_HOST}${API_BASE}/sso/callback`);
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(start.cookie).toMatch(/^rewards_sso=.+/);

    const location = await arrive(await signInAtProvider(start.location, 'dana'), start.cookie);
    expect(location).toMatch(/^\/sso-authenticated\?JSESSIONID=[A-Za-z0-9_-]{44}$/);
    const urlId = handoffOf(location);

    // The first GET user swaps the id of the URL for a fresh session, which the reply carries.
    const first = await getUser(urlId);
    expect(first.statusCode).toBe(200);
    const user = UserData.parse(first.json());
    expect(user).toMatchObject({ userName: 'demo', firstName: 'Dana', authenticated: true, ssoAuthenticated: true, adminAsUser: false });
    expect(user.sessionId).not.toBe(urlId);
    expect((await getUser(user.sessionId)).statusCode).toBe(200);

    // The id of the URL was good once.
    expect((await getUser(urlId)).statusCode).toBe(401);
    expect(logs).toContain('unknown, used or expired single sign-on session id');
  });

  it("counts the provider's returns as participant sign-ins by outcome (decision 079)", async () => {
    const signIns = async (outcome: string) =>
      sampleOf(await metrics.scrape(), 'rewards_sign_ins_total', { who: 'participant', step: 'single_sign_on', outcome }) ?? 0;
    const [successes, failures] = [await signIns('success'), await signIns('failure')];
    expect(await signIn('dana')).toMatch(/^\/sso-authenticated\?JSESSIONID=/);
    expect(await signIn('stranger')).toBe('/sso-authenticated?invalid');
    expect(await signIns('success')).toBe(successes + 1);
    expect(await signIns('failure')).toBe(failures + 1);
  });

  it('lets only one of two tabs racing with the same id have a session', async () => {
    const urlId = handoffOf(await signIn('dana'));
    const replies = await Promise.all([getUser(urlId), getUser(urlId)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('gives the id of the URL at most a minute', async () => {
    const urlId = handoffOf(await signIn('dana'));
    await database.db
      .updateTable('sso_handoffs')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await getUser(urlId)).statusCode).toBe(401);
  });

  it('accepts the id of the URL only as GET user, and only on its own client', async () => {
    const urlId = handoffOf(await signIn('dana'));
    const statement = await app.inject({
      method: 'GET',
      url: `${API_BASE}/user/program-names`,
      headers: { [CLIENT_HEADER]: 'http://localhost:3000', [SESSION_HEADER]: urlId },
    });
    expect(statement.statusCode).toBe(401);
    expect((await getUser(urlId, `https://${GLOBEX_HOST}`)).statusCode).toBe(401);
    expect((await getUser(urlId)).statusCode).toBe(200);
  });

  it('signs nobody in for an unknown participant, and logs why for the operator', async () => {
    expect(await signIn('stranger')).toBe('/sso-authenticated?invalid');
    expect(logs).toContain('no participant of this client has that username');
    // A provider that does not send the configured claim: the portal cannot tell who it is.
    expect(await signIn('nameless')).toBe('/ssoFailure');
    expect(logs).toContain('the provider sent no usable \\"preferred_username\\" claim');
  });

  it('sends a participant who has not activated to the pre-activation warning', async () => {
    expect(await signIn('pat')).toBe('/sso-authenticated?code=20013');
  });

  it('does not sign in a participant of another client', async () => {
    // gina.globex exists in Globex only; the provider vouches for her, Acme does not know her.
    expect(await signIn('gina')).toBe('/sso-authenticated?invalid');
    const globex = await signIn('gina', GLOBEX_HOST);
    expect(globex).toMatch(/^\/sso-authenticated\?JSESSIONID=/);
    const user = UserData.parse((await getUser(handoffOf(globex), `https://${GLOBEX_HOST}`)).json());
    expect(user.firstName).toBe('Gina');
  });

  it('refuses a forged state, a replayed callback and another browser', async () => {
    const start = await startSignIn();
    const callback = await signInAtProvider(start.location, 'dana');

    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state');
    expect(await arrive(forged, start.cookie)).toBe('/sso-authenticated?error');

    const otherBrowser = await arrive(callback, 'rewards_sso=someone-elses-cookie');
    expect(otherBrowser).toBe('/sso-authenticated?error');
    expect(logs).toContain('the callback came to another browser');

    // The state was spent by that attempt: even the right browser cannot use it again.
    expect(await arrive(callback, start.cookie)).toBe('/sso-authenticated?error');
    expect(logs).toContain('unknown or already used state');
  });

  it('refuses a replayed callback after a successful sign-in', async () => {
    const start = await startSignIn();
    const callback = await signInAtProvider(start.location, 'dana');
    expect(await arrive(callback, start.cookie)).toMatch(/JSESSIONID=/);
    expect(await arrive(callback, start.cookie)).toBe('/sso-authenticated?error');
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const start = await startSignIn();
    const callback = await signInAtProvider(start.location, 'dana');
    await database.db
      .updateTable('sso_logins')
      .set({ nonce: 'not-the-nonce-that-was-sent' })
      .where('state', '=', callback.searchParams.get('state') ?? '')
      .execute();
    expect(await arrive(callback, start.cookie)).toBe('/sso-authenticated?error');
    expect(logs).toMatch(/answer failed the checks[^\n]*nonce/);
  });

  it("shows the provider's refusal (the user cancelled there) as an SSO logon failure", async () => {
    const start = await startSignIn();
    const callback = await signInAtProvider(start.location, 'dana', { cancel: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(await arrive(callback, start.cookie)).toBe('/ssoLogonFailure');
  });

  it('sends the browser to the gateway failure when the provider is down', async () => {
    const down = await startTestProvider({ redirectUris: [`http://${ACME_HOST}${API_BASE}/sso/callback`], accounts: ACCOUNTS });
    await down.close();
    await configureSsoForTest(database.db, dataDir, 'acme', down);
    try {
      const start = await startSignIn();
      expect(start.location).toBe('/ssoGatewayLogonFailure');
      expect(logs).toContain('the provider cannot be discovered');
    } finally {
      await configureSsoForTest(database.db, dataDir, 'acme', provider);
    }
  });

  it('goes to the SSO logon failure screen where single sign-on is off', async () => {
    await database.db.updateTable('clients').set({ sso_type: 'login_only' }).where('id', '=', 'acme').execute();
    try {
      expect((await startSignIn()).location).toBe('/ssoLogonFailure');
      const data = ClientData.parse(
        (
          await app.inject({ method: 'GET', url: `${API_BASE}/viewConfig/client`, headers: { [CLIENT_HEADER]: 'http://localhost:3000' } })
        ).json(),
      );
      expect(data.ssoConfig).toMatchObject({ signIn: false, loginForm: true });
    } finally {
      await database.db.updateTable('clients').set({ sso_type: 'login_and_sso' }).where('id', '=', 'acme').execute();
    }
  });

  it("turns the portal's own form off for sso_only", async () => {
    await database.db.updateTable('clients').set({ sso_type: 'sso_only' }).where('id', '=', 'acme').execute();
    try {
      const data = ClientData.parse(
        (
          await app.inject({ method: 'GET', url: `${API_BASE}/viewConfig/client`, headers: { [CLIENT_HEADER]: 'http://localhost:3000' } })
        ).json(),
      );
      expect(data.ssoConfig).toMatchObject({ ssoType: 'sso_only', signIn: true, loginForm: false });
      // Off on the server too, not only hidden: the right password does not open a session.
      const login = await app.inject({
        method: 'POST',
        url: `${API_BASE}/login`,
        headers: { [CLIENT_HEADER]: 'http://localhost:3000', 'content-type': 'application/json' },
        payload: JSON.stringify({ username: 'demo', password: 'Rewards-2026!' }),
      });
      expect(login.statusCode).toBe(403);
      expect(login.json()).toMatchObject({ errorCode: 90001, responseMessage: 'ssoFlow.error.passwordSignInOff' });
    } finally {
      await database.db.updateTable('clients').set({ sso_type: 'login_and_sso' }).where('id', '=', 'acme').execute();
    }
  });

  it('signs out at the provider and ends at the client site', async () => {
    const reply = await app.inject({ method: 'GET', url: `${API_BASE}/sso/logout`, headers: { host: ACME_HOST } });
    expect(reply.statusCode).toBe(302);
    const endSession = new URL(String(reply.headers.location));
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get('client_id')).toBe(provider.clientId);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe('https://intranet.acme.example/');

    await database.db.updateTable('clients').set({ sso_logout_type: 'login' }).where('id', '=', 'acme').execute();
    try {
      const plain = await app.inject({ method: 'GET', url: `${API_BASE}/sso/logout`, headers: { host: ACME_HOST } });
      expect(plain.headers.location).toBe('https://intranet.acme.example/');
    } finally {
      await database.db.updateTable('clients').set({ sso_logout_type: 'sso' }).where('id', '=', 'acme').execute();
    }
  });

  it('keeps the ID token with the session, server side, and sends it as id_token_hint on sign-out: no question at the provider', async () => {
    const jar = new CookieJar();
    const start = await startSignIn();
    const location = await arrive(await signInAtProvider(start.location, 'dana', { jar }), start.cookie);
    const user = UserData.parse((await getUser(handoffOf(location))).json());
    expect(JSON.stringify(user)).not.toMatch(/eyJ/);
    const sessionHash = hashSessionId(user.sessionId);
    const tokens = () => database.db.selectFrom('sso_session_tokens').selectAll().where('session_hash', '=', sessionHash).execute();
    const [kept] = await tokens();
    // Sealed: a copy of the database holds no usable token.
    expect(kept?.id_token_sealed).toMatch(/^v1\./);
    expect(kept?.id_token_sealed).not.toContain('eyJ');

    // The portal's sign-out ends the session (the token goes with it) and hands the browser a cookie for sso/logout.
    const signOut = await app.inject({
      method: 'GET',
      url: `${API_BASE}/logout`,
      headers: { [CLIENT_HEADER]: 'http://localhost:3000', [SESSION_HEADER]: user.sessionId },
    });
    expect(signOut.statusCode).toBe(204);
    const setCookie = String(signOut.headers['set-cookie'] ?? '');
    expect(setCookie).toMatch(/^rewards_sso_signout=[A-Za-z0-9_-]{43}; Path=\/api\/v1.0\/sso; Max-Age=120; HttpOnly; SameSite=Lax$/);
    expect(await tokens()).toEqual([]);
    const cookie = setCookie.split(';')[0] ?? '';

    const logout = await app.inject({ method: 'GET', url: `${API_BASE}/sso/logout`, headers: { host: ACME_HOST, cookie } });
    expect(logout.statusCode).toBe(302);
    expect(String(logout.headers['set-cookie'])).toMatch(/^rewards_sso_signout=; .*Max-Age=0/);
    const endSession = new URL(String(logout.headers.location));
    const hint = endSession.searchParams.get('id_token_hint') ?? '';
    const payload = JSON.parse(Buffer.from(hint.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(payload).toMatchObject({ sub: 'dana', aud: provider.clientId, iss: provider.issuer });
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe('https://intranet.acme.example/');

    // The provider gets the hint, signs the person out without asking, and sends them to the client's site.
    const before = provider.endSessionRequests.length;
    const after = await signOutAtProvider(endSession.href, jar);
    expect(provider.endSessionRequests[before]?.get('id_token_hint')).toBe(hint);
    expect(after).toEqual({ url: new URL('https://intranet.acme.example/'), asked: false });

    // The cookie works once.
    const again = await app.inject({ method: 'GET', url: `${API_BASE}/sso/logout`, headers: { host: ACME_HOST, cookie } });
    expect(new URL(String(again.headers.location)).searchParams.has('id_token_hint')).toBe(false);
  });

  it('signs out without a hint when there is none: the provider then asks; the token never outlives its session', async () => {
    const jar = new CookieJar();
    const start = await startSignIn();
    const location = await arrive(await signInAtProvider(start.location, 'dana', { jar }), start.cookie);
    const user = UserData.parse((await getUser(handoffOf(location))).json());
    // A session ended any other way (expiry, a password change, the operator) takes its token along.
    await database.db.deleteFrom('sessions').where('id_hash', '=', hashSessionId(user.sessionId)).execute();
    expect(
      await database.db
        .selectFrom('sso_session_tokens')
        .select('session_hash')
        .where('session_hash', '=', hashSessionId(user.sessionId))
        .execute(),
    ).toEqual([]);

    const signOut = await app.inject({
      method: 'GET',
      url: `${API_BASE}/logout`,
      headers: { [CLIENT_HEADER]: 'http://localhost:3000', [SESSION_HEADER]: user.sessionId },
    });
    expect(signOut.statusCode).toBe(204);
    expect(signOut.headers['set-cookie']).toBeUndefined();
    const logout = await app.inject({ method: 'GET', url: `${API_BASE}/sso/logout`, headers: { host: ACME_HOST } });
    const endSession = new URL(String(logout.headers.location));
    expect(endSession.searchParams.has('id_token_hint')).toBe(false);
    expect((await signOutAtProvider(endSession.href, jar)).asked).toBe(true);

    // A password session has no token: its sign-out sets no cookie.
    const password = await app.inject({
      method: 'POST',
      url: `${API_BASE}/login`,
      headers: { [CLIENT_HEADER]: 'http://localhost:3000', 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'demo', password: 'Rewards-2026!' }),
    });
    const passwordOut = await app.inject({
      method: 'GET',
      url: `${API_BASE}/logout`,
      headers: { [CLIENT_HEADER]: 'http://localhost:3000', [SESSION_HEADER]: UserData.parse(password.json()).sessionId },
    });
    expect([passwordOut.statusCode, passwordOut.headers['set-cookie']]).toEqual([204, undefined]);
  });

  it('never writes the client secret, a code or a token to the log', () => {
    expect(logs).toContain('single sign-on refused');
    expect(logs).not.toContain(provider.clientSecret);
    expect(logs).not.toMatch(/"code":"[A-Za-z0-9_-]{20,}/);
    expect(logs).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
  });
});
