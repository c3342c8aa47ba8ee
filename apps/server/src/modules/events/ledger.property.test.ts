import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { EarningRule, EarningRuleInput } from '@rewards/contract/earning-rules';
import type { ProgramEventReply } from '@rewards/contract/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.ts';
import { expectLedgerMatchesBalances } from '../../../test/ledger-invariant.ts';
import { addGeneratedParticipants, generatedUsername } from '../../../test/points-files.ts';
import { insertTestClient } from '../../../test/test-client.ts';
import type { ApiCaller } from '../api-keys/guard.ts';
import { createRule, ruleHistory, updateRule } from '../earning-rules/service.ts';
import { appendLedgerEntry, writeToLedger } from '../ledger/service.ts';
import { releasePendingPoints } from './release.ts';
import { getEvent, recordEvent } from './service.ts';

/**
 * Issue 32 §4: for random sequences of events (one by one and in bursts at once), returns (whole
 * or partial), rule changes (new versions from the moment they are made), days passing and the
 * pending release run, through the events' service on both engines, after every step:
 * - the ledger: every participant's entries sum to their balance; balance plus pending is what
 *   their events say (earned, less what returns took back) less what they spent (orders taken
 *   from the balance between events, so a return may find it short), and the pending total is their
 *   earning lines' pending points not released nor taken back;
 * - no cap or budget is ever exceeded: every rule's points per participant and cap period (in the
 *   client's time zone), and in all for its budget, counted from the kept lines as the counters
 *   count them (a return's lines give back to its original's period), are within the cap of the
 *   version each line that added points was computed with; the counters equal that count;
 * - a return never takes back more than its original earned, however many returns arrive;
 * - a release leaves every participant's balance plus pending as it was;
 * - replaying any event answers it as kept and changes nothing (balances, pending, entries,
 *   counters, events).
 */

const RUNS = 20;
const DAY_MS = 86_400_000;
const START = Date.parse('2026-03-01T08:00:00Z');
const TIME_ZONE = 'Europe/Paris';
const PARTICIPANTS = 3;
const CATEGORIES = ['shoes', 'books', 'toys'] as const;

type Step =
  | { kind: 'event'; who: number; cents: number; category: (typeof CATEGORIES)[number]; minutesAgo: number }
  | { kind: 'burst'; who: number; count: number; cents: number }
  | { kind: 'change'; rule: 'per-amount' | 'shoes' | 'promo'; value: number }
  | { kind: 'days'; days: number }
  | { kind: 'replay'; pick: number }
  | { kind: 'return'; pick: number; percent: number }
  | { kind: 'release' }
  | { kind: 'spend'; who: number; percent: number };

const who = fc.integer({ min: 0, max: PARTICIPANTS - 1 });
const cents = fc.integer({ min: 1, max: 40_000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('event' as const),
      who,
      cents,
      category: fc.constantFrom(...CATEGORIES),
      minutesAgo: fc.integer({ min: 0, max: 2 * 24 * 60 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('burst' as const), who, count: fc.integer({ min: 2, max: 6 }), cents }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      rule: fc.constantFrom('per-amount' as const, 'shoes' as const, 'promo' as const),
      value: fc.integer({ min: 1, max: 8 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('days' as const), days: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }) },
  // percent 0: the rest in whole (no amount); else that share of the original's amount.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('return' as const), pick: fc.nat(), percent: fc.integer({ min: 0, max: 100 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const) }) },
  // An order of part of the balance: a later return may then find the balance short (a debt).
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('spend' as const), who, percent: fc.integer({ min: 1, max: 100 }) }),
  },
);

/** The rules every run starts with; a change writes a new version of one, with the caps and what it earns scaled by `value`. */
function ruleOf(id: 'per-amount' | 'shoes' | 'promo' | 'welcome', value = 4): EarningRuleInput & { id: string } {
  switch (id) {
    case 'per-amount':
      return {
        id,
        name: 'Per euro',
        event: 'purchase',
        earn: { pointsPer: 1 + (value % 3), per: '1.00', rounding: value % 2 === 0 ? 'down' : 'up' },
        caps: { participant: { points: 60 * value, per: 'month' } },
        priority: 10,
      };
    case 'shoes':
      return {
        id,
        name: 'Shoes',
        event: 'purchase',
        conditions: [{ attribute: 'category', in: ['shoes'] }],
        earn: { points: 10 * value },
        caps: { participant: { points: 25 * value, per: 'day' }, budget: { points: 150 * value } },
      };
    case 'promo':
      return {
        id,
        name: 'Double on books',
        event: 'purchase',
        conditions: [{ attribute: 'category', equals: 'books' }],
        earn: { multiply: String(1 + value / 4), rules: ['per-amount'], rounding: 'nearest' },
        caps: { budget: { points: 100 * value } },
      };
    case 'welcome':
      return {
        id,
        name: 'Held a while',
        event: 'purchase',
        earn: { points: 7 },
        caps: { participant: { points: 21, per: 'ever' } },
        pendingDays: 3,
      };
  }
}

