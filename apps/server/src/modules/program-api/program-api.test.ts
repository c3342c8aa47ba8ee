import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  programApiPaths as paths,
  type ProgramImportJob,
  type ProgramParticipant,
  type ProgramParticipantReply,
  type ProgramParticipantsPage,
  type ProgramPointsReply,
  type ProgramReversalReply,
  type ProgramStatementPage,
  type ProgramStatusReply,
} from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { DEMO_CLIENT_ID } from '../../db/seed/demo.ts';
import { addEndpointRow } from '../webhooks/test-support.ts';
import { makeKey, participantBody, programCall, revokeKey, tag } from './test-support.ts';

/**
 * The program API (issue 29 §2, docs/decisions/085) on both engines: participants upserted by the
 * import's rules, points posted once per externalId (100 parallel copies make one entry), the
 * statement, reversals, what a key of another client reaches (nothing: 404), scopes and revoked
 * keys, the webhook events told in the change's transaction, and no caller's input making a 500.
 */
describe.each(dialects)('the program API on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  const call = (method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, as = key) =>
    programCall(t.app, method, path, { key: as, ...(body === undefined ? {} : { body }) });

  /** A new participant of acme, and their username. */
  async function newParticipant(overrides: Parameters<typeof participantBody>[0] = {}, as = key): Promise<string> {
    const username = `api.${tag()}`;
    const reply = await call('PUT', paths.participant(username), participantBody(overrides), as);
    expect(reply.statusCode, reply.body).toBe(201);
    return username;
  }

  async function post(username: string, points: number, externalId = `ext-${tag()}`, extra: Record<string, unknown> = {}) {
    return call('POST', paths.points, { username, points, description: 'Purchase at store 12', externalId, ...extra });
  }

  const ledgerCount = async (reference: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('client_id', '=', DEMO_CLIENT_ID)
          .where('reference', '=', reference)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const eventsAbout = async (username: string) =>
    (
      await t.database.db
        .selectFrom('webhook_events')
        .select(['kind', 'payload'])
        .where('client_id', '=', DEMO_CLIENT_ID)
        .where('username', '=', username)
        .orderBy('id')
        .execute()
    ).map((row) => ({ kind: row.kind, payload: JSON.parse(row.payload) as { type: string; data: Record<string, unknown> } }));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    key = (await makeKey(t.database.db, DEMO_CLIENT_ID)).key;
    otherKey = (await makeKey(t.database.db, OTHER_CLIENT_ID)).key;
    // An endpoint of acme that takes every kind: events are written to the outbox (nobody delivers them here).
    await addEndpointRow(t.database.db, DEMO_CLIENT_ID);
  });
  afterAll(async () => {
    await expectLedgerMatchesBalances(t.database.db);
    await t.close();
  });

  describe('participants', () => {
    it('creates (201), reads, answers unchanged (200), updates (200) naming the changed fields, and tells the webhooks', async () => {
      const username = `api.${tag()}`;
      const body = participantBody({ dateOfBirth: '1990-04-01', locale: 'fr-fr' });
      const created = await call('PUT', paths.participant(username), body);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.headers['cache-control']).toBe('no-store');
      const reply = created.json<ProgramParticipantReply>();
      expect(reply.result).toBe('created');
      expect(reply.participant).toMatchObject({
        username,
        firstName: 'Pat',
        email: body.email,
        accountNumber: body.accountNumber,
        // Spelled as the client spells it, as an import does.
        locale: 'fr-FR',
        dateOfBirth: '1990-04-01',
        status: 'pending',
        offerings: { merchandise: true, experiences: false, ots: true },
        programs: ['Sales Incentive 2026'],
        balance: 0,
      });

      const read = await call('GET', paths.participant(username.toUpperCase()));
      expect(read.statusCode).toBe(200);
      expect(read.json<ProgramParticipant>()).toEqual(reply.participant);

      const again = await call('PUT', paths.participant(username), body);
      expect(again.statusCode).toBe(200);
      expect(again.json<ProgramParticipantReply>()).toMatchObject({ result: 'unchanged', changed: [] });

      // Left out: kept (the locale, the date of birth, the status).
      const { locale: _locale, dateOfBirth: _born, ...withoutOptional } = body;
      const updated = await call('PUT', paths.participant(username), { ...withoutOptional, firstName: 'Patricia', programs: [] });
      expect(updated.statusCode).toBe(200);
      const change = updated.json<ProgramParticipantReply>();
      expect(change).toMatchObject({ result: 'updated', changed: ['firstName', 'programs'] });
      expect(change.participant).toMatchObject({ firstName: 'Patricia', locale: 'fr-FR', dateOfBirth: '1990-04-01', programs: [] });
      expect(change.participant.updatedAt >= reply.participant.updatedAt).toBe(true);

      const events = await eventsAbout(username);
      expect(events.map((e) => e.kind)).toEqual(['participant.created', 'participant.updated']);
      expect(events[1]?.payload).toMatchObject({
        type: 'participant.updated',
        data: { client: DEMO_CLIENT_ID, username, changed: ['firstName', 'programs'], participant: { firstName: 'Patricia' } },
      });
      const audit = await t.database.db
        .selectFrom('audit_log')
        .select(['action', 'actor_kind'])
        .where('client_id', '=', DEMO_CLIENT_ID)
        .where('details', 'like', `%${username}%`)
        .orderBy('at')
        .orderBy('action')
        .execute();
      expect(audit.map((a) => [a.action, a.actor_kind])).toEqual([
        ['participants.create', 'api-key'],
        ['participants.update', 'api-key'],
      ]);
    });

    it("refuses what the import refuses, with the import's reason, and writes nothing", async () => {
      const username = `api.${tag()}`;
      const taken = participantBody();
      await call('PUT', paths.participant(`api.${tag()}`), taken);
      const cases: Array<[string, unknown, RegExp]> = [
        [username, participantBody({ email: 'not an address' }), /email "not an address" is not an email address/],
        [username, participantBody({ locale: 'de-DE' }), /locale "de-DE" is not one of the client's/],
        [username, participantBody({ firstName: ' ' }), /first_name is empty/],
        [username, participantBody({ firstName: 'x'.repeat(101) }), /first_name is longer than 100 characters/],
        [username, participantBody({ dateOfBirth: '2990-01-01' }), /date_of_birth "2990-01-01" is in the future/],
        [username, participantBody({ accountNumber: taken.accountNumber }), /account number .* belongs to another participant/],
        ['no spaces allowed', participantBody(), /must be 3 to 100 characters without spaces/],
        ['ab', participantBody(), /must be 3 to 100 characters without spaces/],
      ];
      for (const [name, body, reason] of cases) {
        const reply = await call('PUT', paths.participant(name), body);
        expect(reply.statusCode, `${name}: ${reply.body}`).toBe(400);
        expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation, responseMessage: 'error.validation' });
        expect(reply.json<{ message: string }>().message).toMatch(reason);
      }
      expect((await call('GET', paths.participant(username))).statusCode).toBe(404);
      expect((await call('GET', paths.participant('no spaces allowed'))).statusCode).toBe(404);
    });

    it('sets a participant active or inactive with a reason, never back to pending, and tells the webhooks', async () => {
      const username = await newParticipant();
      const active = await call('POST', paths.status(username), { status: 'active', reason: 'Welcome pack sent' });
      expect(active.statusCode, active.body).toBe(200);
      expect(active.json<ProgramStatusReply>()).toEqual({ username, from: 'pending', to: 'active', changed: true, sessionsEnded: 0 });
      const same = await call('POST', paths.status(username), { status: 'active', reason: 'Welcome pack sent' });
      expect(same.json<ProgramStatusReply>()).toMatchObject({ changed: false });
      const inactive = await call('POST', paths.status(username), { status: 'inactive', reason: 'Left the company' });
      expect(inactive.json<ProgramStatusReply>()).toMatchObject({ from: 'active', to: 'inactive', changed: true });
      for (const body of [{ status: 'pending', reason: 'Start again' }, { status: 'active' }, { status: 'active', reason: 'x' }]) {
        const refused = await call('POST', paths.status(username), body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      }
      // An import's "pending" leaves an activated participant as they are, so does the PUT.
      const put = await call('PUT', paths.participant(username), participantBody({ status: 'pending' }));
      expect(put.json<ProgramParticipantReply>().participant.status).toBe('inactive');
      const kinds = (await eventsAbout(username)).filter((e) => e.kind === 'participant.status_changed');
      expect(kinds.map((e) => [e.payload.data.from, e.payload.data.to])).toEqual([
        ['pending', 'active'],
        ['active', 'inactive'],
      ]);
    });

    it('lists participants changed since a time, a page at a time, in the order of their change', async () => {
      const since = new Date().toISOString();
      const names: string[] = [];
      for (let i = 0; i < 5; i += 1) names.push(await newParticipant());
      // The first one changes last: it moves to the end.
      await call('PUT', paths.participant(names[0]!), participantBody({ firstName: 'Changed' }));
      const seen: string[] = [];
      let cursor: string | null = '';
      for (let pages = 0; cursor !== null; pages += 1) {
        expect(pages).toBeLessThan(10);
        const query: string = `?updatedSince=${encodeURIComponent(since)}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const reply = await call('GET', `${paths.participants}${query}`);
        expect(reply.statusCode, reply.body).toBe(200);
        const page = reply.json<ProgramParticipantsPage>();
        expect(page.participants.length).toBeLessThanOrEqual(2);
        seen.push(...page.participants.map((p) => p.username));
        cursor = page.next;
      }
      // Other tests of this file may add their own meanwhile; these five come in the order they last changed.
      expect(seen.filter((name) => names.includes(name))).toEqual([...names.slice(1), names[0]]);
      const all = (await call('GET', `${paths.participants}?limit=500`)).json<ProgramParticipantsPage>();
      expect(all.participants.map((p) => p.username)).toEqual(expect.arrayContaining(['demo', ...names]));
      expect(all.participants.every((p) => typeof p.balance === 'number')).toBe(true);
      for (const bad of [
        '?updatedSince=yesterday',
        '?updatedSince=2026-02-31',
        '?cursor=!!',
        '?cursor=WyJ4Il0',
        '?limit=0',
        '?limit=501',
        '?other=1',
      ]) {
        const reply = await call('GET', `${paths.participants}${bad}`);
        expect(reply.statusCode, bad).toBe(400);
        expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation });
      }
    });
  });

  describe('points', () => {
    it('credits and debits, answers a repeat the same reply, refuses another body under the externalId and a debit below zero', async () => {
      const username = await newParticipant();
      const externalId = `order-${tag()}`;
      const first = await post(username, 250, externalId, { occurredAt: '2026-11-01T09:30:00+01:00', note: 'CRM order 17' });
      expect(first.statusCode, first.body).toBe(201);
      const reply = first.json<ProgramPointsReply>();
      expect(reply).toMatchObject({ externalId, username, points: 250, balanceAfter: 250, occurredAt: '2026-11-01T08:30:00.000Z' });
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      // The same posting with its keys in another order and the username in another case.
      const repeat = await call('POST', paths.points, {
        note: 'CRM order 17',
        occurredAt: '2026-11-01T08:30:00Z',
        externalId,
        description: 'Purchase at store 12',
        points: 250,
        username: username.toUpperCase(),
      });
      expect(repeat.statusCode).toBe(201);
      expect(repeat.body).toBe(first.body);
      expect(repeat.headers['idempotent-replayed']).toBe('true');

      const other = await post(username, 251, externalId);
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({ errorCode: ErrorCode.programExternalIdReused });

      const tooMuch = await post(username, -251, `spend-${tag()}`);
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json()).toMatchObject({ errorCode: ErrorCode.programInsufficientBalance });
      // Refused, it kept nothing: the same externalId posts once the balance covers it.
      const spendId = `spend-${tag()}`;
      expect((await post(username, -300, spendId)).statusCode).toBe(409);
      expect((await post(username, 100, `top-up-${tag()}`)).statusCode).toBe(201);
      const spent = await post(username, -300, spendId);
      expect(spent.statusCode, spent.body).toBe(201);
      expect(spent.json<ProgramPointsReply>()).toMatchObject({ points: -300, balanceAfter: 50 });
      expect(await ledgerCount(`api:${spendId}`)).toBe(1);

      const events = (await eventsAbout(username)).filter((e) => e.kind.startsWith('points.'));
      expect(events.map((e) => e.kind)).toEqual(['points.credited', 'points.credited', 'points.debited']);
      expect(events[0]?.payload.data).toMatchObject({
        client: DEMO_CLIENT_ID,
        username,
        points: 250,
        balanceAfter: 250,
        entryId: reply.entryId,
        externalId,
        occurredAt: '2026-11-01T08:30:00.000Z',
      });
    });

    it('shows the statement newest first with the balance after each entry, the externalIds and the descriptions as the participant reads them', async () => {
      const username = await newParticipant();
      const a = `a-${tag()}`;
      const b = `b-${tag()}`;
      const c = `c-${tag()}`;
      await post(username, 40, a, { occurredAt: '2026-10-01' });
      await call('POST', paths.points, {
        username,
        points: 60,
        externalId: b,
        occurredAt: '2026-10-02',
        description: { key: 'ledger.operator.adjustmentNote', params: { description: 'bonus' }, text: 'Bonus' },
      });
      await call('POST', paths.points, {
        username,
        points: 5,
        externalId: c,
        occurredAt: '2026-10-03',
        description: { key: 'ledger.crm.unknownKey', text: 'Shown without a bundle key' },
      });
      const page1 = await call('GET', `${paths.statement(username)}?limit=2`);
      expect(page1.statusCode, page1.body).toBe(200);
      const first = page1.json<ProgramStatementPage>();
      expect(first).toMatchObject({ username, balance: 105 });
      expect(first.entries.map((e) => [e.externalId, e.points, e.balanceAfter, e.description])).toEqual([
        [c, 5, 105, 'Shown without a bundle key'],
        [b, 60, 100, 'Balance adjustment: bonus'],
      ]);
      expect(first.next).not.toBeNull();
      const second = (await call('GET', `${paths.statement(username)}?limit=2&cursor=${first.next}`)).json<ProgramStatementPage>();
      expect(second.entries.map((e) => [e.externalId, e.balanceAfter, e.description, e.postedBy?.startsWith('api-key:')])).toEqual([
        [a, 40, 'Purchase at store 12', true],
      ]);
      expect(second.next).toBeNull();
      expect((await call('GET', `${paths.statement(username)}?cursor=bm90IGEgY3Vyc29y`)).statusCode).toBe(400);
    });

    it('posts once under 100 parallel copies of one externalId: one entry, the same 201 to all', async () => {
      const username = await newParticipant();
      const externalId = `burst-${tag()}`;
      const body = { username, points: 7, description: 'Parallel', externalId };
      const replies = await Promise.all(Array.from({ length: 100 }, () => call('POST', paths.points, body)));
      expect(replies.map((r) => r.statusCode)).toEqual(Array.from({ length: 100 }, () => 201));
      expect(new Set(replies.map((r) => r.body)).size).toBe(1);
      expect(replies.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      expect(await ledgerCount(`api:${externalId}`)).toBe(1);
      expect((await call('GET', paths.participant(username))).json<ProgramParticipant>().balance).toBe(7);
      await expectLedgerMatchesBalances(t.database.db);
    });

    it('of 100 parallel requests with two bodies under one externalId, one body posts once and the other gets a clean 409', async () => {
      const username = await newParticipant();
      const externalId = `race-${tag()}`;
      const replies = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          call('POST', paths.points, { username, points: i % 2 === 0 ? 3 : 4, description: 'Race', externalId }),
        ),
      );
      const won = replies.find((r) => r.statusCode === 201)!.json<ProgramPointsReply>().points;
      for (const [i, reply] of replies.entries()) {
        const mine = i % 2 === 0 ? 3 : 4;
        expect(reply.statusCode, reply.body).toBe(mine === won ? 201 : 409);
        if (reply.statusCode === 409) expect(reply.json()).toMatchObject({ errorCode: ErrorCode.programExternalIdReused });
      }
      expect(await ledgerCount(`api:${externalId}`)).toBe(1);
      expect((await call('GET', paths.participant(username))).json<ProgramParticipant>().balance).toBe(won);
    });

    it('of 100 parallel debits of one participant, none takes the balance below zero', async () => {
      const username = await newParticipant();
      await post(username, 30);
      const replies = await Promise.all(Array.from({ length: 100 }, () => post(username, -1)));
      expect(replies.filter((r) => r.statusCode === 201)).toHaveLength(30);
      expect(replies.filter((r) => r.statusCode === 409)).toHaveLength(70);
      expect((await call('GET', paths.participant(username))).json<ProgramParticipant>().balance).toBe(0);
      await expectLedgerMatchesBalances(t.database.db);
    });
  });

  describe('reversals', () => {
    it('reverses a credit whole, once; a second reversal is 409', async () => {
      const username = await newParticipant();
      const externalId = `rev-${tag()}`;
      const credit = (await post(username, 120, externalId)).json<ProgramPointsReply>();
      const reversed = await call('POST', paths.reversal(externalId), { reason: 'Order returned' });
      expect(reversed.statusCode, reversed.body).toBe(201);
      expect(reversed.json<ProgramReversalReply>()).toMatchObject({
        externalId,
        reversedEntryId: credit.entryId,
        username,
        points: -120,
        balanceAfter: 0,
      });
      const again = await call('POST', paths.reversal(externalId), { reason: 'Order returned' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ errorCode: ErrorCode.programAlreadyReversed });
      const statement = (await call('GET', paths.statement(username))).json<ProgramStatementPage>();
      expect(statement.entries.map((e) => [e.externalId, e.reversal, e.points, e.description, e.note])).toEqual([
        [externalId, true, -120, 'Reversal: Purchase at store 12', 'Order returned'],
        [externalId, false, 120, 'Purchase at store 12', null],
      ]);
      const reversal = (await eventsAbout(username)).find((e) => e.kind === 'points.reversed');
      expect(reversal?.payload.data).toMatchObject({ externalId, points: -120, balanceAfter: 0, reversedEntryId: credit.entryId });
    });

    it('reverses part of a debit as a credit; more than the posting had is 400; a credit already spent is 409', async () => {
      const username = await newParticipant();
      await post(username, 100);
      const debit = `debit-${tag()}`;
      await post(username, -80, debit);
      const tooMuch = await call('POST', paths.reversal(debit), { points: 81, reason: 'Refund' });
      expect(tooMuch.statusCode).toBe(400);
      expect(tooMuch.json()).toMatchObject({ errorCode: ErrorCode.programReversalTooLarge });
      const part = await call('POST', paths.reversal(debit), {
        points: 30,
        reason: 'Partial refund',
        description: { key: 'ledger.crm.refund', text: 'Partial refund' },
      });
      expect(part.statusCode, part.body).toBe(201);
      expect(part.json<ProgramReversalReply>()).toMatchObject({ points: 30, balanceAfter: 50 });
      expect((await call('POST', paths.reversal(debit), { points: 10, reason: 'Refund' })).statusCode).toBe(409);

      const credit = `credit-${tag()}`;
      await post(username, 20, credit);
      await post(username, -60);
      const spent = await call('POST', paths.reversal(credit), { reason: 'Returned' });
      expect(spent.statusCode).toBe(409);
      expect(spent.json()).toMatchObject({ errorCode: ErrorCode.programInsufficientBalance });
      // Refused, the posting stays open: once the balance covers it, it reverses.
      await post(username, 20);
      expect((await call('POST', paths.reversal(credit), { reason: 'Returned' })).statusCode).toBe(201);
      expect((await call('POST', paths.reversal(`nothing-${tag()}`), { reason: 'Returned' })).statusCode).toBe(404);
    });

    it('of 100 parallel reversals of one posting, one reverses and the rest are 409', async () => {
      const username = await newParticipant();
      const externalId = `rev-burst-${tag()}`;
      await post(username, 50, externalId);
      const replies = await Promise.all(
        Array.from({ length: 100 }, () => call('POST', paths.reversal(externalId), { reason: 'Returned' })),
      );
      expect(replies.filter((r) => r.statusCode === 201)).toHaveLength(1);
      expect(replies.filter((r) => r.statusCode === 409)).toHaveLength(99);
      expect(await ledgerCount(`api-reversal:${externalId}`)).toBe(1);
      expect((await call('GET', paths.participant(username))).json<ProgramParticipant>().balance).toBe(0);
    });
  });

  describe('bulk: imports and code batches, as the console makes them', () => {
    const upload = (kind: string, csv: string, as = key) =>
      programCall(t.app, 'POST', `${paths.imports}?kind=${kind}&fileName=api.csv`, {
        key: as,
        rawBody: csv,
        headers: { 'content-type': 'text/csv' },
      });
    /** The job once its status is one of `statuses`: polled, within a deadline (the preview and the run are the jobs loop's). */
    async function jobWhen(id: string, statuses: string[]): Promise<ProgramImportJob> {
      for (const deadline = Date.now() + 60_000; ;) {
        const job = (await call('GET', paths.importJob(id))).json<ProgramImportJob>();
        if (statuses.includes(job.status)) return job;
        if (Date.now() > deadline) throw new Error(`import ${id} is still ${job.status}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    it('uploads a participants file, previews it, confirms it and runs it; then a points file', async () => {
      const names = [`imp.${tag()}`, `imp.${tag()}`];
      const participants = [
        'username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status',
        ...names.map((name) => `${name},Ima,Port,${name}@example.com,,IMP-${tag()},true,false,false,,`),
        'bad name,Ima,Port,x@example.com,,IMP-x,true,false,false,,',
      ].join('\n');
      const staged = await upload('participants', `${participants}\n`);
      expect(staged.statusCode, staged.body).toBe(201);
      expect(staged.headers['cache-control']).toBe('no-store');
      const job = staged.json<ProgramImportJob>();
      expect(job).toMatchObject({ kind: 'participants', fileName: 'api.csv', clientId: DEMO_CLIENT_ID });
      const previewed = await jobWhen(job.id, ['staged']);
      expect(previewed.preview).toMatchObject({ added: 2, rejected: 1 });
      const confirmed = await call('POST', paths.confirmImport(job.id), { reason: 'Quarterly HR feed' });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      await jobWhen(job.id, ['done']);
      for (const name of names) expect((await call('GET', paths.participant(name))).json<ProgramParticipant>().status).toBe('pending');
      expect((await call('POST', paths.confirmImport(job.id), { reason: 'Again' })).statusCode).toBe(409);

      const externalId = `imp-${tag()}`;
      const points = await upload(
        'points',
        `username,points,date,description,external_id\n${names[0]},75,2026-11-01,Quarterly bonus,${externalId}\n`,
      );
      expect(points.statusCode, points.body).toBe(201);
      const pointsJob = points.json<ProgramImportJob>();
      await jobWhen(pointsJob.id, ['staged']);
      expect((await call('POST', paths.confirmImport(pointsJob.id), { reason: 'Quarterly bonus' })).statusCode).toBe(200);
      await jobWhen(pointsJob.id, ['done']);
      expect((await call('GET', paths.participant(names[0]!))).json<ProgramParticipant>().balance).toBe(75);
      await expectLedgerMatchesBalances(t.database.db);
    });

    it("needs the write scope of the import's kind; another client's key finds none of this client's imports", async () => {
      const pointsOnly = await makeKey(t.database.db, DEMO_CLIENT_ID, ['points:write']);
      const csv = `username,first_name,last_name,email,locale,account_number,merchandise,experiences,ots,programs,status\nimp.${tag()},A,B,a.${tag()}@example.com,,IMP-${tag()},true,false,false,,\n`;
      expect((await upload('participants', csv, pointsOnly.key)).statusCode).toBe(403);
      // An events file earns as POST events does: it takes events:write, not points:write (decision 099).
      const events = `id,type,username,occurredAt\nimp-${tag()},purchase,demo,2026-06-01T10:00:00Z\n`;
      expect((await upload('events', events, pointsOnly.key)).statusCode).toBe(403);
      const staged = await upload('participants', csv);
      const id = staged.json<ProgramImportJob>().id;
      await jobWhen(id, ['staged']);
      expect((await programCall(t.app, 'GET', paths.importJob(id), { key: pointsOnly.key })).statusCode).toBe(403);
      expect((await call('GET', paths.importJob(id), undefined, otherKey)).statusCode).toBe(404);
      expect((await call('POST', paths.confirmImport(id), { reason: 'Not yours' }, otherKey)).statusCode).toBe(404);
      expect((await call('GET', paths.importJob(id))).json<ProgramImportJob>().status).toBe('staged');
      for (const [query, body] of [
        ['?kind=other', csv],
        ['', csv],
        ['?kind=points', 'not,a,points,header\n'],
        ['?kind=points', ''],
        ['?kind=points&fileName=', csv],
      ] as const) {
        const reply = await programCall(t.app, 'POST', `${paths.imports}${query}`, {
          key,
          rawBody: body,
          headers: { 'content-type': 'text/csv' },
        });
        expect(reply.statusCode, `${query}: ${reply.body}`).toBe(400);
      }
      expect((await call('POST', `${paths.imports}?kind=points`, { username: 'x' })).statusCode).toBe(400);
      for (const bad of ['not-a-job', '%00', '00000000-0000-0000-0000-000000000000'])
        expect([400, 404]).toContain((await call('GET', `/imports/${bad}`)).statusCode);
    });

    it('makes a batch of codes answered as CSV once; the same name again is 409', async () => {
      const name = `crm-${tag()}`;
      const made = await call('POST', paths.codeBatches, { name, count: 3, value: 25, expires: '2027-12-31', reason: 'Store opening' });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.headers['content-type']).toMatch(/^text\/csv/);
      const lines = made.body.trim().split(/\r?\n/);
      expect(lines[0]).toBe('code,value,expires_at,batch');
      expect(lines.slice(1)).toHaveLength(3);
      for (const line of lines.slice(1))
        expect(line).toMatch(new RegExp(`^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4},25,.+,${name}$`));
      const again = await call('POST', paths.codeBatches, { name, count: 3, value: 25, reason: 'Store opening' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ errorCode: ErrorCode.codesBatchNameTaken });
      for (const body of [
        { name: `x-${tag()}`, count: 0, value: 5, reason: 'Zero' },
        { name: `x-${tag()}`, count: 1, value: 5 },
        { name: `x-${tag()}`, count: 100_001, value: 5, reason: 'Too many' },
      ])
        expect((await call('POST', paths.codeBatches, body)).statusCode, JSON.stringify(body)).toBe(400);
    });
  });

  describe('who reaches what', () => {
    it("a key of another client reaches none of this client's participants or postings on any route (404)", async () => {
      const username = await newParticipant();
      const externalId = `mine-${tag()}`;
      await post(username, 10, externalId);
      const as = otherKey;
      expect((await call('GET', paths.participant(username), undefined, as)).statusCode).toBe(404);
      expect((await call('GET', paths.statement(username), undefined, as)).statusCode).toBe(404);
      expect((await call('POST', paths.status(username), { status: 'inactive', reason: 'Not yours' }, as)).statusCode).toBe(404);
      expect((await call('POST', paths.points, { username, points: 5, description: 'x', externalId: `o-${tag()}` }, as)).statusCode).toBe(
        404,
      );
      expect((await call('POST', paths.reversal(externalId), { reason: 'Not yours' }, as)).statusCode).toBe(404);
      const list = (await call('GET', `${paths.participants}?limit=500`, undefined, as)).json<ProgramParticipantsPage>();
      expect(list.participants.map((p) => p.username)).toEqual(['demo']);
      // The same externalId is the other client's own: it posts there, and touches nothing here.
      const theirs = await call('POST', paths.points, { username: 'demo', points: 1, description: 'Theirs', externalId }, as);
      expect(theirs.statusCode, theirs.body).toBe(201);
      // A PUT of this username makes the other client's own participant; this one is untouched.
      const put = await call('PUT', paths.participant(username), participantBody({ firstName: 'Other' }), as);
      expect(put.statusCode).toBe(201);
      const mine = (await call('GET', paths.participant(username))).json<ProgramParticipant>();
      expect(mine).toMatchObject({ firstName: 'Pat', balance: 10 });
      await expectLedgerMatchesBalances(t.database.db);
    });

    it('no key or a wrong one is 401, a revoked key is 401 on its next call, a key without the scope 403', async () => {
      const username = await newParticipant();
      expect((await programCall(t.app, 'GET', paths.participant(username))).statusCode).toBe(401);
      expect((await call('GET', paths.participant(username), undefined, `${key}x`)).statusCode).toBe(401);
      const reader = await makeKey(t.database.db, DEMO_CLIENT_ID, ['participants:read']);
      expect((await call('GET', paths.participant(username), undefined, reader.key)).statusCode).toBe(200);
      const refused = await call('POST', paths.points, { username, points: 5, description: 'x', externalId: `s-${tag()}` }, reader.key);
      expect(refused.statusCode).toBe(403);
      await revokeKey(t.database.db, DEMO_CLIENT_ID, reader.id);
      const revoked = await call('GET', paths.participant(username), undefined, reader.key);
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json()).toMatchObject({ errorCode: ErrorCode.apiKeyInvalid });
      expect((await call('GET', paths.participant(username))).json<ProgramParticipant>().balance).toBe(0);
    });
  });

  describe('nothing a caller sends makes a 500, and a refusal changes nothing', () => {
    it('answers garbage, wrong types, huge numbers and odd text with a 4xx in the one error shape', async () => {
      const username = await newParticipant();
      const externalId = `garbage-${tag()}`;
      const bodies: unknown[] = [
        null,
        [],
        'text',
        42,
        {},
        { username, points: '5', description: 'x', externalId },
        { username, points: 5.5, description: 'x', externalId },
        { username, points: 1e308, description: 'x', externalId },
        { username, points: 2 ** 53, description: 'x', externalId },
        { username, points: -(2 ** 53), description: 'x', externalId },
        { username, points: 100_000_001, description: 'x', externalId },
        { username, points: 0, description: 'x', externalId },
        { username, points: 5, description: '', externalId },
        { username, points: 5, description: 'x'.repeat(201), externalId },
        { username, points: 5, description: 'line\nbreak', externalId },
        { username, points: 5, description: '\u0000', externalId },
        { username, points: 5, description: { key: '../../etc', text: 'x' }, externalId },
        { username, points: 5, description: { key: 'a.b', params: { 'bad name': 'x' }, text: 'x' }, externalId },
        {
          username,
          points: 5,
          description: { key: 'a.b', params: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`p${i}`, 'x'])), text: 'x' },
          externalId,
        },
        { username, points: 5, description: { key: 'a.b', params: { n: 1.5 }, text: 'x' }, externalId },
        { username, points: 5, description: { key: 'a.b' }, externalId },
        { username, points: 5, description: 'x', externalId: '' },
        { username, points: 5, description: 'x', externalId: 'x'.repeat(201) },
        { username, points: 5, description: 'x', externalId: 'tab\there' },
        { username, points: 5, description: 'x', externalId, occurredAt: 'tomorrow' },
        { username, points: 5, description: 'x', externalId, occurredAt: '2026-02-30' },
        { username, points: 5, description: 'x', externalId, occurredAt: '2026-11-01T25:00:00Z' },
        { username, points: 5, description: 'x', externalId, note: 'x'.repeat(501) },
        { username, points: 5, description: 'x', externalId, extra: true },
        { username: 'x'.repeat(201), points: 5, description: 'x', externalId },
        { username: '\ud800', points: 5, description: 'x', externalId },
        { username: { $ne: null }, points: 5, description: 'x', externalId },
        { username, points: [5], description: 'x', externalId },
      ];
      for (const body of bodies) {
        const reply = await call('POST', paths.points, body);
        expect(reply.statusCode, `${JSON.stringify(body)?.slice(0, 80)}: ${reply.body}`).toBe(400);
        expect(Object.keys(reply.json()).sort()).toEqual(['errorCode', 'message', 'responseMessage']);
      }
      const raws = [
        '{',
        '{"username":',
        '\u0000',
        '{"a":1}{"b":2}',
        `{"points":${'9'.repeat(400)}}`,
        '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      ];
      for (const rawBody of raws) {
        const reply = await programCall(t.app, 'POST', paths.points, { key, rawBody });
        expect(reply.statusCode, rawBody.slice(0, 40)).toBe(400);
      }
      const wrongType = await programCall(t.app, 'POST', paths.points, {
        key,
        rawBody: 'username=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(wrongType.statusCode).toBe(415);
      const huge = await programCall(t.app, 'POST', paths.points, {
        key,
        rawBody: JSON.stringify({ username, description: 'x'.repeat(70_000) }),
      });
      expect(huge.statusCode).toBe(413);

      const participantBodies: unknown[] = [
        null,
        {},
        { ...participantBody(), offerings: { merchandise: 'yes', experiences: false, ots: false } },
        { ...participantBody(), offerings: {} },
        { ...participantBody(), programs: 'one' },
        { ...participantBody(), programs: ['a|b'] },
        { ...participantBody(), programs: Array.from({ length: 101 }, (_, i) => `p${i}`) },
        { ...participantBody(), status: 'gone' },
        { ...participantBody(), dateOfBirth: 19900401 },
        { ...participantBody(), firstName: 'x'.repeat(1001) },
        { ...participantBody(), firstName: 'tab\there' },
        { ...participantBody(), email: ['a@b.c'] },
        { ...participantBody(), admin: true },
        // PostgreSQL takes no NUL in text: refused before any query.
        ...(['firstName', 'lastName', 'email', 'accountNumber', 'locale', 'dateOfBirth'] as const).map((field) => ({
          ...participantBody(),
          [field]: 'a\u0000b',
        })),
        { ...participantBody(), programs: ['a\u0000b'] },
      ];
      for (const body of participantBodies) {
        const reply = await call('PUT', paths.participant(username), body);
        expect(reply.statusCode, `${JSON.stringify(body)?.slice(0, 80)}: ${reply.body}`).toBe(400);
      }
      for (const query of ['?updatedSince=%00', '?cursor=%00', '?limit=%00'])
        expect((await call('GET', `${paths.participants}${query}`)).statusCode, query).toBe(400);
      expect((await call('POST', paths.status(username), { status: 'inactive', reason: 'why\u0000not' })).statusCode).toBe(400);
      for (const odd of ['%00', '%E2%80%AE', encodeURIComponent('名前テスト'), 'x'.repeat(300), '%2e%2e%2f%2e%2e', '%ZZ']) {
        for (const path of [`/participants/${odd}`, `/participants/${odd}/statement`]) {
          const reply = await call('GET', path);
          expect([400, 404], `${path}: ${reply.body}`).toContain(reply.statusCode);
        }
        const reversal = await call('POST', `/points/${odd}/reversal`, { reason: 'Odd' });
        expect([400, 404], `${odd}: ${reversal.body}`).toContain(reversal.statusCode);
      }
      const unicode = await call('PUT', paths.participant('名前テスト'), participantBody({ firstName: 'Zoë 🎉', lastName: 'Ørsted' }));
      expect(unicode.statusCode, unicode.body).toBe(201);
      expect((await call('GET', paths.participant('名前テスト'))).json<ProgramParticipant>().firstName).toBe('Zoë 🎉');
      for (const reversalBody of [
        {},
        { reason: 'ok reason', points: 0 },
        { reason: 'ok reason', points: -5 },
        { reason: 'ok reason', points: 1e20 },
        { reason: 5 },
      ]) {
        const reply = await call('POST', paths.reversal(externalId), reversalBody);
        expect(reply.statusCode, JSON.stringify(reversalBody)).toBe(400);
      }

      // Nothing of it was written.
      const participant = (await call('GET', paths.participant(username))).json<ProgramParticipant>();
      expect(participant).toMatchObject({ firstName: 'Pat', balance: 0 });
      expect(await ledgerCount(`api:${externalId}`)).toBe(0);
      expect((await eventsAbout(username)).map((e) => e.kind)).toEqual(['participant.created']);
    });
  });
});
