import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EarningRule, earningRuleProblems, type EarningRuleInput, type EarningRounding } from '@rewards/contract/earning-rules';
import { computeEarnings, type CapsUsed, type EventFacts, type ParticipantFacts, type RuleInForce } from './engine.ts';

/** The pure engine (issue 32 §2, decision 095): examples a program manager would check, then properties over random rules and events. */

const rule = (id: string, input: EarningRuleInput, version = 1): RuleInForce => ({ id, version, rule: EarningRule.parse(input) });
const member: ParticipantFacts = { programs: ['gold'], status: 'active' };
const none: CapsUsed = new Map();
const PARIS = 'Europe/Paris';

const storePurchases = rule('store', {
  name: 'Store purchases',
  event: 'purchase',
  conditions: [{ attribute: 'category', in: ['shoes', 'bags'] }, { amount: { atLeast: '10.00' } }],
  earn: { pointsPer: 2, per: '1.00', rounding: 'down' },
  caps: { participant: { points: 500, per: 'month' }, budget: { points: 1_000_000 } },
  pendingDays: 14,
  validFrom: '2026-12-01',
  priority: 10,
  text: { 'en-US': '2 points per euro in store' },
});

describe('computeEarnings', () => {
  it('earns the issue example: 2 points per 1.00 of 120.50 rounded down, pending, with each condition met', () => {
    const event: EventFacts = { type: 'purchase', occurredAt: '2026-12-05T10:00:00Z', amount: '120.50', attributes: { category: 'Shoes' } };
    const result = computeEarnings(event, member, [storePurchases], none, PARIS);
    expect(result.total).toBe(241);
    expect(result.pending).toBe(241);
    expect(result.localDay).toBe('2026-12-05');
    expect(result.dayOfWeek).toBe('sat');
    const [line] = result.lines;
    expect(line).toMatchObject({
      ruleId: 'store',
      version: 1,
      matched: true,
      computed: 241,
      points: 241,
      capPeriod: 'month:2026-12',
      trims: [],
    });
    expect(line!.conditions.map((c) => [c.condition, c.met])).toEqual([
      ['valid from 2026-12-01', true],
      ['category in shoes, bags', true],
      ['amount at least 10.00', true],
    ]);
    expect(line!.calculation).toBe('2 points per 1.00 of 120.50 = 241, rounded down');
  });

  it('says which condition failed and earns nothing', () => {
    const event: EventFacts = { type: 'purchase', occurredAt: '2026-12-05T10:00:00Z', amount: '9.99', attributes: { category: 'hats' } };
    const [line] = computeEarnings(event, member, [storePurchases], none, PARIS).lines;
    expect(line).toMatchObject({ matched: false, points: 0 });
    expect(line!.conditions.filter((c) => !c.met).map((c) => c.detail)).toEqual(['category is hats', 'the amount is 9.99']);
  });

  it('reads days in the client time zone: 23:30 UTC on 30 November is 1 December in Paris', () => {
    const event: EventFacts = { type: 'purchase', occurredAt: '2026-11-30T23:30:00Z', amount: '10', attributes: { category: 'bags' } };
    expect(computeEarnings(event, member, [storePurchases], none, PARIS).total).toBe(20);
    expect(computeEarnings(event, member, [storePurchases], none, 'UTC').total).toBe(0);
  });

  it('trims to the participant cap and then the budget, and says so', () => {
    const event: EventFacts = { type: 'purchase', occurredAt: '2026-12-05T10:00:00Z', amount: '120.50', attributes: { category: 'bags' } };
    const capped = computeEarnings(event, member, [storePurchases], new Map([['store', { participant: 400 }]]), PARIS).lines[0]!;
    expect(capped.points).toBe(100);
    expect(capped.trims).toEqual([expect.objectContaining({ by: 'participantCap', before: 241, after: 100 })]);
    const spent = computeEarnings(event, member, [storePurchases], new Map([['store', { participant: 0, budget: 999_950 }]]), PARIS)
      .lines[0]!;
    expect(spent.points).toBe(50);
    expect(spent.trims[0]).toMatchObject({ by: 'budget', detail: 'budget 1000000: 999950 given, 50 left' });
  });

  it('rounds as stated: down, up and to the nearest with halves up', () => {
    const per = (rounding: EarningRounding) =>
      rule(`r-${rounding}`, { name: rounding, event: 'purchase', earn: { pointsPer: 1, per: '2.00', rounding } });
    const at = (amount: string, rounding: EarningRounding) =>
      computeEarnings({ type: 'purchase', occurredAt: '2026-12-05T10:00:00Z', amount }, member, [per(rounding)], none, 'UTC').total;
    expect([at('5.00', 'down'), at('5.00', 'up'), at('5.00', 'nearest'), at('4.99', 'nearest'), at('3.00', 'nearest')]).toEqual([
      2, 3, 3, 2, 2,
    ]);
    expect(at('0.000001', 'up')).toBe(1);
  });

  it('doubles points on weekends between two dates for a category (a promotion), and "best" keeps only the best', () => {
    const base = rule('base', { name: 'Base', event: 'purchase', earn: { pointsPer: 1, per: '1' } });
    const flat = rule('flat', { name: 'Flat', event: 'purchase', earn: { points: 30 }, stacking: 'best' });
    const big = rule('big', {
      name: 'Big spender',
      event: 'purchase',
      earn: { points: 50 },
      stacking: 'best',
      conditions: [{ amount: { atLeast: '100' } }],
    });
    const weekend = rule('weekend', {
      name: 'Double weekends',
      event: 'purchase',
      conditions: [
        { dayOfWeek: ['sat', 'sun'] },
        { date: { from: '2026-12-01', to: '2026-12-31' } },
        { attribute: 'category', equals: 'shoes' },
      ],
      earn: { multiply: '2', rules: ['base'] },
    });
    const rules = [weekend, big, flat, base];
    const saturday = computeEarnings(
      { type: 'purchase', occurredAt: '2026-12-05T10:00:00Z', amount: '120', attributes: { category: 'shoes' } },
      member,
      rules,
      none,
      'UTC',
    );
    expect(saturday.lines.map((l) => [l.ruleId, l.points])).toEqual([
      ['base', 120],
      ['big', 50],
      ['flat', 0],
      ['weekend', 120],
    ]);
    expect(saturday.lines.find((l) => l.ruleId === 'flat')!.trims[0]).toMatchObject({ by: 'best', before: 30 });
    // A promotion's extra points are pending as long as the points they multiply.
    const pendingBase = rule('base', { name: 'Base', event: 'purchase', earn: { pointsPer: 1, per: '1' }, pendingDays: 14 });
    const withPending = computeEarnings(
      { type: 'purchase', occurredAt: '2026-12-05T10:00:00Z', amount: '120', attributes: { category: 'shoes' } },
      member,
      [weekend, pendingBase],
      none,
      'UTC',
    );
    expect(withPending.lines.map((l) => [l.ruleId, l.points, l.pendingDays])).toEqual([
      ['base', 120, 14],
      ['weekend', 120, 14],
    ]);
    expect(withPending.pending).toBe(240);
    expect(saturday.total).toBe(290);
    const monday = computeEarnings(
      { type: 'purchase', occurredAt: '2026-12-07T10:00:00Z', amount: '20', attributes: { category: 'shoes' } },
      member,
      rules,
      none,
      'UTC',
    );
    expect(monday.lines.map((l) => [l.ruleId, l.points])).toEqual([
      ['base', 20],
      ['big', 0],
      ['flat', 30],
      ['weekend', 0],
    ]);
  });

  it("conditions on the participant's programs and status, attributes not in a list, and the currency of an amount", () => {
    const gold = rule('gold', {
      name: 'Gold members',
      event: 'purchase',
      conditions: [{ programs: { anyOf: ['Gold'] } }, { status: { in: ['active'] } }, { attribute: 'channel', notIn: ['marketplace'] }],
      earn: { pointsPer: 3, per: '1', currency: 'EUR' },
    });
    const event = (currency: string, channel?: string): EventFacts => ({
      type: 'purchase',
      occurredAt: '2026-12-05T10:00:00Z',
      amount: '10',
      currency,
      ...(channel ? { attributes: { channel } } : {}),
    });
    expect(computeEarnings(event('EUR'), member, [gold], none, 'UTC').total).toBe(30);
    expect(computeEarnings(event('USD'), member, [gold], none, 'UTC').lines[0]!.calculation).toContain('is in USD');
    expect(computeEarnings(event('EUR', 'marketplace'), member, [gold], none, 'UTC').total).toBe(0);
    expect(computeEarnings(event('EUR'), { programs: ['silver'], status: 'active' }, [gold], none, 'UTC').total).toBe(0);
    expect(computeEarnings(event('EUR'), { programs: ['gold'], status: 'inactive' }, [gold], none, 'UTC').total).toBe(0);
  });

  it('breaks a tie under "best" by priority, then by rule id', () => {
    const a = rule('a', { name: 'A', event: 'purchase', earn: { points: 40 }, stacking: 'best', priority: 1 });
    const b = rule('b', { name: 'B', event: 'purchase', earn: { points: 40 }, stacking: 'best', priority: 5 });
    const c = rule('c', { name: 'C', event: 'purchase', earn: { points: 40 }, stacking: 'best', priority: 5 });
    const event: EventFacts = { type: 'purchase', occurredAt: '2026-12-05T10:00:00Z' };
    expect(computeEarnings(event, member, [a, c, b], none, 'UTC').lines.map((l) => [l.ruleId, l.points])).toEqual([
      ['b', 40],
      ['c', 0],
      ['a', 0],
    ]);
  });

  it('leaves out rules of other event types, and holds a huge amount to the line maximum', () => {
    const course = rule('course', { name: 'Course', event: 'course.completed', earn: { points: 100 } });
    const huge = rule('huge', { name: 'Huge', event: 'purchase', earn: { pointsPer: 1_000_000, per: '0.000001' } });
    const result = computeEarnings(
      { type: 'purchase', occurredAt: '2026-12-05T10:00:00Z', amount: '999999999999999' },
      member,
      [course, huge],
      none,
      'UTC',
    );
    expect(result.lines.map((l) => l.ruleId)).toEqual(['huge']);
    expect(result.total).toBe(10_000_000);
    expect(result.lines[0]!.trims[0]).toMatchObject({ by: 'lineMaximum' });
  });
});

