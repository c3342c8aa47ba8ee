import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { DEMO_CLIENT_ID } from '../../db/seed/demo.ts';
import { DEMO_OTS_CODES } from '../../db/seed/demo-ots.ts';
import { normaliseOtsCode, otsCodeHash } from './code.ts';
import { insertOtsCodes, newOtsCodeRows, type OtsCodeInput } from './store.ts';

const DAY = 86_400_000;

describe.each(dialects)('POST ots/redeem on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  // Each story starts with no failed attempts on record, so the throttle only bites where meant.
  beforeEach(async () => {
    await t.database.db.deleteFrom('attempt_limits').where('subject', 'like', 'ots:%').execute();
  });

  const redeem = (session: string | undefined, code: unknown, userName: unknown = 'demo') =>
    t.api('POST', '/ots/redeem', { session, body: { code, userName } });

  const addCodes = (codes: OtsCodeInput[], clientId = DEMO_CLIENT_ID) =>
    insertOtsCodes(t.database.db, newOtsCodeRows(clientId, codes, new Date()));

  const codeRow = (code: string, clientId = DEMO_CLIENT_ID) =>
    t.database.db
      .selectFrom('ots_codes')
      .select(['status', 'redeemed_by', 'redeemed_at'])
      .where('client_id', '=', clientId)
      .where('code_hash', '=', otsCodeHash(normaliseOtsCode(code)))
      .executeTakeFirstOrThrow();

  const balanceOf = async (username: string) =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('balance')
        .where('client_id', '=', DEMO_CLIENT_ID)
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).balance;

  const otsEntriesOf = (username: string) =>
    t.database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('participants as p', 'p.id', 'e.participant_id')
      .select(['e.amount', 'e.kind', 'e.description_key', 'e.description_params', 'e.reference'])
      .where('p.client_id', '=', DEMO_CLIENT_ID)
      .where('p.username', '=', username)
      .where('e.kind', '=', 'ots')
      .execute();

  it('answers 401 without a session, and leaves the code unused', async () => {
    await addCodes([{ code: 'TEST-401A', value: 10 }]);
    const reply = await redeem(undefined, 'TEST-401A');
    expect(reply.statusCode).toBe(401);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
    expect((await codeRow('TEST-401A')).status).toBe('unused');
  });

  it('credits the code once: the reply, the balance, the history and the code all say so', async () => {
    await addCodes([{ code: 'TEST-GOOD-0001', value: 300 }]);
    const dana = await t.login('demo');
    const before = dana.accountBalance ?? 0;

    const reply = await redeem(dana.sessionId, 'TEST-GOOD-0001');
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ message: 'ots.success.redeemed', value: 300, accountBalance: before + 300 });
    expect(await balanceOf('demo')).toBe(before + 300);

    const statement = (await t.api('GET', '/user', { session: dana.sessionId })).json<{ accountBalance: number }>();
    expect(statement.accountBalance).toBe(before + 300);
    const code = await codeRow('TEST-GOOD-0001');
    expect(code).toMatchObject({ status: 'redeemed', redeemed_by: dana.userId });
    const entries = (await otsEntriesOf('demo')).filter((e) => e.description_params === JSON.stringify({ hint: '0001' }));
    expect(entries).toEqual([
      expect.objectContaining({
        amount: 300,
        kind: 'ots',
        description_key: 'ledger.ots.redeemed',
        reference: expect.stringMatching(/^ots:/),
      }),
    ]);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('gives a participant who never earned a first balance', async () => {
    await addCodes([{ code: 'TEST-NEWB', value: 40 }]);
    const nina = await t.login('newbie');
    expect(nina.accountBalance).toBeNull();
    const reply = await redeem(nina.sessionId, 'TEST-NEWB', 'newbie');
    expect(reply.json()).toMatchObject({ value: 40, accountBalance: 40 });
    await expectLedgerMatchesBalances(t.database.db);
  });

  it.each([
    ['lower case', 'test-case-aaaa'],
    ['spaces', '  TEST CASE  AAAA '],
    ['no dashes', 'TESTCASEAAAA'],
    ['other dashes and mixed case', 'tEsT–cAsE—aAaA'],
  ])('matches a code typed with %s', async (_how, typed) => {
    await t.database.db.deleteFrom('ots_codes').where('code_hash', '=', otsCodeHash('TESTCASEAAAA')).execute();
    await addCodes([{ code: 'TEST-CASE-AAAA', value: 5 }]);
    const { sessionId } = await t.login('spent');
    const reply = await redeem(sessionId, typed, 'spent');
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ value: 5 });
    // Undo, so that the next variant finds the code unused again: the entry and its lot go with it.
    const undone = t.database.db.selectFrom('ledger_entries').select('id').where('reference', 'like', 'ots:%').where('amount', '=', 5);
    await t.database.db.deleteFrom('point_lots').where('entry_id', 'in', undone).execute();
    await t.database.db.deleteFrom('ledger_entries').where('reference', 'like', 'ots:%').where('amount', '=', 5).execute();
    await t.database.db
      .updateTable('participants')
      .set({ balance: 0 })
      .where('username', '=', 'spent')
      .where('client_id', '=', DEMO_CLIENT_ID)
      .execute();
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('tells an unknown, a used and an expired code apart, each translated, changing nothing', async () => {
    await addCodes([
      { code: 'TEST-EXPD', value: 70, expiresAt: new Date(Date.now() - DAY).toISOString() },
      { code: 'TEST-USED', value: 80 },
    ]);
    const { sessionId } = await t.login('demo');
    expect((await redeem(sessionId, 'TEST-USED')).statusCode).toBe(200);
    const balance = await balanceOf('demo');

    const unknown = await redeem(sessionId, 'NO-SUCH-CODE');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ errorCode: ErrorCode.otsUnknownCode, responseMessage: 'ots.error.notFound', message: 'No such code' });

    const used = await redeem(sessionId, 'test used');
    expect(used.statusCode).toBe(409);
    expect(used.json()).toMatchObject({ errorCode: ErrorCode.otsCodeUsed, responseMessage: 'ots.error.used' });

    const expired = await redeem(sessionId, 'TEST-EXPD');
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ errorCode: ErrorCode.otsCodeExpired, responseMessage: 'ots.error.expired' });
    expect((await codeRow('TEST-EXPD')).status).toBe('unused');

    expect(await balanceOf('demo')).toBe(balance);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('the demo program has twelve unused codes, one used by demo with its ledger entry, and one expired', async () => {
    const rows = await t.database.db
      .selectFrom('ots_codes')
      .select(['code_hash', 'code_hint', 'status', 'redeemed_by', 'expires_at', 'id'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('batch', '=', 'Demo 2026')
      .execute();
    const byCode = (code: string) => rows.find((r) => r.code_hash === otsCodeHash(normaliseOtsCode(code)));
    expect(DEMO_OTS_CODES.unused.map((c) => byCode(c.code)?.status)).toEqual(Array(12).fill('unused'));
    const used = byCode(DEMO_OTS_CODES.used.code);
    const dana = await t.database.db
      .selectFrom('participants')
      .select(['id', 'balance'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    expect(used).toMatchObject({ status: 'redeemed', redeemed_by: dana.id, code_hint: '9MTE' });
    const entry = await t.database.db
      .selectFrom('ledger_entries')
      .select(['amount', 'participant_id'])
      .where('reference', '=', `ots:${used?.id}`)
      .executeTakeFirst();
    expect(entry).toEqual({ amount: DEMO_OTS_CODES.used.value, participant_id: dana.id });
    const expired = byCode(DEMO_OTS_CODES.expired.code);
    expect(expired?.status).toBe('unused');
    expect(Date.parse(expired?.expires_at ?? '')).toBeLessThan(Date.now());
    // No code is stored in the clear.
    expect(JSON.stringify(rows)).not.toMatch(/ACME|7K3F/);
  });

  it("the demo program's used and expired codes are refused, and an unused one works", async () => {
    const { sessionId } = await t.login('demo');
    expect((await redeem(sessionId, DEMO_OTS_CODES.used.code)).statusCode).toBe(409);
    expect((await redeem(sessionId, DEMO_OTS_CODES.expired.code)).statusCode).toBe(410);
    const last = DEMO_OTS_CODES.unused.at(-1);
    const reply = await redeem(sessionId, last?.code);
    expect(reply.json()).toMatchObject({ value: last?.value });
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('refuses a withdrawn (void) code with its own error', async () => {
    await addCodes([{ code: 'TEST-VOID', value: 9 }]);
    await t.database.db.updateTable('ots_codes').set({ status: 'void' }).where('code_hash', '=', otsCodeHash('TESTVOID')).execute();
    const { sessionId } = await t.login('demo');
    const reply = await redeem(sessionId, 'TEST-VOID');
    expect(reply.statusCode).toBe(410);
    expect(reply.json()).toMatchObject({ errorCode: ErrorCode.otsCodeVoid, responseMessage: 'ots.error.void' });
  });

  describe('refuses with 403, and the code stays unused and the balance unchanged,', () => {
    const expectNothingChanged = async (username: string, balance: number | null) => {
      expect((await codeRow('TEST-403A')).status).toBe('unused');
      expect(await balanceOf(username)).toBe(balance);
      await expectLedgerMatchesBalances(t.database.db);
    };
    beforeAll(() => addCodes([{ code: 'TEST-403A', value: 11 }]));

    it('a participant without on-the-spot codes', async () => {
      const mona = await t.login('merch');
      const reply = await redeem(mona.sessionId, 'TEST-403A', 'merch');
      expect(reply.statusCode).toBe(403);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.otsNotEnabled, responseMessage: 'ots.error.notEnabled' });
      await expectNothingChanged('merch', mona.accountBalance);
    });

    it('a userName other than the session’s', async () => {
      const sam = await t.login('spent');
      const reply = await redeem(sam.sessionId, 'TEST-403A', 'demo');
      expect(reply.statusCode).toBe(403);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.forbidden });
      await expectNothingChanged('demo', await balanceOf('demo'));
      await expectNothingChanged('spent', sam.accountBalance);
    });

    it('an administrator acting as the participant', async () => {
      const dana = await t.login('demo');
      await t.database.db.updateTable('sessions').set({ admin_as_user: 1 }).where('participant_id', '=', dana.userId).execute();
      const reply = await redeem(dana.sessionId, 'TEST-403A', 'demo');
      expect(reply.statusCode).toBe(403);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.forbidden, responseMessage: 'error.forbidden' });
      await t.database.db.updateTable('sessions').set({ admin_as_user: 0 }).where('participant_id', '=', dana.userId).execute();
      await expectNothingChanged('demo', await balanceOf('demo'));
    });
  });

  it('accepts the userName in any case, as sign-in does', async () => {
    await addCodes([{ code: 'TEST-UPPR', value: 3 }]);
    const { sessionId } = await t.login('demo');
    expect((await redeem(sessionId, 'TEST-UPPR', ' DEMO ')).statusCode).toBe(200);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it("does not redeem another client's code", async () => {
    await addCodes([{ code: 'GLOBEX-ONLY-1', value: 1000 }], OTHER_CLIENT_ID);
    const dana = await t.login('demo');
    const reply = await redeem(dana.sessionId, 'GLOBEX-ONLY-1');
    expect(reply.statusCode).toBe(404);
    expect((await codeRow('GLOBEX-ONLY-1', OTHER_CLIENT_ID)).status).toBe('unused');
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('refuses a missing, empty, separator-only or oversized code and a missing userName as bad input', async () => {
    const { sessionId } = await t.login('demo');
    const bodies = [
      {},
      { userName: 'demo' },
      { code: '', userName: 'demo' },
      { code: '   ', userName: 'demo' },
      { code: ' - - ', userName: 'demo' },
      { code: 'A'.repeat(65), userName: 'demo' },
      { code: 'TEST-X', userName: '' },
      { code: 'TEST-X' },
      { code: 42, userName: 'demo' },
    ];
    for (const body of bodies) {
      const reply = await t.api('POST', '/ots/redeem', { session: sessionId, body });
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation, responseMessage: 'error.validation' });
    }
    const malformed = await t.api('POST', '/ots/redeem', { session: sessionId, rawBody: '{"code": ' });
    expect(malformed.statusCode).toBe(400);
  });

  it('throttles a participant after ten failed attempts, before looking at the code, and only that participant', async () => {
    await addCodes([{ code: 'TEST-THRT', value: 20 }]);
    const dana = await t.login('demo');
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await redeem(dana.sessionId, `GUESS-${attempt}`)).statusCode).toBe(404);
    }
    const throttled = await redeem(dana.sessionId, 'TEST-THRT');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ errorCode: ErrorCode.otsThrottled, responseMessage: 'ots.error.throttled' });
    expect((await codeRow('TEST-THRT')).status).toBe('unused');
    // A new session does not lift it: the count is the participant's, in the database.
    const again = await t.login('demo');
    expect((await redeem(again.sessionId, 'TEST-THRT')).statusCode).toBe(429);
    // Someone else is not affected.
    const nina = await t.login('newbie');
    expect((await redeem(nina.sessionId, 'TEST-THRT', 'newbie')).statusCode).toBe(200);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('counts a burst of parallel guesses while it is in flight: at most ten are looked at', async () => {
    const { sessionId } = await t.login('spent');
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => redeem(sessionId, `BURST-${i}`, 'spent')));
    const statuses = replies.map((r) => r.statusCode);
    const looked = statuses.filter((s) => s === 404).length;
    // How many are looked at depends on the interleaving (none, when all are counted first).
    expect(looked).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - looked);
    // The refused ones took no slot: exactly the looked-at guesses count.
    const taken = await t.database.db.selectFrom('attempt_limits').select('taken').where('subject', 'like', 'ots:%').execute();
    expect(taken.reduce((sum, row) => sum + row.taken, 0)).toBe(looked);
  });

  it('counts used and expired codes as failures too, and a success does not clear the count', async () => {
    await addCodes([
      { code: 'TEST-CNT1', value: 1 },
      { code: 'TEST-CNT2', value: 1 },
    ]);
    const { sessionId } = await t.login('demo');
    for (let attempt = 1; attempt <= 9; attempt++) await redeem(sessionId, DEMO_OTS_CODES.used.code);
    expect((await redeem(sessionId, 'TEST-CNT1')).statusCode).toBe(200);
    expect((await redeem(sessionId, DEMO_OTS_CODES.expired.code)).statusCode).toBe(410);
    expect((await redeem(sessionId, 'TEST-CNT2')).statusCode).toBe(429);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('refuses an inactive participant, who may only spend what is left', async () => {
    await addCodes([{ code: 'TEST-INAC', value: 2 }]);
    const ivan = await t.login('inactive');
    const reply = await redeem(ivan.sessionId, 'TEST-INAC', 'inactive');
    expect(reply.statusCode).toBe(403);
    expect((await codeRow('TEST-INAC')).status).toBe('unused');
  });
});

