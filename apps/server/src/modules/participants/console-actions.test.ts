import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiPaths, ErrorCode, type StatementReply } from '@rewards/contract';
import { consoleParticipantPaths as paths, type AdjustmentReply } from '@rewards/contract/console-participants';
import { dialects } from '../../../test/databases.ts';
import { DEMO_PASSWORD } from '../../../test/test-app.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { insertOtsCodes, newOtsCodeRows } from '../ots/store.ts';
import { consolePaths } from '@rewards/contract/console';
import {
  consoleCookieOf,
  createConsoleTestApp,
  enrolStaff,
  STAFF_PASSWORD,
  type ConsoleTestApp,
  type EnrolledStaff,
} from '../staff/test-support.ts';
import { participantId } from './console-actions-test-support.ts';

const ACME = 'acme';
const REASON = 'ticket 4711: customer on the phone';

/**
 * The console's participant actions (issue 17 section 3, docs/decisions/048) through the API,
 * on both engines: what each does, what it records, what it refuses and that a refusal changes
 * nothing; the agents' limit, the balance and the requestId under bursts of parallel requests.
 */
describe.each(dialects)('console participant actions on %s', (dialect) => {
  let t: ConsoleTestApp;
  let manager: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;
  let owner: EnrolledStaff;

  beforeAll(async () => {
    // The configuration cache on, as in production (and longer, so a read through it would show): a
    // limit is read where it is taken, never from the cache (decision 078).
    t = await createConsoleTestApp(dialect, { CLIENT_CACHE_SECONDS: '60' });
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    manager = await enrolStaff(t, 'manager@acme.test', { roles: [{ clientId: ACME, role: 'program_manager' }] });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: ACME, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: ACME, role: 'auditor' }] });
  }, 60_000);
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_limits').execute();
    await t.database.db.updateTable('clients').set({ agent_daily_adjustment_limit: 1000 }).where('id', '=', ACME).execute();
  });

  const db = () => t.database.db;
  const idOf = (username: string) => participantId(db(), ACME, username);
  const balanceOf = async (username: string) =>
    (
      await db()
        .selectFrom('participants')
        .select('balance')
        .where('client_id', '=', ACME)
        .where('username_key', '=', username)
        .executeTakeFirstOrThrow()
    ).balance ?? 0;
  const auditCount = async () =>
    Number(
      (
        await db()
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const entriesOf = async (username: string) =>
    Number(
      (
        await db()
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('client_id', '=', ACME)
          .where('participant_id', '=', await idOf(username))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const auditEntry = (id: string) => db().selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const tally = (replies: LightMyRequestResponse[]) =>
    replies.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.statusCode]: (counts[r.statusCode] ?? 0) + 1 }), {});
  const adjust = async (who: EnrolledStaff, username: string, body: Record<string, unknown>) =>
    t.console('POST', paths.adjustments(ACME, await idOf(username)), {
      cookie: who.cookie,
      body: { points: 10, participantText: 'Goodwill', internalNote: REASON, requestId: randomUUID(), ...body },
    });
  /** An agent's own fresh person, so their daily count starts at zero. */
  const newAgent = (name: string) =>
    enrolStaff(t, `${name}-${randomUUID().slice(0, 8)}@acme.test`, { roles: [{ clientId: ACME, role: 'support_agent' }] });

  describe('launch-as', () => {
    it("issues a single-use link on the client's portal address, audited, whose session cannot spend", async () => {
      const demoId = await idOf('demo');
      const reply = await t.console('POST', paths.launchAs(ACME, demoId), { cookie: agent.cookie, body: { reason: REASON } });
      expect(reply.statusCode).toBe(200);
      const { url, expiresAt } = reply.json<{ url: string; expiresAt: string }>();
      expect(url).toMatch(/^http:\/\/localhost:3000\/launch-as\?token=[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(60_000);
      const token = await db().selectFrom('launch_tokens').selectAll().orderBy('issued_at', 'desc').executeTakeFirstOrThrow();
      expect(token).toMatchObject({ issued_by: agent.email, issued_via: 'console', participant_id: demoId, reason: REASON });
      const issued = await db()
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'launch-as.issue')
        .orderBy('at', 'desc')
        .executeTakeFirstOrThrow();
      expect(issued).toMatchObject({ actor: agent.email, actor_kind: 'staff', client_id: ACME, origin: '127.0.0.1' });
      expect(JSON.parse(issued.details)).toMatchObject({ reason: REASON, via: 'console', participantId: demoId });

      // The link opens a session marked admin-as-user, which reads but cannot spend.
      const opened = await t.api('POST', apiPaths.launchAs, { body: { token: new URL(url).searchParams.get('token') } });
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toMatchObject({ adminAsUser: true });
      const session = opened.json<{ sessionId: string }>().sessionId;
      await insertOtsCodes(db(), newOtsCodeRows(ACME, [{ code: 'CONS-LNCH', value: 40 }], new Date()));
      const balance = await balanceOf('demo');
      expect((await t.api('GET', apiPaths.user, { session })).statusCode).toBe(200);
      expect((await t.api('POST', apiPaths.otsRedeem, { session, body: { code: 'CONS-LNCH', userName: 'demo' } })).statusCode).toBe(403);
      expect((await t.api('GET', apiPaths.catalogUrl('merchandise'), { session })).statusCode).toBe(403);
      expect(await balanceOf('demo')).toBe(balance);
      // The token works once.
      expect((await t.api('POST', apiPaths.launchAs, { body: { token: new URL(url).searchParams.get('token') } })).statusCode).toBe(409);
    });

    it('refuses an auditor, a short reason and an unknown participant, issuing nothing', async () => {
      const demoId = await idOf('demo');
      const before = await db().selectFrom('launch_tokens').select('id').execute();
      expect((await t.console('POST', paths.launchAs(ACME, demoId), { cookie: auditor.cookie, body: { reason: REASON } })).statusCode).toBe(
        403,
      );
      expect((await t.console('POST', paths.launchAs(ACME, demoId), { cookie: agent.cookie, body: { reason: 'x' } })).statusCode).toBe(400);
      expect(
        (await t.console('POST', paths.launchAs(ACME, 'no-such-participant'), { cookie: agent.cookie, body: { reason: REASON } }))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await t.console('POST', paths.launchAs(ACME, demoId), {
            cookie: agent.cookie,
            body: { reason: REASON },
            headers: { origin: 'https://evil.example' },
          })
        ).statusCode,
      ).toBe(403);
      expect(await db().selectFrom('launch_tokens').select('id').execute()).toHaveLength(before.length);
    });
  });

  describe('adjustments', () => {
    it('answers who may not post with 401 or 403 before it reads the body: never a 400 that describes it', async () => {
      const half = consoleCookieOf(
        await t.console('POST', consolePaths.signIn, { body: { email: agent.email, password: STAFF_PASSWORD } }),
      );
      expect(half).toBeDefined();
      const url = paths.adjustments(ACME, await idOf('demo'));
      const answers: Record<string, number> = {};
      for (const [who, cookie] of [
        ['nobody', undefined],
        ['half session', half],
        ['auditor', auditor.cookie],
      ] as const) {
        const reply = await t.console('POST', url, { ...(cookie ? { cookie } : {}), body: {} });
        answers[who] = reply.statusCode;
        expect(reply.body, who).not.toMatch(/points|participantText|requestId/);
      }
      expect(answers).toEqual({ nobody: 401, 'half session': 401, auditor: 403 });
    });

    it('credits with a text the participant reads and a note they never see, recorded with who posted it and why', async () => {
      const before = await balanceOf('newbie');
      const requestId = randomUUID();
      const reply = await adjust(agent, 'newbie', {
        points: 250,
        participantText: 'Sorry for the delay',
        internalNote: 'ticket 88: parcel lost',
        requestId,
      });
      expect(reply.statusCode).toBe(200);
      const body = reply.json<AdjustmentReply>();
      expect(body).toMatchObject({ balance: before + 250, agentLimitLeft: 750 });
      const entry = await db().selectFrom('ledger_entries').selectAll().where('id', '=', body.entryId).executeTakeFirstOrThrow();
      expect(entry).toMatchObject({
        amount: 250,
        kind: 'adjustment',
        internal_note: 'ticket 88: parcel lost',
        posted_by: agent.email,
        request_id: requestId,
        description_key: 'ledger.operator.adjustmentNote',
      });
      const audit = await db()
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'points.adjust')
        .orderBy('at', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit).toMatchObject({
        actor: agent.email,
        actor_kind: 'staff',
        origin: '127.0.0.1',
        subject: await idOf('newbie'),
        client_id: ACME,
      });
      expect(JSON.parse(audit.details)).toMatchObject({
        reason: 'ticket 88: parcel lost',
        points: 250,
        entryId: body.entryId,
        balance: before + 250,
      });

      // The participant reads "Balance adjustment: <text>", never the note or who posted it.
      const newbie = await t.login('newbie', DEMO_PASSWORD);
      const statement = await t.api('GET', apiPaths.statement('newbie', 'en-US'), { session: newbie.sessionId });
      const history = statement.json<StatementReply>().accountHistoryList;
      expect(history.at(-1)).toMatchObject({ description: 'Balance adjustment: Sorry for the delay', amountOrAward: 250 });
      expect(statement.body).not.toContain('parcel lost');
      expect(statement.body).not.toContain(agent.email);
    });

    it('posts a double click once: the same requestId answers the first entry, another body with it is 409', async () => {
      const requestId = randomUUID();
      const first = await adjust(manager, 'newbie', { points: 5, requestId });
      const second = await adjust(manager, 'newbie', { points: 5, requestId });
      expect(second.statusCode).toBe(200);
      expect(second.json<AdjustmentReply>().entryId).toBe(first.json<AdjustmentReply>().entryId);
      expect(second.json<AdjustmentReply>().balance).toBe(first.json<AdjustmentReply>().balance);
      const balance = await balanceOf('newbie');
      const entries = await entriesOf('newbie');
      const audits = await auditCount();
      const other = await adjust(manager, 'newbie', { points: 6, requestId });
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({ errorCode: ErrorCode.consoleRequestIdReused });
      expect((await adjust(agent, 'newbie', { points: 5, requestId })).statusCode).toBe(409);
      expect([await balanceOf('newbie'), await entriesOf('newbie'), await auditCount()]).toEqual([balance, entries, audits]);
    });

    it('refuses a debit the balance does not cover, and bad input, changing nothing', async () => {
      const balance = await balanceOf('newbie');
      const entries = await entriesOf('newbie');
      const audits = await auditCount();
      expect(balance).toBeLessThan(1000);
      for (const who of [manager, agent]) {
        const tooMuch = await adjust(who, 'newbie', { points: -(balance + 1) });
        expect(tooMuch.statusCode).toBe(409);
        expect(tooMuch.json()).toMatchObject({ errorCode: ErrorCode.consoleInsufficientBalance });
        expect(tooMuch.json<{ message: string }>().message).toContain(`does not cover -${balance + 1}; nothing was posted`);
        // The console says it in its own words from the particulars (decision 087).
        expect(tooMuch.json()).toMatchObject({ params: { username: 'newbie', balance, debit: balance + 1 } });
      }
      for (const body of [
        { points: 0 },
        { points: 1.5 },
        { points: 20_000_000 },
        { points: '10' },
        { participantText: '' },
        { participantText: 'x'.repeat(201) },
        { internalNote: 'no' },
        { requestId: 'not-a-uuid' },
      ]) {
        const reply = await adjust(agent, 'newbie', body);
        expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      }
      // The console is told which field, to say so in its words (decision 087).
      expect((await adjust(agent, 'newbie', { requestId: 'not-a-uuid' })).json()).toMatchObject({
        responseMessage: 'error.validation',
        params: { where: 'body', fields: 'requestId' },
      });
      const raw = await t.console('POST', paths.adjustments(ACME, await idOf('newbie')), { cookie: agent.cookie, body: 'not json' });
      expect(raw.statusCode).toBe(400);
      expect(
        (
          await t.console('POST', paths.adjustments(ACME, 'nobody'), {
            cookie: agent.cookie,
            body: { points: 5, participantText: 'x', internalNote: REASON, requestId: randomUUID() },
          })
        ).statusCode,
      ).toBe(404);
      expect((await adjust(auditor, 'newbie', {})).statusCode).toBe(403);
      expect([await balanceOf('newbie'), await entriesOf('newbie'), await auditCount()]).toEqual([balance, entries, audits]);
      await expectLedgerMatchesBalances(db());
    });

    it("holds a support agent to the client's daily limit, saying what is left; the refusal takes nothing", async () => {
      const capped = await newAgent('capped');
      await db().updateTable('clients').set({ agent_daily_adjustment_limit: 300 }).where('id', '=', ACME).execute();
      expect((await adjust(capped, 'demo', { points: 200 })).json<AdjustmentReply>().agentLimitLeft).toBe(100);
      const debit = await adjust(capped, 'demo', { points: -80 });
      expect(debit.json<AdjustmentReply>().agentLimitLeft).toBe(20);
      const balance = await balanceOf('demo');
      const refused = await adjust(capped, 'demo', { points: 21 });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ errorCode: ErrorCode.consoleAgentLimitReached });
      expect(refused.json<{ message: string }>().message).toContain('20 left today');
      expect(refused.json()).toMatchObject({ params: { max: 300, left: 20 } });
      const tooBig = await adjust(capped, 'demo', { points: -301 });
      expect(tooBig.statusCode).toBe(429);
      expect(await balanceOf('demo')).toBe(balance);
      // What was left is still there; a manager is not capped.
      expect((await adjust(capped, 'demo', { points: 20 })).json<AdjustmentReply>().agentLimitLeft).toBe(0);
      expect((await adjust(manager, 'demo', { points: 290 })).json<AdjustmentReply>()).toMatchObject({ agentLimitLeft: null });
      // A debit the balance does not cover gives the agent's amount back (the transaction's rollback).
      await db().updateTable('clients').set({ agent_daily_adjustment_limit: 10_000_000 }).where('id', '=', ACME).execute();
      const other = await newAgent('rollback');
      expect((await adjust(other, 'newbie', { points: -9_000_000 })).statusCode).toBe(409);
      expect((await adjust(other, 'newbie', { points: 10 })).json<AdjustmentReply>().agentLimitLeft).toBe(10_000_000 - 10);
    });

    it("asks a program manager or an owner for a fresh second factor past the agents' limit", async () => {
      const stale = new Date(Date.now() - 60 * 60_000).toISOString();
      await db().updateTable('staff_sessions').set({ second_factor_at: stale }).execute();
      const balance = await balanceOf('demo');
      for (const who of [manager, owner]) {
        const refused = await adjust(who, 'demo', { points: 1001 });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ errorCode: ErrorCode.staffFreshSecondFactorRequired });
        expect((await adjust(who, 'demo', { points: 1000 })).statusCode).toBe(200);
      }
      expect(await balanceOf('demo')).toBe(balance + 2000);
      await db().updateTable('staff_sessions').set({ second_factor_at: new Date().toISOString() }).execute();
      expect((await adjust(manager, 'demo', { points: -1001 })).statusCode).toBe(200);
    });

    it('100 parallel adjustments by one agent never pass the limit', async () => {
      const burst = await newAgent('burst');
      const before = await balanceOf('demo');
      const replies = await Promise.all(Array.from({ length: 100 }, () => adjust(burst, 'demo', { points: 30 })));
      expect(tally(replies)).toEqual({ 200: 33, 429: 67 });
      expect(await balanceOf('demo')).toBe(before + 990);
      const counted = await db().selectFrom('attempt_limits').select('taken').where('subject', 'like', 'agent-adjustments:%').execute();
      expect(counted.map((r) => r.taken)).toEqual([990]);
      await expectLedgerMatchesBalances(db());
    }, 60_000);

    it('100 parallel debits never take the balance below zero', async () => {
      const id = await idOf('spent');
      await db().updateTable('participants').set({ balance: 0 }).where('client_id', '=', ACME).where('id', '=', id).execute();
      await db().deleteFrom('ledger_entries').where('client_id', '=', ACME).where('participant_id', '=', id).execute();
      // Its lots (and what they were spent on) go with its entries (docs/decisions/057).
      const lots = db().selectFrom('point_lots').select('id').where('participant_id', '=', id);
      await db().deleteFrom('lot_consumptions').where('lot_id', 'in', lots).execute();
      await db().deleteFrom('point_lots').where('participant_id', '=', id).execute();
      expect((await adjust(manager, 'spent', { points: 500 })).statusCode).toBe(200);
      const replies = await Promise.all(Array.from({ length: 100 }, () => adjust(manager, 'spent', { points: -10 })));
      expect(tally(replies)).toEqual({ 200: 50, 409: 50 });
      expect(await balanceOf('spent')).toBe(0);
      await expectLedgerMatchesBalances(db());
    }, 60_000);

    it('100 copies of one requestId post one entry, and every copy answers it', async () => {
      const requestId = randomUUID();
      const before = await balanceOf('merch');
      for (const who of [manager, await newAgent('copies')]) {
        const id = who === manager ? requestId : randomUUID();
        const replies = await Promise.all(Array.from({ length: 100 }, () => adjust(who, 'merch', { points: 7, requestId: id })));
        expect(tally(replies)).toEqual({ 200: 100 });
        expect(new Set(replies.map((r) => r.json<AdjustmentReply>().entryId)).size).toBe(1);
        expect(
          await db().selectFrom('ledger_entries').select('id').where('client_id', '=', ACME).where('request_id', '=', id).execute(),
        ).toHaveLength(1);
      }
      expect(await balanceOf('merch')).toBe(before + 14);
      await expectLedgerMatchesBalances(db());
    }, 60_000);
  });

  describe('status, unlock, sessions, mails, details', () => {
    it('sets a status, ending the sessions of an inactive participant; the same status is 409, an unknown one 400', async () => {
      const id = await idOf('spent');
      const session = (await t.login('spent', DEMO_PASSWORD)).sessionId;
      const reply = await t.console('POST', paths.status(ACME, id), { cookie: agent.cookie, body: { status: 'inactive', reason: REASON } });
      expect(reply.statusCode).toBe(200);
      const audit = await auditEntry(reply.json<{ auditId: string }>().auditId);
      expect(audit).toMatchObject({
        action: 'participants.set-status',
        actor: agent.email,
        actor_kind: 'staff',
        subject: id,
        origin: '127.0.0.1',
      });
      expect(JSON.parse(audit.details)).toMatchObject({ from: 'active', to: 'inactive', sessionsEnded: 1, reason: REASON });
      expect((await t.api('GET', apiPaths.user, { session })).statusCode).toBe(401);
      const audits = await auditCount();
      const same = await t.console('POST', paths.status(ACME, id), { cookie: agent.cookie, body: { status: 'inactive', reason: REASON } });
      expect(same.statusCode).toBe(409);
      expect(same.json<{ message: string }>().message).toContain('already inactive');
      expect(same.json()).toMatchObject({ params: { status: 'inactive', reason: 'status' } });
      const unknown = await t.console('POST', paths.status(ACME, id), { cookie: agent.cookie, body: { status: 'asleep', reason: REASON } });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string }>().message).toContain('pending, active, inactive');
      expect(
        (await t.console('POST', paths.status(ACME, id), { cookie: auditor.cookie, body: { status: 'active', reason: REASON } }))
          .statusCode,
      ).toBe(403);
      expect(await auditCount()).toBe(audits);
      expect(
        (await t.console('POST', paths.status(ACME, id), { cookie: manager.cookie, body: { status: 'active', reason: REASON } }))
          .statusCode,
      ).toBe(200);
    });

    it('unlocks a throttled participant and ends every session', async () => {
      const id = await idOf('merch');
      for (let i = 0; i < 5; i += 1) await t.api('POST', apiPaths.login, { body: { username: 'merch', password: `wrong-${i}` } });
      expect((await t.api('POST', apiPaths.login, { body: { username: 'merch', password: DEMO_PASSWORD } })).statusCode).toBe(429);
      const unlocked = await t.console('POST', paths.unlock(ACME, id), { cookie: agent.cookie, body: { reason: REASON } });
      expect(unlocked.statusCode).toBe(200);
      expect(JSON.parse((await auditEntry(unlocked.json<{ auditId: string }>().auditId)).details)).toMatchObject({
        failuresCleared: 5,
        reason: REASON,
      });
      const sessions = [(await t.login('merch', DEMO_PASSWORD)).sessionId, (await t.login('merch', DEMO_PASSWORD)).sessionId];
      const ended = await t.console('POST', paths.endSessions(ACME, id), { cookie: agent.cookie, body: { reason: REASON } });
      expect(ended.statusCode).toBe(200);
      expect(await auditEntry(ended.json<{ auditId: string }>().auditId)).toMatchObject({
        action: 'participants.sessions-end',
        subject: id,
        actor: agent.email,
      });
      for (const session of sessions) expect((await t.api('GET', apiPaths.user, { session })).statusCode).toBe(401);
      expect((await t.console('POST', paths.unlock(ACME, id), { cookie: agent.cookie, body: {} })).statusCode).toBe(400);
    });

    it('resends the activation mail to a pending participant and a reset link to the others, within the account limits', async () => {
      await db().deleteFrom('mail_outbox').execute();
      const pending = await idOf('pending');
      const demo = await idOf('demo');
      const activation = await t.console('POST', paths.resendMail(ACME, pending), {
        cookie: agent.cookie,
        body: { mail: 'activation', reason: REASON },
      });
      expect(activation.statusCode).toBe(200);
      const reset = await t.console('POST', paths.resendMail(ACME, demo), {
        cookie: agent.cookie,
        body: { mail: 'passwordReset', reason: REASON },
      });
      expect(reset.statusCode).toBe(200);
      const mails = await db()
        .selectFrom('mail_outbox')
        .select(['template', 'participant_id', 'params'])
        .where('template', '!=', '')
        .orderBy('created_at')
        .execute();
      expect(mails.map((m) => [m.template, m.participant_id])).toEqual([
        ['activationInvite', pending],
        ['resetPassword', demo],
      ]);
      expect(mails[0]?.params).toContain('http://localhost:3000/activation');
      expect(mails[1]?.params).toContain('http://localhost:3000/reset-password?passwordGuid=');
      expect(JSON.parse((await auditEntry(reset.json<{ auditId: string }>().auditId)).details)).toMatchObject({
        mail: 'passwordReset',
        reason: REASON,
      });

      const audits = await auditCount();
      const wrongForPending = await t.console('POST', paths.resendMail(ACME, pending), {
        cookie: agent.cookie,
        body: { mail: 'passwordReset', reason: REASON },
      });
      expect(wrongForPending.statusCode).toBe(409);
      expect(wrongForPending.json<{ message: string }>().message).toContain('send the activation mail instead');
      expect(wrongForPending.json()).toMatchObject({ params: { reason: 'notActivated', status: 'pending' } });
      const wrongForActive = await t.console('POST', paths.resendMail(ACME, demo), {
        cookie: agent.cookie,
        body: { mail: 'activation', reason: REASON },
      });
      expect(wrongForActive.statusCode).toBe(409);
      expect(wrongForActive.json()).toMatchObject({ params: { reason: 'notPending', status: 'active' } });
      expect(
        (await t.console('POST', paths.resendMail(ACME, demo), { cookie: agent.cookie, body: { mail: 'welcome', reason: REASON } }))
          .statusCode,
      ).toBe(400);
      expect(await auditCount()).toBe(audits);

      const more = await Promise.all(
        Array.from({ length: 10 }, () =>
          t.console('POST', paths.resendMail(ACME, pending), { cookie: agent.cookie, body: { mail: 'activation', reason: REASON } }),
        ),
      );
      expect(tally(more)).toEqual({ 200: 4, 429: 6 });
    });

    it('corrects details, naming the changed fields but never their values; bad values are 400 and change nothing', async () => {
      const id = await idOf('newbie');
      const reply = await t.console('POST', paths.details(ACME, id), {
        cookie: agent.cookie,
        body: { firstName: 'Nine', email: 'nine@example.com', reason: REASON },
      });
      expect(reply.statusCode).toBe(200);
      const audit = await auditEntry(reply.json<{ auditId: string }>().auditId);
      expect(audit).toMatchObject({ action: 'participants.update', subject: id, actor: agent.email, actor_kind: 'staff' });
      expect(JSON.parse(audit.details)).toEqual({ username: 'newbie', changed: ['firstName', 'email'], reason: REASON });
      expect(audit.details).not.toContain('nine@example.com');
      const row = await db().selectFrom('participants').select(['first_name', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ first_name: 'Nine', email: 'nine@example.com' });

      const audits = await auditCount();
      const demoNumber = (
        await db()
          .selectFrom('participants')
          .select('account_number')
          .where('client_id', '=', ACME)
          .where('username_key', '=', 'demo')
          .executeTakeFirstOrThrow()
      ).account_number;
      for (const body of [
        { email: 'not-an-address' },
        { firstName: '' },
        { accountNumber: demoNumber },
        {},
        { firstName: 'x'.repeat(101) },
      ]) {
        const bad = await t.console('POST', paths.details(ACME, id), { cookie: agent.cookie, body: { ...body, reason: REASON } });
        expect(bad.statusCode, JSON.stringify(body)).toBe(400);
        expect(bad.json<{ message: string }>().message.length).toBeGreaterThan(5);
      }
      expect(
        (await t.console('POST', paths.details(ACME, id), { cookie: agent.cookie, body: { firstName: 'Nine', reason: REASON } }))
          .statusCode,
      ).toBe(409);
      expect(await auditCount()).toBe(audits);
      expect(await db().selectFrom('participants').select(['first_name', 'email']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual(
        row,
      );
    });
  });

  describe("a participant's ways in (decision 076)", () => {
    const setFactorAge = (minutes: number) =>
      db()
        .updateTable('staff_sessions')
        .set({ second_factor_at: new Date(Date.now() - minutes * 60_000).toISOString() })
        .where('second_factor_at', 'is not', null)
        .execute();
    const statusOf = async (username: string) =>
      (
        await db()
          .selectFrom('participants')
          .select('status')
          .where('client_id', '=', ACME)
          .where('username_key', '=', username)
          .executeTakeFirstOrThrow()
      ).status;

    it('no staff role sends an activated account back to pending, whose activation asks only for facts the console shows', async () => {
      const id = await idOf('merch');
      const audits = await auditCount();
      for (const who of [agent, manager, owner]) {
        const reply = await t.console('POST', paths.status(ACME, id), { cookie: who.cookie, body: { status: 'pending', reason: REASON } });
        expect(reply.statusCode, who.email).toBe(409);
        expect(reply.json()).toMatchObject({ errorCode: ErrorCode.consoleNoWayBackToPending, params: { username: 'merch' } });
      }
      expect(await statusOf('merch')).toBe('active');
      expect(await auditCount()).toBe(audits);
    });

    it("a new e-mail address takes a fresh second factor and is told to the old one; no link goes there for 24 hours but a program manager's after a step-up", async () => {
      await db().deleteFrom('mail_outbox').execute();
      const id = await idOf('spent');
      const emailOf = async () =>
        (await db().selectFrom('participants').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
      const mails = () =>
        db()
          .selectFrom('mail_outbox')
          .select(['template', 'to_address', 'params'])
          .where('template', '!=', '')
          .orderBy('created_at')
          .execute();
      const changeEmail = (who: EnrolledStaff) =>
        t.console('POST', paths.details(ACME, id), { cookie: who.cookie, body: { email: 'agent-drop@evil.example', reason: REASON } });
      const resetLink = (who: EnrolledStaff) =>
        t.console('POST', paths.resendMail(ACME, id), { cookie: who.cookie, body: { mail: 'passwordReset', reason: REASON } });

      // Every role, with a second factor older than five minutes: refused, nothing changed; other details need none.
      await setFactorAge(6);
      for (const who of [agent, manager, owner]) {
        const stale = await changeEmail(who);
        expect(stale.statusCode, who.email).toBe(403);
        expect(stale.json()).toMatchObject({ errorCode: ErrorCode.staffFreshSecondFactorRequired });
      }
      expect(await emailOf()).toBe('spent@example.com');
      expect(
        (await t.console('POST', paths.details(ACME, id), { cookie: agent.cookie, body: { firstName: 'Samuel', reason: REASON } }))
          .statusCode,
      ).toBe(200);

      // Just passed: the address changes, and the old one hears of it with the new one masked.
      await setFactorAge(0);
      expect((await changeEmail(agent)).statusCode).toBe(200);
      expect(await emailOf()).toBe('agent-drop@evil.example');
      const told = await mails();
      expect(told.map((m) => [m.template, m.to_address])).toEqual([['emailChanged', 'spent@example.com']]);
      expect(told[0]?.params).toContain('a•••@evil.example');
      expect(told[0]?.params).not.toContain('agent-drop');

      // The portal's own forgot-password page sends none either: answered as a miss, the same reply.
      const asked = await t.api('POST', apiPaths.forgotPassword, { body: { userName: 'spent', emailAddress: 'agent-drop@evil.example' } });
      expect(asked.statusCode).toBe(200);
      expect((await mails()).map((m) => m.template)).toEqual(['emailChanged', 'noMail']);
      await db().deleteFrom('attempt_limits').execute();

      // An agent sends no link there; a program manager only after a step-up.
      const audits = await auditCount();
      const refused = await resetLink(agent);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ errorCode: ErrorCode.consoleEmailRecentlyChanged, params: { username: 'spent' } });
      expect(Date.parse(String(refused.json<{ params: { until: string } }>().params.until))).toBeGreaterThan(Date.now());
      await setFactorAge(6);
      expect((await resetLink(manager)).json()).toMatchObject({ errorCode: ErrorCode.staffFreshSecondFactorRequired });
      expect(await auditCount()).toBe(audits);
      expect((await mails()).map((m) => m.template)).toEqual(['emailChanged', 'noMail']);
      await setFactorAge(0);
      expect((await resetLink(manager)).statusCode).toBe(200);
      expect((await mails()).map((m) => [m.template, m.to_address])).toEqual([
        ['emailChanged', 'spent@example.com'],
        ['noMail', ''],
        ['resetPassword', 'agent-drop@evil.example'],
      ]);

      // A day later the address is the participant's like any other.
      await db()
        .updateTable('participants')
        .set({ email_changed_by_staff_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
        .where('id', '=', id)
        .execute();
      await db().deleteFrom('attempt_limits').execute();
      expect((await resetLink(agent)).statusCode).toBe(200);
      await db().updateTable('participants').set({ email: 'spent@example.com', first_name: 'Sam' }).where('id', '=', id).execute();
    });
  });

  describe('client settings', () => {
    it("shows the agents' limit to every role, lets a program manager set it with a reason, audited, and the cap follows it", async () => {
      for (const who of [auditor, agent, manager, owner]) {
        const reply = await t.console('GET', paths.settings(ACME), { cookie: who.cookie });
        expect(reply.statusCode).toBe(200);
        expect(reply.json()).toEqual({ agentDailyAdjustmentLimit: 1000 });
      }
      expect(
        (await t.console('PUT', paths.settings(ACME), { cookie: agent.cookie, body: { agentDailyAdjustmentLimit: 50, reason: REASON } }))
          .statusCode,
      ).toBe(403);
      for (const body of [
        { agentDailyAdjustmentLimit: -1, reason: REASON },
        { agentDailyAdjustmentLimit: 1.5, reason: REASON },
        { agentDailyAdjustmentLimit: 50 },
        { agentDailyAdjustmentLimit: 200_000_000, reason: REASON },
      ]) {
        expect((await t.console('PUT', paths.settings(ACME), { cookie: manager.cookie, body })).statusCode, JSON.stringify(body)).toBe(400);
      }
      expect((await t.console('GET', paths.settings(ACME), { cookie: manager.cookie })).json()).toEqual({
        agentDailyAdjustmentLimit: 1000,
      });
      const set = await t.console('PUT', paths.settings(ACME), {
        cookie: manager.cookie,
        body: { agentDailyAdjustmentLimit: 50, reason: REASON },
      });
      expect(set.statusCode).toBe(200);
      const { auditId } = set.json<{ auditId: string }>();
      expect(set.json()).toMatchObject({ agentDailyAdjustmentLimit: 50 });
      const audit = await auditEntry(auditId);
      expect(audit).toMatchObject({ action: 'clients.settings', actor: manager.email, actor_kind: 'staff', subject: ACME });
      expect(JSON.parse(audit.details)).toEqual({ agentDailyAdjustmentLimit: { from: 1000, to: 50 }, reason: REASON });
      const fresh = await newAgent('settings');
      expect((await adjust(fresh, 'demo', { points: 51 })).statusCode).toBe(429);
      expect((await adjust(fresh, 'demo', { points: 50 })).statusCode).toBe(200);
      expect(
        (
          await t.console('PUT', paths.settings('globex'), {
            cookie: manager.cookie,
            body: { agentDailyAdjustmentLimit: 50, reason: REASON },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await t.console('PUT', paths.settings('nowhere'), {
            cookie: owner.cookie,
            body: { agentDailyAdjustmentLimit: 50, reason: REASON },
          })
        ).statusCode,
      ).toBe(404);
    });
  });
});
