import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths, ErrorCode, SESSION_HEADER } from '@rewards/contract';
import {
  CONSOLE_API_BASE,
  consolePaths,
  type EnrolmentPasswordReply,
  type EnrolmentTotpReply,
  type EnrolmentView,
  type StaffMe,
  type StaffSignInReply,
} from '@rewards/contract/console';
import { dialects } from '../../../test/databases.ts';
import { DEMO_ORIGIN } from '../../../test/test-app.ts';
import { createStaff, disableStaff, enableStaff, resetStaff } from './accounts.ts';
import { totpCode } from './secrets.ts';
import { resumeStaffSession, STAFF_SESSION } from './sessions.ts';
import {
  consoleCookieOf,
  createConsoleTestApp,
  enrolStaff,
  freshCode,
  signIn,
  STAFF_PASSWORD,
  TEST_ACTOR,
  tokenOf,
  type ConsoleTestApp,
  type EnrolledStaff,
} from './test-support.ts';

const MINUTE = 60_000;

describe.each(dialects)('the staff console: enrolment, sign-in and sessions on %s', (dialect) => {
  let t: ConsoleTestApp;
  let agent: EnrolledStaff;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: 'acme', role: 'support_agent' }] });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_limits').execute();
  });

  const me = (cookie: string | undefined) => t.console('GET', consolePaths.me, { cookie });
  const passwordStep = async (email: string, password = STAFF_PASSWORD) => {
    const reply = await t.console('POST', consolePaths.signIn, { body: { email, password } });
    return { reply, cookie: consoleCookieOf(reply) };
  };

  describe('enrolment', () => {
    it('goes from the link to a signed-in person: who it is for, password, code, ten recovery codes; the link then works no more', async () => {
      const { enrolment, staff } = await createStaff(t.database.db, CONSOLE_ORIGIN_OF(t), TEST_ACTOR, {
        email: 'Pat.Manager@Acme.test',
        name: 'Pat Manager',
        owner: false,
        roles: [{ clientId: 'acme', role: 'program_manager' }],
      });
      expect(staff).toMatchObject({ enrolled: false, status: 'active', roles: [{ clientId: 'acme', role: 'program_manager' }] });
      expect(enrolment.url).toMatch(/^http:\/\/console\.localhost:3000\/console\/enrol#[A-Za-z0-9_-]{43}$/);
      const token = tokenOf(enrolment.url);

      const view = await t.console('GET', consolePaths.enrolment, { token });
      expect(view.statusCode).toBe(200);
      expect(view.json<EnrolmentView>()).toMatchObject({
        email: 'Pat.Manager@Acme.test',
        name: 'Pat Manager',
        owner: false,
        step: 'password',
        roles: [{ clientId: 'acme', clientName: 'Acme Rewards', role: 'program_manager' }],
      });

      // The staff rules: 12 characters at least, upper, lower, digit.
      const weak = await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: 'Short-1a' } });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ errorCode: ErrorCode.staffPasswordRulesNotMet });
      // Nor the address's name in it.
      expect(
        (await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: 'My-pat.manager-2026' } })).statusCode,
      ).toBe(400);
      // No code before a password.
      expect((await t.console('POST', consolePaths.enrolmentTotp, { token, body: { code: '123456' } })).json()).toMatchObject({
        errorCode: ErrorCode.staffEnrolmentStep,
      });

      const password = await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } });
      expect(password.statusCode).toBe(200);
      const { totpSecret, otpauthUri } = password.json<EnrolmentPasswordReply>();
      expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUri).toBe(
        `otpauth://totp/Rewards%20console:Pat.Manager%40Acme.test?issuer=Rewards%20console&secret=${totpSecret}&algorithm=SHA1&digits=6&period=30`,
      );
      expect((await t.console('GET', consolePaths.enrolment, { token })).json<EnrolmentView>().step).toBe('totp');
      // Nothing of it is the person's until the code confirms it: no sign-in yet.
      expect((await passwordStep('pat.manager@acme.test')).reply.statusCode).toBe(401);

      const wrong = await t.console('POST', consolePaths.enrolmentTotp, {
        token,
        body: { code: totpCode(totpSecret, new Date(Date.now() - 5 * MINUTE)) },
      });
      expect(wrong.statusCode).toBe(401);
      const done = await t.console('POST', consolePaths.enrolmentTotp, { token, body: { code: totpCode(totpSecret) } });
      expect(done.statusCode).toBe(200);
      const { recoveryCodes, me: person } = done.json<EnrolmentTotpReply>();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(person).toMatchObject({
        email: 'Pat.Manager@Acme.test',
        owner: false,
        roles: [{ clientId: 'acme', role: 'program_manager' }],
      });
      const cookie = consoleCookieOf(done);
      expect((await me(cookie)).json<StaffMe>().email).toBe('Pat.Manager@Acme.test');

      // Single use: the link is spent, for reading and for every step.
      for (const [method, path, body] of [
        ['GET', consolePaths.enrolment, undefined],
        ['POST', consolePaths.enrolmentPassword, { password: 'Another-Password-2026' }],
        ['POST', consolePaths.enrolmentTotp, { code: totpCode(totpSecret) }],
      ] as const) {
        const again = await t.console(method, path, { token, body });
        expect([path, again.statusCode, again.json<{ errorCode: number }>().errorCode]).toEqual([path, 409, ErrorCode.staffEnrolmentUsed]);
      }
      // Only hashes are kept: neither the token nor the codes are in the database.
      const stored = JSON.stringify([
        await t.database.db.selectFrom('staff_enrolments').selectAll().execute(),
        await t.database.db.selectFrom('staff_recovery_codes').selectAll().execute(),
        await t.database.db.selectFrom('staff').selectAll().execute(),
      ]);
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(totpSecret);
      for (const code of recoveryCodes) expect(stored).not.toContain(code);
    });

    it('refuses an expired link, an unknown one, and a link of a disabled person', async () => {
      const { enrolment } = await createStaff(
        t.database.db,
        CONSOLE_ORIGIN_OF(t),
        TEST_ACTOR,
        { email: 'late@acme.test', name: 'Late', owner: false, roles: [{ clientId: 'acme', role: 'auditor' }] },
        new Date(Date.now() - 73 * 60 * MINUTE),
      );
      const expired = await t.console('GET', consolePaths.enrolment, { token: tokenOf(enrolment.url) });
      expect([expired.statusCode, expired.json<{ errorCode: number }>().errorCode]).toEqual([400, ErrorCode.staffEnrolmentExpired]);
      const post = await t.console('POST', consolePaths.enrolmentPassword, {
        token: tokenOf(enrolment.url),
        body: { password: STAFF_PASSWORD },
      });
      expect(post.statusCode).toBe(400);

      const unknown = await t.console('GET', consolePaths.enrolment, { token: 'not-a-token-of-ours' });
      expect([unknown.statusCode, unknown.json<{ errorCode: number }>().errorCode]).toEqual([400, ErrorCode.staffEnrolmentInvalid]);
      expect((await t.console('GET', consolePaths.enrolment)).statusCode).toBe(400);

      const { enrolment: fresh } = await resetStaff(t.database.db, CONSOLE_ORIGIN_OF(t), TEST_ACTOR, 'late@acme.test');
      await disableStaff(t.database.db, TEST_ACTOR, 'late@acme.test');
      expect((await t.console('GET', consolePaths.enrolment, { token: tokenOf(fresh.url) })).statusCode).toBe(403);
    });
  });

  describe('sign-in', () => {
    it('takes the password, then a code of the authenticator: a half session first, a full one under a new cookie', async () => {
      const { reply, cookie: halfCookie } = await passwordStep('AGENT@acme.test');
      expect(reply.statusCode).toBe(200);
      expect(reply.json<StaffSignInReply>().secondFactors).toEqual(['totp', 'recoveryCode']);
      // Half signed in: nothing but the second factor.
      expect((await me(halfCookie)).statusCode).toBe(401);
      expect((await t.console('GET', consolePaths.clients, { cookie: halfCookie })).statusCode).toBe(401);

      const code = await t.console('POST', consolePaths.signInTotp, {
        cookie: halfCookie,
        body: { code: await freshCode(t, agent.email, agent.secret) },
      });
      expect(code.statusCode).toBe(200);
      const fullCookie = consoleCookieOf(code);
      expect(fullCookie).toMatch(/^cs\.[A-Za-z0-9_-]{43}$/);
      expect(fullCookie).not.toBe(halfCookie);
      const who = await me(fullCookie);
      expect(who.statusCode).toBe(200);
      expect(who.json<StaffMe>()).toMatchObject({
        email: 'agent@acme.test',
        owner: false,
        roles: [{ clientId: 'acme', clientName: 'Acme Rewards', role: 'support_agent' }],
      });
      // The half session's id does not become the full one (no fixation), and is gone.
      expect(
        (await t.console('POST', consolePaths.signInTotp, { cookie: halfCookie, body: { code: totpCode(agent.secret) } })).statusCode,
      ).toBe(401);
    });

    it('fails an unknown address, a person not enrolled and a wrong password alike', async () => {
      await createStaff(t.database.db, CONSOLE_ORIGIN_OF(t), TEST_ACTOR, {
        email: 'unenrolled@acme.test',
        name: 'Not yet',
        owner: false,
        roles: [{ clientId: 'acme', role: 'auditor' }],
      });
      const replies = await Promise.all([
        passwordStep('nobody@acme.test'),
        passwordStep('unenrolled@acme.test', STAFF_PASSWORD),
        passwordStep(agent.email, 'Wrong-Password-2026'),
      ]);
      for (const { reply, cookie } of replies) {
        expect(reply.statusCode).toBe(401);
        expect(reply.json()).toEqual({
          errorCode: ErrorCode.staffInvalidCredentials,
          responseMessage: 'console.error.invalidCredentials',
          message: 'Wrong e-mail address or password',
        });
        expect(cookie).toBeUndefined();
      }
    });

    it('refuses a code used once already (replay), in the same step', async () => {
      const first = await passwordStep(agent.email);
      const code = await freshCode(t, agent.email, agent.secret);
      expect((await t.console('POST', consolePaths.signInTotp, { cookie: first.cookie, body: { code } })).statusCode).toBe(200);
      const second = await passwordStep(agent.email);
      const replay = await t.console('POST', consolePaths.signInTotp, { cookie: second.cookie, body: { code } });
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toMatchObject({ errorCode: ErrorCode.staffSecondFactorFailed });
    });

    it('takes each recovery code once', async () => {
      const [code] = agent.recoveryCodes;
      const first = await passwordStep(agent.email);
      const used = await t.console('POST', consolePaths.signInRecoveryCode, {
        cookie: first.cookie,
        body: { code: ` ${code?.toUpperCase()} ` },
      });
      expect(used.statusCode).toBe(200);
      expect((await me(consoleCookieOf(used))).statusCode).toBe(200);
      const second = await passwordStep(agent.email);
      expect((await t.console('POST', consolePaths.signInRecoveryCode, { cookie: second.cookie, body: { code } })).statusCode).toBe(401);
      expect(
        (await t.console('POST', consolePaths.signInRecoveryCode, { cookie: second.cookie, body: { code: agent.recoveryCodes[1] } }))
          .statusCode,
      ).toBe(200);
    });

    it('limits wrong second factors to 5 in 15 minutes per person, the right code included after them', async () => {
      const { cookie } = await passwordStep(agent.email);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await t.console('POST', consolePaths.signInTotp, { cookie, body: { code: String(100000 + i) } })).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const right = await t.console('POST', consolePaths.signInTotp, {
        cookie,
        body: { code: await freshCode(t, agent.email, agent.secret) },
      });
      expect([right.statusCode, right.json<{ errorCode: number }>().errorCode]).toEqual([429, ErrorCode.staffThrottled]);
      // Recovery codes share the limit: they are second factors too.
      expect(
        (await t.console('POST', consolePaths.signInRecoveryCode, { cookie, body: { code: agent.recoveryCodes[2] } })).statusCode,
      ).toBe(429);
    });

    it('limits wrong passwords per address and e-mail to 5 in 15 minutes', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await passwordStep(agent.email, `Wrong-Password-${i}`)).reply.statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await passwordStep(agent.email)).reply.statusCode).toBe(429);
    });

    it('a disabled person cannot sign in, and their sessions end at once; enabled, they can again', async () => {
      const person = await enrolStaff(t, 'leaver@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
      const session = await signIn(t, person);
      expect((await me(session)).statusCode).toBe(200);
      const { sessionsEnded } = await disableStaff(t.database.db, TEST_ACTOR, person.email);
      expect(sessionsEnded).toBe(2); // the enrolment's and the sign-in's
      expect((await me(session)).statusCode).toBe(401);
      expect((await me(person.cookie)).statusCode).toBe(401);
      const refused = await passwordStep(person.email);
      expect([refused.reply.statusCode, refused.reply.json<{ errorCode: number }>().errorCode]).toEqual([403, ErrorCode.staffDisabled]);
      expect(refused.cookie).toBeUndefined();
      // A half session from just before the disabling cannot be completed either.
      await enableStaff(t.database.db, TEST_ACTOR, person.email);
      const half = await passwordStep(person.email);
      await disableStaff(t.database.db, TEST_ACTOR, person.email);
      expect(
        (
          await t.console('POST', consolePaths.signInTotp, {
            cookie: half.cookie,
            body: { code: await freshCode(t, person.email, person.secret) },
          })
        ).statusCode,
      ).toBe(401);
      await enableStaff(t.database.db, TEST_ACTOR, person.email);
      expect((await me(await signIn(t, person))).statusCode).toBe(200);
    });

    it('a reset voids the password and factors at once, lifts the limits on the person; the new link sets them again', async () => {
      const person = await enrolStaff(t, 'phone-lost@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
      // Locked out by wrong passwords first.
      for (let i = 0; i < 5; i++) await passwordStep(person.email, `Wrong-Password-${i}`);
      expect((await passwordStep(person.email)).reply.statusCode).toBe(429);
      const { enrolment } = await resetStaff(t.database.db, CONSOLE_ORIGIN_OF(t), TEST_ACTOR, person.email);
      expect((await me(person.cookie)).statusCode).toBe(401);
      expect((await passwordStep(person.email)).reply.statusCode).toBe(401);
      const token = tokenOf(enrolment.url);
      const { totpSecret } = (
        await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: 'A-New-Password-2026' } })
      ).json<EnrolmentPasswordReply>();
      expect(totpSecret).not.toBe(person.secret);
      const done = await t.console('POST', consolePaths.enrolmentTotp, { token, body: { code: totpCode(totpSecret) } });
      expect(done.statusCode).toBe(200);
      // The old recovery codes are void; the new password works at once (the limit was lifted).
      const half = await passwordStep(person.email, 'A-New-Password-2026');
      expect(half.reply.statusCode).toBe(200);
      expect(
        (await t.console('POST', consolePaths.signInRecoveryCode, { cookie: half.cookie, body: { code: person.recoveryCodes[0] } }))
          .statusCode,
      ).toBe(401);
    });

    it('sign-out ends the session and clears the cookie', async () => {
      const session = await signIn(t, agent);
      const out = await t.console('POST', consolePaths.signOut, { cookie: session });
      expect(out.statusCode).toBe(204);
      expect(out.cookies.find((c) => c.name === 'rewards_console')).toMatchObject({ value: '', maxAge: 0 });
      expect((await me(session)).statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('end after 15 minutes idle, slide while used, and end after 8 hours whatever', async () => {
      const session = await signIn(t, agent);
      const start = Date.now();
      const at = (minutes: number) => new Date(start + minutes * MINUTE);
      // Used every 10 minutes it lives on, until the 8 hours are up.
      for (let minutes = 10; minutes < STAFF_SESSION.maxHours * 60; minutes += 10) {
        expect(await resumeStaffSession(t.database.db, session, at(minutes)), `at ${minutes} minutes`).toBeDefined();
      }
      expect(await resumeStaffSession(t.database.db, session, at(STAFF_SESSION.maxHours * 60 + 1))).toBeUndefined();

      const idle = await signIn(t, agent);
      expect(await resumeStaffSession(t.database.db, idle, at(14))).toBeDefined();
      expect(await resumeStaffSession(t.database.db, idle, at(14 + 16))).toBeUndefined();
      // An ended session is gone, not merely refused.
      expect((await me(idle)).statusCode).toBe(401);
    });

    it('a half session lasts 5 minutes and never slides', async () => {
      const { cookie } = await passwordStep(agent.email);
      const start = Date.now();
      expect(await resumeStaffSession(t.database.db, cookie ?? '', new Date(start + 4 * MINUTE))).toMatchObject({ full: false });
      expect(await resumeStaffSession(t.database.db, cookie ?? '', new Date(start + 5 * MINUTE + 1000))).toBeUndefined();
    });
  });

  describe('the console origin', () => {
    it('sets the cookie HttpOnly, SameSite=Strict, Path=/, without Secure over http', async () => {
      const { reply } = await passwordStep(agent.email);
      const header = String(reply.headers['set-cookie']);
      expect(header).toMatch(/^rewards_console=cs\.[A-Za-z0-9_-]{43}; Max-Age=300; Path=\/; HttpOnly; SameSite=Strict$/);
    });

    it('answers only on its own host: 404 elsewhere, the participant origin included', async () => {
      const reply = await t.app.inject({
        method: 'GET',
        url: `${CONSOLE_API_BASE}${consolePaths.me}`,
        headers: { host: 'localhost:3000', cookie: `rewards_console=${agent.cookie}` },
      });
      expect(reply.statusCode).toBe(404);
      const signInElsewhere = await t.app.inject({
        method: 'POST',
        url: `${CONSOLE_API_BASE}${consolePaths.signIn}`,
        headers: { host: 'localhost:3000', origin: DEMO_ORIGIN, 'content-type': 'application/json' },
        payload: JSON.stringify({ email: agent.email, password: STAFF_PASSWORD }),
      });
      expect(signInElsewhere.statusCode).toBe(404);
    });

    it('refuses every change that is not from its own origin (403), before anything runs', async () => {
      const post = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: `${CONSOLE_API_BASE}${consolePaths.signIn}`,
          headers: { host: 'console.localhost:3000', 'content-type': 'application/json', ...headers },
          payload: JSON.stringify({ email: agent.email, password: STAFF_PASSWORD }),
        });
      const crossSite = await post({ origin: 'https://evil.example' });
      expect([crossSite.statusCode, crossSite.json<{ errorCode: number }>().errorCode]).toEqual([403, ErrorCode.staffCrossSite]);
      expect((await post({ origin: DEMO_ORIGIN })).statusCode).toBe(403);
      expect((await post({ origin: 'http://console.localhost:3001' })).statusCode).toBe(403);
      expect((await post({ origin: 'null' })).statusCode).toBe(403);
      expect((await post({ 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
      expect((await post({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
      expect((await post({})).statusCode).toBe(403);
      // A sign-out from another site does not end the session either.
      const out = await t.app.inject({
        method: 'POST',
        url: `${CONSOLE_API_BASE}${consolePaths.signOut}`,
        headers: { host: 'console.localhost:3000', origin: 'https://evil.example', cookie: `rewards_console=${agent.cookie}` },
      });
      expect(out.statusCode).toBe(403);
      // None of the refused sign-ins reached the password: no limit slot was taken.
      expect(await t.database.db.selectFrom('attempt_limits').select('subject').execute()).toEqual([]);
      // The console's own page, by Origin or by Fetch Metadata.
      expect((await post({ origin: 'http://console.localhost:3000' })).statusCode).toBe(200);
      expect((await post({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    });

    it('a participant session is no console session, and a console cookie no participant session', async () => {
      const dana = await t.login('demo');
      // The participant's id as the console's cookie.
      expect((await me(dana.sessionId)).statusCode).toBe(401);
      // The console's id as the participant's session header, on the participant's own origin.
      const session = await signIn(t, agent);
      expect((await t.api('GET', apiPaths.user, { headers: { [SESSION_HEADER]: session } })).statusCode).toBe(401);
      // And the console's cookie, sent to the participant API: it reads no cookie.
      expect((await t.api('GET', apiPaths.user, { headers: { cookie: `rewards_console=${session}` } })).statusCode).toBe(401);
      // The participant API refuses the console's origin as a client.
      const asConsole = await t.api('POST', apiPaths.login, {
        origin: 'http://console.localhost:3000',
        body: { username: 'demo', password: 'Rewards-2026!' },
      });
      expect([asConsole.statusCode, asConsole.json<{ errorCode: number }>().errorCode]).toEqual([400, ErrorCode.unknownClient]);
    });
  });
});

describe.each(dialects)('the console cookie over https on %s', (dialect) => {
  let t: ConsoleTestApp;
  beforeAll(async () => {
    t = await createConsoleTestApp(dialect, { CONSOLE_ORIGIN: 'https://console.rewards.example' });
  });
  afterAll(() => t.close());

  it('is __Host-rewards_console, Secure, HttpOnly, SameSite=Strict, Path=/', async () => {
    const person = await enrolStaff(t, 'secure@acme.test', { owner: true });
    const reply = await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } });
    expect(reply.statusCode).toBe(200);
    expect(String(reply.headers['set-cookie'])).toMatch(
      /^__Host-rewards_console=cs\.[A-Za-z0-9_-]{43}; Max-Age=300; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect((await t.console('GET', consolePaths.me, { cookie: person.cookie })).statusCode).toBe(200);
  });
});

function CONSOLE_ORIGIN_OF(t: ConsoleTestApp): string {
  return t.config.console.origin;
}