describe.each(dialects)('100 concurrent redeems of one code on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // A high limit: the 99 refusals are failed attempts, and this story is not about the throttle.
    t = await createTestApp(dialect, { OTS_MAX_FAILURES_PER_PARTICIPANT: '1000' });
  });
  afterAll(() => t.close());

  it('credit it exactly once', async () => {
    await insertOtsCodes(t.database.db, newOtsCodeRows(DEMO_CLIENT_ID, [{ code: 'RACE-RACE-RACE', value: 777 }], new Date()));
    const people = await Promise.all(['demo', 'spent', 'newbie'].map((username) => t.login(username)));
    const balancesBefore = people.map((p) => p.accountBalance);

    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const who = people[i % people.length];
        return t.api('POST', '/ots/redeem', {
          session: who?.sessionId,
          body: { code: i % 2 ? 'race-race-race' : 'RACE RACE RACE', userName: who?.userName },
        });
      }),
    );

    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(99);
    const winner = people[statuses.indexOf(200) % people.length];
    const after = await t.database.db
      .selectFrom('participants')
      .select(['username', 'balance'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('username', 'in', ['demo', 'spent', 'newbie'])
      .execute();
    for (const [index, person] of people.entries()) {
      const before = balancesBefore[index] ?? null;
      const expected = person === winner ? (before ?? 0) + 777 : before;
      expect(after.find((row) => row.username === person.userName)?.balance).toBe(expected);
    }
    const entries = await t.database.db
      .selectFrom('ledger_entries')
      .select('participant_id')
      .where('amount', '=', 777)
      .where('kind', '=', 'ots')
      .execute();
    expect(entries).toEqual([{ participant_id: winner?.userId }]);
    await expectLedgerMatchesBalances(t.database.db);
  });
});
