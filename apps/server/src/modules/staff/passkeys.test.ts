import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { consolePaths, type EnrolmentTotpReply, type StaffMe, type StaffSignInReply } from '@rewards/contract/console';
import { dialects } from '../../../test/databases.ts';
import { createStaff, resetStaff } from './accounts.ts';
import { totpCode } from './secrets.ts';
import { TestAuthenticator } from './test-authenticator.ts';
import { consoleCookieOf, createConsoleTestApp, STAFF_PASSWORD, TEST_ACTOR, tokenOf, type ConsoleTestApp } from './test-support.ts';

interface Options {
  challenge: string;
  rp?: { id: string; name: string };
  user?: { name: string; displayName: string };
  allowCredentials?: Array<{ id: string }>;
}

/**
 * Passkeys on the server (docs/decisions/046): enrolment with a passkey instead of TOTP, and
 * sign-in with it, verified by @simplewebauthn/server against a software authenticator that
 * signs with a real P-256 key (test-authenticator.ts).
 */
describe.each(dialects)('passkeys on %s', (dialect) => {
  let t: ConsoleTestApp;
  let origin: string;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    origin = t.config.console.origin;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_limits').execute();
  });

  /** A person through the link and the password step: the token, ready for the second factor. */
  async function invited(email: string): Promise<string> {
    const { enrolment } = await createStaff(t.database.db, origin, TEST_ACTOR, {
      email,
      name: 'Pia Passkey',
      owner: false,
      roles: [{ clientId: 'acme', role: 'support_agent' }],
    });
    const token = tokenOf(enrolment.url);
    expect((await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } })).statusCode).toBe(200);
    return token;
  }

  async function enrolWithPasskey(email: string): Promise<{ authenticator: TestAuthenticator; reply: EnrolmentTotpReply; cookie: string }> {
    const token = await invited(email);
    const options = (await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token })).json<Options>();
    const authenticator = new TestAuthenticator('console.localhost', origin);
    const done = await t.console('POST', consolePaths.enrolmentPasskey, { token, body: { credential: authenticator.register(options) } });
    expect(done.statusCode).toBe(200);
    return { authenticator, reply: done.json<EnrolmentTotpReply>(), cookie: consoleCookieOf(done) ?? '' };
  }

  async function halfSession(email: string): Promise<{ cookie: string; factors: string[] }> {
    const reply = await t.console('POST', consolePaths.signIn, { body: { email, password: STAFF_PASSWORD } });
    expect(reply.statusCode).toBe(200);
    return { cookie: consoleCookieOf(reply) ?? '', factors: reply.json<StaffSignInReply>().secondFactors };
  }

  const signInOptions = async (cookie: string) => (await t.console('POST', consolePaths.signInPasskeyOptions, { cookie })).json<Options>();

  it('enrols with a passkey: creation options for this console and person, the credential kept, recovery codes, signed in', async () => {
    const token = await invited('pia@acme.test');
    // No passkey before the password step of a link: here the step is done, so options come.
    const optionsReply = await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token });
    expect(optionsReply.statusCode).toBe(200);
    const options = optionsReply.json<Options>();
    expect(options).toMatchObject({
      rp: { id: 'console.localhost', name: 'Rewards console' },
      user: { name: 'pia@acme.test', displayName: 'Pia Passkey' },
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const authenticator = new TestAuthenticator('console.localhost', origin);
    const done = await t.console('POST', consolePaths.enrolmentPasskey, { token, body: { credential: authenticator.register(options) } });
    expect(done.statusCode).toBe(200);
    const { recoveryCodes, me } = done.json<EnrolmentTotpReply>();
    expect(recoveryCodes).toHaveLength(10);
    expect(me.email).toBe('pia@acme.test');
    expect((await t.console('GET', consolePaths.me, { cookie: consoleCookieOf(done) })).json<StaffMe>().email).toBe('pia@acme.test');
    const stored = await t.database.db.selectFrom('staff_passkeys').selectAll().execute();
    expect(stored.map((p) => p.id)).toEqual([authenticator.id]);
    // The link is spent; the person has a passkey and recovery codes, and no TOTP secret.
    expect((await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token })).statusCode).toBe(409);
    expect((await halfSession('pia@acme.test')).factors).toEqual(['passkey', 'recoveryCode']);
  });

  it('refuses a credential made for another origin, another relying party or another challenge, and a second use of a challenge', async () => {
    const token = await invited('wrong@acme.test');
    const options = async () => (await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token })).json<Options>();
    const authenticator = new TestAuthenticator('console.localhost', origin);
    const attempts = [
      authenticator.register(await options(), { origin: 'http://localhost:3000' }),
      authenticator.register(await options(), { rpId: 'localhost' }),
      authenticator.register(await options(), { challenge: 'bm90LXRoZS1jaGFsbGVuZ2UtaXNzdWVk' }),
    ];
    for (const credential of attempts) {
      const reply = await t.console('POST', consolePaths.enrolmentPasskey, { token, body: { credential } });
      expect([reply.statusCode, reply.json<{ errorCode: number }>().errorCode]).toEqual([401, ErrorCode.staffSecondFactorFailed]);
    }
    // A right credential for a challenge already taken by a failed check is refused too.
    const fresh = await options();
    expect(
      (
        await t.console('POST', consolePaths.enrolmentPasskey, {
          token,
          body: { credential: authenticator.register(fresh, { origin: 'https://evil.example' }) },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await t.console('POST', consolePaths.enrolmentPasskey, { token, body: { credential: authenticator.register(fresh) } })).statusCode,
    ).toBe(401);
    // Nothing was kept, and the link still works with a new challenge (once the limit the five failures used is lifted).
    expect(await t.database.db.selectFrom('staff_passkeys').select('id').where('id', '=', authenticator.id).execute()).toEqual([]);
    await t.database.db.deleteFrom('attempt_limits').execute();
    expect(
      (await t.console('POST', consolePaths.enrolmentPasskey, { token, body: { credential: authenticator.register(await options()) } }))
        .statusCode,
    ).toBe(200);
  });

  it('signs in with the passkey: options naming it, a full session under a new cookie, the counter kept', async () => {
    const { authenticator } = await enrolWithPasskey('sign@acme.test');
    const half = await halfSession('sign@acme.test');
    const options = await signInOptions(half.cookie);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    // Half signed in, the options are all there is.
    expect((await t.console('GET', consolePaths.me, { cookie: half.cookie })).statusCode).toBe(401);
    const done = await t.console('POST', consolePaths.signInPasskey, {
      cookie: half.cookie,
      body: { credential: authenticator.authenticate(options) },
    });
    expect(done.statusCode).toBe(200);
    const full = consoleCookieOf(done);
    expect(full).not.toBe(half.cookie);
    expect((await t.console('GET', consolePaths.me, { cookie: full })).json<StaffMe>().email).toBe('sign@acme.test');
    const row = await t.database.db
      .selectFrom('staff_passkeys')
      .select(['counter', 'last_used_at'])
      .where('id', '=', authenticator.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(authenticator.counter);
    expect(row.last_used_at).not.toBeNull();
  });

  it("refuses a replayed answer, another origin's, another key's, and a passkey sign-in without a half session", async () => {
    const { authenticator, cookie: fullCookie } = await enrolWithPasskey('replay@acme.test');
    const first = await halfSession('replay@acme.test');
    const options = await signInOptions(first.cookie);
    const answer = authenticator.authenticate(options);
    expect((await t.console('POST', consolePaths.signInPasskey, { cookie: first.cookie, body: { credential: answer } })).statusCode).toBe(
      200,
    );

    const second = await halfSession('replay@acme.test');
    await signInOptions(second.cookie);
    // The same answer again (its challenge was the first session's).
    expect((await t.console('POST', consolePaths.signInPasskey, { cookie: second.cookie, body: { credential: answer } })).statusCode).toBe(
      401,
    );
    // Signed for another origin.
    const phished = authenticator.authenticate(await signInOptions(second.cookie), { origin: 'https://console.rewards.evil.example' });
    expect((await t.console('POST', consolePaths.signInPasskey, { cookie: second.cookie, body: { credential: phished } })).statusCode).toBe(
      401,
    );
    // Another key claiming the same credential id.
    const impostor = new TestAuthenticator('console.localhost', origin);
    Object.assign(impostor, { credentialId: authenticator.credentialId });
    expect(
      (
        await t.console('POST', consolePaths.signInPasskey, {
          cookie: second.cookie,
          body: { credential: impostor.authenticate(await signInOptions(second.cookie)) },
        })
      ).statusCode,
    ).toBe(401);
    // No half session: a full one cannot ask, nor can nobody.
    expect((await t.console('POST', consolePaths.signInPasskeyOptions, { cookie: fullCookie })).statusCode).toBe(401);
    expect((await t.console('POST', consolePaths.signInPasskeyOptions)).statusCode).toBe(401);
    // Wrong answers count against the second-factor limit: 3 so far, 2 more, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await t.console('POST', consolePaths.signInPasskey, { cookie: second.cookie, body: { credential: answer } })).statusCode,
      );
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('says so when the person has no passkey, and a reset removes the passkeys', async () => {
    const { authenticator } = await enrolWithPasskey('gone@acme.test');
    const { enrolment } = await resetStaff(t.database.db, origin, TEST_ACTOR, 'gone@acme.test');
    expect(await t.database.db.selectFrom('staff_passkeys').select('id').where('id', '=', authenticator.id).execute()).toEqual([]);
    // Enrolled again with TOTP only: a passkey is asked for in vain.
    const token = tokenOf(enrolment.url);
    const { totpSecret } = (await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } })).json<{
      totpSecret: string;
    }>();
    expect((await t.console('POST', consolePaths.enrolmentTotp, { token, body: { code: totpCode(totpSecret) } })).statusCode).toBe(200);
    const half = await halfSession('gone@acme.test');
    expect(half.factors).toEqual(['totp', 'recoveryCode']);
    const none = await t.console('POST', consolePaths.signInPasskeyOptions, { cookie: half.cookie });
    expect([none.statusCode, none.json<{ errorCode: number }>().errorCode]).toEqual([409, ErrorCode.staffNoPasskey]);
  });
});