/** The client's calendar day and month of an instant. */
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
function periodOf(rule: EarningRule, occurredAt: string): string | null {
  const cap = rule.caps.participant;
  if (!cap) return null;
  const day = dayFormat.format(new Date(occurredAt));
  return cap.per === 'day' ? `day:${day}` : cap.per === 'month' ? `month:${day.slice(0, 7)}` : 'ever';
}

describe.each(dialects)('events, rules and days against the ledger (fast-check) on %s', (dialect) => {
  let database: TestDatabase;
  const db = () => database.db;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  }, 120_000);
  afterAll(async () => {
    await expectLedgerMatchesBalances(db());
    await database.drop();
  });

  /** What replaying must leave alone: every balance, the entries, the counters and the events of the client. */
  async function snapshot(clientId: string) {
    const [participants, entries, counters, events] = await Promise.all([
      db()
        .selectFrom('participants')
        .select(['username', 'balance', 'pending_points'])
        .where('client_id', '=', clientId)
        .orderBy('username')
        .execute(),
      db()
        .selectFrom('ledger_entries')
        .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.sum<string | number | null>('amount').as('total')])
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow(),
      db()
        .selectFrom('earning_rule_counters')
        .select(['rule_id', 'participant_id', 'period', 'points'])
        .where('client_id', '=', clientId)
        .orderBy('rule_id')
        .orderBy('participant_id')
        .orderBy('period')
        .execute(),
      db()
        .selectFrom('participant_events')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      balances: participants.map((p) => [p.username, Number(p.balance ?? 0), Number(p.pending_points)]),
      entries: [Number(entries.n), Number(entries.total ?? 0)],
      counters: counters.map((c) => [c.rule_id, c.participant_id, c.period, Number(c.points)]),
      events: Number(events.n),
    };
  }

  /** Each participant's balance and pending total. */
  async function holdings(clientId: string): Promise<Map<string, { balance: number; pending: number }>> {
    const rows = await db()
      .selectFrom('participants')
      .select(['id', 'balance', 'pending_points'])
      .where('client_id', '=', clientId)
      .execute();
    return new Map(rows.map((r) => [r.id, { balance: Number(r.balance ?? 0), pending: Number(r.pending_points) }]));
  }

  /**
   * The ledger's sums, per participant: the balance is the entries; balance plus pending is what
   * the events' rows say (a return's are negative: what it took from the balance and from pending);
   * the pending total is the earning lines' pending points not released nor taken back; and no
   * event had more taken back than it earned, nor any line.
   */
  async function expectLedgerAgrees(clientId: string, spent: ReadonlyMap<string, number>) {
    const held = await holdings(clientId);
    const entries = await db()
      .selectFrom('ledger_entries')
      .select('participant_id')
      .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
      .where('client_id', '=', clientId)
      .groupBy('participant_id')
      .execute();
    const events = await db()
      .selectFrom('participant_events')
      .select(['id', 'participant_id', 'type', 'points', 'pending_points', 'reversed_points'])
      .where('client_id', '=', clientId)
      .execute();
    const lines = await db()
      .selectFrom('participant_event_lines')
      .select(['event_id', 'line', 'kind', 'points', 'pending', 'released_at', 'reversed_points', 'participant_id'])
      .where('client_id', '=', clientId)
      .execute();
    const inLedger = new Map(entries.map((e) => [e.participant_id, Number(e.total ?? 0)]));
    const said = new Map<string, number>();
    for (const e of events) said.set(e.participant_id, (said.get(e.participant_id) ?? 0) + Number(e.points) + Number(e.pending_points));
    const open = new Map<string, number>();
    for (const l of lines)
      if (l.kind !== 'return' && Number(l.pending) === 1 && l.released_at === null && l.participant_id !== null)
        open.set(l.participant_id, (open.get(l.participant_id) ?? 0) + Number(l.points) - Number(l.reversed_points));
    for (const [id, h] of held) {
      expect(h.balance, `${id}: balance against its entries`).toBe(inLedger.get(id) ?? 0);
      expect(h.balance + h.pending, `${id}: balance + pending against its events and orders`).toBe(
        (said.get(id) ?? 0) - (spent.get(id) ?? 0),
      );
      expect(h.pending, `${id}: pending against its open pending lines`).toBe(open.get(id) ?? 0);
      expect(h.balance).toBeGreaterThanOrEqual(0);
      expect(h.pending).toBeGreaterThanOrEqual(0);
    }
    const earnedBy = new Map<string, number>();
    for (const l of lines) {
      if (l.kind === 'return') continue;
      expect(Number(l.reversed_points), `line ${l.event_id}#${l.line} taken back`).toBeLessThanOrEqual(Number(l.points));
      earnedBy.set(l.event_id, (earnedBy.get(l.event_id) ?? 0) + Math.max(0, Number(l.points)));
    }
    for (const e of events)
      if (e.type !== 'return')
        expect(Number(e.reversed_points), `${e.id}: taken back against earned`).toBeLessThanOrEqual(earnedBy.get(e.id) ?? 0);
  }

  /**
   * Caps and budgets, from the kept lines: per (rule, participant, period) and per rule's budget,
   * the points of the lines counted so far; after a step, each line of it that added points is
   * within the cap (and budget) of its own version, the total included.
   */
  async function expectCapsHeld(clientId: string, counted: Map<string, number>, seen: Set<string>) {
    const versions = new Map<string, EarningRule>();
    for (const ruleId of ['per-amount', 'shoes', 'promo', 'welcome'])
      for (const v of await ruleHistory(db(), clientId, ruleId)) versions.set(`${ruleId}@${v.version}`, v.rule);
    const lines = await db()
      .selectFrom('participant_event_lines as l')
      .innerJoin('participant_events as e', (join) => join.onRef('e.client_id', '=', 'l.client_id').onRef('e.id', '=', 'l.event_id'))
      .select(['l.event_id', 'l.line', 'l.kind', 'l.rule_id', 'l.rule_version', 'l.points', 'e.participant_id', 'e.occurred_at', 'e.refs'])
      .where('l.client_id', '=', clientId)
      .execute();
    const occurredAtOf = new Map(lines.map((l) => [l.event_id, l.occurred_at]));
    const fresh = lines.filter((l) => !seen.has(`${l.event_id}#${l.line}`));
    const checks: Array<{ key: string; cap: number; what: string }> = [];
    for (const line of fresh) {
      seen.add(`${line.event_id}#${line.line}`);
      const rule = versions.get(`${line.rule_id}@${line.rule_version}`)!;
      const points = Number(line.points);
      // A return's line gives back to its original's counters: the original's period.
      const original = line.kind === 'return' ? (JSON.parse(line.refs ?? '{}') as { originalEventId?: string }).originalEventId : undefined;
      const period = periodOf(rule, original === undefined ? line.occurred_at : occurredAtOf.get(original)!);
      const keys: Array<{ key: string; cap: number; what: string }> = [];
      if (period !== null)
        keys.push({ key: `${line.rule_id}|${line.participant_id}|${period}`, cap: rule.caps.participant!.points, what: 'participant cap' });
      if (rule.caps.budget) keys.push({ key: `${line.rule_id}|budget`, cap: rule.caps.budget.points, what: 'budget' });
      for (const k of keys) {
        counted.set(k.key, (counted.get(k.key) ?? 0) + points);
        if (points > 0) checks.push(k);
      }
    }
    for (const check of checks)
      expect(counted.get(check.key)!, `${check.what} ${check.key} (v's cap ${check.cap})`).toBeLessThanOrEqual(check.cap);
    // The counters agree with the lines they count.
    const counters = await db()
      .selectFrom('earning_rule_counters')
      .select(['rule_id', 'participant_id', 'period', 'points'])
      .where('client_id', '=', clientId)
      .execute();
    for (const c of counters) {
      const key = c.period === 'budget' ? `${c.rule_id}|budget` : `${c.rule_id}|${c.participant_id}|${c.period}`;
      expect(Number(c.points), key).toBe(counted.get(key) ?? 0);
    }
  }

  it('keeps the ledger equal to balances plus pending, every cap and budget, returns within what was earned, releases and replays neutral', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 18 }), async (steps) => {
        const clientId = `evprop-${randomBytes(4).toString('hex')}`;
        await insertTestClient(db(), clientId, { time_zone: TIME_ZONE });
        await addGeneratedParticipants(db(), clientId, PARTICIPANTS);
        const caller: ApiCaller = { keyId: 'key-prop', clientId, keyName: 'prop', scopes: ['events:write'] };
        const operator = { kind: 'operator' as const, name: 'prop', origin: 'test' };
        let clock = START;
        // The rules begin before the first events (which may be dated up to two days back).
        for (const id of ['per-amount', 'shoes', 'promo', 'welcome'] as const)
          await createRule(db(), operator, clientId, ruleOf(id), 'property', { now: new Date(clock - 3 * DAY_MS) });
        const spent = new Map<string, number>();
        const sent: Array<{ body: Record<string, unknown>; reply: ProgramEventReply }> = [];
        const counted = new Map<string, number>();
        const seen = new Set<string>();
        let n = 0;
        const body = (who: number, cents: number, category: string, minutesAgo: number) => ({
          id: `e-${(n += 1)}`,
          type: 'purchase',
          username: generatedUsername(who),
          occurredAt: new Date(clock - minutesAgo * 60_000).toISOString(),
          amount: (cents / 100).toFixed(2),
          currency: 'EUR',
          attributes: { category },
        });

        for (const s of steps) {
          const now = new Date(clock);
          if (s.kind === 'event') {
            const b = body(s.who, s.cents, s.category, s.minutesAgo);
            const { reply, replayed } = await recordEvent(db(), caller, b, now);
            expect(replayed).toBe(false);
            sent.push({ body: b, reply });
          } else if (s.kind === 'burst') {
            // At once, one participant, the same day: the caps are taken exactly, whatever the order.
            const bodies = Array.from({ length: s.count }, (_, i) => body(s.who, s.cents + i, CATEGORIES[i % CATEGORIES.length]!, 0));
            const replies = await Promise.all(bodies.map((b) => recordEvent(db(), caller, b, now)));
            replies.forEach((r, i) => sent.push({ body: bodies[i]!, reply: r.reply }));
          } else if (s.kind === 'change') {
            // A new version from now: events dated before it keep the version they had.
            await updateRule(db(), operator, clientId, s.rule, ruleOf(s.rule, s.value), 'property', { now });
          } else if (s.kind === 'days') {
            clock += s.days * DAY_MS;
          } else if (s.kind === 'return') {
            const purchases = sent.filter((e) => e.body.type === 'purchase');
            if (purchases.length > 0) {
              const original = purchases[s.pick % purchases.length]!;
              const cents = Math.round(Number(original.body.amount) * 100);
              const r = {
                id: `r-${(n += 1)}`,
                type: 'return',
                username: original.body.username,
                occurredAt: now.toISOString(),
                references: { originalEventId: original.reply.id },
                ...(s.percent === 0
                  ? {}
                  : { amount: (Math.max(1, Math.floor((cents * s.percent) / 100)) / 100).toFixed(2), currency: 'EUR' }),
              };
              const { reply, replayed } = await recordEvent(db(), caller, r, now);
              expect(replayed).toBe(false);
              sent.push({ body: r, reply });
            }
          } else if (s.kind === 'spend') {
            const participantId = `${clientId}-${generatedUsername(s.who)}`;
            const amount = Math.floor(((await holdings(clientId)).get(participantId)!.balance * s.percent) / 100);
            if (amount > 0) {
              await writeToLedger(db(), (trx) =>
                appendLedgerEntry(
                  trx,
                  { clientId, participantId, occurredAt: now.toISOString(), description: 'Order', amount: -amount, kind: 'redemption' },
                  now,
                  { requireCovered: true },
                ),
              );
              spent.set(participantId, (spent.get(participantId) ?? 0) + amount);
            }
          } else if (s.kind === 'release') {
            // Pending points become spendable: each participant's balance plus pending stays what it was.
            const before = await holdings(clientId);
            const run = await releasePendingPoints(db(), { clientId, now: () => now });
            expect(run.status).toBe('done');
            const after = await holdings(clientId);
            for (const [id, h] of before) expect(after.get(id)!.balance + after.get(id)!.pending, id).toBe(h.balance + h.pending);
          } else if (sent.length > 0) {
            const original = sent[s.pick % sent.length]!;
            const before = await snapshot(clientId);
            const again = await recordEvent(db(), caller, original.body, now);
            expect(again.replayed).toBe(true);
            const { replayed: _replayed, ...kept } = again.reply;
            expect(kept).toEqual(await getEvent(db(), caller, original.reply.id));
            expect(await snapshot(clientId)).toEqual(before);
          }
          await expectCapsHeld(clientId, counted, seen);
          await expectLedgerAgrees(clientId, spent);
        }
      }),
      { numRuns: RUNS },
    );
  }, 240_000);
});
