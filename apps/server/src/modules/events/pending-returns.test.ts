import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract';
import type { EarningRuleInput } from '@rewards/contract/earning-rules';
import { programEventsPaths as paths, type ProgramEvent, type ProgramEventReply } from '@rewards/contract/events';
import { programApiPaths } from '@rewards/contract';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { OTHER_CLIENT_ID } from '../../../test/other-client.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createRule } from '../earning-rules/service.ts';
import { runDailyExpiry } from '../expiry/daily.ts';
import { expiresOn } from '../expiry/policy.ts';
import { appendLedgerEntry, writeToLedger } from '../ledger/service.ts';
import { buildUserData, findParticipant } from '../participants/service.ts';
import { makeKey, participantBody, programCall, tag } from '../program-api/test-support.ts';
import { addEndpointRow } from '../webhooks/test-support.ts';
import { ReleaseLeaseLostError, releasePendingPoints } from './release.ts';
import { participantEvents } from './service.ts';

/**
 * Pending points and returns (issue 32 §3, decision 098) on both engines: the pending total in the
 * user data, the daily release run (idempotent, twice at once, the lot dated at the release),
 * returns whole and partial (cumulative, never more than earned), pending first then the balance,
 * the debt, the caps given back, the four webhooks, bad returns refused with nothing written, and
 * 100 returns at once, and a return racing the release of its line.
 */
