import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPES, ErrorCode, programApiPaths } from '@rewards/contract';
import type { EarningRuleInput } from '@rewards/contract/earning-rules';
import {
  programEventsPaths as paths,
  type ProgramEvent,
  type ProgramEventBatchReply,
  type ProgramEventReply,
} from '@rewards/contract/events';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { DEMO_CLIENT_ID } from '../../db/seed/demo.ts';
import { createRule, updateRule } from '../earning-rules/service.ts';
import { participantEvents } from './service.ts';
import { makeKey, participantBody, programCall, tag } from '../program-api/test-support.ts';
import { addEndpointRow } from '../webhooks/test-support.ts';

/**
 * POST events, events:batch and GET events/{id} (issue 32 §1, decision 097) on both engines: an
 * event once per id, exact points per rule, caps under 100 events at once, pending lines kept and
 * not credited, webhooks told, batches with bad events in the middle, refusals that keep nothing.
 */
describe.each(dialects)('events in on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  const operator = { kind: 'operator' as const, name: 'events-test', origin: 'test' };
  const launched = { now: new Date('2026-01-01T00:00:00Z') };

  const addRule = (rule: EarningRuleInput & { id: string }) =>
    createRule(t.database.db, operator, DEMO_CLIENT_ID, rule, 'events test', launched);
  const send = (body: unknown, as = key) => programCall(t.app, 'POST', paths.events, { key: as, body });
  const batch = (events: unknown[], as = key) => programCall(t.app, 'POST', paths.batch, { key: as, body: { events } });
  const newParticipant = async () => {
    const username = `ev.${tag()}`;
    const made = await programCall(t.app, 'PUT', programApiPaths.participant(username), { key, body: participantBody() });
    expect(made.statusCode, made.body).toBe(201);
    return username;
  };
  const balanceOf = async (username: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('participants')
          .select('balance')
          .where('client_id', '=', DEMO_CLIENT_ID)
          .where('username_key', '=', username.toLowerCase())
          .executeTakeFirstOrThrow()
      ).balance,
    );
  const kept = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('participant_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const entries = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const purchase = (username: string, overrides: Record<string, unknown> = {}) => ({
    id: `ord-${tag()}`,
    type: 'purchase',
    username,
    occurredAt: '2026-06-05T14:30:00+02:00',
    amount: '120.50',
    currency: 'EUR',
    attributes: { category: 'Shoes', channel: 'web' },
    ...overrides,
  });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    key = (await makeKey(t.database.db, DEMO_CLIENT_ID, ['events:write', 'participants:write'])).key;
    otherKey = (await makeKey(t.database.db, OTHER_CLIENT_ID, API_SCOPES)).key;
    // An endpoint of acme that takes every kind: events are written to the outbox (nobody delivers them here).
    await addEndpointRow(t.database.db, DEMO_CLIENT_ID);
    await addRule({
      id: 'shoes',
      name: 'Shoes',
      event: 'purchase',
      conditions: [{ attribute: 'category', in: ['shoes'] }],
      earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
      priority: 10,
      text: { 'en-US': '2 points per euro on shoes' },
    });
    await addRule({
      id: 'web-bonus',
      name: 'Web bonus',
      event: 'purchase',
      conditions: [{ attribute: 'channel', equals: 'web' }],
      earn: { points: 50 },
      pendingDays: 14,
      priority: 5,
    });
    await addRule({
      id: 'store-only',
      name: 'Store only',
      event: 'purchase',
      conditions: [{ attribute: 'channel', equals: 'store' }],
      earn: { points: 9 },
    });
    await addRule({ id: 'course', name: 'Course', event: 'course.completed', earn: { points: 100 } });
    await addRule({
      id: 'capped',
      name: 'Capped visits',
      event: 'capped.visit',
      earn: { pointsPer: 1, per: '1' },
      caps: { participant: { points: 500, per: 'month' } },
    });
  });
  afterAll(async () => {
    await expectLedgerMatchesBalances(t.database.db);
    await t.close();
  });

  it('keeps an event and answers what each rule earned: credited lines into the ledger, pending lines kept and not credited', async () => {
    const username = await newParticipant();
    const body = purchase(username);
    const reply = await send(body);
    expect(reply.statusCode, reply.body).toBe(201);
    const event = reply.json<ProgramEventReply>();
    expect(event).toMatchObject({
      id: body.id,
      type: 'purchase',
      username,
      occurredAt: '2026-06-05T12:30:00.000Z',
      amount: '120.50',
      currency: 'EUR',
      attributes: { category: 'Shoes', channel: 'web' },
      references: {},
      points: 241,
      pendingPoints: 50,
      replayed: false,
    });
    // The rules whose conditions the event met, in priority order; "store-only" did not match.
    expect(event.lines.map((l) => [l.ruleId, l.version, l.points, l.pending, l.availableAt])).toEqual([
      ['shoes', 1, 241, false, null],
      ['web-bonus', 1, 50, true, '2026-06-19T12:30:00.000Z'],
    ]);
    expect(event.lines[0]!.calculation).toBe('2 points per 1.00 of 120.50 = 241, rounded down');
    expect(await balanceOf(username)).toBe(241);
    const credited = await t.database.db
      .selectFrom('ledger_entries')
      .select(['amount', 'description', 'reference', 'kind'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('reference', 'like', `event:%${body.id}`)
      .execute();
    expect(credited.map((e) => [Number(e.amount), e.description, e.reference, e.kind])).toEqual([
      [241, 'Shoes: 2 points per euro on shoes', `event:${body.id}`, 'award'],
    ]);
    const told = await t.database.db
      .selectFrom('webhook_events')
      .select(['kind', 'payload'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('username', '=', username)
      .where('kind', 'like', 'points.%')
      .execute();
    expect(told.map((e) => e.kind).sort()).toEqual(['points.credited', 'points.pending']);
    expect(JSON.parse(told.find((e) => e.kind === 'points.credited')!.payload)).toMatchObject({
      type: 'points.credited',
      data: { eventId: body.id, eventType: 'purchase', points: 241, pendingPoints: 50, balanceAfter: 241 },
    });
    // GET answers the event as kept.
    const got = await programCall(t.app, 'GET', paths.event(body.id), { key });
    expect(got.statusCode).toBe(200);
    const { replayed: _replayed, ...keptEvent } = event;
    expect(got.json<ProgramEvent>()).toEqual(keptEvent);
  });

  it('credits what an event earned as one ledger entry naming its rules', async () => {
    const username = await newParticipant();
    const body = purchase(username, { attributes: { category: 'shoes', channel: 'store' }, amount: '10.00' });
    const reply = await send(body);
    expect(reply.statusCode, reply.body).toBe(201);
    const event = reply.json<ProgramEventReply>();
    expect(event.lines.map((l) => [l.ruleId, l.points, l.pending])).toEqual([
      ['shoes', 20, false],
      ['store-only', 9, false],
    ]);
    expect([event.points, event.pendingPoints, await balanceOf(username)]).toEqual([29, 0, 29]);
    const credited = await t.database.db
      .selectFrom('ledger_entries')
      .select(['id', 'amount', 'description'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('reference', '=', `event:${body.id}`)
      .execute();
    expect(credited.map((e) => [Number(e.amount), e.description])).toEqual([[29, 'Shoes: 2 points per euro on shoes + Store only']]);
    const lines = await t.database.db
      .selectFrom('participant_event_lines')
      .select('entry_id')
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('event_id', '=', body.id)
      .execute();
    expect(lines.map((l) => l.entry_id)).toEqual([credited[0]!.id, credited[0]!.id]);
  });

  it('computes an event with the versions in force at its occurredAt, whenever it arrives', async () => {
    const username = await newParticipant();
    await updateRule(
      t.database.db,
      operator,
      DEMO_CLIENT_ID,
      'course',
      { name: 'Course', event: 'course.completed', earn: { points: 150 } },
      'more for courses',
      { now: new Date('2026-03-01T00:00:00Z') },
    );
    const course = (id: string, occurredAt: string) => send({ id, type: 'course.completed', username, occurredAt });
    // Sent after the change, happened before it: version 1's 100 points.
    const early = (await course(`c-${tag()}`, '2026-02-15T09:00:00Z')).json<ProgramEventReply>();
    const late = (await course(`c-${tag()}`, '2026-03-02T09:00:00Z')).json<ProgramEventReply>();
    expect(early.lines.map((l) => [l.ruleId, l.version, l.points])).toEqual([['course', 1, 100]]);
    expect(late.lines.map((l) => [l.ruleId, l.version, l.points])).toEqual([['course', 2, 150]]);
    expect(await balanceOf(username)).toBe(250);
  });

  it('takes an event once per id: the same body again is the same reply, another body under it 409, nothing more written', async () => {
    const username = await newParticipant();
    const body = purchase(username);
    const first = await send(body);
    expect(first.statusCode).toBe(201);
    const [keptBefore, entriesBefore] = [await kept(), await entries()];
    // The same event: keys in another order, the username in another case, the time in another offset.
    const again = await send({
      ...body,
      username: username.toUpperCase(),
      occurredAt: '2026-06-05T12:30:00Z',
      attributes: { channel: 'web', category: 'Shoes' },
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual({ ...first.json<ProgramEventReply>(), replayed: true });
    const other = await send({ ...body, amount: '99.00' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ errorCode: ErrorCode.programExternalIdReused });
    expect(other.json<{ message: string }>().message).toContain('sent already with another body');
    expect([await kept(), await entries(), await balanceOf(username)]).toEqual([keptBefore, entriesBefore, 241]);
  });

  it('takes ten simultaneous copies of one event once', async () => {
    const username = await newParticipant();
    const body = purchase(username);
    const replies = await Promise.all(Array.from({ length: 10 }, () => send(body)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(replies.filter((r) => r.json<ProgramEventReply>().replayed === false)).toHaveLength(1);
    expect(await balanceOf(username)).toBe(241);
  });

  it("earns on a type of one of the client's rules; refuses an unknown type and a return of no event, keeping nothing", async () => {
    const username = await newParticipant();
    // Before version 2 of the rule (the test of versions makes it): 100 points whatever the order of the tests.
    const course = await send({ id: `c-${tag()}`, type: 'course.completed', username, occurredAt: '2026-02-01T09:00:00Z' });
    expect(course.statusCode, course.body).toBe(201);
    expect(course.json<ProgramEventReply>()).toMatchObject({ points: 100, pendingPoints: 0, lines: [{ ruleId: 'course', points: 100 }] });
    const [keptBefore, entriesBefore] = [await kept(), await entries()];
    const unknown = await send({ id: `u-${tag()}`, type: 'survey.done', username, occurredAt: '2026-06-01T09:00:00Z' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toContain('"survey.done" is not one of this program\'s');
    const returned = await send({
      id: `r-${tag()}`,
      type: 'return',
      username,
      occurredAt: '2026-06-02T09:00:00Z',
      references: { originalEventId: 'x' },
    });
    expect(returned.statusCode).toBe(400);
    expect(returned.json<{ message: string }>().message).toContain('No event "x" in this program to return');
    // A purchase no rule matches is kept, with no lines and 0 points.
    const none = await send(purchase(username, { attributes: { category: 'food' }, amount: '5.00' }));
    expect(none.statusCode).toBe(201);
    expect(none.json<ProgramEventReply>()).toMatchObject({ points: 0, pendingPoints: 0, lines: [] });
    expect([await kept(), await entries(), await balanceOf(username)]).toEqual([keptBefore + 1, entriesBefore, 100]);
  });

  it('refuses a bad event with 400 naming each problem, and keeps nothing', async () => {
    const username = await newParticipant();
    const [keptBefore, entriesBefore] = [await kept(), await entries()];
    const cases: Array<[unknown, string]> = [
      [purchase(username, { amount: '1,5' }), 'amount: an amount is a decimal string'],
      [purchase(username, { amount: 12 }), 'amount'],
      [purchase(username, { occurredAt: 'yesterday' }), 'occurredAt is an ISO 8601 time'],
      [purchase(username, { occurredAt: undefined }), 'occurredAt'],
      [purchase(username, { occurredAt: '2099-01-01T00:00:00Z' }), 'more than a day ahead'],
      [purchase(username, { id: '' }), 'id is empty'],
      [purchase(username, { id: 'x'.repeat(201) }), 'id is longer than 200'],
      [purchase(username, { type: 'Purchase!' }), 'type: an event type is'],
      [purchase(username, { currency: 'euro' }), 'currency: a currency is'],
      [purchase(username, { attributes: { size: 42 } }), 'attributes.size'],
      [
        purchase(username, { attributes: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`a${i}`, 'v'])) }),
        'at most 50 attributes',
      ],
      [purchase(username, { attributes: { note: 'x'.repeat(201) } }), 'is longer than 200'],
      [purchase(username, { attributes: { note: 'a\u0000b' } }), 'control characters'],
      [purchase(username, { extra: 1 }), 'extra'],
      [[1, 2], 'expected object'],
    ];
    for (const [body, words] of cases) {
      const reply = await send(body);
      expect(reply.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(reply.json()).toMatchObject({ errorCode: ErrorCode.validation });
      expect(reply.json<{ message: string }>().message).toContain(words);
    }
    expect((await programCall(t.app, 'POST', paths.events, { key, rawBody: '{"id": ' })).statusCode).toBe(400);
    expect((await send(purchase(`nobody.${tag()}`))).statusCode).toBe(404);
    expect([await kept(), await entries(), await balanceOf(username)]).toEqual([keptBefore, entriesBefore, 0]);
  });

  it("answers another client's key 404 for this client's participant and event", async () => {
    const username = await newParticipant();
    const body = purchase(username);
    expect((await send(body, otherKey)).statusCode).toBe(404);
    expect((await send(body)).statusCode).toBe(201);
    expect((await programCall(t.app, 'GET', paths.event(body.id), { key: otherKey })).statusCode).toBe(404);
    expect((await programCall(t.app, 'GET', paths.event(`missing-${tag()}`), { key })).statusCode).toBe(404);
    // An id of any printable characters, read back through its path.
    const odd = purchase(username, { id: `ord/${tag()} é?#%` });
    expect((await send(odd)).statusCode).toBe(201);
    const read = await programCall(t.app, 'GET', paths.event(odd.id), { key });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<ProgramEvent>()).toMatchObject({ id: odd.id, points: 241 });
    expect(await balanceOf(username)).toBe(482);
  });

  it('100 events at once for one participant against a monthly cap: exactly the cap', async () => {
    const username = await newParticipant();
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send({
          id: `v-${tag()}-${i}`,
          type: 'capped.visit',
          username,
          occurredAt: `2026-07-${String((i % 28) + 1).padStart(2, '0')}T12:00:00Z`,
          amount: '7',
        }),
      ),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(Array(100).fill(201));
    const earned = replies.map((r) => r.json<ProgramEventReply>().points);
    expect(earned.reduce((sum, p) => sum + p, 0)).toBe(500);
    expect(earned.filter((p) => p === 0).length).toBeGreaterThan(0);
    expect(await balanceOf(username)).toBe(500);
    const trimmed = replies.map((r) => r.json<ProgramEventReply>()).find((e) => e.points === 0)!;
    expect(trimmed.lines[0]!.trims.map((trim) => trim.by)).toEqual(['participantCap']);
  });

  it('takes a batch in order, each event on its own: bad events in the middle fail alone', async () => {
    const username = await newParticipant();
    const first = purchase(username);
    const fourth = purchase(username, { amount: '10.00' });
    const missing = `nobody.${tag()}`;
    const reply = await batch([
      first,
      purchase(username, { amount: '1,5' }),
      purchase(missing),
      fourth,
      first,
      { ...first, amount: '1.00' },
      { type: 'purchase' },
      'not an event',
      { ...fourth, id: `ret-${tag()}`, type: 'return' },
    ]);
    expect(reply.statusCode, reply.body).toBe(200);
    const answer = reply.json<ProgramEventBatchReply>();
    expect(answer.results.map((r) => [r.index, r.status])).toEqual([
      [0, 201],
      [1, 400],
      [2, 404],
      [3, 201],
      [4, 200],
      [5, 409],
      [6, 400],
      [7, 400],
      [8, 400],
    ]);
    expect([answer.created, answer.replayed, answer.failed]).toEqual([2, 1, 6]);
    expect(answer.results[0]!.event).toMatchObject({ id: first.id, points: 241, replayed: false });
    expect(answer.results[3]!.event).toMatchObject({ id: fourth.id, points: 20, pendingPoints: 50 });
    expect(answer.results[4]!.event).toMatchObject({ id: first.id, points: 241, replayed: true });
    expect(answer.results[1]!).toMatchObject({ id: answer.results[1]!.id, error: { errorCode: ErrorCode.validation } });
    expect(answer.results[1]!.error!.message).toContain('amount: an amount is a decimal string');
    expect(answer.results[2]!.error!.message).toContain(missing);
    expect(answer.results[6]!).toMatchObject({ id: null });
    expect(await balanceOf(username)).toBe(261);
  });

  it("takes a batch in each participant's order against a cap, in one call of up to 1,000", async () => {
    const usernames = [await newParticipant(), await newParticipant(), await newParticipant()];
    // Three participants' events interleaved, 120 each (the cap is 100 events of 5).
    const events = Array.from({ length: 360 }, (_, i) => ({
      id: `b-${tag()}-${i}`,
      type: 'capped.visit',
      username: usernames[i % 3],
      occurredAt: '2026-08-03T12:00:00Z',
      amount: '5',
    }));
    const reply = await batch(events);
    expect(reply.statusCode, reply.body).toBe(200);
    const results = reply.json<ProgramEventBatchReply>().results;
    expect(results.map((r) => r.index)).toEqual(events.map((_, i) => i));
    for (const [n, username] of usernames.entries()) {
      // In the order sent: each one's first hundred reach the cap, the rest earn nothing.
      const points = results.filter((r) => r.index % 3 === n).map((r) => r.event?.points);
      expect(points).toEqual([...Array(100).fill(5), ...Array(20).fill(0)]);
      expect(await balanceOf(username)).toBe(500);
    }
    const tooMany = await batch(Array.from({ length: 1001 }, () => ({})));
    expect(tooMany.statusCode).toBe(400);
    expect((await batch([])).statusCode).toBe(400);
  });
  it("lists a participant's events newest first on the console's page, paged, each with its lines; another client's participant is 404", async () => {
    const username = await newParticipant();
    const ids: string[] = [];
    for (const day of ['01', '02', '03']) {
      const body = purchase(username, { occurredAt: `2026-07-${day}T10:00:00Z` });
      ids.push(body.id);
      expect((await send(body)).statusCode).toBe(201);
    }
    const participantId = (
      await t.database.db
        .selectFrom('participants')
        .select('id')
        .where('client_id', '=', DEMO_CLIENT_ID)
        .where('username_key', '=', username)
        .executeTakeFirstOrThrow()
    ).id;
    const first = await participantEvents(t.database.db, DEMO_CLIENT_ID, participantId, { limit: 2 });
    expect(first.events.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.events[0]!.lines.map((line) => [line.ruleId, line.points, line.pending])).toEqual([
      ['shoes', 241, false],
      ['web-bonus', 50, true],
    ]);
    expect(first.next).not.toBeNull();
    expect(first.owedPoints).toBe(0);
    const second = await participantEvents(t.database.db, DEMO_CLIENT_ID, participantId, { limit: 2, after: first.next! });
    expect(second.events.map((e) => e.id)).toEqual([ids[0]]);
    expect(second.next).toBeNull();
    await expect(participantEvents(t.database.db, OTHER_CLIENT_ID, participantId, {})).rejects.toMatchObject({ statusCode: 404 });
    await expect(participantEvents(t.database.db, DEMO_CLIENT_ID, participantId, { after: 'not-a-cursor!' })).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});