describe('the rule schema', () => {
  const problems = (input: unknown) => {
    const parsed = EarningRule.safeParse(input);
    return parsed.success ? [] : earningRuleProblems(parsed.error);
  };

  it('fills the defaults of the issue example', () => {
    expect(EarningRule.parse({ name: 'A', event: 'purchase', earn: { points: 5 } })).toEqual({
      name: 'A',
      event: 'purchase',
      conditions: [],
      earn: { points: 5 },
      caps: {},
      pendingDays: 0,
      validFrom: null,
      validUntil: null,
      priority: 0,
      stacking: 'add',
      text: {},
    });
  });

  it('states the rounding of points per amount and of a promotion: down unless written', () => {
    expect(EarningRule.parse({ name: 'A', event: 'purchase', earn: { pointsPer: 2, per: '1' } }).earn).toEqual({
      pointsPer: 2,
      per: '1',
      rounding: 'down',
    });
    expect(EarningRule.parse({ name: 'A', event: 'purchase', earn: { multiply: '2', rounding: 'up' } }).earn).toEqual({
      multiply: '2',
      rounding: 'up',
    });
  });

  it('refuses with errors that say where and what', () => {
    expect(problems({ name: 'A', event: 'purchase', earn: { pointsPer: 2 } })).toEqual([
      'earn: pointsPer needs per: the amount that earns them ("per": "1.00")',
    ]);
    expect(problems({ name: 'A', event: 'purchase', earn: { points: 1, pointsPer: 2, per: '1' } })[0]).toContain(
      'earn: earn has exactly one of points, pointsPer (with per) or multiply (this one has points and pointsPer)',
    );
    expect(problems({ name: 'A', event: 'purchase', earn: { pointsPer: 2, per: 1.5 } })[0]).toMatch(/^earn\.per: /);
    expect(problems({ name: 'A', event: 'purchase', earn: { pointsPer: 2, per: '1e3' } })[0]).toContain('decimal string');
    expect(problems({ name: 'A', event: 'return', earn: { points: 1 } })).toEqual([
      'event: no rule earns on a return: a return takes back what its original event earned',
    ]);
    expect(problems({ name: 'A', event: 'purchase', earn: { points: 1 }, conditions: [{ attribute: 'x' }] })[0]).toContain(
      'conditions[0]: the attribute condition on "x" has exactly one of in, notIn or equals',
    );
    expect(
      problems({
        name: 'A',
        event: 'purchase',
        earn: { points: 1 },
        conditions: [{ attribute: 'x', in: ['a'], amount: { atLeast: '1' } }],
      })[0],
    ).toContain('exactly one of attribute, amount');
    expect(problems({ name: 'A', event: 'purchase', earn: { points: 1 }, validFrom: '2026-02-30' })[0]).toContain(
      'validFrom: a day is written YYYY-MM-DD',
    );
    expect(problems({ name: 'A', event: 'purchase', earn: { points: 1 }, validFrom: '2026-03-02', validUntil: '2026-03-01' })).toEqual([
      'validUntil: validUntil is before validFrom',
    ]);
    expect(problems({ name: 'A', event: 'purchase', earn: { multiply: '1' } })[0]).toContain('multiply is more than 1');
    expect(problems({ name: 'A', event: 'purchase', earn: { points: 1 }, colour: 'red' })[0]).toMatch(/colour/);
    expect(problems({ name: 'A', event: 'purchase', earn: { points: 1 }, caps: { participant: { points: 5, per: 'week' } } })[0]).toContain(
      'caps.participant.per: per is day, month, ever',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const IDS = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
const CATEGORIES = ['shoes', 'bags', 'hats'];

const conditionArb = fc.oneof(
  fc.record({ attribute: fc.constant('category'), in: fc.subarray(CATEGORIES, { minLength: 1 }) }),
  fc.record({ attribute: fc.constant('category'), notIn: fc.subarray(CATEGORIES, { minLength: 1 }) }),
  fc.integer({ min: 0, max: 50_000 }).map((cents) => ({ amount: { atLeast: (cents / 100).toFixed(2) } })),
  fc.subarray(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const, { minLength: 1 }).map((days) => ({ dayOfWeek: [...days] })),
);
const roundingArb = fc.constantFrom<EarningRounding>('down', 'up', 'nearest');
const earnArb = fc.oneof(
  fc.integer({ min: 1, max: 500 }).map((points) => ({ points })),
  fc.record({
    pointsPer: fc.integer({ min: 1, max: 20 }),
    per: fc.integer({ min: 1, max: 1_000 }).map((cents) => (cents / 100).toFixed(2)),
    rounding: roundingArb,
  }),
  fc.record({
    multiply: fc.constantFrom('1.5', '2', '3', '1.25'),
    rounding: roundingArb,
    rules: fc.option(fc.subarray(IDS, { minLength: 1 }), { nil: undefined }),
  }),
);
const capsArb = fc.record(
  {
    participant: fc.record({
      points: fc.integer({ min: 1, max: 400 }),
      per: fc.constantFrom('day' as const, 'month' as const, 'ever' as const),
    }),
    budget: fc.record({ points: fc.integer({ min: 1, max: 1_000 }) }),
  },
  { requiredKeys: [] },
);
const ruleArb = (id: string) =>
  fc
    .record({
      conditions: fc.array(conditionArb, { maxLength: 2 }),
      earn: earnArb,
      caps: capsArb,
      priority: fc.integer({ min: -2, max: 2 }),
      stacking: fc.constantFrom('add' as const, 'best' as const),
      pendingDays: fc.constantFrom(0, 14),
    })
    .map((r) => {
      const earn = r.earn as EarningRuleInput['earn'];
      return rule(id, { name: `Rule ${id}`, event: 'purchase', ...r, earn });
    });
const rulesArb = fc.subarray(IDS, { minLength: 1 }).chain((ids) => fc.tuple(...ids.map(ruleArb)));
const eventArb = fc.record({
  type: fc.constant('purchase'),
  occurredAt: fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 11, 31) }).map((ms) => new Date(ms).toISOString()),
  amount: fc.option(
    fc.integer({ min: 0, max: 100_000_000 }).map((cents) => (cents / 100).toFixed(2)),
    { nil: undefined },
  ),
  attributes: fc.record({ category: fc.constantFrom(...CATEGORIES) }),
});
const capsUsedArb = fc
  .array(
    fc.tuple(
      fc.constantFrom(...IDS),
      fc.record({ participant: fc.integer({ min: 0, max: 500 }), budget: fc.integer({ min: 0, max: 1_200 }) }),
    ),
  )
  .map((pairs): CapsUsed => new Map(pairs));
const zoneArb = fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati');

describe('computeEarnings properties', () => {
  it('never gives a rule more than its participant cap or its budget leaves', () => {
    fc.assert(
      fc.property(eventArb, rulesArb, capsUsedArb, zoneArb, (event, rules, used, zone) => {
        const result = computeEarnings(event, member, rules, used, zone);
        for (const line of result.lines) {
          const r = rules.find((x) => x.id === line.ruleId)!.rule;
          const spent = used.get(line.ruleId);
          if (r.caps.participant)
            expect(line.points).toBeLessThanOrEqual(Math.max(0, r.caps.participant.points - (spent?.participant ?? 0)));
          if (r.caps.budget) expect(line.points).toBeLessThanOrEqual(Math.max(0, r.caps.budget.points - (spent?.budget ?? 0)));
          expect(line.points).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(line.points)).toBe(true);
        }
        expect(result.total).toBe(result.lines.reduce((sum, l) => sum + l.points, 0));
      }),
      { numRuns: 300 },
    );
  });

  it('spending caps event by event never passes them, however the events come', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 30 }), rulesArb, zoneArb, (events, rules, zone) => {
        // The counters a posting keeps: per rule and cap period, and per rule in all.
        const participant = new Map<string, number>();
        const budget = new Map<string, number>();
        for (const event of events) {
          const probe = computeEarnings(event, member, rules, new Map(), zone);
          const used: CapsUsed = new Map(
            probe.lines.map((l) => [
              l.ruleId,
              { participant: participant.get(`${l.ruleId}|${l.capPeriod}`) ?? 0, budget: budget.get(l.ruleId) ?? 0 },
            ]),
          );
          for (const line of computeEarnings(event, member, rules, used, zone).lines) {
            participant.set(`${line.ruleId}|${line.capPeriod}`, (participant.get(`${line.ruleId}|${line.capPeriod}`) ?? 0) + line.points);
            budget.set(line.ruleId, (budget.get(line.ruleId) ?? 0) + line.points);
          }
        }
        for (const [key, points] of participant) {
          const r = rules.find((x) => x.id === key.split('|')[0])!.rule;
          if (r.caps.participant) expect(points).toBeLessThanOrEqual(r.caps.participant.points);
        }
        for (const [id, points] of budget) {
          const r = rules.find((x) => x.id === id)!.rule;
          if (r.caps.budget) expect(points).toBeLessThanOrEqual(r.caps.budget.points);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('"best" rules together never earn more than the best of them alone', () => {
    fc.assert(
      fc.property(eventArb, rulesArb, capsUsedArb, zoneArb, (event, rules, used, zone) => {
        const result = computeEarnings(event, member, rules, used, zone);
        for (const kind of ['earn', 'promotion'] as const) {
          const best = result.lines.filter((l) => l.kind === kind && rules.find((r) => r.id === l.ruleId)!.rule.stacking === 'best');
          const together = best.reduce((sum, l) => sum + l.points, 0);
          const alone = Math.max(0, ...best.map((l) => l.trims.find((t) => t.by === 'best')?.before ?? l.points));
          expect(together).toBeLessThanOrEqual(alone);
          expect(best.filter((l) => l.points > 0).length).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
    // And, for earning rules only, against each rule computed on its own.
    fc.assert(
      fc.property(eventArb, rulesArb, zoneArb, (event, rules, zone) => {
        const earning = rules.filter((r) => r.rule.earn.multiply === undefined && r.rule.stacking === 'best');
        const together = computeEarnings(event, member, earning, none, zone).total;
        const alone = Math.max(0, ...earning.map((r) => computeEarnings(event, member, [r], none, zone).total));
        expect(together).toBe(alone);
      }),
      { numRuns: 200 },
    );
  });

  it('rounds points per amount exactly as stated', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 1_000_000_000 }),
        roundingArb,
        (pointsPer, perCents, cents, rounding) => {
          const r = rule('r', { name: 'R', event: 'purchase', earn: { pointsPer, per: (perCents / 100).toFixed(2), rounding } });
          const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
          const total = computeEarnings({ type: 'purchase', occurredAt: '2026-06-01T00:00:00Z', amount }, member, [r], none, 'UTC').total;
          // pointsPer × cents ÷ perCents, in integers only: quotient and remainder.
          const numerator = BigInt(pointsPer) * BigInt(cents);
          const quotient = numerator / BigInt(perCents);
          const remainder = numerator % BigInt(perCents);
          const expected =
            rounding === 'down' || remainder === 0n
              ? quotient
              : rounding === 'up'
                ? quotient + 1n
                : 2n * remainder >= BigInt(perCents)
                  ? quotient + 1n
                  : quotient;
          expect(total).toBe(Math.min(Number(expected), 10_000_000));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives the same result whatever order the rules come in', () => {
    fc.assert(
      fc.property(eventArb, rulesArb, capsUsedArb, zoneArb, fc.infiniteStream(fc.nat()), (event, rules, used, zone, stream) => {
        const shuffled = [...rules];
        const picks = stream.take(shuffled.length);
        let i = 0;
        for (const pick of picks) {
          const j = pick % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
          i += 1;
        }
        expect(computeEarnings(event, member, shuffled, used, zone)).toEqual(computeEarnings(event, member, rules, used, zone));
      }),
      { numRuns: 300 },
    );
  });
});
