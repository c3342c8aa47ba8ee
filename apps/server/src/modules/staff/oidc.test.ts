import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { CONSOLE_API_BASE, consolePaths, type StaffMe, type StaffSignInMethods } from '@rewards/contract/console';
import { consoleStaffPaths } from '@rewards/contract/console-staff';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { dialects } from '../../../test/databases.ts';
import { signInAtProvider, startTestProvider, type TestProvider } from '../../../test/oidc-provider.ts';
import { createStaff, disableStaff } from './accounts.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { sampleOf } from '../metrics/test-support.ts';
import { hashSessionId } from '../sessions/session-id.ts';
import { consoleReturnPath, providerMultiFactor } from './oidc.ts';
import {
  CONSOLE_ORIGIN,
  consoleCookieOf,
  createConsoleTestApp,
  enrolStaff,
  freshCode,
  signIn,
  TEST_ACTOR,
  type ConsoleTestApp,
  type EnrolledStaff,
} from './test-support.ts';

const CALLBACK = `${CONSOLE_ORIGIN}${CONSOLE_API_BASE}${consolePaths.signInOidcCallback}`;
const MFA_ACR = 'urn:acme:loa:mfa';

/** The provider's people: what is typed on its login page → the claims it vouches for; and how they authenticate. */
const ACCOUNTS = {
  'owner-mfa': { email: 'owner@rewards.test', email_verified: true, name: 'Olive Owner' },
  'agent-plain': { email: 'Agent@Acme.test', email_verified: true },
  'manager-acr': { email: 'manager@acme.test', email_verified: true },
  stranger: { email: 'stranger@acme.test', email_verified: true },
  'disabled-mfa': { email: 'disabled@acme.test', email_verified: true },
  unverified: { email: 'manager@acme.test', email_verified: false },
  'invited-plain': { email: 'invited@acme.test', email_verified: true },
  'invited-mfa': { email: 'invited@acme.test', email_verified: true },
  'impostor-mfa': { email: 'agent@acme.test', email_verified: true },
};
const AUTHENTICATION = {
  'owner-mfa': { amr: ['pwd', 'otp'] },
  'agent-plain': { amr: ['pwd'] },
  'manager-acr': { acr: MFA_ACR },
  'disabled-mfa': { amr: ['mfa'] },
  'impostor-mfa': { amr: ['mfa'] },
  'invited-mfa': { amr: ['hwk'] },
};

