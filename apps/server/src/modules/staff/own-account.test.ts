import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import {
  consoleAccountPaths as paths,
  consolePaths,
  type StaffAccount,
  type StaffPasswordChangeReply,
  type StaffRecoveryCodesReply,
  type StaffTotpSecretReply,
} from '@rewards/contract/console';
import { consoleStaffPaths } from '@rewards/contract/console-staff';
import { dialects } from '../../../test/databases.ts';
import { createStaff } from './accounts.ts';
import { totpCode } from './secrets.ts';
import { startFullSession } from './sessions.ts';
import { TestAuthenticator } from './test-authenticator.ts';
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
const NEW_PASSWORD = 'Lighthouse-Keeper-2027';
type Reply = LightMyRequestResponse;
const codeOf = (reply: Reply) => reply.json<{ errorCode: number }>().errorCode;

/**
 * "Your account" (docs/decisions/070) through the API, on both engines: the password change
 * (wrong current refused and limited like the sign-in, the rules, the other sessions ended and
 * this one kept, audited without secrets), new recovery codes, and passkeys added (step-up
 * first) and removed (never the last factor).
 */
describe.each(dialects)('your account on %s', (dialect) => {
  let t: ConsoleTestApp;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
  });
  afterAll(() => t.close());

  const call = (method: HTTPMethods, path: string, cookie: string | undefined, body?: unknown) =>
    t.console(method, path, { cookie, ...(body === undefined ? {} : { body }) });
  const staffId = async (email: string) =>
    (await t.database.db.selectFrom('staff').select('id').where('email_key', '=', email.toLowerCase()).executeTakeFirstOrThrow()).id;
  /** Every session of the person: the second factor passed `minutes` ago (older than the step-up's five minutes). */
  const ageSecondFactor = async (email: string, minutes = 6) =>
    t.database.db
      .updateTable('staff_sessions')
      .set({ second_factor_at: new Date(Date.now() - minutes * MINUTE).toISOString() })
      .where('staff_id', '=', await staffId(email))
      .where('second_factor_at', 'is not', null)
      .execute();
  const auditOf = async (email: string, action: string) =>
    t.database.db
      .selectFrom('audit_log')
      .select(['actor', 'subject', 'details', 'origin'])
      .where('action', '=', action)
      .where('subject', '=', await staffId(email))
      .execute();
  const account = async (cookie: string) => (await call('GET', paths.account, cookie)).json<StaffAccount>();

  describe('the password', () => {
    let person: EnrolledStaff;
    beforeAll(async () => {
      person = await enrolStaff(t, 'pia@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
    });

    it('shows what the account has', async () => {
      expect(await account(person.cookie)).toEqual({
        email: 'pia@acme.test',
        name: 'pia',
        password: true,
        passwordRules: expect.objectContaining({ minLength: 12 }),
        totp: true,
        passkeys: [],
        recoveryCodesLeft: 10,
      });
      expect((await call('GET', paths.account, undefined)).statusCode).toBe(401);
    });

    it('refuses a new password against the rules, or the same one, before trying the current one', async () => {
      const tooShort = await call('PUT', paths.password, person.cookie, { currentPassword: 'not it', newPassword: 'Short-1' });
      expect([tooShort.statusCode, codeOf(tooShort)]).toEqual([400, ErrorCode.staffPasswordRulesNotMet]);
      // "pia" is too short to count as a name, so this one fails on the missing digit.
      const noDigit = await call('PUT', paths.password, person.cookie, {
        currentPassword: STAFF_PASSWORD,
        newPassword: 'No-Digits-Here-At-All',
      });
      expect(codeOf(noDigit)).toBe(ErrorCode.staffPasswordRulesNotMet);
      const same = await call('PUT', paths.password, person.cookie, { currentPassword: STAFF_PASSWORD, newPassword: STAFF_PASSWORD });
      expect(codeOf(same)).toBe(ErrorCode.samePassword);
      // None of them took a slot of the sign-in's limit.
      expect(
        await t.database.db.selectFrom('attempt_limits').select('subject').where('subject', 'like', '%pia@acme.test%').execute(),
      ).toEqual([]);
    });

    it('refuses a wrong current password with a clear message, changes nothing, and limits it like the sign-in', async () => {
      const hashBefore = (
        await t.database.db.selectFrom('staff').select('password_hash').where('email_key', '=', person.email).executeTakeFirstOrThrow()
      ).password_hash;
      const wrong = await call('PUT', paths.password, person.cookie, { currentPassword: 'Not-The-Password-1', newPassword: NEW_PASSWORD });
      expect([wrong.statusCode, codeOf(wrong), wrong.json<{ responseMessage: string }>().responseMessage]).toEqual([
        400,
        ErrorCode.wrongCurrentPassword,
        'console.error.wrongCurrentPassword',
      ]);
      const statuses = [];
      for (let i = 0; i < 5; i += 1)
        statuses.push(
          (await call('PUT', paths.password, person.cookie, { currentPassword: `Not-The-Password-${i}`, newPassword: NEW_PASSWORD }))
            .statusCode,
        );
      // Five wrong in the window (the test limit is the default, 5): the sixth is throttled, even with the right password.
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
      const right = await call('PUT', paths.password, person.cookie, { currentPassword: STAFF_PASSWORD, newPassword: NEW_PASSWORD });
      expect([right.statusCode, codeOf(right)]).toEqual([429, ErrorCode.staffThrottled]);
      // The sign-in page counts the same attempts.
      const signInPage = await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } });
      expect(signInPage.statusCode).toBe(429);
      expect(
        (await t.database.db.selectFrom('staff').select('password_hash').where('email_key', '=', person.email).executeTakeFirstOrThrow())
          .password_hash,
      ).toBe(hashBefore);
      expect(await auditOf(person.email, 'staff.password_changed')).toEqual([]);
      // The window lifted (as after a quarter of an hour).
      await t.database.db.deleteFrom('attempt_limits').execute();
    });

    it('changes it: the other sessions end, this one stays, the new password signs in, audited without secrets', async () => {
      const other = await signIn(t, person);
      const third = await signIn(t, person);
      const changed = await call('PUT', paths.password, person.cookie, { currentPassword: STAFF_PASSWORD, newPassword: NEW_PASSWORD });
      expect(changed.statusCode).toBe(200);
      expect(changed.json<StaffPasswordChangeReply>()).toEqual({ otherSessionsEnded: 2 });
      expect((await call('GET', consolePaths.me, person.cookie)).statusCode).toBe(200);
      expect((await call('GET', consolePaths.me, other)).statusCode).toBe(401);
      expect((await call('GET', consolePaths.me, third)).statusCode).toBe(401);

      const old = await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } });
      expect(old.statusCode).toBe(401);
      expect(await signIn(t, person, NEW_PASSWORD)).toMatch(/^cs\./);

      const entries = await auditOf(person.email, 'staff.password_changed');
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor: person.email });
      expect(JSON.parse(entries[0]!.details)).toEqual({ otherSessionsEnded: 2 });
      const everything = JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
      expect(everything).not.toContain(NEW_PASSWORD);
      expect(everything).not.toContain(STAFF_PASSWORD);
    });

    it('says so, and changes nothing, for an account that signs in only through the OpenID provider', async () => {
      const { staff } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
        email: 'provider-only@acme.test',
        name: 'Provider Only',
        owner: false,
        roles: [{ clientId: 'acme', role: 'auditor' }],
      });
      // As the provider's sign-in starts it (oidc.ts): a full session, never a password here.
      const { sessionId } = await startFullSession(t.database.db, staff.id, 'test', new Date());
      expect(await account(sessionId)).toMatchObject({ password: false, totp: false, passkeys: [], recoveryCodesLeft: 0 });
      const refused = await call('PUT', paths.password, sessionId, { currentPassword: 'anything', newPassword: NEW_PASSWORD });
      expect([refused.statusCode, codeOf(refused)]).toEqual([409, ErrorCode.staffNoPassword]);
    });
  });

  describe('recovery codes', () => {
    it('asks for a fresh second factor, then replaces the whole set: old codes stop working, new ones work once', async () => {
      const person = await enrolStaff(t, 'rex@acme.test', { roles: [{ clientId: 'acme', role: 'support_agent' }] });
      await ageSecondFactor(person.email);
      const stale = await call('POST', paths.recoveryCodes, person.cookie);
      expect([stale.statusCode, codeOf(stale)]).toEqual([403, ErrorCode.staffFreshSecondFactorRequired]);
      expect((await call('POST', paths.recoveryCodes, undefined)).statusCode).toBe(401);
      expect(
        (await call('POST', consoleStaffPaths.stepUpTotp, person.cookie, { code: await freshCode(t, person.email, person.secret) }))
          .statusCode,
      ).toBe(200);

      // One old code used first: the count shows it.
      const half = consoleCookieOf(
        await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } }),
      );
      expect((await call('POST', consolePaths.signInRecoveryCode, half, { code: person.recoveryCodes[0] })).statusCode).toBe(200);
      expect((await account(person.cookie)).recoveryCodesLeft).toBe(9);

      const renewed = await call('POST', paths.recoveryCodes, person.cookie);
      expect(renewed.statusCode).toBe(200);
      const { recoveryCodes } = renewed.json<StaffRecoveryCodesReply>();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect(recoveryCodes.some((c) => person.recoveryCodes.includes(c))).toBe(false);
      expect((await account(person.cookie)).recoveryCodesLeft).toBe(10);

      const tryCode = async (code: string) => {
        const first = await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } });
        return (await call('POST', consolePaths.signInRecoveryCode, consoleCookieOf(first), { code })).statusCode;
      };
      expect(await tryCode(person.recoveryCodes[1]!)).toBe(401);
      expect(await tryCode(recoveryCodes[0]!)).toBe(200);
      expect(await tryCode(recoveryCodes[0]!)).toBe(401);

      const [entry, ...more] = await auditOf(person.email, 'staff.recovery_codes_renewed');
      expect(more).toEqual([]);
      expect(JSON.parse(entry!.details)).toEqual({ unusedBefore: 9, count: 10 });
      const everything = JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
      for (const code of recoveryCodes) expect(everything).not.toContain(code);
    });
  });

  describe('passkeys', () => {
    let person: EnrolledStaff;
    const newAuthenticator = () => new TestAuthenticator('console.localhost', t.config.console.origin);
    beforeAll(async () => {
      person = await enrolStaff(t, 'kai@acme.test', { roles: [{ clientId: 'acme', role: 'program_manager' }] });
    });

    async function addPasskey(cookie: string, authenticator: TestAuthenticator): Promise<Reply> {
      const options = await call('POST', paths.passkeyOptions, cookie);
      expect(options.statusCode).toBe(200);
      return call('POST', paths.passkeys, cookie, { credential: authenticator.register(options.json<{ challenge: string }>()) });
    }

    it('needs a session (401) and a fresh second factor (403) to add one', async () => {
      expect((await call('POST', paths.passkeyOptions, undefined)).statusCode).toBe(401);
      expect(
        (await call('POST', paths.passkeys, undefined, { credential: newAuthenticator().register({ challenge: 'bm8' }) })).statusCode,
      ).toBe(401);
      await ageSecondFactor(person.email);
      const options = await call('POST', paths.passkeyOptions, person.cookie);
      expect([options.statusCode, codeOf(options)]).toEqual([403, ErrorCode.staffFreshSecondFactorRequired]);
      const added = await call('POST', paths.passkeys, person.cookie, { credential: newAuthenticator().register({ challenge: 'bm8' }) });
      expect([added.statusCode, codeOf(added)]).toEqual([403, ErrorCode.staffFreshSecondFactorRequired]);
      expect((await account(person.cookie)).passkeys).toEqual([]);
    });

    it('adds one after the step-up, excluding those registered; it signs in; a replayed or foreign answer is refused', async () => {
      expect(
        (await call('POST', consoleStaffPaths.stepUpTotp, person.cookie, { code: await freshCode(t, person.email, person.secret) }))
          .statusCode,
      ).toBe(200);
      const authenticator = newAuthenticator();
      const options = await call('POST', paths.passkeyOptions, person.cookie);
      const challenge = options.json<{ challenge: string }>();
      const answer = authenticator.register(challenge);
      const added = await call('POST', paths.passkeys, person.cookie, { credential: answer });
      expect(added.statusCode).toBe(201);
      const view = added.json<StaffAccount>();
      expect(view.passkeys.map((p) => p.id)).toEqual([authenticator.id]);
      expect(view.passkeys[0]!.createdAt).toMatch(/^\d{4}-/);
      // The challenge was taken: the same answer again is refused, and so is one for another origin.
      const replay = await call('POST', paths.passkeys, person.cookie, { credential: answer });
      expect([replay.statusCode, codeOf(replay)]).toEqual([400, ErrorCode.staffPasskeyRefused]);
      const again = await call('POST', paths.passkeyOptions, person.cookie);
      expect(again.json<{ excludeCredentials: Array<{ id: string }> }>().excludeCredentials.map((c) => c.id)).toEqual([authenticator.id]);
      const foreign = await call('POST', paths.passkeys, person.cookie, {
        credential: newAuthenticator().register(again.json<{ challenge: string }>(), { origin: 'https://evil.example' }),
      });
      expect(codeOf(foreign)).toBe(ErrorCode.staffPasskeyRefused);

      // It signs in.
      const half = consoleCookieOf(
        await t.console('POST', consolePaths.signIn, { body: { email: person.email, password: STAFF_PASSWORD } }),
      );
      const request = await call('POST', consolePaths.signInPasskeyOptions, half);
      const signedIn = await call('POST', consolePaths.signInPasskey, half, {
        credential: authenticator.authenticate(request.json<{ challenge: string }>()),
      });
      expect(signedIn.statusCode).toBe(200);

      const entries = await auditOf(person.email, 'staff.passkey_added');
      expect(entries.map((e) => JSON.parse(e.details) as unknown)).toEqual([{ passkeyId: authenticator.id }]);
    });

    it('removes one while the authenticator app or another passkey remains, never the last factor', async () => {
      // A person who enrolled with a passkey: no authenticator app.
      const { enrolment } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
        email: 'solo@acme.test',
        name: 'Solo',
        owner: false,
        roles: [{ clientId: 'acme', role: 'auditor' }],
      });
      const token = tokenOf(enrolment.url);
      await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } });
      const only = newAuthenticator();
      const creation = await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token });
      const enrolled = await t.console('POST', consolePaths.enrolmentPasskey, {
        token,
        body: { credential: only.register(creation.json<{ challenge: string }>()) },
      });
      const cookie = consoleCookieOf(enrolled) ?? '';
      expect(await account(cookie)).toMatchObject({ totp: false, passkeys: [{ id: only.id }], recoveryCodesLeft: 10 });

      const last = await call('DELETE', paths.passkey(only.id), cookie);
      expect([last.statusCode, codeOf(last), last.json<{ responseMessage: string }>().responseMessage]).toEqual([
        409,
        ErrorCode.staffLastSecondFactor,
        'console.error.lastSecondFactor',
      ]);
      const unknown = await call('DELETE', paths.passkey('bm9uZQ'), cookie);
      expect(unknown.statusCode).toBe(404);

      // A second passkey: now the first may go, and then the second is the last again.
      const spare = newAuthenticator();
      expect((await addPasskey(cookie, spare)).statusCode).toBe(201);
      const removed = await call('DELETE', paths.passkey(only.id), cookie);
      expect(removed.statusCode).toBe(200);
      expect(removed.json<StaffAccount>().passkeys.map((p) => p.id)).toEqual([spare.id]);
      expect((await call('DELETE', paths.passkey(spare.id), cookie)).statusCode).toBe(409);
      // Someone else's passkey is not theirs to remove.
      expect((await call('DELETE', paths.passkey(spare.id), person.cookie)).statusCode).toBe(404);

      // With the authenticator app, the only passkey may go.
      const kais = (await account(person.cookie)).passkeys;
      expect(kais).toHaveLength(1);
      expect((await call('DELETE', paths.passkey(kais[0]!.id), person.cookie)).statusCode).toBe(200);

      const entries = await auditOf('solo@acme.test', 'staff.passkey_removed');
      expect(entries.map((e) => JSON.parse(e.details) as unknown)).toEqual([{ passkeyId: only.id, passkeysLeft: 1 }]);
    });

    it('removes only with a fresh second factor', async () => {
      await ageSecondFactor(person.email);
      const stale = await call('DELETE', paths.passkey('bm9uZQ'), person.cookie);
      expect([stale.statusCode, codeOf(stale)]).toEqual([403, ErrorCode.staffFreshSecondFactorRequired]);
      expect((await call('DELETE', paths.passkey('bm9uZQ'), undefined)).statusCode).toBe(401);
    });
  });

  describe('an authenticator app', () => {
    it('is set up by an account without one: a code of the sealed secret, after the step-up; then it signs in', async () => {
      const { enrolment } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
        email: 'tia@acme.test',
        name: 'Tia',
        owner: false,
        roles: [{ clientId: 'acme', role: 'auditor' }],
      });
      const token = tokenOf(enrolment.url);
      await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } });
      const passkey = new TestAuthenticator('console.localhost', t.config.console.origin);
      const creation = await t.console('POST', consolePaths.enrolmentPasskeyOptions, { token });
      const enrolled = await t.console('POST', consolePaths.enrolmentPasskey, {
        token,
        body: { credential: passkey.register(creation.json<{ challenge: string }>()) },
      });
      const cookie = consoleCookieOf(enrolled) ?? '';
      expect((await account(cookie)).totp).toBe(false);

      await ageSecondFactor('tia@acme.test');
      const stale = await call('POST', paths.totpSecret, cookie);
      expect([stale.statusCode, codeOf(stale)]).toEqual([403, ErrorCode.staffFreshSecondFactorRequired]);
      const request = await call('POST', consoleStaffPaths.stepUpPasskeyOptions, cookie);
      const answer = passkey.authenticate(request.json<{ challenge: string }>());
      expect((await call('POST', consoleStaffPaths.stepUpPasskey, cookie, { credential: answer })).statusCode).toBe(200);

      const reply = await call('POST', paths.totpSecret, cookie);
      expect(reply.statusCode).toBe(200);
      const { totpSecret, otpauthUri, sealed } = reply.json<StaffTotpSecretReply>();
      expect(otpauthUri).toContain(totpSecret);
      expect(sealed).not.toContain(totpSecret);
      // Nothing is kept until a code confirms it.
      expect((await account(cookie)).totp).toBe(false);

      // A wrong code, a secret sealed for someone else, an altered one: each a wrong factor, nothing set.
      const wrong = await call('POST', paths.totp, cookie, { sealed, code: totpCode(totpSecret, new Date(Date.now() - 10 * MINUTE)) });
      expect([wrong.statusCode, codeOf(wrong)]).toEqual([401, ErrorCode.staffSecondFactorFailed]);
      const someoneElses = await enrolStaff(t, 'uma@acme.test', { roles: [{ clientId: 'acme', role: 'auditor' }] });
      const sealedForUma = (
        await t.database.db
          .selectFrom('staff')
          .select('totp_secret_sealed')
          .where('email_key', '=', someoneElses.email)
          .executeTakeFirstOrThrow()
      ).totp_secret_sealed!;
      const foreign = await call('POST', paths.totp, cookie, { sealed: sealedForUma, code: totpCode(someoneElses.secret) });
      expect(codeOf(foreign)).toBe(ErrorCode.staffSecondFactorFailed);
      // One character of the IV changed (every base64url character there carries six bits of it).
      const at = sealed.indexOf('.') + 5;
      const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
      const altered = await call('POST', paths.totp, cookie, { sealed: tampered, code: totpCode(totpSecret) });
      expect(codeOf(altered)).toBe(ErrorCode.staffSecondFactorFailed);
      expect((await account(cookie)).totp).toBe(false);

      const confirmed = await call('POST', paths.totp, cookie, { sealed, code: totpCode(totpSecret) });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json<StaffAccount>()).toMatchObject({ totp: true });
      // Once set, neither step may replace it.
      expect(codeOf(await call('POST', paths.totpSecret, cookie))).toBe(ErrorCode.staffTotpAlreadySet);
      expect(codeOf(await call('POST', paths.totp, cookie, { sealed, code: totpCode(totpSecret) }))).toBe(ErrorCode.staffTotpAlreadySet);

      // It signs in (its confirming step was taken: the next code is a later step's).
      const half = consoleCookieOf(
        await t.console('POST', consolePaths.signIn, { body: { email: 'tia@acme.test', password: STAFF_PASSWORD } }),
      );
      const signedIn = await call('POST', consolePaths.signInTotp, half, { code: await freshCode(t, 'tia@acme.test', totpSecret) });
      expect(signedIn.statusCode).toBe(200);
      // And now the only passkey may go.
      expect((await call('DELETE', paths.passkey(passkey.id), cookie)).statusCode).toBe(200);
      const entries = await auditOf('tia@acme.test', 'staff.totp_added');
      expect(entries).toHaveLength(1);
      expect(JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute())).not.toContain(totpSecret);
    });
  });
});
