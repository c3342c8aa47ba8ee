import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, ParticipantSearchReply, type StatementReply } from '@rewards/contract';
import { ConsoleParticipant, ConsoleStatementPage, consoleParticipantPaths } from '@rewards/contract/console-participants';
import { dialects } from '../../../test/databases.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { recordAudit } from '../audit/service.ts';
import { appendLedgerEntry } from '../ledger/store.ts';
import { startSession } from '../sessions/service.ts';
import { createConsoleTestApp, enrolStaff, type ConsoleTestApp, type EnrolledStaff } from '../staff/test-support.ts';

const OWN = 'acme';
const OTHER = OTHER_CLIENT_ID;

describe.each(dialects)('the console reads: search, participant page, statement on %s', (dialect) => {
  let t: ConsoleTestApp;
  let owner: EnrolledStaff;
  let agent: EnrolledStaff;
  let auditor: EnrolledStaff;
  const ids = {} as Record<'demo' | 'bigspender' | 'globexDemo' | 'spent', string>;

  const idOf = async (clientId: string, username: string) =>
    (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', clientId)
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    t = await createConsoleTestApp(dialect);
    owner = await enrolStaff(t, 'owner@rewards.test', { owner: true });
    agent = await enrolStaff(t, 'agent@acme.test', { roles: [{ clientId: OWN, role: 'support_agent' }] });
    auditor = await enrolStaff(t, 'auditor@acme.test', { roles: [{ clientId: OWN, role: 'auditor' }] });
    ids.demo = await idOf(OWN, 'demo');
    ids.spent = await idOf(OWN, 'spent');
    ids.bigspender = await idOf(OWN, 'bigspender');
    ids.globexDemo = await idOf(OTHER, 'demo');
  });
  afterAll(() => t.close());

  const get = (path: string, who: EnrolledStaff) => t.console('GET', path, { cookie: who.cookie });
  const search = (query: string, who: EnrolledStaff) => get(`${consoleParticipantPaths.search}?${query}`, who);

  describe('search', () => {
    it("finds across the caller's clients only: an owner every client, an agent their own", async () => {
      const found = async (who: EnrolledStaff) =>
        ParticipantSearchReply.parse((await search('q=demo%40', who)).json()).participants.map(
          (p) => `${p.clientId}:${p.username}:${p.matchedOn}`,
        );
      expect(await found(owner)).toEqual(expect.arrayContaining(['acme:demo:email']));
      expect((await found(owner)).some((p) => p.startsWith('globex:'))).toBe(true);
      expect((await found(agent)).every((p) => p.startsWith('acme:'))).toBe(true);
      expect(await found(agent)).toContain('acme:demo:email');
    });

    it('narrows to one client the caller may see; another is 403, whether it exists or not', async () => {
      expect((await search(`q=demo&clientId=${OWN}`, agent)).statusCode).toBe(200);
      expect((await search(`q=demo&clientId=${OTHER}`, agent)).statusCode).toBe(403);
      expect((await search('q=demo&clientId=nowhere', agent)).statusCode).toBe(403);
      const owners = ParticipantSearchReply.parse((await search(`q=demo&clientId=${OTHER}`, owner)).json());
      expect(owners.participants.map((p) => p.clientId)).toEqual(owners.participants.map(() => OTHER));
    });

    it('refuses too short, too long and malformed input with a clear 400, never a 500', async () => {
      const short = await search('q=d', agent);
      expect(short.statusCode).toBe(400);
      expect(short.json<{ message: string }>().message).toMatch(/at least 2 characters/);
      for (const query of [
        'q=',
        'q=%20%20',
        `q=${'x'.repeat(300)}`,
        'q=de&limit=0',
        'q=de&limit=101',
        'q=de&limit=abc',
        'q=de&after=%%%',
        'q=de&after=bm90LWpzb24',
        'q=%00%00',
        '',
      ]) {
        expect([query, (await search(query, agent)).statusCode]).toEqual([query, 400]);
      }
    });

    it('pages with the cursor it hands out', async () => {
      const first = ParticipantSearchReply.parse((await search(`q=de&limit=1&clientId=${OWN}`, owner)).json());
      if (first.next === null) return;
      const second = ParticipantSearchReply.parse((await search(`q=de&limit=1&clientId=${OWN}&after=${first.next}`, owner)).json());
      expect(second.participants[0]?.id).not.toBe(first.participants[0]?.id);
    });
  });

  describe("the participant's page", () => {
    const page = (who: EnrolledStaff, clientId = OWN, participantId = ids.demo) =>
      get(consoleParticipantPaths.participant(clientId, participantId), who);

    it('has every section, and what the role may do', async () => {
      const reply = await page(agent);
      expect(reply.statusCode).toBe(200);
      const body = ConsoleParticipant.parse(reply.json());
      expect(body.client).toMatchObject({ id: OWN, name: 'Acme Rewards' });
      expect(body.identity).toMatchObject({ id: ids.demo, username: 'demo', email: 'demo@example.com', accountNumber: '1000001' });
      expect(body.identity.programs.length).toBeGreaterThan(0);
      expect(body.balance).toBe(12_500);
      expect(body.role).toBe('support_agent');
      expect(Object.values(body.can).every(Boolean)).toBe(true);
      expect(body.signIns.limits.map((l) => l.name)).toContain('signIn');

      const asAuditor = ConsoleParticipant.parse((await page(auditor)).json());
      expect(asAuditor.role).toBe('auditor');
      expect(Object.values(asAuditor.can).some(Boolean)).toBe(false);
      const asOwner = ConsoleParticipant.parse((await page(owner)).json());
      expect(asOwner.role).toBeNull();
      expect(Object.values(asOwner.can).every(Boolean)).toBe(true);
    });

    it("never shows another client's participant under this client's path, nor an unknown one", async () => {
      expect((await page(owner, OWN, ids.globexDemo)).statusCode).toBe(404);
      expect((await page(owner, OTHER, ids.demo)).statusCode).toBe(404);
      expect((await page(owner, OWN, randomUUID())).statusCode).toBe(404);
      expect((await page(agent, OWN, 'x'.repeat(65))).statusCode).toBe(400);
      // The agent's role is in acme only: globex's own participant is 403 before anything is read.
      expect((await page(agent, OTHER, ids.globexDemo)).statusCode).toBe(403);
    });

    it('records the last sign-in, counts failed attempts, lists open sessions', async () => {
      const before = ConsoleParticipant.parse((await page(agent, OWN, ids.spent)).json());
      expect(before.signIns.lastSignInAt).toBeNull();
      expect(before.sessions).toEqual([]);
      // Launch-as opens a session in the participant's name: it is not their sign-in.
      await startSession(t.database.db, { idleMinutes: 30, maxHours: 0.5 }, OWN, ids.spent, true);
      const launched = ConsoleParticipant.parse((await page(agent, OWN, ids.spent)).json());
      expect(launched.signIns.lastSignInAt).toBeNull();
      expect(launched.sessions.map((s) => s.launchedAs)).toEqual([true]);
      expect((await t.api('POST', apiPaths.login, { body: { username: 'spent', password: 'wrong-password-1' } })).statusCode).toBe(401);
      await t.login('spent');
      const after = ConsoleParticipant.parse((await page(agent, OWN, ids.spent)).json());
      expect(after.signIns.lastSignInAt).not.toBeNull();
      expect(Date.now() - Date.parse(after.signIns.lastSignInAt!)).toBeLessThan(60_000);
      expect(after.sessions.map((s) => s.launchedAs)).toEqual([false, true]);
      // The right password forgave the short window's wrong guess; the daily twin keeps it.
      expect(after.signIns.limits.find((l) => l.name === 'signIn per day')).toMatchObject({ taken: 1, locked: false });
    });

    it('lists codes, orders, mails (never their bodies), contact messages and the audit entries about them', async () => {
      const db = t.database.db;
      const now = new Date().toISOString();
      await db
        .insertInto('ots_codes')
        .values({
          id: randomUUID(),
          client_id: OWN,
          code_hash: randomUUID(),
          code_hint: 'WXYZ',
          value: 300,
          expires_at: null,
          status: 'redeemed',
          redeemed_by: ids.demo,
          redeemed_at: now,
          batch: 'spring',
          created_at: now,
        })
        .execute();
      await db
        .insertInto('mail_outbox')
        .values({
          id: randomUUID(),
          client_id: OWN,
          participant_id: ids.demo,
          to_address: 'demo@example.com',
          locale: 'en-US',
          template: 'resetPassword',
          subject: 'Reset your password',
          text_body: 'SECRET-TEXT-BODY',
          html_body: '<p>SECRET-HTML-BODY</p>',
          status: 'sent',
          attempts: 1,
          next_attempt_at: now,
          claimed_until: null,
          last_error: null,
          delivery_note: 'smtp: 250 ok',
          sent_at: now,
          message_id: `<${randomUUID()}@test>`,
          created_at: now,
          params: '{"link":"SECRET-LINK"}',
        })
        .execute();
      await db
        .insertInto('contact_requests')
        .values({
          id: randomUUID(),
          client_id: OWN,
          participant_id: ids.demo,
          username: 'demo',
          account_number: '1000001',
          account_email: 'demo@example.com',
          topic: 'points',
          subject: 'Missing points',
          message: 'Where are they?',
          reply_email: null,
          phone: null,
          locale: 'en-US',
          admin_as_user: 0,
          status: 'new',
          created_at: now,
        })
        .execute();
      // Times a second apart: entries of one millisecond would order by their random ids.
      const at = (second: number) => new Date(Date.parse(now) + second * 1000);
      await recordAudit(
        db,
        {
          clientId: OWN,
          actor: 'ops@host',
          actorKind: 'operator',
          action: 'points.adjust',
          subject: 'demo',
          details: { reason: 'ticket 1', points: 5 },
        },
        at(1),
      );
      await recordAudit(
        db,
        { clientId: OWN, actor: 'agent@acme.test', actorKind: 'staff', action: 'launch-as.open', subject: ids.demo, details: {} },
        at(2),
      );
      await recordAudit(db, {
        clientId: OWN,
        actor: 'ops@host',
        actorKind: 'operator',
        action: 'points.adjust',
        subject: 'spent',
        details: { reason: 'someone else' },
      });
      await recordAudit(db, {
        clientId: OTHER,
        actor: 'ops@host',
        actorKind: 'operator',
        action: 'points.adjust',
        subject: 'demo',
        details: { reason: "globex's demo" },
      });

      const reply = await page(agent);
      expect(reply.body).not.toMatch(/SECRET/);
      const body = ConsoleParticipant.parse(reply.json());
      expect(body.codes).toContainEqual({ hint: 'WXYZ', value: 300, redeemedAt: now, batch: 'spring' });
      expect(body.mails).toContainEqual(
        expect.objectContaining({
          template: 'resetPassword',
          subject: 'Reset your password',
          to: 'demo@example.com',
          status: 'sent',
          sentAt: now,
          note: 'smtp: 250 ok',
        }),
      );
      expect(body.contactMessages).toContainEqual(expect.objectContaining({ topic: 'points', subject: 'Missing points', status: 'new' }));
      expect(body.audit.map((a) => `${a.action}:${a.subject}:${a.reason}`)).toEqual([
        'launch-as.open:' + ids.demo + ':null',
        'points.adjust:demo:ticket 1',
      ]);
    });
  });

  describe('the statement', () => {
    const statement = (query: string, participantId = ids.demo, who: EnrolledStaff = agent, clientId = OWN) =>
      get(`${consoleParticipantPaths.statement(clientId, participantId)}${query}`, who);

    async function wholeStatement(participantId: string, limit: number, between?: () => Promise<void>) {
      const entries: ConsoleStatementPage['entries'] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const reply = await statement(`?limit=${limit}${after ? `&after=${after}` : ''}`, participantId);
        expect(reply.statusCode).toBe(200);
        const body = ConsoleStatementPage.parse(reply.json());
        entries.push(...body.entries);
        after = body.next;
        pages += 1;
        if (pages === 1) await between?.();
      } while (after !== null && pages < 1_000);
      return { entries, pages };
    }

    it('pages newest first with the balance after each entry, right across pages, also when an entry is posted meanwhile', async () => {
      const balanceOf = async () =>
        Number(
          (await t.database.db.selectFrom('participants').select('balance').where('id', '=', ids.demo).executeTakeFirstOrThrow()).balance,
        );
      const { entries, pages } = await wholeStatement(ids.demo, 7, async () => {
        await t.database.db.transaction().execute((trx) =>
          appendLedgerEntry(trx, {
            clientId: OWN,
            participantId: ids.demo,
            occurredAt: new Date().toISOString(),
            description: 'Meanwhile',
            amount: 11,
            kind: 'adjustment',
          }),
        );
      });
      expect(pages).toBeGreaterThan(3);
      // Newest first; each running balance is the next (older) one plus this amount; the oldest's is its own amount.
      for (let i = 1; i < entries.length; i += 1) {
        expect(entries[i - 1]!.date >= entries[i]!.date).toBe(true);
        expect(entries[i - 1]!.runningBalance).toBe(entries[i]!.runningBalance + entries[i - 1]!.amount);
      }
      expect(entries.at(-1)!.runningBalance).toBe(entries.at(-1)!.amount);
      // The first page was read before the entry posted meanwhile: its balance, not today's.
      expect(entries[0]!.runningBalance).toBe((await balanceOf()) - 11);
      expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    });

    it('describes entries as the participant reads them, with the internal note and who posted it', async () => {
      const id = await t.database.db.transaction().execute((trx) =>
        appendLedgerEntry(trx, {
          clientId: OWN,
          participantId: ids.spent,
          occurredAt: new Date().toISOString(),
          description: 'Balance adjustment: goodwill',
          amount: 40,
          kind: 'adjustment',
        }),
      );
      await t.database.db
        .updateTable('ledger_entries')
        .set({ internal_note: 'ticket 42, late delivery', posted_by: 'agent@acme.test' })
        .where('id', '=', id)
        .execute();
      const body = ConsoleStatementPage.parse((await statement('?limit=200', ids.spent)).json());
      expect(body.entries[0]).toMatchObject({
        id,
        description: 'Balance adjustment: goodwill',
        amount: 40,
        kind: 'adjustment',
        internalNote: 'ticket 42, late delivery',
        postedBy: 'agent@acme.test',
      });
      const { sessionId } = await t.login('spent');
      const portal = (await t.api('GET', apiPaths.statement('spent', 'en-US'), { session: sessionId })).json<StatementReply>();
      const described = new Set(portal.accountHistoryList.map((e) => e.description));
      for (const entry of body.entries) expect(described.has(entry.description)).toBe(true);
      expect(JSON.stringify(portal)).not.toContain('ticket 42');
    });

    it("reads bigspender's first and a deep page in keyset order", async () => {
      const first = ConsoleStatementPage.parse((await statement('?limit=200', ids.bigspender)).json());
      const balance = Number(
        (await t.database.db.selectFrom('participants').select('balance').where('id', '=', ids.bigspender).executeTakeFirstOrThrow())
          .balance,
      );
      expect(first.entries).toHaveLength(200);
      expect(first.entries[0]!.runningBalance).toBe(balance);
      const second = ConsoleStatementPage.parse((await statement(`?limit=200&after=${first.next}`, ids.bigspender)).json());
      expect(second.entries[0]!.runningBalance).toBe(first.entries.at(-1)!.runningBalance - first.entries.at(-1)!.amount);
    });

    it('refuses bad paging with 400 and other clients with 404 or 403', async () => {
      for (const query of [
        '?limit=0',
        '?limit=201',
        '?limit=x',
        '?after=%%%',
        '?after=bm90LWpzb24',
        `?after=${Buffer.from('[1,2,3]').toString('base64url')}`,
      ]) {
        expect([query, (await statement(query)).statusCode]).toEqual([query, 400]);
      }
      expect((await statement('', ids.globexDemo, owner)).statusCode).toBe(404);
      expect((await statement('', randomUUID(), owner)).statusCode).toBe(404);
      expect((await statement('', ids.globexDemo, agent, OTHER)).statusCode).toBe(403);
    });
  });
});