describe.each(dialects)('staff sign-in through the OpenID provider on %s', (dialect) => {
  let t: ConsoleTestApp;
  let provider: TestProvider;
  let agent: EnrolledStaff;

  beforeAll(async () => {
    provider = await startTestProvider({ redirectUris: [CALLBACK], accounts: ACCOUNTS, authentication: AUTHENTICATION });
    t = await createConsoleTestApp(dialect, {
      STAFF_OIDC_ISSUER: provider.issuer,
      STAFF_OIDC_CLIENT_ID: provider.clientId,
      STAFF_OIDC_CLIENT_SECRET: provider.clientSecret,
      STAFF_OIDC_NAME: 'Acme ID',
      STAFF_OIDC_MFA_ACR: `urn:acme:loa:hardware, ${MFA_ACR}`,
    });
    await enrolStaff(t, 'owner@rewards.test', { owner: true });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: 'acme', role: 'support_agent' }] });
    await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] });
    await enrolStaff(t, 'disabled@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
    await disableStaff(t.database.db, TEST_ACTOR, 'disabled@acme.test');
    // Invited, never enrolled: no factor of ours.
    await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
      email: 'invited@acme.test',
      name: 'Invited',
      owner: false,
      roles: [{ clientId: 'acme', role: 'auditor' }],
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_limits').execute();
  });

  /** The "Sign in with Acme ID" click: where the console sends the browser, and the binding cookie. */
  async function start(query = '') {
    const reply = await t.console('GET', `${consolePaths.signInOidc}${query}`);
    expect(reply.statusCode).toBe(302);
    const binding = reply.cookies.find((c) => c.name === 'rewards_console_oidc');
    return { location: String(reply.headers.location), binding: binding?.value };
  }

  /** The provider's redirect back, as the browser follows it (with the binding cookie unless told otherwise). */
  async function arrive(callback: URL, binding: string | undefined) {
    const reply = await t.app.inject({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      headers: { host: new URL(CONSOLE_ORIGIN).host, ...(binding ? { cookie: `rewards_console_oidc=${binding}` } : {}) },
    });
    expect(reply.statusCode).toBe(302);
    return { location: String(reply.headers.location), cookie: consoleCookieOf(reply) };
  }

  /** The whole round trip for one provider account. */
  async function signInAs(login: string) {
    const begun = await start();
    const callback = await signInAtProvider(begun.location, login);
    return arrive(callback, begun.binding);
  }

  const me = (cookie: string | undefined) => t.console('GET', consolePaths.me, { cookie });
  const auditOf = async (action: string) =>
    t.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('at', 'desc').orderBy('id').execute();

  it('tells the sign-in page what it offers', async () => {
    const methods = await t.console('GET', consolePaths.signInMethods);
    expect(methods.statusCode).toBe(200);
    expect(methods.json<StaffSignInMethods>()).toEqual({ password: true, provider: { name: 'Acme ID' } });
  });

  it('sends the browser to the provider with PKCE, state, nonce and max_age, bound to this browser by a cookie', async () => {
    const begun = await start();
    const url = new URL(begun.location);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: provider.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      max_age: String(8 * 3600),
    });
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(url.searchParams.get('prompt')).toBeNull();
    expect(begun.binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A fresh sign-in (the step-up of someone without a factor of ours): the provider authenticates again.
    const fresh = new URL((await start('?fresh=1')).location);
    expect(fresh.searchParams.get('prompt')).toBe('login');
    expect(fresh.searchParams.get('max_age')).toBe('0');
  });

  it('with amr saying a second factor was used: a full session, audited with the method', async () => {
    const arrived = await signInAs('owner-mfa');
    expect(arrived.location).toBe('/console/');
    const who = await me(arrived.cookie);
    expect(who.statusCode).toBe(200);
    const person = who.json<StaffMe>();
    expect(person).toMatchObject({ email: 'owner@rewards.test', owner: true });
    // The provider's factor is as fresh as its authentication: moments ago.
    expect(Date.now() - Date.parse(person.secondFactorAt)).toBeLessThan(60_000);
    const [entry] = await auditOf('staff.sign-in.oidc');
    expect(entry).toMatchObject({ actor: 'owner@rewards.test', actor_kind: 'staff', client_id: null });
    expect(JSON.parse(entry!.details)).toMatchObject({ method: 'oidc', secondFactor: 'provider', amr: ['pwd', 'otp'], linked: true });
    // The fresh factor opens what needs one (staff management is owners' and asks for a fresh factor).
    expect((await t.console('GET', consoleStaffPaths.staff, { cookie: arrived.cookie })).statusCode).toBe(200);
  });

  it('with an acr the installation lists as multi-factor: a full session', async () => {
    const arrived = await signInAs('manager-acr');
    expect(arrived.location).toBe('/console/');
    expect((await me(arrived.cookie)).json<StaffMe>()).toMatchObject({ email: 'manager@acme.test' });
  });

  it('without a second factor at the provider: a half session, then our TOTP, then a full one; step-up works for it', async () => {
    const arrived = await signInAs('agent-plain');
    expect(arrived.location).toBe('/console/sign-in?oidc=secondFactor&factors=totp%2CrecoveryCode');
    expect(arrived.cookie).toMatch(/^cs\./);
    // Half: nothing but the second factor.
    expect((await me(arrived.cookie)).statusCode).toBe(401);
    expect((await t.console('GET', consolePaths.clients, { cookie: arrived.cookie })).statusCode).toBe(401);
    const wrong = await t.console('POST', consolePaths.signInTotp, { cookie: arrived.cookie, body: { code: '000000' } });
    expect(wrong.statusCode).toBe(401);
    const code = await t.console('POST', consolePaths.signInTotp, {
      cookie: arrived.cookie,
      body: { code: await freshCode(t, agent.email, agent.secret) },
    });
    expect(code.statusCode).toBe(200);
    const full = consoleCookieOf(code);
    expect(full).not.toBe(arrived.cookie);
    expect((await me(full)).json<StaffMe>()).toMatchObject({ email: 'agent@acme.test' });
    // The half session's id works no more.
    expect((await t.console('POST', consolePaths.signInTotp, { cookie: arrived.cookie, body: { code: '123456' } })).statusCode).toBe(401);
    const [entry] = await auditOf('staff.sign-in.oidc');
    expect(JSON.parse(entry!.details)).toMatchObject({ method: 'oidc', secondFactor: 'required', amr: ['pwd'] });
    // Step-up with our factor, as after a password.
    const stepUp = await t.console('POST', consoleStaffPaths.stepUpTotp, {
      cookie: full,
      body: { code: await freshCode(t, agent.email, agent.secret) },
    });
    expect(stepUp.statusCode).toBe(200);
  });

  it('refuses an e-mail address no staff account has, and audits it', async () => {
    const arrived = await signInAs('stranger');
    expect(arrived).toEqual({ location: '/console/sign-in?oidc=unknown', cookie: undefined });
    const [entry] = await auditOf('staff.sign-in.oidc.refused');
    expect(entry).toMatchObject({ actor: 'stranger@acme.test', actor_kind: 'staff', subject: null });
    expect(JSON.parse(entry!.details)).toMatchObject({
      method: 'oidc',
      reason: 'no staff account has this e-mail address',
      sub: 'stranger',
    });
  });

  it('refuses a disabled person, even with the provider second factor, and audits it', async () => {
    const arrived = await signInAs('disabled-mfa');
    expect(arrived).toEqual({ location: '/console/sign-in?oidc=disabled', cookie: undefined });
    const [entry] = await auditOf('staff.sign-in.oidc.refused');
    expect(entry).toMatchObject({ actor: 'disabled@acme.test' });
    expect(JSON.parse(entry!.details)).toMatchObject({ reason: 'the staff account is disabled', amr: ['mfa'] });
  });

  it('refuses an address the provider does not call verified', async () => {
    expect(await signInAs('unverified')).toEqual({ location: '/console/sign-in?oidc=unverified', cookie: undefined });
  });

  it('refuses someone without the provider second factor who has none of ours', async () => {
    expect(await signInAs('invited-plain')).toEqual({ location: '/console/sign-in?oidc=noSecondFactor', cookie: undefined });
  });

  it("lets in someone invited but not enrolled when the provider's second factor stands in (a provider-only installation)", async () => {
    const arrived = await signInAs('invited-mfa');
    expect(arrived.location).toBe('/console/');
    expect((await me(arrived.cookie)).json<StaffMe>()).toMatchObject({ email: 'invited@acme.test', roles: [{ role: 'auditor' }] });
  });

  it("keeps an account to the provider's subject linked at the first sign-in: the same address under another subject is refused", async () => {
    await signInAs('agent-plain'); // linked (again: the link is kept)
    const arrived = await signInAs('impostor-mfa');
    expect(arrived).toEqual({ location: '/console/sign-in?oidc=unknown', cookie: undefined });
    const [entry] = await auditOf('staff.sign-in.oidc.refused');
    expect(JSON.parse(entry!.details)).toMatchObject({ reason: "the account is linked to another of the provider's subjects" });
  });

  it('refuses a wrong or replayed state, another browser, and a wrong nonce; nobody is signed in', async () => {
    // A state the console never issued.
    const forged = await start();
    const forgedCallback = await signInAtProvider(forged.location, 'owner-mfa');
    forgedCallback.searchParams.set('state', 'not-a-state-we-issued');
    expect(await arrive(forgedCallback, forged.binding)).toEqual({ location: '/console/sign-in?oidc=error', cookie: undefined });

    // The right state, brought by another browser (no binding cookie, or another one).
    const other = await start();
    const otherCallback = await signInAtProvider(other.location, 'owner-mfa');
    expect(await arrive(otherCallback, 'a-cookie-of-another-browser')).toEqual({
      location: '/console/sign-in?oidc=error',
      cookie: undefined,
    });
    // The state was spent by that try: the right browser arriving after is refused too.
    expect(await arrive(otherCallback, other.binding)).toEqual({ location: '/console/sign-in?oidc=error', cookie: undefined });

    // A callback used twice: the second finds nothing.
    const once = await start();
    const onceCallback = await signInAtProvider(once.location, 'owner-mfa');
    expect((await arrive(onceCallback, once.binding)).location).toBe('/console/');
    expect(await arrive(onceCallback, once.binding)).toEqual({ location: '/console/sign-in?oidc=error', cookie: undefined });

    // The ID token's nonce is not the one this sign-in stored (as if the token were of another sign-in).
    const nonce = await start();
    const state = new URL(nonce.location).searchParams.get('state')!;
    await t.database.db.updateTable('staff_oidc_logins').set({ nonce: 'another-nonce-entirely' }).where('state', '=', state).execute();
    const nonceCallback = await signInAtProvider(nonce.location, 'owner-mfa');
    expect(await arrive(nonceCallback, nonce.binding)).toEqual({ location: '/console/sign-in?oidc=error', cookie: undefined });

    // The provider's own refusal (the person cancelled).
    const cancelled = await start();
    const cancelledCallback = await signInAtProvider(cancelled.location, 'owner-mfa', { cancel: true });
    expect(await arrive(cancelledCallback, cancelled.binding)).toEqual({ location: '/console/sign-in?oidc=refused', cookie: undefined });

    // A callback with no state at all.
    const bare = await t.app.inject({
      method: 'GET',
      url: `${CONSOLE_API_BASE}${consolePaths.signInOidcCallback}?code=x`,
      headers: { host: 'console.localhost:3000' },
    });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/console/sign-in?oidc=error');
  });

  it("counts the provider's returns as staff sign-ins by outcome (decision 079)", async () => {
    // A second app over the same database, with the metrics (the test app has none).
    const metrics = createMetrics({ db: t.database.db, database: t.database.config });
    const counted = await buildApp({ config: t.config, db: t.database.db, metrics });
    await counted.ready();
    try {
      const host = new URL(CONSOLE_ORIGIN).host;
      const signInThrough = async (login: string) => {
        const begun = await counted.inject({ method: 'GET', url: `${CONSOLE_API_BASE}${consolePaths.signInOidc}`, headers: { host } });
        const binding = begun.cookies.find((c) => c.name === 'rewards_console_oidc')?.value;
        const callback = await signInAtProvider(String(begun.headers.location), login);
        const reply = await counted.inject({
          method: 'GET',
          url: `${callback.pathname}${callback.search}`,
          headers: { host, cookie: `rewards_console_oidc=${binding}` },
        });
        return String(reply.headers.location);
      };
      expect(await signInThrough('owner-mfa')).toBe('/console/');
      expect(await signInThrough('stranger')).toBe('/console/sign-in?oidc=unknown');
      const text = await metrics.scrape();
      const signIns = (outcome: string) => sampleOf(text, 'rewards_sign_ins_total', { who: 'staff', step: 'single_sign_on', outcome });
      expect([signIns('success'), signIns('failure'), signIns('error')]).toEqual([1, 1, 0]);
    } finally {
      await counted.close();
    }
  });

  it('logs a refusal with its reason, and never the secret, the code or a token', async () => {
    // A second app over the same database, its log kept (the test app's is silent).
    let logs = '';
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const logged = await buildApp({ config: { ...t.config, logLevel: 'info' }, db: t.database.db, logStream });
    await logged.ready();
    try {
      const host = new URL(CONSOLE_ORIGIN).host;
      const begun = await logged.inject({ method: 'GET', url: `${CONSOLE_API_BASE}${consolePaths.signInOidc}`, headers: { host } });
      const binding = begun.cookies.find((c) => c.name === 'rewards_console_oidc')?.value;
      const callback = await signInAtProvider(String(begun.headers.location), 'stranger');
      const code = callback.searchParams.get('code')!;
      const reply = await logged.inject({
        method: 'GET',
        url: `${callback.pathname}${callback.search}`,
        headers: { host, cookie: `rewards_console_oidc=${binding}` },
      });
      expect(reply.headers.location).toBe('/console/sign-in?oidc=unknown');
      expect(logs).toContain('staff sign-in through the OpenID provider refused');
      expect(logs).toContain('no staff account has this e-mail address');
      for (const secret of [provider.clientSecret, code, binding!]) expect(logs).not.toContain(secret);
      expect(logs).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./); // no JWT
    } finally {
      await logged.close();
    }
  });

  describe('a step-up through the provider (a full session, fresh=1)', () => {
    /** Makes the session's second factor six minutes old: the next change wants a step-up. */
    const age = async (cookie: string | undefined) => {
      const at = new Date(Date.now() - 6 * 60_000).toISOString();
      await t.database.db
        .updateTable('staff_sessions')
        .set({ second_factor_at: at })
        .where('id_hash', '=', hashSessionId(cookie!))
        .execute();
      return at;
    };
    const factorOf = async (cookie: string | undefined) =>
      (
        await t.database.db
          .selectFrom('staff_sessions')
          .select('second_factor_at')
          .where('id_hash', '=', hashSessionId(cookie!))
          .executeTakeFirst()
      )?.second_factor_at;
    const sessionCount = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('staff_sessions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    let invited = 0;
    const invite = (cookie: string | undefined) =>
      t.console('POST', consoleStaffPaths.invitations, {
        cookie,
        body: {
          email: `step-up-${++invited}@acme.test`,
          name: 'Stepped',
          roles: [{ clientId: 'acme', role: 'auditor' }],
          reason: 'step-up test',
        },
      });
    /** The dialog's "Sign in again at Acme ID": the start with the session's cookie, then the provider, then back. */
    async function stepUpAs(cookie: string | undefined, login: string, back = '/console/staff?tab=all#invite') {
      const reply = await t.console('GET', `${consolePaths.signInOidc}?fresh=1&return=${encodeURIComponent(back)}`, { cookie });
      expect(reply.statusCode).toBe(302);
      const location = new URL(String(reply.headers.location));
      expect(location.searchParams.get('prompt')).toBe('login');
      expect(location.searchParams.get('max_age')).toBe('0');
      // The start starts no session of its own.
      expect(consoleCookieOf(reply)).toBeUndefined();
      const binding = reply.cookies.find((c) => c.name === 'rewards_console_oidc')?.value;
      return arrive(await signInAtProvider(location.href, login), binding);
    }

    it("renews this session's factor with the provider's second factor, and comes back to the page; the refused change then goes through", async () => {
      const session = (await signInAs('owner-mfa')).cookie;
      await age(session);
      expect((await invite(session)).json()).toMatchObject({ errorCode: ErrorCode.staffFreshSecondFactorRequired });
      const sessions = await sessionCount();

      const back = await stepUpAs(session, 'owner-mfa');
      expect(back).toEqual({ location: '/console/staff?tab=all&stepUp=passed#invite', cookie: undefined });
      // The same session (no new one), its factor as fresh as the provider's authentication.
      expect(await sessionCount()).toBe(sessions);
      expect(Date.now() - Date.parse((await factorOf(session))!)).toBeLessThan(60_000);
      expect((await invite(session)).statusCode).toBe(201);
      const [entry] = await auditOf('staff.step-up.oidc');
      expect(entry).toMatchObject({ actor: 'owner@rewards.test', actor_kind: 'staff' });
      expect(JSON.parse(entry!.details)).toMatchObject({ method: 'oidc', secondFactor: 'provider', sub: 'owner-mfa', amr: ['pwd', 'otp'] });
    });

    it('without a second factor reported by the provider: nothing changes, and our code remains the way', async () => {
      const session = await signIn(t, agent);
      const stale = await age(session);
      expect(await stepUpAs(session, 'agent-plain', '/console/')).toEqual({
        location: '/console/?stepUp=noSecondFactor',
        cookie: undefined,
      });
      expect(await factorOf(session)).toBe(stale);
      const [entry] = await auditOf('staff.step-up.oidc.refused');
      expect(JSON.parse(entry!.details)).toMatchObject({ reason: 'the provider reported no second factor', amr: ['pwd'] });
      const code = await t.console('POST', consoleStaffPaths.stepUpTotp, {
        cookie: session,
        body: { code: await freshCode(t, agent.email, agent.secret) },
      });
      expect(code.statusCode).toBe(200);
    });

    it("refuses another person's sign-in at the provider: this session's factor stays stale and nobody else is signed in", async () => {
      // The agent signed in with the password and our code; the owner then signs in at the provider in the same browser.
      const session = await signIn(t, agent);
      const stale = await age(session);
      const sessions = await sessionCount();
      for (const login of ['owner-mfa', 'impostor-mfa', 'stranger']) {
        expect(await stepUpAs(session, login, '/console/participants')).toEqual({
          location: '/console/participants?stepUp=otherPerson',
          cookie: undefined,
        });
        expect(await factorOf(session)).toBe(stale);
      }
      expect(await sessionCount()).toBe(sessions);
      expect((await invite(session)).statusCode).toBe(403);
      const refused = (await auditOf('staff.step-up.oidc.refused')).map((entry) => ({
        ...entry,
        details: JSON.parse(entry.details) as Record<string, unknown>,
      }));
      for (const sub of ['owner-mfa', 'impostor-mfa', 'stranger']) {
        const entry = refused.find((e) => e.details.sub === sub);
        expect(entry).toMatchObject({ actor: 'agent@acme.test', actor_kind: 'staff', details: { method: 'oidc' } });
        expect(entry!.details.reason).toMatch(/someone else than the session's person/);
      }
    });

    it('says so when the session ended meanwhile, and renews nothing', async () => {
      const session = (await signInAs('owner-mfa')).cookie;
      await age(session);
      const reply = await t.console('GET', `${consolePaths.signInOidc}?fresh=1&return=%2Fconsole%2Fstaff`, { cookie: session });
      const binding = reply.cookies.find((c) => c.name === 'rewards_console_oidc')?.value;
      expect((await t.console('POST', consolePaths.signOut, { cookie: session })).statusCode).toBeLessThan(300);
      const callback = await signInAtProvider(String(reply.headers.location), 'owner-mfa');
      expect(await arrive(callback, binding)).toEqual({ location: '/console/staff?stepUp=ended', cookie: undefined });
      expect(await factorOf(session)).toBeUndefined();
    });

    it('comes back only to a page of the console: another origin is refused at the start, a climb out goes home', async () => {
      const session = (await signInAs('owner-mfa')).cookie;
      for (const elsewhere of [
        'https://evil.example/console/',
        '//evil.example/console',
        '/\\evil.example',
        '/api/console/v1/me',
        'javascript:alert(1)',
      ]) {
        const reply = await t.console('GET', `${consolePaths.signInOidc}?fresh=1&return=${encodeURIComponent(elsewhere)}`, {
          cookie: session,
        });
        expect([elsewhere, reply.statusCode]).toEqual([elsewhere, 400]);
        expect(reply.cookies.find((c) => c.name === 'rewards_console_oidc')).toBeUndefined();
      }
      expect(await stepUpAs(session, 'owner-mfa', '/console/../api/console/v1/me')).toMatchObject({ location: '/console/?stepUp=passed' });
      expect(await stepUpAs(session, 'owner-mfa', '/console/%2e%2e/evil')).toMatchObject({ location: '/console/?stepUp=passed' });
      expect(consoleReturnPath('/console/staff?stepUp=passed&x=1')).toBe('/console/staff?x=1');
      expect(consoleReturnPath('/consoles')).toBe('/console/');
    });

    it('without a full session, fresh=1 stays a sign-in: a new session for whoever the provider vouches for', async () => {
      const arrived = await stepUpAs(undefined, 'owner-mfa');
      expect(arrived.location).toBe('/console/');
      expect(arrived.cookie).toMatch(/^cs\./);
    });
  });

  it('answers on the console host only', async () => {
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `${CONSOLE_API_BASE}${consolePaths.signInOidc}`,
      headers: { host: 'localhost:3000' },
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});

describe.each(dialects)('password sign-in turned off on %s', (dialect) => {
  let t: ConsoleTestApp;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect, {
      STAFF_OIDC_ISSUER: 'https://id.acme.example',
      STAFF_OIDC_CLIENT_ID: 'console',
      STAFF_OIDC_CLIENT_SECRET: 'a-secret-of-the-console',
      STAFF_PASSWORD_SIGN_IN: 'off',
    });
    await enrolStaff(t, 'owner@rewards.test', { owner: true });
  });
  afterAll(() => t?.close());

  it('refuses the password with a clear message and says so to the sign-in page', async () => {
    const reply = await t.console('POST', consolePaths.signIn, { body: { email: 'owner@rewards.test', password: 'Console-Test-2026' } });
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.staffPasswordSignInOff });
    expect(consoleCookieOf(reply)).toBeUndefined();
    expect((await t.console('GET', consolePaths.signInMethods)).json()).toEqual({
      password: false,
      provider: { name: 'your organisation' },
    });
  });
});

