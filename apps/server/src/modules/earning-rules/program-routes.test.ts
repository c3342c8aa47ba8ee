import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, programApiPaths } from '@rewards/contract';
import { programRulesPaths as paths, type SimulationResult } from '@rewards/contract/earning-rules';
import { dialects } from '../../../test/databases.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { DEMO_CLIENT_ID } from '../../db/seed/demo.ts';
import { makeKey, participantBody, programCall, tag } from '../program-api/test-support.ts';
import { createRule } from './service.ts';

/** POST /api/program/v1/rules/simulate (issue 32 §2, decision 095): the key's client's rules, rule by rule, nothing written. */
describe.each(dialects)('the program API rules simulation on %s', (dialect) => {
  let t: TestApp;
  let key: string;
  const ruleId = `api-${tag()}`;
  const username = `sim.${tag()}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    key = (await makeKey(t.database.db, DEMO_CLIENT_ID, ['events:write', 'participants:write'])).key;
    expect((await programCall(t.app, 'PUT', programApiPaths.participant(username), { key, body: participantBody() })).statusCode).toBe(201);
    await createRule(
      t.database.db,
      { kind: 'operator', name: 'api-test', origin: 'test' },
      DEMO_CLIENT_ID,
      {
        id: ruleId,
        name: 'API purchases',
        event: 'purchase',
        conditions: [{ programs: { anyOf: ['Sales Incentive 2026'] } }],
        earn: { pointsPer: 5, per: '2.00', rounding: 'nearest' },
        caps: { participant: { points: 40, per: 'day' } },
        priority: 1000,
      },
      'API test',
      { now: new Date('2026-01-01T00:00:00Z') },
    );
  });
  afterAll(() => t.close());

  const simulate = (body: unknown) => programCall(t.app, 'POST', paths.simulate, { key, body });

  it("answers what an event would earn for the key's client, rule by rule, and writes nothing", async () => {
    const counters = async () => (await t.database.db.selectFrom('earning_rule_counters').selectAll().execute()).length;
    const before = await counters();
    const reply = await simulate({
      type: 'purchase',
      username,
      occurredAt: '2026-06-01T10:00:00+02:00',
      amount: '13.00',
      attributes: { sku: 'A1' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const result = reply.json<SimulationResult>();
    const line = result.lines.find((l) => l.ruleId === ruleId);
    expect(line).toMatchObject({ version: 1, matched: true, computed: 33, points: 33, capPeriod: 'day:2026-06-01' });
    expect(line!.calculation).toBe('5 points per 2.00 of 13.00 = 33, rounded to the nearest');
    expect(result.event).toEqual({ type: 'purchase', occurredAt: '2026-06-01T08:00:00.000Z', username });
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(await counters()).toBe(before);
  });

  it('refuses a bad event with 400 and says what is wrong; an unknown participant is 404', async () => {
    const bad = await simulate({ type: 'purchase', amount: '1,5' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorCode: ErrorCode.validation });
    // The body's schema is the contract's EarningEvent: the program API's usual refusal names the field.
    expect(bad.json<{ message: string }>().message).toContain('amount');
    expect((await simulate({ type: 'purchase', occurredAt: 'yesterday' })).statusCode).toBe(400);
    expect((await simulate({ type: 'return' })).statusCode).toBe(400);
    expect((await simulate({ type: 'purchase', username: `nobody.${tag()}` })).statusCode).toBe(404);
    expect((await programCall(t.app, 'POST', paths.simulate, { key, rawBody: '{"type": ' })).statusCode).toBe(400);
  });
});
