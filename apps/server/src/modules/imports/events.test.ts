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
import { checkEventLine, hashOf, reasonOf, type EventLine } from '../events/bulk.ts';
import { returnErrors } from '../events/returns.ts';
import { appendLedgerEntry, writeToLedger } from '../ledger/service.ts';
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
    await addRule({ id: 'imp-gift', name: 'Gift', event: 'imp.gift', earn: { points: 30 }, caps: { budget: { points: 1000 } } });
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
      [8, reasonOf(returnErrors.noOriginal())],
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

  /** Points spent outside events (a redemption), so a return finds the balance short. */
  const spend = async (username: string, points: number) => {
    const { id } = await t.database.db
      .selectFrom('participants')
      .select('id')
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('username_key', '=', username.toLowerCase())
      .executeTakeFirstOrThrow();
    await writeToLedger(t.database.db, (trx) =>
      appendLedgerEntry(trx, {
        clientId: DEMO_CLIENT_ID,
        participantId: id,
        occurredAt: '2026-06-04T10:00:00Z',
        description: 'Spent',
        amount: -points,
        kind: 'redemption',
      }),
    );
  };
  const RETURNS_HEADER = 'id,type,username,occurredAt,amount,currency,category,attr.channel,ref.originalEventId';
  /** Purchases and returns of one participant: of an event sent before the file (-0) and of lines of the file, whole and partial. */
  const withReturns = (username: string, prefix: string) => [
    `${prefix}-1,imp.purchase,${username},2026-06-06T10:00:00Z,120.50,EUR,shoes,web,`,
    `${prefix}-2,return,${username},2026-06-07T10:00:00Z,50,EUR,,,${prefix}-0`,
    `${prefix}-3,return,${username},2026-06-08T10:00:00Z,,,,,${prefix}-1`,
    `${prefix}-4,return,${username},2026-06-08T11:00:00Z,,,,,${prefix}-1`,
    `${prefix}-5,imp.purchase,${username},2026-06-09T10:00:00Z,10.99,EUR,shoes,,`,
    `${prefix}-6,return,${username},2026-06-10T10:00:00Z,5.00,EUR,,,${prefix}-5`,
  ];
  const returnBody = (line: string) => {
    const cells = line.split(',');
    const original = cells[8];
    return { ...asBody(cells.slice(0, 8).join(',')), ...(original ? { references: { originalEventId: original } } : {}) };
  };
  const allLinesOf = (id: string) =>
    t.database.db
      .selectFrom('participant_event_lines')
      .select([
        'line',
        'rule_id',
        'rule_version',
        'kind',
        'points',
        'pending',
        'available_at',
        'calculation',
        'trims',
        'released_at',
        'reversed_points',
        'debt_points',
        'entry_id',
      ])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('event_id', '=', id)
      .orderBy('line')
      .execute();
  const fullEntryOf = (id: string) =>
    t.database.db
      .selectFrom('ledger_entries')
      .select(['amount', 'description', 'description_key', 'description_params', 'kind', 'occurred_at'])
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('reference', '=', `event:${id}`)
      .execute();

  it('takes returns from a file as POST events takes them: of earlier events and of lines of the same file, whole and partial', async () => {
    const viaFile = await newParticipant();
    const viaApi = await newParticipant();
    const [pf, pa] = [`rf-${tag()}`, `ra-${tag()}`];
    // Before the file: a purchase each through the API (shoes 200, web 50 pending, every purchase 40), then 230 spent.
    for (const [username, prefix] of [
      [viaFile, pf],
      [viaApi, pa],
    ] as const) {
      const first = await send({ ...asBody(`${prefix}-0,imp.purchase,${username},2026-06-03T10:00:00Z,100,EUR,shoes,web`) });
      expect([first.points, first.pendingPoints]).toEqual([240, 50]);
      await spend(username, 230);
    }
    const fileLines = withReturns(viaFile, pf);
    const job = await preview([RETURNS_HEADER, ...fileLines]);
    const replies: ProgramEventReply[] = [];
    for (const line of withReturns(viaApi, pa)) replies.push(await send(returnBody(line)));
    // Something to compare: pending taken first, a debt, a second whole return taking nothing, a cap given back and taken again.
    // `|| 0`: the API's reply says -0 where a return took nothing (JSON writes it 0).
    expect(replies.map((r) => [r.points || 0, r.pendingPoints || 0, r.debtPoints])).toEqual([
      [522, 50, 0],
      [-95, -50, 0],
      [-437, -50, 85],
      [0, 0, 0],
      [61, 0, 0],
      [-27, 0, 0],
    ]);

    expect(job.preview).toMatchObject({ added: 6, unchanged: 0, rejected: 0, pointsIn: 583, pointsOut: 559, pendingPoints: -50 });
    expect(job.eventsPreview!.fileOrder).toBeUndefined();
    const sample = job.eventsPreview!.lines;
    expect(sample.map((l) => [l.line, l.outcome, l.points, l.pendingPoints])).toEqual(
      replies.map((r, i) => [i + 2, r.type === 'return' ? 'returned' : 'added', r.points || 0, r.pendingPoints || 0]),
    );
    expect(sample[1]!.detail).toBe(`Return of ${pf}-0: Web bonus -50 (pending) + Shoes -95`);
    expect(sample[2]!.detail).toBe(
      `Return of ${pf}-1: Web bonus -50 (pending) + Shoes -241 + Every purchase -40 + Weekend double -241 (85 not covered by the balance: owed)`,
    );
    expect(sample[3]!.detail).toBe(`Return of ${pf}-1: nothing left to take back, kept with 0 points`);

    // Batches of two: a return of a line of an earlier batch (-3 of -1) and of the same batch (-6 of -5).
    const done = await run(job, 2);
    expect(done.result).toEqual(job.preview);
    expect(await balanceOf(viaFile)).toBe(await balanceOf(viaApi));
    expect(await pendingOf(viaFile)).toBe(await pendingOf(viaApi));
    expect(await pendingOf(viaFile)).toBe(0);
    const same = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value ?? null)
          .replaceAll(pf, 'P')
          .replaceAll(pa, 'P'),
      ) as unknown;
    const ids = ['0', ...fileLines.map((_, i) => String(i + 1))];
    for (const n of ids) {
      const [fileEvent, apiEvent] = [await eventRow(`${pf}-${n}`), await eventRow(`${pa}-${n}`)];
      const strip = (row: typeof fileEvent) =>
        same({ ...row, username: '', participant_id: '', body_hash: '', received_at: '', key_id: '' });
      expect(strip(fileEvent), `event ${n}`).toEqual(strip(apiEvent));
      const lines = async (id: string) => (await allLinesOf(id)).map((l) => ({ ...l, entry_id: l.entry_id !== null }));
      expect(same(await lines(`${pf}-${n}`)), `lines of ${n}`).toEqual(same(await lines(`${pa}-${n}`)));
      expect(same(await fullEntryOf(`${pf}-${n}`)), `entry of ${n}`).toEqual(same(await fullEntryOf(`${pa}-${n}`)));
    }
    expect((await eventRow(`${pf}-3`))!.debt_points).toBe(85);
    expect((await eventRow(`${pf}-1`))!.key_id).toBe(`import:${job.id}`);
  });

  it('refuses a bad return line with the words of POST events and posts the rest; a return twice in a file takes back once', async () => {
    const username = await newParticipant();
    const other = await newParticipant();
    const q = `rq-${tag()}`;
    await send(asBody(`${q}-0,imp.purchase,${other},2026-06-03T10:00:00Z,20,EUR,shoes,`));
    const job = await preview([
      RETURNS_HEADER,
      `${q}-1,imp.purchase,${username},2026-06-10T10:00:00Z,20,EUR,shoes,,`,
      `${q}-2,return,${username},2026-06-11T10:00:00Z,,,,,`,
      `${q}-3,return,${username},2026-06-11T10:00:00Z,,,,,nope-${q}`,
      `${q}-4,return,${username},2026-06-11T10:00:00Z,,,,,${q}-0`,
      `${q}-5,return,${username},2026-06-11T10:00:00Z,30,EUR,,,${q}-1`,
      `${q}-6,return,${username},2026-06-11T10:00:00Z,,,,,${q}-1`,
      `${q}-6,return,${username},2026-06-11T10:00:00Z,,,,,${q}-1`,
      `${q}-7,return,${username},2026-06-12T10:00:00Z,,,,,${q}-6`,
      `${q}-8,return,${username},2026-06-09T10:00:00Z,,,,,${q}-1`,
      `${q}-9,return,${username},2026-06-12T10:00:00Z,,,,,${q}-1`,
      `${q}-10,return,${username},2026-06-12T10:00:00Z,,,,,${q}-11`,
      `${q}-11,imp.purchase,${username},2026-06-12T10:00:00Z,5,EUR,,,`,
    ]);
    expect(job.rejects.map((r) => [r.line, r.reason])).toEqual([
      [3, reasonOf(returnErrors.noOriginal())],
      [4, reasonOf(returnErrors.unknownOriginal(`nope-${q}`))],
      [5, reasonOf(returnErrors.othersEvent(`${q}-0`))],
      [6, reasonOf(returnErrors.amountAboveOriginal('30', '20'))],
      [8, `id ${q}-6 repeats line 7`],
      [9, reasonOf(returnErrors.returnOfReturn(`${q}-6`))],
      [10, reasonOf(returnErrors.beforeOriginal(`${q}-1`))],
      [12, reasonOf(returnErrors.unknownOriginal(`${q}-11`))],
    ]);
    // The words are POST events' own: the same return sent to it is refused with them.
    await expect(send(returnBody(`${q}-api,return,${username},2026-06-11T10:00:00Z,,,,,${q}-0`))).rejects.toThrow(
      returnErrors.othersEvent(`${q}-0`).message,
    );
    const sample = job.eventsPreview!.lines;
    expect(sample.find((l) => l.line === 5)).toMatchObject({ outcome: 'rejected', detail: reasonOf(returnErrors.othersEvent(`${q}-0`)) });
    // Shoes 40 and every purchase 40 taken back once by -6; -9 finds nothing left.
    expect(sample.filter((l) => l.outcome === 'returned').map((l) => [l.line, l.points])).toEqual([
      [7, -80],
      [11, 0],
    ]);
    // -1 earns 80 (shoes 40, every purchase 40), -11 40 (the monthly cap given back by -6).
    expect(job.preview).toMatchObject({ added: 4, rejected: 8, pointsIn: 120, pointsOut: 80 });
    // A return naming another participant's event or one not found: the run keeps the file's order, as the preview took it.
    expect(job.eventsPreview!.fileOrder).toBe(true);
    const done = await run(job, 3);
    expect(done.result).toEqual(job.preview);
    expect(await importRejects(t.database.db, job.id, 'run', 0, 100)).toEqual(job.rejects);
    expect(await balanceOf(username)).toBe(40);
    expect(await eventRow(`${q}-2`)).toBeUndefined();
    expect((await eventRow(`${q}-1`))!).toMatchObject({ reversed_points: 80, returned_amount: '20' });
    expect(await fullEntryOf(`${q}-9`)).toEqual([]);
  });

  it("runs a file with returns by participant, each participant's return after its purchase, across batches", async () => {
    const [a, z] = [`zz.${tag()}`, `aa.${tag()}`];
    for (const username of [a, z]) {
      const made = await programCall(t.app, 'PUT', programApiPaths.participant(username), { key, body: participantBody() });
      expect(made.statusCode).toBe(201);
    }
    const p = `rp-${tag()}`;
    // By participant (aa… first) the batches of two are [z's purchase, z's return], [a's purchase, a's return].
    const job = await preview([
      RETURNS_HEADER,
      `${p}-1,imp.visit,${a},2026-06-03T10:00:00Z,,,,,`,
      `${p}-2,imp.visit,${z},2026-06-03T10:00:00Z,,,,,`,
      `${p}-3,imp.visit,${a},2026-06-04T10:00:00Z,,,,,`,
      `${p}-4,return,${a},2026-06-05T10:00:00Z,,,,,${p}-1`,
      `${p}-5,return,${z},2026-06-05T10:00:00Z,,,,,${p}-2`,
    ]);
    expect(job.eventsPreview!.lines.map((l) => [l.outcome, l.points])).toEqual([
      ['added', 7],
      ['added', 7],
      ['added', 7],
      ['returned', -7],
      ['returned', -7],
    ]);
    expect(job.eventsPreview!.fileOrder).toBeUndefined();
    const done = await run(job, 2);
    expect(done.result).toEqual(job.preview);
    expect(done.result).toMatchObject({ added: 5, rejected: 0, pointsIn: 21, pointsOut: 14 });
    expect([await balanceOf(a), await balanceOf(z)]).toEqual([7, 0]);
  });

  it("keeps the file's order for a file whose return gives points back to a budget", async () => {
    const username = await newParticipant();
    const p = `rg-${tag()}`;
    const job = await preview([
      RETURNS_HEADER,
      `${p}-1,imp.gift,${username},2026-06-03T10:00:00Z,,,,,`,
      `${p}-2,return,${username},2026-06-04T10:00:00Z,,,,,${p}-1`,
    ]);
    expect(job.eventsPreview!.fileOrder).toBe(true);
    expect(job.eventsPreview!.budgetRanOut).toEqual([]);
    const done = await run(job);
    expect(done.result).toMatchObject({ added: 2, pointsIn: 30, pointsOut: 30 });
    const budget = await t.database.db
      .selectFrom('earning_rule_counters')
      .select('points')
      .where('client_id', '=', DEMO_CLIENT_ID)
      .where('rule_id', '=', 'imp-gift')
      .where('period', '=', 'budget')
      .executeTakeFirstOrThrow();
    expect(Number(budget.points)).toBe(0);
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
