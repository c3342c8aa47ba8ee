import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programApiPaths } from '@rewards/contract';
import type { ImportJob } from '@rewards/contract/console-imports';
import type { EarningRuleInput } from '@rewards/contract/earning-rules';
import type { ProgramEventReply } from '@rewards/contract/events';
import { dialects } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { DEMO_CLIENT_ID } from '../../db/seed/demo.ts';
import { createRule } from '../earning-rules/service.ts';
import { recordEvent } from '../events/service.ts';
import { makeKey, participantBody, programCall, tag } from '../program-api/test-support.ts';
import { previewImportJob } from './preview.ts';
import { runImportJob } from './run.ts';
import { requestHash } from '../../http/request-hash.ts';
import { checkEventLine, hashOf, type EventLine } from '../events/bulk.ts';
import { confirmImport, importRejects, readImport, stageImport, type ImportActor } from './service.ts';

/**
 * The events kind of import (issue 32 §1, decision 099) on both engines: a file's preview earns
 * what POST events would, the run posts each event once (a re-run and a resume post nothing more),
 * caps are exact across a file, bad lines are refused with the API's words and the rest posted,
 * and an id sent through the API already is a repeat.
 */
describe.each(dialects)('events through the imports on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  const actor: ImportActor = { name: 'pm@acme.test', kind: 'staff', origin: 'test' };
  const operator = { kind: 'operator' as const, name: 'events-import-test', origin: 'test' };
  const launched = { now: new Date('2026-01-01T00:00:00Z') };
  const addRule = (rule: EarningRuleInput & { id: string }) =>
    createRule(t.database.db, operator, DEMO_CLIENT_ID, rule, 'import test', launched);
  const newParticipant = async () => {
    const username = `imp.${tag()}`;
    const made = await programCall(t.app, 'PUT', programApiPaths.participant(username), { key, body: participantBody() });
    expect(made.statusCode, made.body).toBe(201);
    return username;
  };
  /** What POST events does with the body (its route calls recordEvent with the key's caller). */
  const send = async (body: Record<string, unknown>): Promise<ProgramEventReply> =>
    (
      await recordEvent(
        t.database.db,
        { keyId: 'imports-test', clientId: DEMO_CLIENT_ID, keyName: 'imports test', scopes: ['events:write'] },
        body,
      )
    ).reply;
  const csv = (lines: string[]) =>
    (async function* () {
      yield lines.join('\n') + '\n';
    })();
  /** Staged and previewed; the job as the console reads it. */
  const preview = async (lines: string[], batchSize?: number): Promise<ImportJob> => {
    const job = await stageImport(t.database.db, actor, DEMO_CLIENT_ID, 'events', `events-${tag()}.csv`, csv(lines));
    expect(await previewImportJob(t.database.db, job.id, batchSize ? { batchSize } : {})).toBe('staged');
    return (await readImport(t.database.db, DEMO_CLIENT_ID, job.id))!;
  };
  const run = async (job: ImportJob, batchSize?: number): Promise<ImportJob> => {
    await confirmImport(t.database.db, actor, DEMO_CLIENT_ID, job.id, 'events import test');
    expect(await runImportJob(t.database.db, job.id, batchSize ? { batchSize } : {})).toBe('done');
    return (await readImport(t.database.db, DEMO_CLIENT_ID, job.id))!;
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
      ).balance ?? 0,
    );
  const pendingOf = async (username: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('participants')
          .select('pending_points')
          .where('client_id', '=', DEMO_CLIENT_ID)
          .where('username_key', '=', username.toLowerCase())
          .executeTakeFirstOrThrow()
      ).pending_points,
    );
  const eventRow = (id: string) =>
    t.database.db
      .selectFrom('participant_events')
      .selectAll()
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('id', '=', id)
      .executeTakeFirst();
  const linesOf = (id: string) =>
    t.database.db
      .selectFrom('participant_event_lines')
      .select(['rule_id', 'rule_version', 'points', 'pending', 'available_at', 'calculation', 'trims', 'participant_id'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('event_id', '=', id)
      .orderBy('line')
      .execute();
  const entryOf = (id: string) =>
    t.database.db
      .selectFrom('ledger_entries')
      .select(['amount', 'description', 'kind', 'occurred_at', 'participant_id'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('reference', '=', `event:${id}`)
      .execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    key = (await makeKey(t.database.db, DEMO_CLIENT_ID, ['events:write', 'participants:write'])).key;
    // Types of this file's own, so the rules of the events tests and these never meet.
    await addRule({
      id: 'imp-shoes',
      name: 'Shoes',
      event: 'imp.purchase',
      conditions: [{ attribute: 'category', in: ['shoes'] }],
      earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
      priority: 10,
      text: { 'en-US': '2 points per euro on shoes' },
    });
    await addRule({
      id: 'imp-web',
      name: 'Web bonus',
      event: 'imp.purchase',
      conditions: [{ attribute: 'channel', equals: 'web' }],
      earn: { points: 50 },
      pendingDays: 14,
      priority: 5,
    });
    await addRule({
      id: 'imp-monthly',
      name: 'Every purchase',
      event: 'imp.purchase',
      earn: { points: 40 },
      caps: { participant: { points: 100, per: 'month' } },
    });
    await addRule({
      id: 'imp-weekend',
      name: 'Weekend double',
      event: 'imp.purchase',
      conditions: [{ dayOfWeek: ['sat', 'sun'] }],
      earn: { multiply: '2', rules: ['imp-shoes'] },
    });
    await addRule({
      id: 'imp-visit',
      name: 'Visits',
      event: 'imp.visit',
      earn: { points: 7 },
      caps: { participant: { points: 500, per: 'month' } },
    });
    await addRule({ id: 'imp-budget', name: 'First come', event: 'imp.budgeted', earn: { points: 30 }, caps: { budget: { points: 100 } } });
  });
  afterAll(async () => {
    await expectLedgerMatchesBalances(t.database.db);
    await t.close();
  });

  const HEADER = 'id,type,username,occurredAt,amount,currency,category,attr.channel';
  /** A mix: shoes on a Saturday (promotion), a bag in store, a capped run of purchases, one in a later month. */
  const purchases = (username: string, prefix: string) => [
    `${prefix}-1,imp.purchase,${username},2026-06-06T10:00:00Z,120.50,EUR,Shoes,web`,
    `${prefix}-2,imp.purchase,${username},2026-06-08T10:00:00Z,30,EUR,bags,store`,
    `${prefix}-3,imp.purchase,${username},2026-06-09T10:00:00Z,10.99,EUR,shoes,`,
    `${prefix}-4,imp.purchase,${username},2026-06-10T10:00:00Z,,,,web`,
    `${prefix}-5,imp.purchase,${username},2026-07-01T10:00:00Z,5,EUR,shoes,store`,
  ];
  const asBody = (line: string) => {
    const [id, type, username, occurredAt, amount, currency, category, channel] = line.split(',');
    const attributes = { ...(category ? { category } : {}), ...(channel ? { channel } : {}) };
    return {
      id: id!,
      type: type!,
      username: username!,
      occurredAt: occurredAt!,
      ...(amount ? { amount } : {}),
      ...(currency ? { currency } : {}),
      ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
    };
  };

  it("previews each line's points as the API earns them, then posts each event as POST events keeps it", async () => {
    const viaFile = await newParticipant();
    const viaApi = await newParticipant();
    const fileLines = purchases(viaFile, `f-${tag()}`);
    const apiLines = purchases(viaApi, `a-${tag()}`);
    const job = await preview([HEADER, ...fileLines], 2);
    const replies: ProgramEventReply[] = [];
    for (const line of apiLines) replies.push(await send(asBody(line)));

    expect(job.preview).toMatchObject({ added: 5, unchanged: 0, rejected: 0 });
    const sample = job.eventsPreview!.lines;
    expect(sample.map((l) => [l.line, l.outcome, l.points, l.pendingPoints])).toEqual(
      replies.map((r, i) => [i + 2, 'added', r.points, r.pendingPoints]),
    );
    // Something to compare: the shoes on a Saturday doubled, the cap cut, pending held.
    expect(replies.map((r) => [r.points, r.pendingPoints])).toEqual([
      [241 + 241 + 40, 50],
      [40, 0],
      [21 + 20, 0],
      [0, 50],
      [10 + 40, 0],
    ]);
    expect(job.preview!.pointsIn).toBe(replies.reduce((s, r) => s + r.points, 0));
    expect(job.preview!.pendingPoints).toBe(100);
    expect(sample[0]!.detail).toBe('Shoes 241 + Web bonus 50 (pending 14 days) + Every purchase 40 + Weekend double 241');
    expect(job.eventsPreview!.rules.find((r) => r.ruleId === 'imp-monthly')).toEqual({
      ruleId: 'imp-monthly',
      name: 'Every purchase',
      points: 140,
      pendingPoints: 0,
      events: 4,
    });
    expect(await eventRow(fileLines[0]!.split(',')[0]!)).toBeUndefined();
    expect(await balanceOf(viaFile)).toBe(0);

    const done = await run(job, 2);
    expect(done.result).toEqual(job.preview);
    expect(await balanceOf(viaFile)).toBe(await balanceOf(viaApi));
    expect(await pendingOf(viaFile)).toBe(100);
    for (const [i, line] of fileLines.entries()) {
      const id = line.split(',')[0]!;
      const apiId = apiLines[i]!.split(',')[0]!;
      const [fileEvent, apiEvent] = [await eventRow(id), await eventRow(apiId)];
      expect({ ...fileEvent, id: '', username: '', participant_id: '', body_hash: '', received_at: '', key_id: '' }).toEqual({
        ...apiEvent,
        id: '',
        username: '',
        participant_id: '',
        body_hash: '',
        received_at: '',
        key_id: '',
      });
      expect(fileEvent!.key_id).toBe(`import:${job.id}`);
      const strip = (rows: Awaited<ReturnType<typeof linesOf>>) => rows.map(({ participant_id: _p, ...rest }) => rest);
      expect(strip(await linesOf(id))).toEqual(strip(await linesOf(apiId)));
      expect((await linesOf(id)).every((l) => l.participant_id === fileEvent!.participant_id)).toBe(true);
      const strip2 = (rows: Awaited<ReturnType<typeof entryOf>>) => rows.map(({ participant_id: _p, ...rest }) => rest);
      expect(strip2(await entryOf(id))).toEqual(strip2(await entryOf(apiId)));
    }
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('action', '=', 'events.import')
      .where('subject', '=', job.fileName)
      .execute();
    expect(audit).toEqual([{ action: 'events.import', actor: 'pm@acme.test' }]);
  });

  it('posts each event once: the same file again, and a run resumed after a crash, post nothing more', async () => {
    const username = await newParticipant();
    const prefix = `r-${tag()}`;
    const lines = Array.from({ length: 12 }, (_, i) => `${prefix}-${i},imp.visit,${username},2026-06-0${1 + (i % 9)}T10:00:00Z,,,,`);
    const first = await preview([HEADER, ...lines]);
    await confirmImport(t.database.db, actor, DEMO_CLIENT_ID, first.id, 'resume');
    let clock = Date.now();
    const now = () => new Date(clock);
    const crash = new Error('killed');
    await expect(
      runImportJob(t.database.db, first.id, {
        batchSize: 5,
        now,
        holder: 'first',
        afterBatch: (done) => {
          if (done >= 5) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(await balanceOf(username)).toBe(35);
    clock += 3 * 60_000;
    expect(await runImportJob(t.database.db, first.id, { batchSize: 5, now, holder: 'second' })).toBe('done');
    expect((await readImport(t.database.db, DEMO_CLIENT_ID, first.id))!.result).toMatchObject({ added: 12, unchanged: 0, pointsIn: 84 });
    expect(await balanceOf(username)).toBe(84);

    const again = await preview([HEADER, ...lines]);
    expect(again.preview).toMatchObject({ added: 0, unchanged: 12, rejected: 0, pointsIn: 0 });
    expect(again.eventsPreview!.lines[0]).toMatchObject({ outcome: 'unchanged', points: 0 });
    expect((await run(again)).result).toMatchObject({ added: 0, unchanged: 12, pointsIn: 0 });
    expect(await balanceOf(username)).toBe(84);
  });

  it('takes a monthly cap exactly across a file: 300 lines of one participant, over many batches', async () => {
    const username = await newParticipant();
    const prefix = `c-${tag()}`;
    // 7 points a visit against 500 a month: June gives 500 exactly (71 full visits and 3 points), July another 500.
    const lines = Array.from(
      { length: 300 },
      (_, i) => `${prefix}-${i},imp.visit,${username},2026-0${i < 150 ? 6 : 7}-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z,,,,`,
    );
    const job = await preview([HEADER, ...lines], 64);
    expect(job.preview).toMatchObject({ added: 300, pointsIn: 1000 });
    // The sample is the file's first 200 lines: June's 150 (72 earning: 71 × 7 and 3) and 50 of July's.
    expect(job.eventsPreview!.lines).toHaveLength(200);
    expect(job.eventsPreview!.lines.filter((l) => l.points > 0)).toHaveLength(122);
    const done = await run(job, 64);
    expect(done.result).toEqual(job.preview);
    expect(await balanceOf(username)).toBe(1000);
    // Another event through the API in June earns nothing: the cap is spent.
    const more = await send({ id: `${prefix}-api`, type: 'imp.visit', username, occurredAt: '2026-06-20T10:00:00Z' });
    expect(more.points).toBe(0);
  });

  it('takes a cap exactly when events come through the API while the file runs', async () => {
    const username = await newParticipant();
    const prefix = `k-${tag()}`;
    // 7 a visit against 500 in August: 120 lines of the file and 40 events through the API at once, 1,120 asked for.
    const lines = Array.from({ length: 120 }, (_, i) => `${prefix}-${i},imp.visit,${username},2026-08-0${1 + (i % 9)}T10:00:00Z,,,,`);
    const job = await preview([HEADER, ...lines]);
    await confirmImport(t.database.db, actor, DEMO_CLIENT_ID, job.id, 'concurrent');
    const [ran, ...replies] = await Promise.all([
      runImportJob(t.database.db, job.id, { batchSize: 16 }),
      ...Array.from({ length: 40 }, (_, i) =>
        send({ id: `${prefix}-api-${i}`, type: 'imp.visit', username, occurredAt: '2026-08-15T10:00:00Z' }),
      ),
    ]);
    expect(ran).toBe('done');
    const fromFile = (await readImport(t.database.db, DEMO_CLIENT_ID, job.id))!.result!.pointsIn;
    const fromApi = replies.reduce((sum, r) => sum + r.points, 0);
    expect(fromFile + fromApi).toBe(500);
    expect(await balanceOf(username)).toBe(500);
  });

  it("refuses bad lines with the API's words and posts the rest; an id sent through the API already is a repeat", async () => {
    const username = await newParticipant();
    const prefix = `b-${tag()}`;
    const sent = await send({ id: `${prefix}-api`, type: 'imp.visit', username, occurredAt: '2026-06-02T10:00:00Z' });
    expect(sent.points).toBe(7);
    const job = await preview([
      HEADER,
      `${prefix}-1,imp.visit,${username},2026-06-03T10:00:00Z,,,,`,
      `${prefix}-api,imp.visit,${username},2026-06-02T10:00:00+00:00,,,,`,
      `${prefix}-2,imp.visit,${username},2026-06-03,,,,`,
      `${prefix}-3,imp.visit,${username},2026-06-03T10:00:00Z,12.5.0,EUR,,`,
      `${prefix}-4,imp.visit,nobody-${prefix},2026-06-03T10:00:00Z,,,,`,
      `${prefix}-5,imp.unknown,${username},2026-06-03T10:00:00Z,,,,`,
      `${prefix}-6,return,${username},2026-06-03T10:00:00Z,10,EUR,,`,
      `${prefix}-1,imp.visit,${username},2026-06-04T10:00:00Z,,,,`,
      `${prefix}-7,imp.visit,${username},2126-06-03T10:00:00Z,,,,`,
      `${prefix}-api,imp.visit,${username},2026-06-09T10:00:00Z,,,,`,
      `${prefix}-8,imp.visit,${username}`,
      `${prefix}-9,imp.visit,${username},2026-06-05T10:00:00Z,,,,`,
    ]);
    expect(job.preview).toMatchObject({ added: 2, unchanged: 1, rejected: 9, unknownUsernames: 1, pointsIn: 14 });
    const reasons = job.rejects.map((r) => [r.line, r.reason]);
    expect(reasons).toEqual([
      [4, expect.stringMatching(/^The event is not valid: .*occurredAt is an ISO 8601 time with its offset/)],
      [5, expect.stringMatching(/^The event is not valid: amount: /)],
      [6, `No participant "nobody-${prefix}" in this program`],
      [7, expect.stringMatching(/^The event type "imp.unknown" is not one of this program's/)],
      [8, expect.stringMatching(/^A return is not taken from a file of events yet/)],
      [9, `id ${prefix}-1 repeats line 2`],
      [10, expect.stringMatching(/is more than a day ahead: an event is sent once it happened$/)],
      [11, `id ${prefix}-api repeats line 3`],
      [12, '3 fields where the header has 8'],
    ]);
    const done = await run(job);
    expect(done.result).toEqual(job.preview);
    expect((await importRejects(t.database.db, job.id, 'run', 0, 100)).map((r) => r.line)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(await balanceOf(username)).toBe(7 + 14);
    expect((await eventRow(`${prefix}-api`))!.key_id).not.toMatch(/^import:/);

    const conflicting = await preview([HEADER, `${prefix}-api,imp.visit,${username},2026-06-09T10:00:00Z,,,,`]);
    expect(conflicting.rejects).toEqual([{ line: 2, reason: `The event "${prefix}-api" was sent already with another body` }]);
  });

  it('hashes an event as the API does (the repeat check), whatever its attributes, references and text', () => {
    const bodies = [
      { id: 'h1', type: 'purchase', username: 'Ann', occurredAt: '2026-06-01T10:00:00+02:00' },
      {
        id: 'h2',
        type: 'course.completed',
        username: ' Zoë "Q" ',
        occurredAt: '2026-06-01T10:00:00.123Z',
        amount: '10.50',
        currency: 'EUR',
        attributes: { z: 'last', a: 'first', é: 'accent', B: 'upper', 'quote"d': 'back\\slash' },
        references: { originalEventId: 'x', a: 'y' },
      },
    ];
    for (const body of bodies) {
      const line = checkEventLine(2, body) as EventLine;
      // The generic canonical hash of the fields the API hashed before the hand-written one.
      const { event, occurredAt } = line;
      const generic = requestHash({
        type: event.type,
        username: event.username.toLowerCase(),
        occurredAt,
        amount: event.amount ?? null,
        currency: event.currency ?? null,
        attributes: event.attributes ?? null,
        references: event.references ?? null,
      });
      expect(hashOf(line)).toBe(generic);
    }
  });

  it("takes a budget the file runs out in the file's order, as the preview said", async () => {
    const [a, z] = [`zz.${tag()}`, `aa.${tag()}`];
    for (const username of [a, z]) {
      const made = await programCall(t.app, 'PUT', programApiPaths.participant(username), { key, body: participantBody() });
      expect(made.statusCode).toBe(201);
    }
    const prefix = `g-${tag()}`;
    // 30 a line against 100 in all: lines 2, 3, 4 get 30, line 5 gets 10, then nothing. By participant, aa… would come first.
    const lines = [a, a, a, z, z, z].map((u, i) => `${prefix}-${i},imp.budgeted,${u},2026-06-03T10:00:00Z,,,,`);
    const job = await preview([HEADER, ...lines]);
    expect(job.eventsPreview!.lines.map((l) => l.points)).toEqual([30, 30, 30, 10, 0, 0]);
    expect(job.eventsPreview!.budgetRanOut).toEqual(['imp-budget']);
    await run(job, 2);
    expect([await balanceOf(a), await balanceOf(z)]).toEqual([90, 10]);
  });
});
