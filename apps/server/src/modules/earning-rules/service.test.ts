import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EarningRuleInput } from '@rewards/contract/earning-rules';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { addGeneratedParticipants, generatedUsername } from '../../../test/points-files.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import { ApiError } from '../../http/api-error.ts';
import { listAudit } from '../audit/service.ts';
import { createStaff } from '../staff/accounts.ts';
import { TEST_ACTOR } from '../staff/test-support.ts';
import {
  createRule,
  earnAndTakeCaps,
  getRule,
  listRules,
  ruleHistory,
  rulesInForce,
  setRuleEnabled,
  simulate,
  slugOf,
  updateRule,
  type RuleEditor,
} from './service.ts';

/** Earning rules' versions, changes, simulation and caps on both engines (issue 32 §2, decision 095). */

const operator: RuleEditor = { kind: 'operator', name: 'ops-ann', origin: 'cli@test' };
const DEC_1 = new Date('2026-12-01T00:00:00Z');
const DEC_10 = new Date('2026-12-10T00:00:00Z');

const storePurchases: EarningRuleInput = {
  name: 'Store purchases',
  event: 'purchase',
  conditions: [{ attribute: 'category', in: ['shoes', 'bags'] }, { amount: { atLeast: '10.00' } }],
  earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
  caps: { participant: { points: 500, per: 'month' }, budget: { points: 1_000_000 } },
  pendingDays: 14,
  priority: 10,
  text: { 'en-US': '2 points per euro in store', 'fr-FR': '2 points par euro en magasin' },
};

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('slugOf', () => {
  it('makes a rule id of a name: lower case, accents dropped, dashes between words', () => {
    expect([slugOf('Store purchases'), slugOf('Café crème — 2×!'), slugOf('***'), slugOf('x'.repeat(60))]).toEqual([
      'store-purchases',
      'cafe-creme-2',
      'rule',
      'x'.repeat(40),
    ]);
  });
});

