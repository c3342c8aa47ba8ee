import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API_BASE } from '@rewards/contract/console';
import { consoleClientPaths as paths, type SsoSettings, type SsoSettingsReply } from '@rewards/contract/console-clients';
import { buildApp } from '../../app.ts';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { startTestProvider, type TestProvider } from '../../../test/oidc-provider.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';
import { loadSsoSettings } from './settings.ts';

const ACME = 'acme';
const REASON = 'Intranet sign-in, ticket 77';
const NEW_SECRET = 'rotated-secret-9d41c7e2b8a3';

/** The console's single sign-on settings (issue 20 §3, part H) against the real test provider, on both engines. */
describe.each(dialects)("the console's single sign-on settings on %s", (dialect) => {
  let t: ConsoleTestApp;
  let provider: TestProvider;
  let manager: EnrolledStaff;
  let owner: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;
  let otherManager: EnrolledStaff;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    provider = await startTestProvider({ redirectUris: ['http://localhost:3000/api/v1.0/sso/callback'], accounts: {} });
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
    otherManager = await enrolStaff(t, 'manager@globex.test', { roles: [{ clientId: OTHER_CLIENT_ID, role: 'program_manager' }] });
  }, 60_000);
  afterAll(async () => {
    await provider.close();
    await t.close();
  });

  const get = (who: EnrolledStaff, client = ACME) => t.console('GET', paths.ssoSettings(client), { cookie: who.cookie });
  const put = (who: EnrolledStaff, body: unknown, client = ACME) =>
    t.console('PUT', paths.ssoSettings(client), { cookie: who.cookie, body });
  const on = () => ({
    enabled: true,
    issuer: provider.issuer,
    oidcClientId: provider.clientId,
    claim: 'preferred_username',
    scopes: 'openid profile',
    ssoType: 'login_and_sso',
    ssoLogoutType: 'sso',
    siteName: 'Acme Intranet',
    siteUrl: 'https://intranet.acme.example/',
    reason: REASON,
  });
  const auditCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const auditDetails = async (id: string | null) =>
    JSON.parse(
      (
        await t.database.db
          .selectFrom('audit_log')
          .select('details')
          .where('id', '=', id ?? '')
          .executeTakeFirstOrThrow()
      ).details,
    ) as Record<string, unknown>;

  it('turns sign-in through the provider on after reading its discovery document; the secret is never shown or audited', async () => {
    const before = (await get(agent)).json<SsoSettings>();
    expect(before).toMatchObject({ enabled: false, secretStored: false, issuer: null });
    expect(before.redirectUris.length).toBeGreaterThan(0);
    const body = { ...on(), clientSecret: provider.clientSecret };
    expect((await put(agent, body)).statusCode).toBe(403);
    expect((await put(auditor, body)).statusCode).toBe(403);
    expect((await put(otherManager, body)).statusCode).toBe(403);
    // Not even the client's program manager: turning it on makes the server fetch the address sent.
    expect((await put(manager, body)).statusCode).toBe(403);

    const reply = await put(owner, body);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.body).not.toContain(provider.clientSecret);
    const set = reply.json<SsoSettingsReply>();
    expect(set).toMatchObject({ enabled: true, issuer: provider.issuer, oidcClientId: provider.clientId, secretStored: true });
    expect(set.ssoType).toBe('login_and_sso');
    expect(set.endSessionEndpoint).toBe(true);
    const details = await auditDetails(set.auditId);
    expect(JSON.stringify(details)).not.toContain(provider.clientSecret);
    expect(details).toMatchObject({ enabled: { from: false, to: true }, clientSecret: 'changed', reason: REASON });
    expect(details.issuer).toEqual({ from: null, to: provider.issuer });

    // The portal's flow reads it (sealed at rest, opened only there).
    expect((await loadSsoSettings(t.database.db, t.dataDir, ACME))?.provider?.clientSecret).toBe(provider.clientSecret);
    const stored = await t.database.db
      .selectFrom('client_sso')
      .select('client_secret_enc')
      .where('client_id', '=', ACME)
      .executeTakeFirstOrThrow();
    expect(stored.client_secret_enc).not.toContain(provider.clientSecret);

    // The GET never carries it; the same set again (the secret left out: kept) writes nothing.
    expect((await get(auditor)).body).not.toContain(provider.clientSecret);
    expect((await put(owner, on())).json<SsoSettingsReply>().auditId).toBeNull();
    expect((await put(owner, { ...on(), clientSecret: provider.clientSecret })).json<SsoSettingsReply>().auditId).toBeNull();
  });

  it('refuses what the command refuses with a 400 naming it, and changes nothing', async () => {
    const before = (await get(manager)).json<SsoSettings>();
    const audits = await auditCount();
    const bad: Array<[unknown, RegExp | undefined]> = [
      [{ ...on(), issuer: 'ftp://idp.example' }, /issuer: the issuer must be an https:\/\/ URL/],
      [{ ...on(), issuer: 'http://idp.example' }, /only on a loopback address/],
      [{ ...on(), issuer: 'https://user:pw@idp.example' }, /must not carry credentials/],
      // Nothing listens there: the discovery check fails and nothing is stored.
      [{ ...on(), issuer: 'http://127.0.0.1:1' }, /cannot read the discovery document of http:\/\/127\.0\.0\.1:1/],
      [{ ...on(), issuer: `${provider.issuer}/nowhere` }, /cannot read the discovery document/],
      [{ ...on(), claim: 'a claim' }, /the claim must be a claim name/],
      [{ ...on(), scopes: 'openid "bad"' }, /the scopes must be/],
      [{ ...on(), ssoType: 'always' }, /the sign-in type must be one of/],
      [{ ...on(), ssoLogoutType: 'never' }, /the logout type must be one of/],
      [{ ...on(), siteUrl: 'javascript:alert(1)' }, /the site URL must be an http\(s\) URL/],
      [{ ...on(), siteName: 'x'.repeat(101) }, /the site name must be 1 to 100 characters/],
      [{ ...on(), oidcClientId: 'x'.repeat(401) }, undefined],
      [{ ...on(), reason: undefined }, undefined],
      [{ ...on(), enabled: 'yes' }, undefined],
    ];
    for (const [body, message] of bad) {
      const reply = await put(owner, body);
      expect(reply.statusCode, JSON.stringify(body).slice(0, 160)).toBe(400);
      if (message) expect(reply.json<{ message: string }>().message).toMatch(message);
      expect(reply.body).not.toMatch(/\bat .*\.ts:\d+|stack/);
    }
    expect((await get(manager)).json()).toEqual(before);
    expect(await auditCount()).toBe(audits);
    expect((await loadSsoSettings(t.database.db, t.dataDir, ACME))?.provider?.clientSecret).toBe(provider.clientSecret);

    // A client with no provider yet needs the secret the first time.
    const first = await put(owner, on(), OTHER_CLIENT_ID);
    expect(first.statusCode).toBe(400);
    expect(first.json<{ message: string }>().message).toMatch(/required the first time/);
    expect((await get(otherManager, OTHER_CLIENT_ID)).json<SsoSettings>()).toMatchObject({ enabled: false, secretStored: false });
  });

  it('rotates the secret (audited as changed only) and turns single sign-on off keeping the provider', async () => {
    const rotated = await put(owner, { ...on(), clientSecret: NEW_SECRET });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const details = await auditDetails(rotated.json<SsoSettingsReply>().auditId);
    expect(details).toEqual({ clientSecret: 'changed', reason: REASON });
    expect((await loadSsoSettings(t.database.db, t.dataDir, ACME))?.provider?.clientSecret).toBe(NEW_SECRET);

    const off = await put(owner, { enabled: false, reason: REASON });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<SsoSettingsReply>()).toMatchObject({
      enabled: false,
      ssoType: 'login_only',
      ssoLogoutType: 'login',
      issuer: provider.issuer,
      secretStored: true,
      endSessionEndpoint: null,
    });
    expect(await auditDetails(off.json<SsoSettingsReply>().auditId)).toMatchObject({
      enabled: { from: true, to: false },
      ssoType: { from: 'login_and_sso', to: 'login_only' },
    });
    expect((await loadSsoSettings(t.database.db, t.dataDir, ACME))?.provider).toBeUndefined();
    expect((await put(owner, { enabled: false, reason: REASON })).json<SsoSettingsReply>().auditId).toBeNull();

    // On again with the stored secret (none sent).
    const again = await put(owner, on());
    expect(again.statusCode, again.body).toBe(200);
    expect((await loadSsoSettings(t.database.db, t.dataDir, ACME))?.provider?.clientSecret).toBe(NEW_SECRET);
  });

  it('logs no secret, even at debug, and none on a refusal', async () => {
    let logs = '';
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const logged = await buildApp({ config: { ...t.config, logLevel: 'debug' }, db: t.database.db, logStream });
    const LOGGED_SECRET = 'logged-secret-3c9e1f7a55d0';
    try {
      const call = (body: unknown) =>
        logged.inject({
          method: 'PUT',
          url: `${CONSOLE_API_BASE}${paths.ssoSettings(ACME)}`,
          headers: {
            host: new URL(t.config.console.origin).host,
            origin: t.config.console.origin,
            'content-type': 'application/json',
            cookie: `rewards_console=${owner.cookie}`,
          },
          payload: JSON.stringify(body),
        });
      expect((await call({ ...on(), clientSecret: LOGGED_SECRET })).statusCode).toBe(200);
      expect((await call({ ...on(), issuer: 'http://127.0.0.1:1', clientSecret: LOGGED_SECRET })).statusCode).toBe(400);
      expect(logs).toContain('settings/sso');
      expect(logs).not.toContain(LOGGED_SECRET);
    } finally {
      await logged.close();
    }
  });
});
