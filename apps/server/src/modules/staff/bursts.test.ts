import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { consolePaths, type EnrolmentPasswordReply } from '@rewards/contract/console';
import { dialects } from '../../../test/databases.ts';
import { createStaff } from './accounts.ts';
import { totpCode } from './secrets.ts';
import {
  consoleCookieOf,
  createConsoleTestApp,
  enrolStaff,
  freshCode,
  STAFF_PASSWORD,
  TEST_ACTOR,
  tokenOf,
  type ConsoleTestApp,
  type EnrolledStaff,
} from './test-support.ts';

const BURST = 100;

function tally(replies: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const reply of replies) counts[reply.statusCode] = (counts[reply.statusCode] ?? 0) + 1;
  return counts;
}

/**
 * Decision 040 for the console (decision 046): every limited step takes its slot through
 * modules/limits before the work, so requests sent all at once get at most the limit checked.
 * Default limits: 5 per staff e-mail and 50 per address in 15 minutes for the password; 5 per
 * person for second-factor codes. And a code or a link that works once works once, however many
 * arrive together.
 */
describe.each(dialects)('console limits under a burst of parallel requests on %s', (dialect) => {
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

  const burst = (count: number, send: (i: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  const signIn = (email: string, password: string) => t.console('POST', consolePaths.signIn, { body: { email, password } });
  const halfSession = async () => consoleCookieOf(await signIn(agent.email, STAFF_PASSWORD)) ?? '';
  const fullSessions = async () =>
    (await t.database.db.selectFrom('staff_sessions').select('id_hash').where('second_factor_at', 'is not', null).execute()).length;

  it('password: 100 wrong at once for one person get 5 checked, and the right one after them gets 429, not a session', async () => {
    const replies = await burst(BURST, (i) => signIn(agent.email, `Wrong-Password-${i}`));
    expect(tally(replies)).toEqual({ 401: 5, 429: 95 });
    expect(replies.find((r) => r.statusCode === 429)?.json()).toMatchObject({ errorCode: ErrorCode.staffThrottled });
    const right = await signIn(agent.email, STAFF_PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(consoleCookieOf(right)).toBeUndefined();
  });

  it('password: 100 guesses at 100 addresses from one address get 50 checked', async () => {
    const replies = await burst(BURST, (i) => signIn(`nobody-${i}@acme.test`, 'Some-Guess-2026'));
    expect(tally(replies)).toEqual({ 401: 50, 429: 50 });
  });

  it('second factor: 100 wrong codes at once on a half session get 5 checked; the right code after them gets 429', async () => {
    const cookie = await halfSession();
    const replies = await burst(BURST, (i) => t.console('POST', consolePaths.signInTotp, { cookie, body: { code: String(100_000 + i) } }));
    expect(tally(replies)).toEqual({ 401: 5, 429: 95 });
    const before = await fullSessions();
    const right = await t.console('POST', consolePaths.signInTotp, {
      cookie,
      body: { code: await freshCode(t, agent.email, agent.secret) },
    });
    expect(right.statusCode).toBe(429);
    expect(await fullSessions()).toBe(before);
  });

  it('second factor: 100 wrong recovery codes at once get 5 checked', async () => {
    const cookie = await halfSession();
    const replies = await burst(BURST, (i) =>
      t.console('POST', consolePaths.signInRecoveryCode, { cookie, body: { code: `wrong-${String(i).padStart(5, '0')}` } }),
    );
    expect(tally(replies)).toEqual({ 401: 5, 429: 95 });
  });

  it('the same right code on 20 half sessions at once signs in one of them (no replay in parallel)', async () => {
    const halves: string[] = [];
    for (let i = 0; i < 20; i++) halves.push(await halfSession());
    const code = await freshCode(t, agent.email, agent.secret);
    const before = await fullSessions();
    const replies = await burst(20, (i) => t.console('POST', consolePaths.signInTotp, { cookie: halves[i], body: { code } }));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(replies.every((r) => [200, 401, 429].includes(r.statusCode))).toBe(true);
    expect(await fullSessions()).toBe(before + 1);
  });

  it('the same recovery code on 20 half sessions at once signs in one of them', async () => {
    const halves: string[] = [];
    for (let i = 0; i < 20; i++) halves.push(await halfSession());
    const replies = await burst(20, (i) =>
      t.console('POST', consolePaths.signInRecoveryCode, { cookie: halves[i], body: { code: agent.recoveryCodes[0] } }),
    );
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });

  it('an enrolment confirmed 20 times at once completes once: one session, one set of recovery codes', async () => {
    const { enrolment } = await createStaff(t.database.db, t.config.console.origin, TEST_ACTOR, {
      email: 'twice@acme.test',
      name: 'Twice',
      owner: false,
      roles: [{ clientId: 'acme', role: 'auditor' }],
    });
    const token = tokenOf(enrolment.url);
    const { totpSecret } = (
      await t.console('POST', consolePaths.enrolmentPassword, { token, body: { password: STAFF_PASSWORD } })
    ).json<EnrolmentPasswordReply>();
    const code = totpCode(totpSecret);
    const replies = await burst(20, () => t.console('POST', consolePaths.enrolmentTotp, { token, body: { code } }));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(replies.map((r) => r.statusCode).filter((s) => ![200, 409, 429].includes(s))).toEqual([]);
    const staff = await t.database.db.selectFrom('staff').select('id').where('email_key', '=', 'twice@acme.test').executeTakeFirstOrThrow();
    expect(await t.database.db.selectFrom('staff_sessions').select('id_hash').where('staff_id', '=', staff.id).execute()).toHaveLength(1);
    expect(
      await t.database.db.selectFrom('staff_recovery_codes').select('code_hash').where('staff_id', '=', staff.id).execute(),
    ).toHaveLength(10);
  });
});