describe.each(dialects)('earning rules on %s', (dialect) => {
  let database: TestDatabase;
  const fresh = () => `er-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.drop());

  /** A client of the test's own, in Paris, with two participants: pt0000000 (in gold) and pt0000001. */
  async function newClient(): Promise<string> {
    const clientId = fresh();
    await insertTestClient(database.db, clientId, { time_zone: 'Europe/Paris' });
    await addGeneratedParticipants(database.db, clientId, 2);
    await database.db
      .insertInto('participant_programs')
      .values({ client_id: clientId, participant_id: `${clientId}-${generatedUsername(0)}`, program_name: 'gold', position: 0 })
      .execute();
    return clientId;
  }

  it('creates a rule as version 1 with its id from its name, lists it with its budget, and audits the reason', async () => {
    const clientId = await newClient();
    const created = await createRule(database.db, operator, clientId, storePurchases, 'launch of the programme', { now: DEC_1 });
    expect(created).toMatchObject({ unchanged: false, rule: { id: 'store-purchases', version: 1, enabled: true, event: 'purchase' } });
    expect(created.rule.rule.stacking).toBe('add');
    const again = await createRule(database.db, operator, clientId, storePurchases, 'a second one', { now: DEC_1 });
    expect(again.rule.id).toBe('store-purchases-2');
    const [listed] = await listRules(database.db, clientId, DEC_1);
    expect(listed).toMatchObject({
      id: 'store-purchases',
      inForce: { version: 1, enabled: true },
      budget: { points: 1_000_000, used: 0, left: 1_000_000 },
      createdBy: 'ops-ann',
    });
    const [entry] = (await listAudit(database.db, { clientId, action: 'earning-rules', limit: 10 })).filter(
      (e) => e.subject === 'store-purchases',
    );
    expect(entry).toMatchObject({ actor: 'ops-ann', actor_kind: 'operator', action: 'earning-rules.create' });
    expect(JSON.parse(entry!.details)).toMatchObject({ version: 1, reason: 'launch of the programme' });
  });

  it('computes an event with the version in force at its occurredAt: a change never alters what earlier events earn', async () => {
    const clientId = await newClient();
    await createRule(database.db, operator, clientId, { id: 'store', ...storePurchases }, 'launch', { now: DEC_1 });
    const event = (occurredAt: string) => ({ type: 'purchase', occurredAt, amount: '120.50', attributes: { category: 'shoes' } });
    const before = await simulate(database.db, clientId, event('2026-12-05T10:00:00Z'), DEC_10);
    expect(before.total).toBe(241);

    const changed = await updateRule(
      database.db,
      operator,
      clientId,
      'store',
      { ...storePurchases, earn: { pointsPer: 3, per: '1.00', rounding: 'up' } },
      'more generous in December',
      { now: DEC_10 },
    );
    expect(changed.rule).toMatchObject({ version: 2, inForce: { version: 2 } });
    expect(JSON.parse((await listAudit(database.db, { clientId, action: 'earning-rules.update', limit: 1 }))[0]!.details)).toMatchObject({
      version: 2,
      changed: ['earn'],
      reason: 'more generous in December',
    });

    // The event of 5 December is computed as it was; one after the change with version 2.
    expect(await simulate(database.db, clientId, event('2026-12-05T10:00:00Z'), DEC_10)).toEqual(before);
    const after = await simulate(database.db, clientId, event('2026-12-12T10:00:00Z'), DEC_10);
    expect(after.total).toBe(362);
    expect(after.lines[0]).toMatchObject({ ruleId: 'store', version: 2 });
    expect((await rulesInForce(database.db, clientId, 'purchase', '2026-11-30T00:00:00Z')).length).toBe(0);
  });

  it('disables and enables as new versions; a version may begin later, never earlier than now or the latest', async () => {
    const clientId = await newClient();
    await createRule(database.db, operator, clientId, { id: 'flat', name: 'Flat', event: 'purchase', earn: { points: 10 } }, 'launch', {
      now: DEC_1,
    });
    const disabled = await setRuleEnabled(database.db, operator, clientId, 'flat', false, 'paused', {
      now: DEC_1,
      effectiveFrom: '2026-12-20T00:00:00+01:00',
    });
    expect(disabled.rule).toMatchObject({
      version: 2,
      enabled: false,
      effectiveFrom: '2026-12-19T23:00:00.000Z',
      inForce: { version: 1, enabled: true },
    });
    const on = (at: string) => rulesInForce(database.db, clientId, 'purchase', at).then((rules) => rules.map((r) => r.version));
    expect(await on('2026-12-19T22:59:59Z')).toEqual([1]);
    expect(await on('2026-12-19T23:00:00Z')).toEqual([]);
    // A change "now" under a version scheduled for later is refused: it would be overtaken.
    expect((await refusal(setRuleEnabled(database.db, operator, clientId, 'flat', true, 'on after all', { now: DEC_1 }))).message).toBe(
      'The rule has a version beginning 2026-12-19T23:00:00.000Z: give this change a start at that time or later',
    );
    // Disabling again changes nothing and writes nothing.
    const again = await setRuleEnabled(database.db, operator, clientId, 'flat', false, 'paused again', { now: DEC_1 });
    expect(again).toMatchObject({ unchanged: true, auditId: null, rule: { version: 2 } });
    // Updating a disabled rule is refused; enabling comes after the pause.
    expect(
      (
        await refusal(
          updateRule(database.db, operator, clientId, 'flat', { name: 'Flat', event: 'purchase', earn: { points: 12 } }, 'more', {
            now: DEC_1,
          }),
        )
      ).message,
    ).toContain('is disabled from 2026-12-19T23:00:00.000Z: enable it first');
    expect(
      (
        await refusal(
          setRuleEnabled(database.db, operator, clientId, 'flat', true, 'back', { now: DEC_1, effectiveFrom: '2026-12-19T00:00:00Z' }),
        )
      ).message,
    ).toContain("no earlier than the rule's latest version");
    expect(
      (
        await refusal(
          setRuleEnabled(database.db, operator, clientId, 'flat', true, 'back', { now: DEC_10, effectiveFrom: '2026-12-09T00:00:00Z' }),
        )
      ).message,
    ).toContain('never in the past');
    const enabled = await setRuleEnabled(database.db, operator, clientId, 'flat', true, 'back', { now: new Date('2026-12-21T00:00:00Z') });
    expect(enabled.rule).toMatchObject({ version: 3, enabled: true, inForce: { version: 3, enabled: true } });
    expect(await on('2026-12-22T00:00:00Z')).toEqual([3]);
    expect(
      (await ruleHistory(database.db, clientId, 'flat')).map((v) => [
        v.version,
        v.enabled,
        v.reason,
        v.effectiveFrom,
        v.changed.length > 0,
      ]),
    ).toEqual([
      [1, true, 'launch', DEC_1.toISOString(), true],
      [2, false, 'paused', '2026-12-19T23:00:00.000Z', false],
      [3, true, 'back', '2026-12-21T00:00:00.000Z', false],
    ]);
  });

  it('refuses a bad rule, a changed event type, an unknown promotion target and a missing reason, writing nothing', async () => {
    const clientId = await newClient();
    await createRule(database.db, operator, clientId, { id: 'store', ...storePurchases }, 'launch', { now: DEC_1 });
    const bad = await refusal(createRule(database.db, operator, clientId, { name: 'X', event: 'purchase', earn: { pointsPer: 2 } }, 'try'));
    expect(bad).toMatchObject({
      statusCode: 400,
      message: 'The rule is not valid: earn: pointsPer needs per: the amount that earns them ("per": "1.00")',
    });
    expect(
      (await refusal(updateRule(database.db, operator, clientId, 'store', { ...storePurchases, event: 'course.completed' }, 'try')))
        .message,
    ).toContain('the rule earns on purchase for its whole life');
    expect(
      (
        await refusal(
          createRule(
            database.db,
            operator,
            clientId,
            { name: 'Double', event: 'purchase', earn: { multiply: '2', rules: ['nope'] } },
            'try',
          ),
        )
      ).message,
    ).toContain('earn.rules: no rule nope in this client');
    expect((await refusal(createRule(database.db, operator, clientId, storePurchases, ' '))).message).toContain('A reason is required');
    expect((await refusal(updateRule(database.db, operator, clientId, 'nope', storePurchases, 'try'))).statusCode).toBe(404);
    const same = await updateRule(database.db, operator, clientId, 'store', storePurchases, 'no change', { now: DEC_10 });
    expect(same).toMatchObject({ unchanged: true, rule: { version: 1 } });
    expect((await listRules(database.db, clientId)).map((r) => [r.id, r.version])).toEqual([['store', 1]]);
    expect((await listAudit(database.db, { clientId, action: 'earning-rules', limit: 10 })).length).toBe(1);
  });

  it('takes a program manager or an owner: a support agent or an auditor of the client is refused', async () => {
    const clientId = await newClient();
    const staffOf = async (role: 'program_manager' | 'support_agent' | 'auditor'): Promise<RuleEditor> => {
      const email = `${role}-${fresh()}@rules.test`;
      const { staff } = await createStaff(database.db, 'http://console.localhost:3000', TEST_ACTOR, {
        email,
        name: role,
        owner: false,
        roles: [{ clientId, role }],
      });
      return { kind: 'staff', name: email, origin: '127.0.0.1', staffId: staff.id, owner: false };
    };
    const rule = { name: 'Course', event: 'course.completed', earn: { points: 100 } };
    for (const role of ['support_agent', 'auditor'] as const)
      expect((await refusal(createRule(database.db, await staffOf(role), clientId, rule, 'try'))).statusCode).toBe(403);
    const manager = await staffOf('program_manager');
    const made = await createRule(database.db, manager, clientId, rule, 'courses earn');
    expect(made.rule.createdBy).toBe(manager.name);
    const elsewhere = await newClient();
    expect((await refusal(createRule(database.db, manager, elsewhere, rule, 'try'))).statusCode).toBe(403);
  });

  it("simulates with the participant's programs, status and what capped rules gave them, writing nothing", async () => {
    const clientId = await newClient();
    await createRule(database.db, operator, clientId, { id: 'store', ...storePurchases }, 'launch', { now: DEC_1 });
    await createRule(
      database.db,
      operator,
      clientId,
      { id: 'gold', name: 'Gold bonus', event: 'purchase', conditions: [{ programs: { anyOf: ['gold'] } }], earn: { points: 50 } },
      'gold',
      { now: DEC_1 },
    );
    const event = { type: 'purchase', occurredAt: '2026-12-05T10:00:00+01:00', amount: '300', attributes: { category: 'bags' } };
    const gold = await simulate(database.db, clientId, { ...event, username: generatedUsername(0) }, DEC_10);
    expect(gold.lines.map((l) => [l.ruleId, l.points])).toEqual([
      ['store', 500],
      ['gold', 50],
    ]);
    expect(gold.lines[0]!.trims[0]).toMatchObject({ by: 'participantCap', before: 600 });
    expect(gold).toMatchObject({ total: 550, pending: 500, timeZone: 'Europe/Paris', event: { username: generatedUsername(0) } });
    const plain = await simulate(database.db, clientId, { ...event, username: generatedUsername(1) }, DEC_10);
    expect(plain.total).toBe(500);
    expect(await database.db.selectFrom('earning_rule_counters').selectAll().execute()).toEqual([]);
    expect((await refusal(simulate(database.db, clientId, { ...event, username: 'nobody' }))).statusCode).toBe(404);
    expect((await refusal(simulate(database.db, clientId, { type: 'purchase', amount: '1,5' }))).message).toContain(
      'amount: an amount is a decimal string',
    );
    expect((await refusal(simulate(database.db, clientId, { type: 'return' }))).message).toContain('A return earns nothing');
  });

  it('100 events at once for one participant against a monthly cap and a budget: exactly the cap, then exactly the budget', async () => {
    const clientId = await newClient();
    await createRule(
      database.db,
      operator,
      clientId,
      {
        id: 'capped',
        name: 'Capped',
        event: 'purchase',
        earn: { pointsPer: 1, per: '1' },
        caps: { participant: { points: 500, per: 'month' }, budget: { points: 700 } },
      },
      'launch',
      { now: DEC_1 },
    );
    const post = (participant: number, i: number) =>
      database.db.transaction().execute((trx) =>
        earnAndTakeCaps(trx, {
          clientId,
          participantId: `${clientId}-${generatedUsername(participant)}`,
          participant: { programs: [], status: 'active' },
          event: { type: 'purchase', occurredAt: `2026-12-0${(i % 9) + 1}T12:00:00Z`, amount: '7' },
          timeZone: 'Europe/Paris',
        }),
      );
    const first = await Promise.all(Array.from({ length: 100 }, (_, i) => post(0, i)));
    expect(first.reduce((sum, r) => sum + r.total, 0)).toBe(500);
    const second = await Promise.all(Array.from({ length: 100 }, (_, i) => post(1, i)));
    expect(second.reduce((sum, r) => sum + r.total, 0)).toBe(200);
    const counters = await database.db
      .selectFrom('earning_rule_counters')
      .selectAll()
      .where('client_id', '=', clientId)
      .orderBy('participant_id')
      .execute();
    expect(counters.map((c) => [c.participant_id.replace(`${clientId}-`, ''), c.period, Number(c.points)])).toEqual([
      ['', 'budget', 700],
      [generatedUsername(0), 'month:2026-12', 500],
      [generatedUsername(1), 'month:2026-12', 200],
    ]);
    expect((await getRule(database.db, clientId, 'capped')).budget).toEqual({ points: 700, used: 700, left: 0 });
  });

  it('gives concurrent changes of one rule one version each', async () => {
    const clientId = await newClient();
    await createRule(database.db, operator, clientId, { id: 'busy', name: 'Busy', event: 'purchase', earn: { points: 1 } }, 'launch');
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        updateRule(database.db, operator, clientId, 'busy', { name: 'Busy', event: 'purchase', earn: { points: i + 2 } }, `change ${i}`),
      ),
    );
    const versions = await database.db
      .selectFrom('earning_rule_versions')
      .select('version')
      .where('client_id', '=', clientId)
      .orderBy('version')
      .execute();
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });
});