describe.each(dialects)('without a provider on %s', (dialect) => {
  let t: ConsoleTestApp;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('offers the password only, and the start says the provider is off', async () => {
    expect((await t.console('GET', consolePaths.signInMethods)).json()).toEqual({ password: true, provider: null });
    const reply = await t.console('GET', consolePaths.signInOidc);
    expect(reply.statusCode).toBe(302);
    expect(reply.headers.location).toBe('/console/sign-in?oidc=off');
  });
});

describe('the staff provider settings', () => {
  const base = { STAFF_OIDC_ISSUER: 'https://id.acme.example', STAFF_OIDC_CLIENT_ID: 'console', STAFF_OIDC_CLIENT_SECRET: 's3cret-value' };

  it('reads the three together, the name and the multi-factor acr values', () => {
    expect(loadConfig({ ...base, STAFF_OIDC_NAME: 'Acme ID', STAFF_OIDC_MFA_ACR: ' urn:a , urn:b ' }).staffSignIn).toEqual({
      password: true,
      oidc: {
        issuer: 'https://id.acme.example',
        clientId: 'console',
        clientSecret: 's3cret-value',
        name: 'Acme ID',
        mfaAcr: ['urn:a', 'urn:b'],
      },
    });
    expect(loadConfig({}).staffSignIn).toEqual({ password: true, oidc: undefined });
  });

  it('refuses one without the others, an http issuer off loopback, and password sign-in off without a provider; never echoing the secret', () => {
    expect(() => loadConfig({ STAFF_OIDC_CLIENT_SECRET: 's3cret-value' })).toThrow(
      /STAFF_OIDC_ISSUER: required with STAFF_OIDC_CLIENT_SECRET/,
    );
    try {
      loadConfig({ STAFF_OIDC_CLIENT_SECRET: 's3cret-value' });
    } catch (error) {
      expect(String(error)).not.toContain('s3cret-value');
    }
    expect(() => loadConfig({ ...base, STAFF_OIDC_ISSUER: 'http://id.acme.example' })).toThrow(
      /STAFF_OIDC_ISSUER: an http:\/\/ issuer is accepted only on a loopback/,
    );
    expect(() => loadConfig({ STAFF_PASSWORD_SIGN_IN: 'off' })).toThrow(/STAFF_PASSWORD_SIGN_IN: off needs/);
  });

  it('counts amr multi-factor methods and the listed acr values, nothing else', () => {
    expect(providerMultiFactor({ amr: ['pwd', 'mfa'], acr: undefined }, [])).toBe(true);
    expect(providerMultiFactor({ amr: ['hwk'], acr: undefined }, [])).toBe(true);
    expect(providerMultiFactor({ amr: ['pwd'], acr: undefined }, [])).toBe(false);
    expect(providerMultiFactor({ amr: [], acr: 'urn:b' }, ['urn:a'])).toBe(false);
    expect(providerMultiFactor({ amr: [], acr: 'urn:a' }, ['urn:a'])).toBe(true);
    expect(providerMultiFactor({ amr: ['kba', 'pin'], acr: '1' }, [])).toBe(false);
  });
});
