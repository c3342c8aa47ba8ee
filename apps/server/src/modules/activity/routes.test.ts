import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, ErrorCode, type StatementReply } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { OTHER_PASSWORD } from '../../../test/other-client.ts';
import { createTestApp, OTHER_ORIGIN, type TestApp } from '../../../test/test-app.ts';

const OFFSET_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describe.each(dialects)('the account statement on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const statement = async (session: string | undefined, username: string, locale = 'en-US') =>
    t.api('GET', apiPaths.statement(username, locale), { session });
  const balanceOf = async (username: string) =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('balance')
        .where('username', '=', username)
        .where('client_id', '=', 'acme')
        .executeTakeFirstOrThrow()
    ).balance;

  it('gives Dana her own history, oldest first, dated with an offset, summing to her balance', async () => {
    const { sessionId } = await t.login('demo');
    const reply = await statement(sessionId, 'demo');
    expect(reply.statusCode).toBe(200);
    const body = reply.json<StatementReply>();
    expect(body.accountNumber).toBe('1000001');
    expect(body.accountHistoryList.length).toBeGreaterThanOrEqual(40);
    for (const entry of body.accountHistoryList) {
      expect(Object.keys(entry).sort()).toEqual(['amountOrAward', 'date', 'description']);
      expect(entry.date).toMatch(OFFSET_DATE);
    }
    const dates = body.accountHistoryList.map((e) => Date.parse(e.date));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(body.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(12_500);
    expect(body.accountHistoryList.map((e) => e.description)).toContain('Sales Incentive 2026: monthly target met');
    expect(body.accountHistoryList.map((e) => e.description)).toContain('Catalog redemption: wireless headphones');
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('translates the descriptions into French and Arabic, item names included', async () => {
    const { sessionId } = await t.login('demo');
    const fr = (await statement(sessionId, 'demo', 'fr-FR')).json<StatementReply>().accountHistoryList.map((e) => e.description);
    expect(fr).toContain('Sales Incentive 2026 : objectif mensuel atteint');
    expect(fr).toContain('Échange catalogue : casque sans fil');
    expect(fr).toContain('Bienvenue en 2026 : prime de début d’année');
    const ar = (await statement(sessionId, 'demo', 'ar')).json<StatementReply>().accountHistoryList.map((e) => e.description);
    expect(ar).toContain('Sales Incentive 2026: تحقيق الهدف الشهري');
    expect(ar).toContain('استبدال من الكتالوج: سماعات لاسلكية');
  });

  it("fills number values in the locale's own format (Sam's five years of service)", async () => {
    const { sessionId } = await t.login('spent');
    const ar = (await statement(sessionId, 'spent', 'ar')).json<StatementReply>();
    expect(ar.accountHistoryList.map((e) => e.description)).toContain(
      `Service Awards: ${new Intl.NumberFormat('ar').format(5)} سنوات من الخدمة`,
    );
    expect(ar.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(0);
  });

  it("shows the operator's words for an entry without a key, and for a key no bundle knows", async () => {
    const { sessionId } = await t.login('merch');
    const merch = await t.database.db.selectFrom('participants').select('id').where('username', '=', 'merch').executeTakeFirstOrThrow();
    await t.database.db.transaction().execute(async (trx) => {
      const { appendLedgerEntry } = await import('../ledger/store.ts');
      await appendLedgerEntry(trx, {
        clientId: 'acme',
        participantId: merch.id,
        occurredAt: '2026-01-05T10:00:00.000Z',
        description: 'Goodwill gesture',
        amount: 5,
        kind: 'adjustment',
      });
      await appendLedgerEntry(trx, {
        clientId: 'acme',
        participantId: merch.id,
        occurredAt: '2026-01-06T10:00:00.000Z',
        description: 'Imported bonus',
        descriptionKey: 'ledger.unknown.key',
        amount: 7,
        kind: 'award',
      });
    });
    const body = (await statement(sessionId, 'merch', 'ar')).json<StatementReply>();
    const descriptions = body.accountHistoryList.map((e) => e.description);
    expect(descriptions).toEqual(expect.arrayContaining(['Goodwill gesture', 'Imported bonus', 'مكافأة فورية: إشادة من عميل']));
    expect(body.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(await balanceOf('merch'));
    await expectLedgerMatchesBalances(t.database.db);
  });

  it("falls back to the participant's language for a locale the client does not offer", async () => {
    const { sessionId } = await t.login('merch');
    const reply = await statement(sessionId, 'merch', 'de-DE');
    expect(reply.statusCode).toBe(200);
    expect(reply.json<StatementReply>().accountHistoryList.map((e) => e.description)).toContain('مكافأة فورية: إشادة من عميل');
  });

  it("refuses another participant's statement, whoever is asked for", async () => {
    const { sessionId } = await t.login('demo');
    for (const other of ['spent', 'bigspender', 'nobody-at-all']) {
      const reply = await statement(sessionId, other);
      expect(reply.statusCode).toBe(403);
      expect(reply.json()).toEqual({
        errorCode: ErrorCode.statementNotOwn,
        responseMessage: 'activity.error.notOwn',
        message: expect.any(String),
      });
    }
  });

  it('compares usernames as sign-in does: another case of your own name is still you', async () => {
    const { sessionId } = await t.login('demo');
    const reply = await statement(sessionId, 'DeMo');
    expect(reply.statusCode).toBe(200);
    expect(reply.json<StatementReply>().accountNumber).toBe('1000001');
  });

  it('lets an administrator acting as the participant read it (it changes nothing)', async () => {
    const { sessionId } = await t.login('spent');
    await t.database.db.updateTable('sessions').set({ admin_as_user: 1 }).execute();
    const reply = await statement(sessionId, 'spent');
    expect(reply.statusCode).toBe(200);
    await t.database.db.updateTable('sessions').set({ admin_as_user: 0 }).execute();
  });

  it('answers 401 without a session, with a bad one, or with a session of another client', async () => {
    for (const session of [undefined, 'not-a-session', 'A'.repeat(43)]) {
      const reply = await statement(session, 'demo');
      expect(reply.statusCode).toBe(401);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.sessionRequired });
    }
    const globex = await t.login('demo', OTHER_PASSWORD, OTHER_ORIGIN);
    expect((await statement(globex.sessionId, 'demo')).statusCode).toBe(401);
    // Globex's own demo sees only Globex's ledger, never Acme's.
    const own = await t.api('GET', apiPaths.statement('demo', 'fr-FR'), { session: globex.sessionId, origin: OTHER_ORIGIN });
    expect(own.json<StatementReply>()).toEqual({
      accountNumber: '9000001',
      accountHistoryList: [{ date: expect.stringMatching(OFFSET_DATE), description: 'Bonus de bienvenue', amountOrAward: 77 }],
    });
  });

  it('refuses a missing username, an oversized one and a malformed locale as bad input', async () => {
    const { sessionId } = await t.login('demo');
    for (const query of [
      '?locale=en-US',
      '?username=&locale=en-US',
      `?username=${'d'.repeat(101)}&locale=en-US`,
      '?username=demo',
      '?username=demo&locale=../etc',
      '?username=demo&locale=<script>',
    ]) {
      const reply = await t.api('GET', `/user/account/statement${query}`, { session: sessionId });
      expect([query, reply.statusCode]).toEqual([query, 400]);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation, responseMessage: 'error.validation' });
    }
  });

  it('gives Nina, who never earned anything, an empty list', async () => {
    const { sessionId } = await t.login('newbie');
    expect((await statement(sessionId, 'newbie')).json<StatementReply>()).toEqual({ accountNumber: '1000003', accountHistoryList: [] });
  });

  it('gives Bea all 10,000 entries, summing to her balance', async () => {
    const { sessionId } = await t.login('bigspender');
    const reply = await statement(sessionId, 'bigspender', 'fr-FR');
    expect(reply.statusCode).toBe(200);
    const body = reply.json<StatementReply>();
    expect(body.accountNumber).toBe('1000007');
    expect(body.accountHistoryList).toHaveLength(10_000);
    expect(body.accountHistoryList.reduce((sum, e) => sum + e.amountOrAward, 0)).toBe(await balanceOf('bigspender'));
    expect(body.accountHistoryList.every((e) => !e.description.startsWith('ledger.'))).toBe(true);
    await expectLedgerMatchesBalances(t.database.db);
  });
});
