import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths, ErrorCode } from '@rewards/contract';
import type { LightMyRequestResponse } from 'fastify';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { NEIGHBOUR_CLIENT_ID, NIMBUS_PENDING } from '../../db/seed/demo-neighbour.ts';

const NIMBUS_ORIGIN = 'http://nimbus.localhost:3000';
const BURST = 100;

/** How many of a burst's replies had each status. */
function tally(replies: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const reply of replies) counts[reply.statusCode] = (counts[reply.statusCode] ?? 0) + 1;
  return counts;
}

/**
 * Decision 040: every limited endpoint takes its slot before it does the work, so a burst of
 * requests sent at once gets at most the limit checked and the rest 429, whatever the order in
 * which they are handled. Default limits: 5 per account in 15 minutes, 50 per address.
 */
describe.each(dialects)('limits under a burst of parallel requests on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_limits').execute();
  });

  const burst = (count: number, send: (i: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i)));

  it('sign-in: 100 wrong passwords at once get 5 checked, and the right one after them gets 429, not a session', async () => {
    const replies = await burst(BURST, (i) => t.api('POST', apiPaths.login, { body: { username: 'spent', password: `wrong-${i}` } }));
    expect(tally(replies)).toEqual({ 401: 5, 429: 95 });
    expect(replies.find((r) => r.statusCode === 429)?.json()).toMatchObject({ errorCode: ErrorCode.loginThrottled });
    const right = await t.api('POST', apiPaths.login, { body: { username: 'spent', password: DEMO_PASSWORD } });
    expect(right.statusCode).toBe(429);
  });

  it('sign-in: in a burst of 30 with the right password last, no guess past the fifth is checked and no session starts', async () => {
    const replies = await burst(30, (i) =>
      t.api('POST', apiPaths.login, { body: { username: 'spent', password: i === 29 ? DEMO_PASSWORD : `wrong-${i}` } }),
    );
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(0);
    expect(tally(replies)).toEqual({ 401: 5, 429: 25 });
    const sessions = await t.database.db
      .selectFrom('sessions')
      .innerJoin('participants', 'participants.id', 'sessions.participant_id')
      .select('sessions.id_hash')
      .where('participants.username_key', '=', 'spent')
      .execute();
    expect(sessions).toHaveLength(0);
  });

  it('sign-in: 100 guesses at 100 accounts from one address get 50 checked', async () => {
    const replies = await burst(BURST, (i) => t.api('POST', apiPaths.login, { body: { username: `nobody-${i}`, password: 'guess' } }));
    expect(tally(replies)).toEqual({ 401: 50, 429: 50 });
  });

  it('activation: 300 guessed dates of birth at once on a pending account get 5 checked; the account stays pending', async () => {
    const dates = Array.from({ length: 300 }, (_, i) => new Date(Date.UTC(1950, 0, 1 + i * 37)).toISOString().slice(0, 10));
    const replies = await burst(300, (i) =>
      t.api('POST', apiPaths.activate, {
        origin: NIMBUS_ORIGIN,
        body: {
          characteristics: { accountNumber: NIMBUS_PENDING.accountNumber, dateOfBirth: dates[i] },
          password: 'Une-Escale-2026!',
          acceptedPrivacyNoticeVersion: 99,
        },
      }),
    );
    expect(tally(replies)).toEqual({ 400: 5, 429: 295 });
    expect(replies.find((r) => r.statusCode === 429)?.json()).toMatchObject({ errorCode: ErrorCode.accountThrottled });
    const escale = await t.database.db
      .selectFrom('participants')
      .select('status')
      .where('client_id', '=', NEIGHBOUR_CLIENT_ID)
      .where('username_key', '=', NIMBUS_PENDING.username)
      .executeTakeFirstOrThrow();
    expect(escale.status).toBe('pending');
  });

  it.each([
    ['forgot user id', apiPaths.forgotUsername, { emailAddress: 'demo@example.com' }, 'forgotUsername'],
    ['forgot password', apiPaths.forgotPassword, { emailAddress: 'demo@example.com', userName: 'demo' }, 'resetPassword'],
  ])('%s: 100 requests at once for one account send 5 mails', async (_name, path, body, template) => {
    const before = await mailsTo('demo@example.com', template);
    const replies = await burst(BURST, () => t.api('POST', path, { body }));
    expect(tally(replies)).toEqual({ 200: 5, 429: 95 });
    expect((await mailsTo('demo@example.com', template)) - before).toBe(5);
  });

  it('reset link: 100 made-up links at once from one address get 50 looked at', async () => {
    const replies = await burst(BURST, (i) =>
      t.api('POST', apiPaths.savePassword, {
        body: { password: 'Another-2026!', passwordGuid: `made-up-link-${String(i).padStart(12, '0')}` },
      }),
    );
    expect(tally(replies)).toEqual({ 400: 50, 429: 50 });
  });

  it('change password: 100 wrong current passwords at once get 5 checked, and sign-in shares the lock', async () => {
    const { sessionId } = await t.login('newbie');
    const replies = await burst(BURST, (i) =>
      t.api('PUT', apiPaths.userPassword, { session: sessionId, body: { oldPassword: `guess-${i}`, newPassword: 'Brand-New-2026!' } }),
    );
    expect(tally(replies)).toEqual({ 400: 5, 429: 95 });
    expect((await t.api('POST', apiPaths.login, { body: { username: 'newbie', password: DEMO_PASSWORD } })).statusCode).toBe(429);
  });

  it('contact: 100 messages at once store 5', async () => {
    const { sessionId } = await t.login('merch');
    const form = { topic: 'order', subject: 'Burst', message: 'One of many at once.' };
    const replies = await burst(BURST, () => t.api('POST', apiPaths.contactUs, { session: sessionId, body: form }));
    expect(tally(replies)).toEqual({ 200: 5, 429: 95 });
    const stored = await t.database.db
      .selectFrom('contact_requests')
      .select('id')
      .where('client_id', '=', 'acme')
      .where('subject', '=', 'Burst')
      .execute();
    expect(stored).toHaveLength(5);
  });

  async function mailsTo(address: string, template: string): Promise<number> {
    const rows = await t.database.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', address)
      .where('template', '=', template)
      .execute();
    return rows.length;
  }
});
