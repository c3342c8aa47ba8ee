import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { composeQueuedMail } from '../mail/compose.ts';
import type { OutgoingMail } from '../mail/outbox.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, DEMO_ORIGIN, DEMO_PASSWORD, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
import { addParticipant, postFrom } from './test-support.ts';

// The mails queued, as the mail capability receives them (it still writes them, too).
const queued = vi.hoisted(() => [] as OutgoingMail[]);
vi.mock(import('../mail/outbox.ts'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    queueMail: async (...args: Parameters<typeof original.queueMail>) => {
      queued.push(args[1]);
      await original.queueMail(...args);
    },
  };
});

const NEW_PASSWORD = 'Brand-New-Key-7?';
const GUID_LINK = /^(.+)\/reset-password\?passwordGuid=([A-Za-z0-9_-]{43})$/;

describe.each(dialects)('forgot user id, forgot and reset password on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    queued.length = 0;
  });

  const post = (path: string, body: unknown, origin?: string) => t.api('POST', path, { body, origin });
  const signIn = async (username: string, password: string) => (await t.api('POST', '/login', { body: { username, password } })).statusCode;
  const resetRows = (username: string) =>
    t.database.db
      .selectFrom('password_resets')
      .innerJoin('participants', 'participants.id', 'password_resets.participant_id')
      .selectAll('password_resets')
      .where('participants.username_key', '=', username)
      .orderBy('password_resets.created_at')
      .execute();
  /** Asks for a reset link and reads it from the queued mail. */
  const requestLink = async (username: string, origin?: string) => {
    queued.length = 0;
    const reply = await post('/forgotPassword', { emailAddress: `${username}@example.com`, userName: username }, origin);
    expect(reply.statusCode).toBe(200);
    const mail = queued.find((m) => m.template === 'resetPassword');
    const match = GUID_LINK.exec(mail?.params.link ?? '');
    if (!match?.[2]) throw new Error(`no reset link for ${username}`);
    return { origin: match[1], guid: match[2], mail };
  };
  const save = (passwordGuid: string, password = NEW_PASSWORD, origin?: string) =>
    post('/savePassword', { passwordGuid, password }, origin);

  describe('forgot user id', () => {
    it('answers a known and an unknown address alike, mailing the usernames only to the known one', async () => {
      await addParticipant(t, {
        username: 'twin-a',
        lastName: 'Twin',
        accountNumber: '4000001',
        status: 'active',
        email: 'Twins@Example.com',
      });
      await addParticipant(t, {
        username: 'twin-b',
        lastName: 'Twin',
        accountNumber: '4000002',
        status: 'active',
        email: 'twins@example.com',
      });
      await addParticipant(t, { username: 'twin-pending', lastName: 'Twin', accountNumber: '4000003', email: 'twins@example.com' });
      const known = await post('/forgotUsername', { emailAddress: 'TWINS@example.com' });
      expect(queued).toEqual([
        { clientId: 'acme', to: 'Twins@Example.com', locale: 'fr-FR', template: 'forgotUsername', params: { usernames: 'twin-a, twin-b' } },
      ]);
      queued.length = 0;
      const unknown = await post('/forgotUsername', { emailAddress: 'nobody@example.com' });
      expect(queued).toEqual([]);

      for (const reply of [known, unknown]) {
        expect(reply.statusCode).toBe(200);
        expect(reply.json()).toEqual({ result: 'accepted' });
      }
      expect(known.body).toBe(unknown.body);
      expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    });

    it('mails nothing for an address known only to another client', async () => {
      const reply = await post('/forgotUsername', { emailAddress: 'demo@globex.example' });
      expect(reply.json()).toEqual({ result: 'accepted' });
      expect(queued).toEqual([]);
    });

    it('throttles per e-mail address and per network address (429)', async () => {
      for (let i = 0; i < t.config.limits.perAccount; i += 1) {
        expect((await postFrom(t, `10.3.0.${i}`, '/forgotUsername', { emailAddress: 'spent@example.com' })).statusCode).toBe(200);
      }
      const perEmail = await post('/forgotUsername', { emailAddress: 'spent@example.com' });
      expect(perEmail.statusCode).toBe(429);
      expect(perEmail.json()).toMatchObject({ errorCode: ErrorCode.accountThrottled, responseMessage: 'account.error.throttled' });

      for (let i = 0; i < t.config.limits.perAddress; i += 1) {
        expect((await postFrom(t, '10.3.1.1', '/forgotUsername', { emailAddress: `someone${i}@example.com` })).statusCode).toBe(200);
      }
      expect((await postFrom(t, '10.3.1.1', '/forgotUsername', { emailAddress: 'demo@example.com' })).statusCode).toBe(429);
    });

    it('refuses a malformed address with 400', async () => {
      for (const body of [{}, { emailAddress: 'not-an-address' }, { emailAddress: `${'a'.repeat(250)}@example.com` }]) {
        const reply = await post('/forgotUsername', body);
        expect(reply.statusCode).toBe(400);
        expect(reply.json().errorCode).toBe(ErrorCode.validation);
      }
    });
  });

  describe('forgot password', () => {
    it('answers a match and a mismatch alike; only a match stores a link, as a hash', async () => {
      await addParticipant(t, {
        username: 'forgetful',
        lastName: 'F',
        accountNumber: '4000010',
        status: 'active',
        password: DEMO_PASSWORD,
      });
      const match = await post('/forgotPassword', { emailAddress: 'FORGETFUL@example.com', userName: 'Forgetful' });
      const mail = queued[0];
      queued.length = 0;
      const wrongEmail = await post('/forgotPassword', { emailAddress: 'demo@example.com', userName: 'forgetful' });
      const unknownUser = await post('/forgotPassword', { emailAddress: 'forgetful@example.com', userName: 'nobody-here' });
      expect(queued).toEqual([]);
      for (const reply of [match, wrongEmail, unknownUser]) {
        expect(reply.statusCode).toBe(200);
        expect(reply.body).toBe(match.body);
      }
      expect(match.json()).toEqual({ result: 'accepted' });
      expect(Object.keys(match.headers).sort()).toEqual(Object.keys(unknownUser.headers).sort());

      expect(mail).toMatchObject({
        clientId: 'acme',
        to: 'forgetful@example.com',
        locale: 'fr-FR',
        template: 'resetPassword',
        params: { minutes: '60' },
      });
      const [, origin, guid] = GUID_LINK.exec(mail?.params.link ?? '') ?? [];
      expect(origin).toBe(DEMO_ORIGIN);
      const rows = await resetRows('forgetful');
      expect(rows).toHaveLength(1);
      expect(rows[0]?.token_hash).not.toContain(guid);
      expect(rows[0]?.token_hash).toBe(
        createHash('sha256')
          .update(guid ?? '')
          .digest('base64url'),
      );
      expect(Date.parse(rows[0]?.expires_at ?? '') - Date.parse(rows[0]?.created_at ?? '')).toBe(60 * 60_000);
      expect(await resetRows('demo')).toEqual([]);
    });

    it("builds every link of the mail on the client's portal address, whatever origin the request names (decision 041)", async () => {
      await addParticipant(t, { username: 'viaip', lastName: 'V', accountNumber: '4000011', status: 'active' });
      for (const requested of ['http://localhost:6666', 'http://127.0.0.1:3000', 'https://LOCALHOST']) {
        const { origin } = await requestLink('viaip', requested);
        expect(origin, requested).toBe('http://localhost:3000');
      }
      // What the participant receives (rendered as the delivery worker renders it, decision 042):
      // no link, logo included, on the port the caller named.
      const queuedRows = await t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'viaip@example.com').execute();
      const rows = await Promise.all(
        queuedRows.map(async (row) => {
          const rendered = await composeQueuedMail(t.database.db, { ...row, params: row.params ?? '' });
          return { text_body: rendered.text, html_body: rendered.html };
        }),
      );
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(row.text_body).toContain('http://localhost:3000/reset-password?passwordGuid=');
        expect(`${row.text_body}${row.html_body}`).not.toMatch(/:6666|127\.0\.0\.1|https:\/\/localhost/i);
      }
      // The operator's address, not the request's, even when they differ entirely.
      await t.database.db.updateTable('clients').set({ portal_url: 'https://rewards.acme.example' }).where('id', '=', 'acme').execute();
      try {
        expect((await requestLink('viaip', 'http://localhost:6666')).origin).toBe('https://rewards.acme.example');
      } finally {
        await t.database.db.updateTable('clients').set({ portal_url: 'http://localhost:3000' }).where('id', '=', 'acme').execute();
      }
    });

    it('sends an inactive participant a link too: one with points may still sign in', async () => {
      const { mail } = await requestLink('inactive');
      expect(mail).toMatchObject({ to: 'inactive@example.com', locale: 'en-US' });
    });

    it('sends pending participants no link: they activate instead', async () => {
      await addParticipant(t, { username: 'notyet', lastName: 'N', accountNumber: '4000012' });
      const reply = await post('/forgotPassword', { emailAddress: 'notyet@example.com', userName: 'notyet' });
      expect(reply.json()).toEqual({ result: 'accepted' });
      expect(queued).toEqual([]);
      expect(await resetRows('notyet')).toEqual([]);
    });

    it("never makes a link for the demo client's participant through another client's origin", async () => {
      const reply = await post('/forgotPassword', { emailAddress: 'merch@example.com', userName: 'merch' }, OTHER_ORIGIN);
      expect(reply.json()).toEqual({ result: 'accepted' });
      expect(queued).toEqual([]);
      expect(await resetRows('merch')).toEqual([]);
    });

    it('throttles per account and per network address (429)', async () => {
      await addParticipant(t, { username: 'spammed', lastName: 'S', accountNumber: '4000013', status: 'active' });
      for (let i = 0; i < t.config.limits.perAccount; i += 1) {
        expect(
          (await postFrom(t, `10.4.0.${i}`, '/forgotPassword', { emailAddress: 'spammed@example.com', userName: 'spammed' })).statusCode,
        ).toBe(200);
      }
      const perAccount = await post('/forgotPassword', { emailAddress: 'spammed@example.com', userName: 'spammed' });
      expect(perAccount.statusCode).toBe(429);
      expect(perAccount.json().errorCode).toBe(ErrorCode.accountThrottled);

      for (let i = 0; i < t.config.limits.perAddress; i += 1) {
        expect(
          (await postFrom(t, '10.4.1.1', '/forgotPassword', { emailAddress: 'x@example.com', userName: `guess${i}` })).statusCode,
        ).toBe(200);
      }
      expect((await postFrom(t, '10.4.1.1', '/forgotPassword', { emailAddress: 'demo@example.com', userName: 'demo' })).statusCode).toBe(
        429,
      );
    });

    it('refuses bad input with 400', async () => {
      for (const body of [
        { emailAddress: 'demo@example.com' },
        { userName: 'demo' },
        { emailAddress: 'nope', userName: 'demo' },
        { emailAddress: 'demo@example.com', userName: 'd'.repeat(101) },
      ]) {
        expect((await post('/forgotPassword', body)).statusCode).toBe(400);
      }
    });
  });

  describe('reset password', () => {
    it('sets the new password once, ends every session and clears failed sign-ins', async () => {
      await addParticipant(t, { username: 'resetter', lastName: 'R', accountNumber: '4000020', status: 'active', password: DEMO_PASSWORD });
      const first = await t.login('resetter');
      const second = await t.login('resetter');
      for (let i = 0; i < t.config.limits.perAccount; i += 1) expect(await signIn('resetter', `wrong-${i}`)).toBe(401);
      expect(await signIn('resetter', DEMO_PASSWORD)).toBe(429);

      const { guid } = await requestLink('resetter');
      queued.length = 0;
      const reply = await save(guid);
      expect(reply.statusCode).toBe(200);
      expect(reply.json()).toEqual({ result: 'saved' });
      expect(queued).toMatchObject([{ template: 'passwordChanged', to: 'resetter@example.com', params: {} }]);

      for (const session of [first.sessionId, second.sessionId]) expect((await t.api('GET', '/user', { session })).statusCode).toBe(401);
      expect(await signIn('resetter', DEMO_PASSWORD)).toBe(401);
      expect(await signIn('resetter', NEW_PASSWORD)).toBe(200);
      expect((await resetRows('resetter'))[0]?.used_at).not.toBeNull();

      const reused = await save(guid, 'Another-Key-8?');
      expect(reused.statusCode).toBe(409);
      expect(reused.json()).toMatchObject({ errorCode: ErrorCode.resetLinkUsed, responseMessage: 'account.error.resetLinkUsed' });
      expect(await signIn('resetter', NEW_PASSWORD)).toBe(200);
    });

    it('lets a participant whom someone else locked out for the day back in by resetting the password (decision 040)', async () => {
      await addParticipant(t, { username: 'targeted', lastName: 'T', accountNumber: '4000091', status: 'active', password: DEMO_PASSWORD });
      // Someone has spent the account's daily ceiling of guesses: a new quarter of an hour does not help.
      const tomorrow = new Date(Date.now() + 24 * 60 * 60_000).toISOString();
      await t.database.db
        .insertInto('attempt_limits')
        .values({ client_id: 'acme', subject: 'sign-in:targeted#day', taken: t.config.limits.perAccountPerDay, window_ends_at: tomorrow })
        .execute();
      expect(await signIn('targeted', DEMO_PASSWORD)).toBe(429);
      const { guid } = await requestLink('targeted');
      expect((await save(guid)).statusCode).toBe(200);
      expect(await signIn('targeted', NEW_PASSWORD)).toBe(200);
    });

    it('refuses an expired link with its own error', async () => {
      await addParticipant(t, { username: 'tardy', lastName: 'T', accountNumber: '4000021', status: 'active', password: DEMO_PASSWORD });
      const { guid } = await requestLink('tardy');
      await t.database.db
        .updateTable('password_resets')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', createHash('sha256').update(guid).digest('base64url'))
        .execute();
      const reply = await save(guid);
      expect(reply.statusCode).toBe(410);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.resetLinkExpired, responseMessage: 'account.error.resetLinkExpired' });
      expect(await signIn('tardy', DEMO_PASSWORD)).toBe(200);
    });

    it('voids the older link when a newer one is asked for', async () => {
      await addParticipant(t, { username: 'twice', lastName: 'T', accountNumber: '4000022', status: 'active', password: DEMO_PASSWORD });
      const older = await requestLink('twice');
      const newer = await requestLink('twice');
      const replaced = await save(older.guid);
      expect(replaced.statusCode).toBe(410);
      expect(replaced.json()).toMatchObject({ errorCode: ErrorCode.resetLinkReplaced, responseMessage: 'account.error.resetLinkReplaced' });
      expect((await save(newer.guid)).statusCode).toBe(200);
    });

    it('enforces the password rules and refuses the current password, keeping the link usable', async () => {
      await addParticipant(t, { username: 'picky', lastName: 'P', accountNumber: '4000023', status: 'active', password: DEMO_PASSWORD });
      const { guid } = await requestLink('picky');
      const weak = await save(guid, 'weak');
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ errorCode: ErrorCode.passwordRulesNotMet, responseMessage: 'profile.error.rules' });
      const same = await save(guid, DEMO_PASSWORD);
      expect(same.statusCode).toBe(400);
      expect(same.json()).toMatchObject({ errorCode: ErrorCode.samePassword, responseMessage: 'profile.error.samePassword' });
      expect((await save(guid)).statusCode).toBe(200);
    });

    it('refuses unknown and malformed guids', async () => {
      const unknown = await save('A'.repeat(43));
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ errorCode: ErrorCode.resetLinkInvalid, responseMessage: 'account.error.resetLinkInvalid' });
      for (const body of [
        { passwordGuid: 'short', password: NEW_PASSWORD },
        { passwordGuid: `${'A'.repeat(42)}/`, password: NEW_PASSWORD },
        { passwordGuid: 'A'.repeat(43) },
        {},
      ]) {
        const reply = await post('/savePassword', body);
        expect(reply.statusCode).toBe(400);
        expect(reply.json().errorCode).toBe(ErrorCode.validation);
      }
    });

    it("does not accept the demo client's link through another client's origin", async () => {
      await addParticipant(t, { username: 'homebody', lastName: 'H', accountNumber: '4000024', status: 'active', password: DEMO_PASSWORD });
      const { guid } = await requestLink('homebody');
      const reply = await save(guid, NEW_PASSWORD, OTHER_ORIGIN);
      expect(reply.statusCode).toBe(400);
      expect(reply.json().errorCode).toBe(ErrorCode.resetLinkInvalid);
      expect(await signIn('homebody', DEMO_PASSWORD)).toBe(200);
    });

    it("throttles refusals of one account's links per account (429)", async () => {
      await addParticipant(t, { username: 'stubborn', lastName: 'S', accountNumber: '4000025', status: 'active', password: DEMO_PASSWORD });
      const older = await requestLink('stubborn');
      const newer = await requestLink('stubborn');
      for (let i = 0; i < t.config.limits.perAccount; i += 1) {
        expect((await postFrom(t, `10.6.0.${i}`, '/savePassword', { passwordGuid: older.guid, password: NEW_PASSWORD })).statusCode).toBe(
          410,
        );
      }
      const blocked = await save(newer.guid);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().errorCode).toBe(ErrorCode.accountThrottled);
      expect(await signIn('stubborn', DEMO_PASSWORD)).toBe(200);
    });

    it('throttles bad links per network address (429)', async () => {
      for (let i = 0; i < t.config.limits.perAddress; i += 1) {
        expect(
          (
            await postFrom(t, '10.5.0.1', '/savePassword', {
              passwordGuid: `${'B'.repeat(40)}${String(i).padStart(3, '0')}`,
              password: NEW_PASSWORD,
            })
          ).statusCode,
        ).toBe(400);
      }
      const blocked = await postFrom(t, '10.5.0.1', '/savePassword', { passwordGuid: 'C'.repeat(43), password: NEW_PASSWORD });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().errorCode).toBe(ErrorCode.accountThrottled);
    });
  });
});
