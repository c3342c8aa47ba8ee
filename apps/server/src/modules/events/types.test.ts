import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { addGeneratedParticipants, generatedUsername } from '../../../test/points-files.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { ApiError } from '../../http/api-error.ts';
import type { ApiCaller } from '../api-keys/guard.ts';
import { listAudit } from '../audit/service.ts';
import { createRule, setRuleEnabled } from '../earning-rules/service.ts';
import { recordEvent } from './service.ts';
import { declareEventType, listEventTypes, retireEventType, type EventTypeEditor } from './types.ts';

/**
 * Declared event types (issue 32 §1, decision 100) on both engines: declared with a description
 * and taken by POST events at once; retired with a reason and refused from then on; declared
 * again; a rule's type counts as declared and cannot be retired while the rule earns; names
 * checked; roles; every change audited; ten declarations at once make one.
 */
describe.each(dialects)('declared event types on %s', (dialect) => {
  let database: TestDatabase;
  const clientId = `types-${randomBytes(4).toString('hex')}`;
  const operator: EventTypeEditor = { kind: 'operator', name: 'ops-tess', origin: 'test' };
  const caller: ApiCaller = { keyId: 'key-types', clientId, keyName: 'types', scopes: ['events:write'] };
  let n = 0;
  const event = (type: string) => ({
    id: `ev-${(n += 1)}`,
    type,
    username: generatedUsername(0),
    occurredAt: new Date(Date.now() - 60_000).toISOString(),
  });
  const refusal = async (work: Promise<unknown>): Promise<ApiError> => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  };
  const rowCount = async () =>
    Number(
      (
        await database.db
          .selectFrom('client_event_types')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('client_id', '=', clientId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await insertTestClient(database.db, clientId, { time_zone: 'Europe/Paris' });
    await addGeneratedParticipants(database.db, clientId, 1);
  });
  afterAll(() => database.drop());

  it('lists purchase and return built in; a declared type is taken by POST events at once, earning 0 without a rule', async () => {
    expect((await listEventTypes(database.db, clientId)).map((t) => [t.name, t.origin])).toEqual([
      ['purchase', 'built-in'],
      ['return', 'built-in'],
    ]);
    const unknown = await refusal(recordEvent(database.db, caller, event('course.completed')));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.message).toContain('"course.completed" is not one of this program\'s');

    const { type, auditId } = await declareEventType(database.db, operator, clientId, {
      name: ' course.completed ',
      description: 'The LMS sends it when a course is passed',
    });
    expect(type).toMatchObject({
      name: 'course.completed',
      origin: 'declared',
      description: 'The LMS sends it when a course is passed',
      declaredBy: 'ops-tess',
      retired: null,
      rules: [],
    });
    const [entry] = await listAudit(database.db, { clientId, action: 'event-types.', limit: 5 });
    expect(entry).toMatchObject({ id: auditId, action: 'event-types.declare', subject: 'course.completed', actor: 'ops-tess' });

    const taken = await recordEvent(database.db, caller, event('course.completed'));
    expect(taken.reply).toMatchObject({ type: 'course.completed', points: 0, lines: [] });

    const twice = await refusal(declareEventType(database.db, operator, clientId, { name: 'course.completed' }));
    expect(twice.message).toMatch(/^course\.completed is declared already \(\d{4}-\d{2}-\d{2}, by ops-tess\)/);
  });

  it('retires a type with a reason: its events are refused from then on; declared again, they are taken again', async () => {
    await declareEventType(database.db, operator, clientId, { name: 'survey.answered', description: 'A survey' });
    expect((await recordEvent(database.db, caller, event('survey.answered'))).replayed).toBe(false);

    const noReason = await refusal(retireEventType(database.db, operator, clientId, 'survey.answered', ' '));
    expect(noReason.message).toContain('A reason is required');
    const { type } = await retireEventType(database.db, operator, clientId, 'survey.answered', 'Surveys ended in March');
    expect(type.retired).toMatchObject({ by: 'ops-tess', reason: 'Surveys ended in March' });
    const refused = await refusal(recordEvent(database.db, caller, event('survey.answered')));
    expect(refused.statusCode).toBe(400);
    const again = await refusal(retireEventType(database.db, operator, clientId, 'survey.answered', 'twice'));
    expect(again.message).toMatch(/^survey\.answered was retired already/);

    const redeclared = await declareEventType(database.db, operator, clientId, {
      name: 'survey.answered',
      description: 'Surveys are back',
    });
    expect(redeclared.type).toMatchObject({ origin: 'declared', description: 'Surveys are back', retired: null });
    expect((await recordEvent(database.db, caller, event('survey.answered'))).replayed).toBe(false);
    const actions = (await listAudit(database.db, { clientId, action: 'event-types.', limit: 10 }))
      .filter((e) => e.subject === 'survey.answered')
      .map((e) => e.action);
    expect(actions).toEqual(['event-types.declare', 'event-types.retire', 'event-types.declare']);
  });

  it("counts a rule's type as declared, and refuses to retire it while an enabled rule earns on it", async () => {
    const ruleEditor = { kind: 'operator' as const, name: 'ops-tess', origin: 'test' };
    await createRule(
      database.db,
      ruleEditor,
      clientId,
      { id: 'visits', name: 'Visits', event: 'store.visit', earn: { points: 5 } },
      'launch',
    );
    const listed = (await listEventTypes(database.db, clientId)).find((t) => t.name === 'store.visit');
    expect(listed).toMatchObject({ origin: 'rule', rules: ['visits'], retired: null, declaredAt: null });

    const inUse = await refusal(retireEventType(database.db, operator, clientId, 'store.visit', 'Closing the stores'));
    expect(inUse.message).toContain('store.visit is earned on by the enabled rule visits: disable it first');

    await setRuleEnabled(database.db, ruleEditor, clientId, 'visits', false, 'Closing the stores');
    const { type } = await retireEventType(database.db, operator, clientId, 'store.visit', 'Closing the stores');
    expect(type).toMatchObject({ origin: 'rule', rules: ['visits'], retired: { reason: 'Closing the stores' } });
    // No rule in force any more: the check reads the retirement, and the event is refused.
    const refused = await refusal(recordEvent(database.db, caller, event('store.visit')));
    expect(refused.message).toContain('"store.visit" is not one of this program\'s');

    // Nor can a rule bring a retired type back: enabling the rule, or a new one, is refused until it is declared again.
    const enabling = await refusal(setRuleEnabled(database.db, ruleEditor, clientId, 'visits', true, 'Stores reopen'));
    expect(enabling.message).toContain('event: store.visit is retired; declare it again first');
    const creating = await refusal(
      createRule(
        database.db,
        ruleEditor,
        clientId,
        { id: 'visits-2', name: 'Visits again', event: 'store.visit', earn: { points: 5 } },
        'again',
      ),
    );
    expect(creating.statusCode).toBe(400);
    expect(creating.message).toContain('event: store.visit is retired');
    expect((await refusal(recordEvent(database.db, caller, event('store.visit')))).statusCode).toBe(400);
    await declareEventType(database.db, operator, clientId, { name: 'store.visit' });
    await setRuleEnabled(database.db, ruleEditor, clientId, 'visits', true, 'Stores reopen');
  });

  it('refuses bad names, built-in types and unknown ones, each with the problem, writing nothing', async () => {
    const before = await rowCount();
    for (const [name, problem] of [
      ['Course.Completed', 'name: the name is lower-case dotted words'],
      ['course..completed', 'name: the name is lower-case dotted words'],
      ['.course', 'name: the name is lower-case dotted words'],
      ['course.', 'name: the name is lower-case dotted words'],
      ['course completed', 'name: the name is lower-case dotted words'],
      ['1course', 'name: the name is lower-case dotted words'],
      ['', 'name: the name is empty'],
      [`a${'.b'.repeat(32)}`, 'name: the name is longer than 64 characters'],
      [42, 'name: '],
    ] as const) {
      const error = await refusal(declareEventType(database.db, operator, clientId, { name }));
      expect(error.statusCode, String(name)).toBe(400);
      expect(error.message, String(name)).toContain(problem);
    }
    for (const builtIn of ['purchase', 'return']) {
      expect((await refusal(declareEventType(database.db, operator, clientId, { name: builtIn }))).message).toBe(
        `${builtIn} is built in: every program takes it, and it cannot be declared`,
      );
      expect((await refusal(retireEventType(database.db, operator, clientId, builtIn, 'no more'))).message).toContain('cannot be retired');
    }
    const long = await refusal(
      declareEventType(database.db, operator, clientId, { name: 'long.description', description: 'x'.repeat(501) }),
    );
    expect(long.message).toContain('description: at most 500 characters');
    expect((await refusal(retireEventType(database.db, operator, clientId, 'never.declared', 'why not'))).statusCode).toBe(404);
    expect((await refusal(declareEventType(database.db, operator, 'no-such-client', { name: 'a.b' }))).statusCode).toBe(404);
    expect(await rowCount()).toBe(before);
  });

  it('takes a program manager or an owner: anyone else of the client is refused (403)', async () => {
    const agent: EventTypeEditor = { kind: 'staff', name: 'agent@x.test', origin: 'test', staffId: 'no-such-staff', owner: false };
    expect((await refusal(declareEventType(database.db, agent, clientId, { name: 'agent.type' }))).statusCode).toBe(403);
    expect((await refusal(retireEventType(database.db, agent, clientId, 'course.completed', 'agent'))).statusCode).toBe(403);
    const owner: EventTypeEditor = { ...agent, name: 'owner@x.test', owner: true };
    expect((await declareEventType(database.db, owner, clientId, { name: 'owner.type' })).type.declaredBy).toBe('owner@x.test');
  });

  it('declares a name once however many declare it at the same time', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => declareEventType(database.db, operator, clientId, { name: 'race.type', description: `#${i}` })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as ApiError).message).toContain('declared already');
    const audits = (await listAudit(database.db, { clientId, action: 'event-types.', limit: 50 })).filter((e) => e.subject === 'race.type');
    expect(audits).toHaveLength(1);
  });
});
