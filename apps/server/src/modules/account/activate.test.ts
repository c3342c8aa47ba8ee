import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, SESSION_HEADER, type UserData } from '@rewards/contract';
import type { OutgoingMail } from '../mail/outbox.ts';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, DEMO_PASSWORD, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';
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

const NEW_PASSWORD = 'Fresh-Start-2026!';

describe.each(dialects)('activating an account on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    queued.length = 0;
  });

  const activate = (body: unknown, origin?: string) => t.api('POST', '/activate', { body, origin });
  const request = (accountNumber: string, lastName: string, extra: Record<string, unknown> = {}) => ({
    characteristics: { accountNumber, lastName },
    password: NEW_PASSWORD,
    acceptedPrivacyNoticeVersion: 1,
    ...extra,
  });
  const statusOf = async (username: string) =>
    (await t.database.db.selectFrom('participants').select('status').where('username_key', '=', username).executeTakeFirstOrThrow()).status;
  const signIn = async (username: string, password: string) => (await t.api('POST', '/login', { body: { username, password } })).statusCode;

  it('activates the demo\'s pending participant with 1000004 and "Pending", signing them in', async () => {
    const reply = await activate(request(' 1000004 ', 'pending'));
    expect(reply.statusCode).toBe(200);
    const user = reply.json<UserData>();
    expect(user).toMatchObject({
      authenticated: true,
      userName: 'pending',
      accountNumber: '1000004',
      privacyNotice: { hasAcknowledged: true, version: 1 },
    });
    expect(reply.headers[SESSION_HEADER]).toBe(user.sessionId);

    const me = await t.api('GET', '/user', { session: user.sessionId });
    expect(me.statusCode).toBe(200);
    expect(me.json<UserData>().userName).toBe('pending');
    expect(await statusOf('pending')).toBe('active');
    expect(await signIn('pending', NEW_PASSWORD)).toBe(200);
    expect(await signIn('pending', DEMO_PASSWORD)).toBe(401);
    expect(queued).toEqual([
      { clientId: 'acme', participantId: user.userId, to: 'pending@example.com', locale: 'en-US', template: 'activated', params: {} },
    ]);

    // Once is enough: the same facts now meet an account that is already active.
    const again = await activate(request('1000004', 'Pending'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ errorCode: ErrorCode.alreadyActive, responseMessage: 'account.error.alreadyActive' });
  });

  it("activates the demo's French participant in French (the web then fetches that bundle)", async () => {
    const reply = await activate(request('1000008', 'waiting'));
    expect(reply.statusCode).toBe(200);
    expect(reply.json<UserData>()).toMatchObject({ userName: 'waiting', locale: { code: 'fr-FR', dir: 'ltr' } });
    expect(queued).toMatchObject([{ template: 'activated', to: 'waiting@example.com', locale: 'fr-FR' }]);
  });

  it('matches last names ignoring case and accents', async () => {
    await addParticipant(t, { username: 'muller', lastName: 'Müller', accountNumber: '2000001' });
    const reply = await activate(request('2000001', 'MULLER'));
    expect(reply.statusCode).toBe(200);
    expect(reply.json<UserData>().locale.code).toBe('fr-FR');
  });

  it('answers wrong facts with one generic error, whether or not the account exists, changing nothing', async () => {
    await addParticipant(t, { username: 'wrongfacts', lastName: 'Right', accountNumber: '2000002' });
    const wrongName = await activate(request('2000002', 'Wrong'));
    const unknownAccount = await activate(request('2999999', 'Right'));
    for (const reply of [wrongName, unknownAccount]) {
      expect(reply.statusCode).toBe(400);
      expect(reply.headers[SESSION_HEADER]).toBeUndefined();
    }
    expect(wrongName.json()).toEqual(unknownAccount.json());
    expect(wrongName.json()).toEqual({
      errorCode: ErrorCode.activationFailed,
      responseMessage: 'account.error.activationFailed',
      message: 'The details do not match an account waiting for activation',
    });
    expect(await statusOf('wrongfacts')).toBe('pending');
    expect(queued).toEqual([]);
  });

  it('tells an account is already active only to whoever gives its right facts', async () => {
    const right = await activate(request('1000001', 'Demo'));
    expect(right.statusCode).toBe(409);
    const wrong = await activate(request('1000001', 'Dana'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errorCode).toBe(ErrorCode.activationFailed);
    expect(await signIn('demo', DEMO_PASSWORD)).toBe(200);
  });

  it('refuses missing, unknown or malformed fields with 400', async () => {
    const bodies = [
      { characteristics: { accountNumber: '1000004' }, password: NEW_PASSWORD, acceptedPrivacyNoticeVersion: 1 },
      {
        characteristics: { accountNumber: '1000004', lastName: 'Pending', firstName: 'Pat' },
        password: NEW_PASSWORD,
        acceptedPrivacyNoticeVersion: 1,
      },
      { characteristics: { accountNumber: '1000004', lastName: '   ' }, password: NEW_PASSWORD, acceptedPrivacyNoticeVersion: 1 },
      { characteristics: { accountNumber: '1000004', lastName: 'Pending' }, acceptedPrivacyNoticeVersion: 1 },
      { characteristics: 'nope', password: NEW_PASSWORD },
      { characteristics: { accountNumber: '1'.repeat(201), lastName: 'x' }, password: NEW_PASSWORD },
    ];
    for (const body of bodies) {
      const reply = await activate(body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.json().errorCode).toBe(ErrorCode.validation);
    }
  });

  it('needs the active privacy notice accepted', async () => {
    await addParticipant(t, { username: 'privacy', lastName: 'Notice', accountNumber: '2000003' });
    for (const accepted of [undefined, 0]) {
      const reply = await activate(request('2000003', 'Notice', { acceptedPrivacyNoticeVersion: accepted }));
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.privacyNoticeNotAccepted, responseMessage: 'account.error.privacyNotice' });
    }
    expect(await statusOf('privacy')).toBe('pending');
    expect((await activate(request('2000003', 'Notice'))).statusCode).toBe(200);
  });

  it("enforces the client's password rules, leaving the account pending", async () => {
    await addParticipant(t, { username: 'weakling', lastName: 'Weak', accountNumber: '2000004' });
    for (const password of ['short', 'no-digits-Here!', 'Weakling-2026!']) {
      const reply = await activate(request('2000004', 'Weak', { password }));
      expect(reply.statusCode, password).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.passwordRulesNotMet, responseMessage: 'profile.error.rules' });
    }
    expect(await statusOf('weakling')).toBe('pending');
  });

  it('lets the participant pick a free username, and refuses a taken one', async () => {
    await addParticipant(t, { username: 'assigned', lastName: 'Picker', accountNumber: '2000005' });
    const taken = await activate(request('2000005', 'Picker', { username: 'DEMO' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ errorCode: ErrorCode.usernameTaken, responseMessage: 'account.error.usernameTaken' });

    const reply = await activate(request('2000005', 'Picker', { username: 'Picked.Name' }));
    expect(reply.statusCode).toBe(200);
    expect(reply.json<UserData>().userName).toBe('Picked.Name');
    expect(await signIn('picked.name', NEW_PASSWORD)).toBe(200);
    expect(await signIn('assigned', NEW_PASSWORD)).toBe(401);
  });

  it('throttles wrong facts per target account, even with the right facts after', async () => {
    await addParticipant(t, { username: 'hammered', lastName: 'Target', accountNumber: '2000006' });
    for (let i = 0; i < t.config.limits.perAccount; i += 1) {
      const reply = await postFrom(t, `10.1.0.${i}`, '/activate', request('2000006', `Guess${i}`));
      expect(reply.statusCode).toBe(400);
    }
    const blocked = await activate(request('2000006', 'Target'));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ errorCode: ErrorCode.accountThrottled, responseMessage: 'account.error.throttled' });
    expect(await statusOf('hammered')).toBe('pending');
  });

  it('throttles wrong facts per address, across accounts', async () => {
    await addParticipant(t, { username: 'bystander', lastName: 'Innocent', accountNumber: '2000007' });
    for (let i = 0; i < t.config.limits.perAddress; i += 1) {
      expect((await postFrom(t, '10.2.0.1', '/activate', request(String(3_000_000 + i), 'Nobody'))).statusCode).toBe(400);
    }
    const blocked = await postFrom(t, '10.2.0.1', '/activate', request('2000007', 'Innocent'));
    expect(blocked.statusCode).toBe(429);
    expect((await postFrom(t, '10.2.0.2', '/activate', request('2000007', 'Innocent'))).statusCode).toBe(200);
  });

  it("cannot activate the demo client's participants through another client's origin", async () => {
    await addParticipant(t, { username: 'acmeonly', lastName: 'Acme', accountNumber: '2000008' });
    const reply = await activate(request('2000008', 'Acme'), OTHER_ORIGIN);
    expect(reply.statusCode).toBe(400);
    expect(await statusOf('acmeonly')).toBe('pending');
  });
});