describe.each(dialects)('pending points and returns on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  const clientId = `pend-${tag()}`;
  const operator = { kind: 'operator' as const, name: 'pending-test', origin: 'test' };
  const POLICY = { type: 'rolling' as const, months: 12 };

  const addRule = (rule: EarningRuleInput & { id: string }) =>
    createRule(t.database.db, operator, clientId, rule, 'pending test', { now: new Date('2026-01-01T00:00:00Z') });
  const send = (body: unknown, as = key) => programCall(t.app, 'POST', paths.events, { key: as, body });
  const sent = async (body: unknown): Promise<ProgramEventReply> => {
    const reply = await send(body);
    expect(reply.statusCode, reply.body).toBe(201);
    return reply.json<ProgramEventReply>();
  };
  const newParticipant = async () => {
    const username = `pr.${tag()}`;
    const made = await programCall(t.app, 'PUT', programApiPaths.participant(username), { key, body: participantBody() });
    expect(made.statusCode, made.body).toBe(201);
    return username;
  };
  const row = async (username: string) =>
    t.database.db
      .selectFrom('participants')
      .select(['id', 'balance', 'pending_points'])
      .where('client_id', '=', clientId)
      .where('username_key', '=', username.toLowerCase())
      .executeTakeFirstOrThrow();
  /** [balance, pending] */
  const state = async (username: string) => {
    const r = await row(username);
    return [Number(r.balance ?? 0), Number(r.pending_points)];
  };
  const userData = async (username: string) => {
    const participant = await findParticipant(t.database.db, clientId, (await row(username)).id);
    return buildUserData(t.database.db, participant!, { admin_as_user: 0 }, '');
  };
  const event = (type: string, username: string, overrides: Record<string, unknown> = {}) => ({
    id: `ev-${tag()}`,
    type,
    username,
    occurredAt: '2026-06-05T12:30:00Z',
    amount: '100.00',
    currency: 'EUR',
    ...overrides,
  });
  const returnOf = (original: { id: string; username: string }, overrides: Record<string, unknown> = {}) => ({
    id: `ret-${tag()}`,
    type: 'return',
    username: original.username,
    occurredAt: '2026-06-07T10:00:00Z',
    references: { originalEventId: original.id },
    ...overrides,
  });
  const getEvent = async (id: string) => (await programCall(t.app, 'GET', paths.event(id), { key })).json<ProgramEvent>();
  const told = async (username: string) =>
    (
      await t.database.db
        .selectFrom('webhook_events')
        .select(['kind', 'payload'])
        .where('client_id', '=', clientId)
        .where('username', '=', username)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((e) => ({ kind: e.kind, data: (JSON.parse(e.payload) as { data: Record<string, unknown> }).data }));
  const count = async (table: 'participant_events' | 'ledger_entries' | 'participant_event_lines') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('client_id', '=', clientId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const release = (at: string) => releasePendingPoints(t.database.db, { clientId, now: () => new Date(at) });
  const spend = async (username: string, points: number) => {
    const participantId = (await row(username)).id;
    await writeToLedger(t.database.db, (trx) =>
      appendLedgerEntry(trx, {
        clientId,
        participantId,
        occurredAt: '2026-06-06T10:00:00Z',
        description: 'Spent',
        amount: -points,
        kind: 'redemption',
      }),
    );
  };
  const entriesOf = async (username: string) =>
    t.database.db
      .selectFrom('ledger_entries')
      .select(['id', 'amount', 'kind', 'description', 'occurred_at', 'reference'])
      .where('client_id', '=', clientId)
      .where('participant_id', '=', (await row(username)).id)
      .orderBy('created_at')
      .orderBy('occurred_at')
      .execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await insertTestClient(t.database.db, clientId, { time_zone: 'Europe/Paris', expiry_policy: JSON.stringify(POLICY) });
    key = (await makeKey(t.database.db, clientId, ['events:write', 'participants:write'])).key;
    await addEndpointRow(t.database.db, clientId);
    // Pending: 2 points per euro held 14 days, and a credited bonus beside it.
    await addRule({
      id: 'store',
      name: 'Store purchases',
      event: 'p.purchase',
      earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
      pendingDays: 14,
      priority: 10,
      text: { 'en-US': '2 points per euro in store' },
    });
    await addRule({ id: 'bonus', name: 'Bonus', event: 'p.purchase', earn: { points: 10 }, text: { 'en-US': '10 points a visit' } });
    // Credited at once, a point per euro, capped at 300 a month, with a budget.
    await addRule({
      id: 'shop',
      name: 'Shop',
      event: 'r.purchase',
      earn: { pointsPer: 1, per: '1.00', rounding: 'down' },
      caps: { participant: { points: 300, per: 'month' }, budget: { points: 1_000_000 } },
      text: { 'en-US': 'a point per euro' },
    });
    // Half credited, half pending.
    await addRule({ id: 'mix-now', name: 'Now', event: 'm.purchase', earn: { pointsPer: 1, per: '1.00' }, priority: 2 });
    await addRule({
      id: 'mix-later',
      name: 'Later',
      event: 'm.purchase',
      earn: { pointsPer: 1, per: '1.00' },
      pendingDays: 10,
      priority: 1,
    });
    // A fixed-points event with no amount.
    await addRule({ id: 'visit', name: 'Visit', event: 'visit', earn: { points: 40 } });
  });
  afterAll(async () => {
    await expectLedgerMatchesBalances(t.database.db);
    await t.close();
  });

  it('holds pending points out of the balance, counts them in the user data by release day, and tells points.pending', async () => {
    const username = await newParticipant();
    expect((await userData(username)).pendingPoints).toEqual({ points: 0, releases: [] });
    const first = await sent(event('p.purchase', username));
    expect(first).toMatchObject({ points: 10, pendingPoints: 200, reversedPoints: 0, returnedAmount: null, debtPoints: 0 });
    expect(first.lines.map((l) => [l.ruleId, l.points, l.pending, l.availableAt, l.releasedAt])).toEqual([
      ['store', 200, true, '2026-06-19T12:30:00.000Z', null],
      ['bonus', 10, false, null, null],
    ]);
    // 14:30 in Paris on the 19th: released by the run of the next day there.
    await sent(event('p.purchase', username, { amount: '25.00', occurredAt: '2026-06-06T21:59:59Z' }));
    await sent(event('p.purchase', username, { amount: '5.00', occurredAt: '2026-06-05T20:00:00Z' }));
    expect(await state(username)).toEqual([30, 260]);
    expect((await userData(username)).pendingPoints).toEqual({
      points: 260,
      releases: [
        { points: 210, availableOn: '2026-06-20' },
        { points: 50, availableOn: '2026-06-21' },
      ],
    });
    const pendingTold = (await told(username)).filter((e) => e.kind === 'points.pending');
    expect(pendingTold).toHaveLength(3);
    expect(pendingTold[0]!.data).toMatchObject({
      eventId: first.id,
      points: 200,
      pendingAfter: 200,
      lines: [{ ruleId: 'store', points: 200, availableAt: '2026-06-19T12:30:00.000Z', availableOn: '2026-06-20' }],
    });
  });

  it('lists at most five release days, soonest first', async () => {
    const username = await newParticipant();
    for (let day = 1; day <= 7; day += 1)
      await sent(event('p.purchase', username, { amount: '1.00', occurredAt: `2026-07-0${day}T08:00:00Z` }));
    const { pendingPoints } = await userData(username);
    expect(pendingPoints.points).toBe(14);
    expect(pendingPoints.releases.map((r) => r.availableOn)).toEqual([
      '2026-07-16',
      '2026-07-17',
      '2026-07-18',
      '2026-07-19',
      '2026-07-20',
    ]);
  });

  it('releases on the client day after availableAt: an award dated at the release, the rule words, a lot from that day, points.released; idempotent', async () => {
    const username = await newParticipant();
    const purchase = await sent(event('p.purchase', username, { occurredAt: '2026-08-01T12:30:00Z' }));
    // availableAt 15 Aug 14:30 in Paris: nothing at 23:00 there that day.
    await release('2026-08-15T21:00:00Z');
    expect(await state(username)).toEqual([10, 200]);
    const run = await release('2026-08-15T22:30:00Z');
    expect(run).toMatchObject({ status: 'done', clients: [{ clientId, asOf: '2026-08-16' }] });
    expect(await state(username)).toEqual([210, 0]);
    expect((await userData(username)).pendingPoints).toEqual({ points: 0, releases: [] });
    const entries = await entriesOf(username);
    const released = entries.find((e) => e.reference === `release:${purchase.id}:1`)!;
    expect([Number(released.amount), released.kind, released.description, released.occurred_at]).toEqual([
      200,
      'award',
      'Store purchases: 2 points per euro in store',
      '2026-08-15T22:30:00.000Z',
    ]);
    const lot = await t.database.db
      .selectFrom('point_lots')
      .select(['earned_on', 'expires_on', 'amount'])
      .where('entry_id', '=', released.id)
      .executeTakeFirstOrThrow();
    expect([lot.earned_on, lot.expires_on, Number(lot.amount)]).toEqual(['2026-08-16', expiresOn(POLICY, '2026-08-16'), 200]);
    const line = (await getEvent(purchase.id)).lines[0]!;
    expect([line.pending, line.releasedAt]).toEqual([true, '2026-08-15T22:30:00.000Z']);
    const releasedTold = (await told(username)).filter((e) => e.kind === 'points.released');
    expect(releasedTold.map((e) => e.data)).toEqual([
      expect.objectContaining({
        eventId: purchase.id,
        ruleId: 'store',
        points: 200,
        entryId: released.id,
        balanceAfter: 210,
        pendingAfter: 0,
      }),
    ]);
    // Again, and later: nothing more.
    await release('2026-08-15T22:31:00Z');
    await release('2026-09-20T00:00:00Z');
    expect(await state(username)).toEqual([210, 0]);
    expect((await entriesOf(username)).filter((e) => e.reference?.startsWith('release:'))).toHaveLength(1);
  });

  it('runs in the daily schedule before the expiry', async () => {
    const username = await newParticipant();
    await sent(event('p.purchase', username, { occurredAt: '2026-08-20T12:30:00Z', amount: '3.00' }));
    const steps: string[] = [];
    await runDailyExpiry(t.database.db, {
      now: () => new Date('2026-09-04T00:30:00Z'),
      beforeSteps: [
        async (db, at) => {
          await releasePendingPoints(db, { clientId, now: () => at });
          steps.push('release');
        },
      ],
      afterSteps: [async () => void steps.push('after the expiry')],
    });
    expect(steps).toEqual(['release', 'after the expiry']);
    expect(await state(username)).toEqual([16, 0]);
  });

  it('two runs at once (the second past the first one lease) release each line once', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => newParticipant()));
    for (const username of users)
      for (const amount of ['10.00', '20.00', '30.00'])
        await sent(event('p.purchase', username, { amount, occurredAt: '2026-09-01T06:00:00Z' }));
    // The second run's clock is past the first one's lease: both may work at once (the first may lose its lease half-way).
    const runs = await Promise.allSettled([release('2026-09-16T00:00:00Z'), release('2026-09-16T00:03:00Z')]);
    for (const run of runs) if (run.status === 'rejected') expect(run.reason).toBeInstanceOf(ReleaseLeaseLostError);
    expect(runs.some((run) => run.status === 'fulfilled' && run.value.status === 'done')).toBe(true);
    for (const username of users) expect(await state(username)).toEqual([30 + 120, 0]);
    const releases = await t.database.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('client_id', '=', clientId)
      .where('reference', 'like', 'release:%')
      .where('occurred_at', '>=', '2026-09-16T00:00:00.000Z')
      .where('occurred_at', '<', '2026-09-17T00:00:00.000Z')
      .executeTakeFirstOrThrow();
    expect(Number(releases.n)).toBe(users.length * 3);
    await expectLedgerMatchesBalances(t.database.db);
  });

  it('a whole return takes back everything, once: kind return, "Return of <id>: <rule words>", points.reversed; a replay answers the same', async () => {
    const username = await newParticipant();
    const original = await sent(event('r.purchase', username, { amount: '120.50' }));
    expect(original.points).toBe(120);
    const body = returnOf({ id: original.id, username });
    const reply = await send(body);
    expect(reply.statusCode, reply.body).toBe(201);
    const returned = reply.json<ProgramEventReply>();
    expect(returned).toMatchObject({
      type: 'return',
      points: -120,
      pendingPoints: 0,
      debtPoints: 0,
      references: { originalEventId: original.id },
    });
    expect(returned.lines.map((l) => [l.ruleId, l.kind, l.points, l.pending, l.debtPoints])).toEqual([['shop', 'return', -120, false, 0]]);
    expect(await state(username)).toEqual([0, 0]);
    const entry = (await entriesOf(username)).find((e) => e.reference === `event:${body.id}`)!;
    expect([Number(entry.amount), entry.kind, entry.description]).toEqual([
      -120,
      'return',
      `Return of ${original.id}: Shop: a point per euro`,
    ]);
    expect(await getEvent(original.id)).toMatchObject({ returnedAmount: '120.50', reversedPoints: 120, lines: [{ reversedPoints: 120 }] });
    const again = await send(body);
    expect(again.statusCode).toBe(201);
    expect(again.json<ProgramEventReply>()).toMatchObject({ id: body.id, points: -120, replayed: true });
    // Another return of it: nothing is left to take back.
    expect(await sent(returnOf({ id: original.id, username }))).toMatchObject({ points: 0, pendingPoints: 0, debtPoints: 0, lines: [] });
    expect(await state(username)).toEqual([0, 0]);
    const reversed = (await told(username)).filter((e) => e.kind === 'points.reversed');
    expect(reversed.map((e) => e.data)).toEqual([
      expect.objectContaining({
        eventId: body.id,
        originalEventId: original.id,
        points: -120,
        pendingPoints: 0,
        debtPoints: 0,
        balanceAfter: 0,
        entryId: entry.id,
      }),
    ]);
    expect((await told(username)).map((e) => e.kind).filter((kind) => kind.startsWith('points.'))).toEqual([
      'points.credited',
      'points.reversed',
    ]);
  });

  it('the same return sent ten times at once takes back once', async () => {
    const username = await newParticipant();
    const original = await sent(event('r.purchase', username, { amount: '80.00' }));
    const body = returnOf({ id: original.id, username }, { amount: '40.00' });
    const replies = await Promise.all(Array.from({ length: 10 }, () => send(body)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(replies.filter((r) => !r.json<ProgramEventReply>().replayed)).toHaveLength(1);
    for (const reply of replies) expect(reply.json<ProgramEventReply>()).toMatchObject({ id: body.id, points: -40 });
    expect(await state(username)).toEqual([40, 0]);
    expect(await getEvent(original.id)).toMatchObject({ returnedAmount: '40.00', reversedPoints: 40 });
    // Another body under the id: 409.
    expect((await send({ ...body, amount: '10.00' })).statusCode).toBe(409);
  });

  it('takes a purchase and its return in one batch, in order; a return of nothing in it is refused alone', async () => {
    const username = await newParticipant();
    const purchase = event('r.purchase', username, { amount: '60.00' });
    const reply = await programCall(t.app, 'POST', paths.batch, {
      key,
      body: {
        events: [purchase, returnOf({ id: `nothing-${tag()}`, username }), returnOf({ id: purchase.id, username }, { amount: '30.00' })],
      },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const answer = reply.json<{ results: Array<{ status: number; event?: ProgramEventReply; error?: { message: string } }> }>();
    expect(answer.results.map((r) => r.status)).toEqual([201, 400, 201]);
    expect(answer.results[1]!.error!.message).toContain('No event');
    expect(answer.results[2]!.event).toMatchObject({ points: -30 });
    expect(await state(username)).toEqual([30, 0]);
  });

  it('partial returns take back in proportion to the cumulative amount: never drifting, all at the whole amount, never more', async () => {
    const username = await newParticipant();
    const original = await sent(event('r.purchase', username, { amount: '100.00' }));
    const taken = [];
    for (const amount of ['33.33', '33.33', '33.34', '10.00'])
      taken.push((await sent(returnOf({ id: original.id, username }, { amount }))).points);
    expect(taken).toEqual([-33, -33, -34, 0]);
    expect(await getEvent(original.id)).toMatchObject({ returnedAmount: '100.00', reversedPoints: 100 });
    // Past the original amount: 60 then what is left (40), then nothing.
    const second = await newParticipant();
    const other = await sent(event('r.purchase', second, { amount: '100.00' }));
    const points = [];
    for (const amount of ['60.00', '60.00', '60.00'])
      points.push((await sent(returnOf({ id: other.id, username: second }, { amount }))).points);
    expect(points).toEqual([-60, -40, 0]);
    expect(await state(second)).toEqual([0, 0]);
  });

  it('takes from the pending points first, then from the balance', async () => {
    const username = await newParticipant();
    const original = await sent(event('m.purchase', username));
    expect([original.points, original.pendingPoints]).toEqual([100, 100]);
    expect(await state(username)).toEqual([100, 100]);
    // Half of the amount: 100 points, all of them pending.
    const half = await sent(returnOf({ id: original.id, username }, { amount: '50.00' }));
    expect([half.points, half.pendingPoints, half.debtPoints]).toEqual([0, -100, 0]);
    expect(half.lines.map((l) => [l.ruleId, l.points, l.pending])).toEqual([['mix-later', -100, true]]);
    expect(await state(username)).toEqual([100, 0]);
    // A quarter more: 50 from the balance.
    const quarter = await sent(returnOf({ id: original.id, username }, { amount: '25.00' }));
    expect([quarter.points, quarter.pendingPoints]).toEqual([-50, 0]);
    expect(await state(username)).toEqual([50, 0]);
    // The release finds the pending line taken back: nothing to credit.
    await release('2026-06-17T00:00:00Z');
    expect(await state(username)).toEqual([50, 0]);
    expect((await getEvent(original.id)).lines.find((l) => l.ruleId === 'mix-later')).toMatchObject({ reversedPoints: 100 });
  });

  it('never takes the balance below zero: what it cannot take back is a debt, on the return and on the participant page', async () => {
    const username = await newParticipant();
    const original = await sent(event('r.purchase', username));
    await spend(username, 80);
    const returned = await sent(returnOf({ id: original.id, username }));
    expect([returned.points, returned.pendingPoints, returned.debtPoints]).toEqual([-20, 0, 80]);
    expect(returned.lines[0]).toMatchObject({ points: -20, debtPoints: 80 });
    expect(returned.lines[0]!.calculation).toContain('80 not covered by the balance: owed');
    expect(await state(username)).toEqual([0, 0]);
    // The original is reversed in all (debt included): a further return takes nothing.
    expect(await getEvent(original.id)).toMatchObject({ reversedPoints: 100 });
    expect((await sent(returnOf({ id: original.id, username }))).points).toBe(0);
    const page = await participantEvents(t.database.db, clientId, (await row(username)).id, {});
    expect(page.events.find((e) => e.id === returned.id)).toMatchObject({ debtPoints: 80, type: 'return' });
    // The page's total of what is owed, over all the participant's events, whatever page is read.
    expect(page.owedPoints).toBe(80);
    expect((await participantEvents(t.database.db, clientId, (await row(username)).id, { limit: 1 })).owedPoints).toBe(80);
    // A fixed-points event without an amount is returned in whole.
    const visit = await sent({ id: `v-${tag()}`, type: 'visit', username, occurredAt: '2026-06-05T10:00:00Z' });
    expect(visit.points).toBe(40);
    expect((await sent(returnOf({ id: visit.id, username }))).points).toBe(-40);
  });

  it("gives the caps and the budget back what a return took back: a returned purchase frees the participant's monthly cap", async () => {
    const username = await newParticipant();
    const budget = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('earning_rule_counters')
            .select('points')
            .where('client_id', '=', clientId)
            .where('rule_id', '=', 'shop')
            .where('participant_id', '=', '')
            .executeTakeFirstOrThrow()
        ).points,
      );
    const big = await sent(event('r.purchase', username, { amount: '300.00', occurredAt: '2026-10-02T10:00:00Z' }));
    expect(big.points).toBe(300);
    expect((await sent(event('r.purchase', username, { amount: '50.00', occurredAt: '2026-10-03T10:00:00Z' }))).points).toBe(0);
    const budgetBefore = await budget();
    await sent(returnOf({ id: big.id, username }, { amount: '100.00', occurredAt: '2026-10-04T10:00:00Z' }));
    expect(await budget()).toBe(budgetBefore - 100);
    expect((await sent(event('r.purchase', username, { amount: '150.00', occurredAt: '2026-10-05T10:00:00Z' }))).points).toBe(100);
  });

  it('refuses bad returns with 400 and writes nothing', async () => {
    const username = await newParticipant();
    const stranger = await newParticipant();
    const original = await sent(event('r.purchase', username, { amount: '50.00' }));
    const visit = await sent({ id: `v-${tag()}`, type: 'visit', username, occurredAt: '2026-06-05T10:00:00Z' });
    const aReturn = await sent(returnOf({ id: original.id, username }, { amount: '1.00' }));
    const base = returnOf({ id: original.id, username });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...base, references: undefined }, 'references.originalEventId'],
      [{ ...base, references: { order: original.id } }, 'references.originalEventId'],
      [{ ...base, references: { originalEventId: `nothing-${tag()}` } }, 'No event'],
      [{ ...base, references: { originalEventId: '' } }, 'references'],
      [{ ...base, username: stranger }, "another participant's"],
      [{ ...base, references: { originalEventId: aReturn.id } }, 'is a return itself'],
      [{ ...base, references: { originalEventId: visit.id }, amount: '1.00' }, 'has no amount'],
      [{ ...base, amount: '0.00' }, 'more than 0'],
      [{ ...base, amount: '50.01' }, 'more than the original'],
      [{ ...base, amount: '-5' }, 'amount'],
      [{ ...base, amount: '1,5' }, 'amount'],
      [{ ...base, currency: 'USD' }, 'currency'],
      [{ ...base, occurredAt: '2026-06-01T10:00:00Z' }, 'before its original'],
      [{ ...base, references: { originalEventId: 'x\u0001y' } }, 'control characters'],
      [{ ...base, occurredAt: '2099-01-01T00:00:00Z' }, 'ahead'],
    ];
    const before = [await count('participant_events'), await count('ledger_entries'), await count('participant_event_lines')];
    const stateBefore = await state(username);
    for (const [body, words] of bad) {
      const reply = await send(body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(400);
      expect(reply.json<{ errorCode: number; message: string }>()).toMatchObject({ errorCode: ErrorCode.validation });
      expect(reply.json<{ message: string }>().message).toContain(words);
    }
    // Another client's event is nobody's.
    const otherKey = (await makeKey(t.database.db, OTHER_CLIENT_ID, ['events:write'])).key;
    expect((await send({ ...base, username: 'demo' }, otherKey)).statusCode).toBe(400);
    expect([await count('participant_events'), await count('ledger_entries'), await count('participant_event_lines')]).toEqual(before);
    expect(await state(username)).toEqual(stateBefore);
    expect(await getEvent(original.id)).toMatchObject({ reversedPoints: 1, returnedAmount: '1.00' });
  });

  it('100 returns at once for one event, summing past it, take back exactly what it earned', async () => {
    const username = await newParticipant();
    const original = await sent(event('r.purchase', username, { amount: '150.00', occurredAt: '2026-11-02T10:00:00Z' }));
    expect(original.points).toBe(150);
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send(returnOf({ id: original.id, username }, { amount: i % 2 === 0 ? '2.50' : '1.75', occurredAt: '2026-11-03T10:00:00Z' })),
      ),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(Array(100).fill(201));
    const total = replies.reduce((sum, r) => sum + r.json<ProgramEventReply>().points, 0);
    expect(total).toBe(-150);
    expect(await state(username)).toEqual([0, 0]);
    expect(await getEvent(original.id)).toMatchObject({ returnedAmount: '150.00', reversedPoints: 150 });
  });

  it('a return racing the release of its pending line takes each point once', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => newParticipant()));
    const originals: ProgramEventReply[] = [];
    for (const username of users) originals.push(await sent(event('p.purchase', username, { occurredAt: '2026-10-10T06:00:00Z' })));
    const outcomes = await Promise.all([
      release('2026-10-25T00:00:00Z'),
      ...originals.map((o) => send(returnOf({ id: o.id, username: o.username }, { occurredAt: '2026-10-24T23:00:00Z' }))),
    ]);
    for (const reply of outcomes.slice(1)) expect((reply as { statusCode: number }).statusCode).toBe(201);
    // Whatever came first, the 210 points earned are all taken back: pending or released then returned.
    for (const username of users) expect(await state(username)).toEqual([0, 0]);
    for (const o of originals) expect(await getEvent(o.id)).toMatchObject({ reversedPoints: 210 });
    await expectLedgerMatchesBalances(t.database.db);
  });
});
