import type { DayOfWeek, EarningCondition, EarningLine, EarningRule, EarningsResult, EarningTrim } from '@rewards/contract/earning-rules';
import { DAYS_OF_WEEK, EARNING_MAX_EVENT_POINTS, EARNING_MAX_LINE_POINTS } from '@rewards/contract/earning-rules';
import { LRUCache } from 'lru-cache';
import { dayIn } from '../expiry/policy.ts';
import {
  atMost,
  compareDecimals,
  extraFraction,
  formatDecimal,
  parseDecimal,
  pointsPerFraction,
  roundFraction,
  type Decimal,
} from './decimal.ts';

/**
 * The earning engine (issue 32 §2, decision 095): what one event earns under the rules in force
 * at its occurredAt. Pure and deterministic: the same event, facts, rules (in any order) and caps
 * used give the same lines, so a simulation, a posting and a replay agree. Every line says which
 * conditions it met, how its points were computed and what trimmed them.
 *
 * Order: each earning rule's points (conditions, then the formula, then its participant cap and
 * its budget); among the rules marked "best", only the one earning the most (ties: higher
 * priority, then the rule id); then the promotions, each multiplying what the earning rules it
 * names earned, through the same caps and "best"; the event's total held to
 * EARNING_MAX_EVENT_POINTS.
 */

/** A rule's version as it is in force at the event's time. */
export interface RuleInForce {
  id: string;
  version: number;
  rule: EarningRule;
}

/** What the engine reads of an event (the contract's EarningEvent with its time settled). */
export interface EventFacts {
  type: string;
  /** ISO 8601 with an offset. */
  occurredAt: string;
  amount?: string | undefined;
  currency?: string | undefined;
  attributes?: Readonly<Record<string, string | number | boolean>> | undefined;
}

export interface ParticipantFacts {
  programs: readonly string[];
  status: string;
}

/** Points a rule has already given: to this participant in the cap's period of this event, and in all (its budget). */
export interface CapUse {
  participant?: number;
  budget?: number;
}
export type CapsUsed = ReadonlyMap<string, CapUse>;

/** The key of the participant cap's period an event counts in: day:2026-12-05, month:2026-12 or ever. */
export function capPeriodOf(rule: EarningRule, localDay: string): string | null {
  const cap = rule.caps.participant;
  if (!cap) return null;
  switch (cap.per) {
    case 'day':
      return `day:${localDay}`;
    case 'month':
      return `month:${localDay.slice(0, 7)}`;
    case 'ever':
      return 'ever';
  }
}

/**
 * The calendar day and weekday of each quarter hour seen, per time zone: every zone's offset and
 * its changes fall on a quarter hour. An import computes a million events, and Intl's
 * formatToParts was a tenth of its CPU (decision 099).
 */
const daysOfQuarters = new LRUCache<string, { day: string; weekday: DayOfWeek }>({ max: 20_000 });

/** The event's day and weekday in the client's time zone. */
export function localDayOf(occurredAt: string, timeZone: string): { day: string; weekday: DayOfWeek } {
  const instant = new Date(occurredAt);
  const quarter = `${timeZone} ${Math.floor(instant.getTime() / 900_000)}`;
  let found = daysOfQuarters.get(quarter);
  if (found === undefined) {
    const day = dayIn(instant, timeZone);
    // The weekday of a calendar day is the same everywhere: read it at UTC noon of that day.
    const index = new Date(`${day}T12:00:00.000Z`).getUTCDay();
    found = { day, weekday: DAYS_OF_WEEK[(index + 6) % 7]! };
    daysOfQuarters.set(quarter, found);
  }
  return { day: found.day, weekday: found.weekday };
}

interface Context {
  event: EventFacts;
  participant: ParticipantFacts;
  day: string;
  weekday: DayOfWeek;
  amount: Decimal | undefined;
}

const norm = (value: string) => value.trim().toLowerCase();
const list = (values: readonly string[]) => values.join(', ');

interface CheckedCondition {
  condition: string;
  met: boolean;
  detail: string;
}

/** A condition made ready once per rule object: its text, its values normalised and parsed. */
interface CompiledCondition {
  condition: string;
  check(ctx: Context): { met: boolean; detail: string };
}

function compileCondition(c: EarningCondition): CompiledCondition {
  if (c.attribute !== undefined) {
    const name = c.attribute;
    const shown = (value: string | undefined) => (value === undefined ? `${name} is not given` : `${name} is ${value}`);
    const valueOf = (ctx: Context) => {
      const raw = ctx.event.attributes?.[name];
      return raw === undefined ? undefined : String(raw);
    };
    if (c.in !== undefined || c.notIn !== undefined) {
      const inside = c.in !== undefined;
      const values = new Set((c.in ?? c.notIn ?? []).map(norm));
      return {
        condition: `${name} ${inside ? 'in' : 'not in'} ${list(c.in ?? c.notIn ?? [])}`,
        check: (ctx) => {
          const value = valueOf(ctx);
          const found = value !== undefined && values.has(norm(value));
          return { met: inside ? found : !found, detail: shown(value) };
        },
      };
    }
    const equals = norm(c.equals ?? '');
    return {
      condition: `${name} is ${c.equals ?? ''}`,
      check: (ctx) => {
        const value = valueOf(ctx);
        return { met: value !== undefined && norm(value) === equals, detail: shown(value) };
      },
    };
  }
  if (c.amount !== undefined) {
    const atLeast = c.amount.atLeast === undefined ? undefined : parseDecimal(c.amount.atLeast);
    const atMost = c.amount.atMost === undefined ? undefined : parseDecimal(c.amount.atMost);
    const parts = [
      ...(c.amount.atLeast !== undefined ? [`at least ${c.amount.atLeast}`] : []),
      ...(c.amount.atMost !== undefined ? [`at most ${c.amount.atMost}`] : []),
    ];
    return {
      condition: `amount ${parts.join(' and ')}`,
      check: (ctx) => {
        const amount = ctx.amount;
        if (!amount) return { met: false, detail: 'the event has no amount' };
        const met =
          (atLeast === undefined || compareDecimals(amount, atLeast) >= 0) &&
          (atMost === undefined || compareDecimals(amount, atMost) <= 0);
        return { met, detail: `the amount is ${formatDecimal(amount)}` };
      },
    };
  }
  if (c.programs !== undefined) {
    const anyOf = c.programs.anyOf?.map(norm);
    const noneOf = c.programs.noneOf?.map(norm);
    const parts = [
      ...(c.programs.anyOf !== undefined ? [`in any of ${list(c.programs.anyOf)}`] : []),
      ...(c.programs.noneOf !== undefined ? [`in none of ${list(c.programs.noneOf)}`] : []),
    ];
    return {
      condition: `participant ${parts.join(' and ')}`,
      check: (ctx) => {
        const held = new Set(ctx.participant.programs.map(norm));
        const met = (anyOf === undefined || anyOf.some((p) => held.has(p))) && (noneOf === undefined || !noneOf.some((p) => held.has(p)));
        const detail =
          ctx.participant.programs.length === 0
            ? 'the participant is in no program'
            : `the participant is in ${list(ctx.participant.programs)}`;
        return { met, detail };
      },
    };
  }
  if (c.status !== undefined) {
    const statuses = new Set(c.status.in.map(norm));
    return {
      condition: `status in ${list(c.status.in)}`,
      check: (ctx) => ({ met: statuses.has(norm(ctx.participant.status)), detail: `the participant is ${ctx.participant.status}` }),
    };
  }
  if (c.dayOfWeek !== undefined) {
    const days: ReadonlySet<string> = new Set(c.dayOfWeek);
    return {
      condition: `day of week ${list(c.dayOfWeek)}`,
      check: (ctx) => ({ met: days.has(ctx.weekday), detail: `the event's day is ${ctx.weekday}` }),
    };
  }
  const from = c.date?.from;
  const to = c.date?.to;
  return {
    condition: `date ${[...(from ? [`from ${from}`] : []), ...(to ? [`to ${to}`] : [])].join(' ')}`,
    check: (ctx) => ({
      met: (from === undefined || ctx.day >= from) && (to === undefined || ctx.day <= to),
      detail: `the event's day is ${ctx.day}`,
    }),
  };
}

/** What the engine prepares once per rule object (rules in force come from a cache of parsed versions). */
interface CompiledRule {
  conditions: CompiledCondition[];
  per: Decimal | undefined;
  multiply: Decimal | undefined;
}
const compiled = new WeakMap<EarningRule, CompiledRule>();
function compiledOf(rule: EarningRule): CompiledRule {
  let made = compiled.get(rule);
  if (made === undefined) {
    made = {
      conditions: rule.conditions.map(compileCondition),
      per: rule.earn.per === undefined ? undefined : parseDecimal(rule.earn.per),
      multiply: rule.earn.multiply === undefined ? undefined : parseDecimal(rule.earn.multiply),
    };
    compiled.set(rule, made);
  }
  return made;
}

/** The rule's own window (validFrom/validUntil, days in the client's time zone) as a condition line. */
function checkWindow(rule: EarningRule, day: string): CheckedCondition | undefined {
  if (rule.validFrom === null && rule.validUntil === null) return undefined;
  const met = (rule.validFrom === null || day >= rule.validFrom) && (rule.validUntil === null || day <= rule.validUntil);
  const condition = `valid ${rule.validFrom ? `from ${rule.validFrom}` : ''}${rule.validFrom && rule.validUntil ? ' ' : ''}${rule.validUntil ? `until ${rule.validUntil}` : ''}`;
  return { condition, met, detail: `the event's day is ${day}` };
}

interface Draft {
  entry: RuleInForce;
  line: EarningLine;
}

/** Holds a line's points to its participant cap and then its budget, recording each trim. */
function applyCaps(draft: Draft, used: CapUse | undefined): void {
  const { rule } = draft.entry;
  const { line } = draft;
  const participantCap = rule.caps.participant;
  if (participantCap && line.points > 0) {
    const spent = used?.participant ?? 0;
    const left = Math.max(0, participantCap.points - spent);
    if (line.points > left) {
      line.trims.push({
        by: 'participantCap',
        before: line.points,
        after: left,
        detail: `participant cap ${participantCap.points} per ${participantCap.per}: ${spent} earned in ${line.capPeriod}, ${left} left`,
      });
      line.points = left;
    }
  }
  const budget = rule.caps.budget;
  if (budget && line.points > 0) {
    const spent = used?.budget ?? 0;
    const left = Math.max(0, budget.points - spent);
    if (line.points > left) {
      line.trims.push({ by: 'budget', before: line.points, after: left, detail: `budget ${budget.points}: ${spent} given, ${left} left` });
      line.points = left;
    }
  }
}

/** Higher priority first, then the rule id: the one order of lines, whatever order the rules came in. */
const byPriority = (a: Draft, b: Draft) =>
  b.entry.rule.priority - a.entry.rule.priority || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0);

/** Among the lines marked "best", keeps the one earning the most (ties: the first by priority) and trims the others to 0. */
function applyBest(drafts: Draft[]): void {
  const contenders = drafts.filter((d) => d.entry.rule.stacking === 'best' && d.line.points > 0);
  if (contenders.length < 2) return;
  const winner = contenders.reduce((best, d) => (d.line.points > best.line.points ? d : best));
  for (const d of contenders) {
    if (d === winner) continue;
    d.line.trims.push({
      by: 'best',
      before: d.line.points,
      after: 0,
      detail: `"${winner.entry.rule.name}" earns more (${winner.line.points}) and only the best of the rules marked best counts`,
    });
    d.line.points = 0;
  }
}

function newLine(entry: RuleInForce, ctx: Context, kind: EarningLine['kind']): Draft {
  const { rule } = entry;
  const window = checkWindow(rule, ctx.day);
  const conditions: CheckedCondition[] = window ? [window] : [];
  for (const c of compiledOf(rule).conditions) conditions.push({ condition: c.condition, ...c.check(ctx) });
  return {
    entry,
    line: {
      ruleId: entry.id,
      version: entry.version,
      name: rule.name,
      kind,
      matched: conditions.every((c) => c.met),
      conditions,
      computed: 0,
      points: 0,
      calculation: '',
      trims: [],
      pendingDays: rule.pendingDays,
      capPeriod: capPeriodOf(rule, ctx.day),
      text: { ...rule.text },
    },
  };
}

const ROUNDED = { down: 'rounded down', up: 'rounded up', nearest: 'rounded to the nearest' } as const;

/** An earning rule's points before caps: fixed, or per amount. */
function earnedBy(draft: Draft, ctx: Context): void {
  const { earn } = draft.entry.rule;
  const { line } = draft;
  if (earn.points !== undefined) {
    line.computed = earn.points;
    line.calculation = `${earn.points} points`;
    return;
  }
  const pointsPer = earn.pointsPer ?? 0;
  const per = compiledOf(draft.entry.rule).per ?? parseDecimal('1');
  const rounding = earn.rounding ?? 'down';
  if (!ctx.amount) {
    line.matched = false;
    line.calculation = `${pointsPer} points per ${formatDecimal(per)}: the event has no amount`;
    return;
  }
  if (earn.currency !== undefined && earn.currency !== ctx.event.currency) {
    line.matched = false;
    line.calculation = `${pointsPer} points per ${formatDecimal(per)} ${earn.currency}: the event's amount is in ${ctx.event.currency ?? 'no currency'}`;
    return;
  }
  const { numerator, denominator } = pointsPerFraction(pointsPer, ctx.amount, per);
  const points = roundFraction(numerator, denominator, rounding);
  line.computed = atMost(points, Number.MAX_SAFE_INTEGER);
  line.calculation = `${pointsPer} points per ${formatDecimal(per)}${earn.currency ? ` ${earn.currency}` : ''} of ${formatDecimal(ctx.amount)} = ${points}, ${ROUNDED[rounding]}`;
}

/** A promotion's extra points: what the earning rules it names earned, times (multiply − 1). */
function promotedBy(draft: Draft, earning: readonly Draft[]): void {
  const { earn } = draft.entry.rule;
  const factor = compiledOf(draft.entry.rule).multiply ?? parseDecimal('1');
  const named = earn.rules === undefined ? undefined : new Set(earn.rules);
  const targets = earning.filter((d) => d.line.points > 0 && (named === undefined || named.has(d.entry.id)));
  const base = targets.reduce((sum, d) => sum + d.line.points, 0);
  const rounding = earn.rounding ?? 'down';
  const { numerator, denominator } = extraFraction(base, factor);
  const extra = roundFraction(numerator, denominator, rounding);
  draft.line.computed = atMost(extra, Number.MAX_SAFE_INTEGER);
  const of = targets.length === 0 ? 'no rule earned on the event' : targets.map((d) => `${d.entry.rule.name} ${d.line.points}`).join(' + ');
  draft.line.calculation = `× ${formatDecimal(factor)} of ${base} (${of}): ${extra} extra, ${ROUNDED[rounding]}`;
  // Extra points on pending points wait as long as they do: a return within the window takes both back.
  draft.line.pendingDays = Math.max(draft.line.pendingDays, ...targets.map((d) => d.line.pendingDays));
}

/** The line's own limit: no rule earns more than EARNING_MAX_LINE_POINTS on one event. */
function holdToLineMaximum(line: EarningLine): void {
  line.points = line.matched ? line.computed : 0;
  if (line.points > EARNING_MAX_LINE_POINTS) {
    line.trims.push({
      by: 'lineMaximum',
      before: line.points,
      after: EARNING_MAX_LINE_POINTS,
      detail: `no rule earns more than ${EARNING_MAX_LINE_POINTS} points on one event`,
    });
    line.points = EARNING_MAX_LINE_POINTS;
  }
}

/**
 * What the event earns, rule by rule. `rules` are the versions in force at the event's time
 * (any order; those of other event types are left out); `capsUsed` what each capped rule has
 * already given (this participant in the event's cap period, and its budget); `timeZone` the
 * client's, in which days, weekdays and months are read.
 */
export function computeEarnings(
  event: EventFacts,
  participant: ParticipantFacts,
  rules: readonly RuleInForce[],
  capsUsed: CapsUsed,
  timeZone: string,
): EarningsResult {
  const { day, weekday } = localDayOf(event.occurredAt, timeZone);
  const ctx: Context = { event, participant, day, weekday, amount: event.amount === undefined ? undefined : parseDecimal(event.amount) };
  const own = rules.filter((r) => r.rule.event === event.type);
  const earning = own.filter((r) => r.rule.earn.multiply === undefined).map((r) => newLine(r, ctx, 'earn'));
  const promotions = own.filter((r) => r.rule.earn.multiply !== undefined).map((r) => newLine(r, ctx, 'promotion'));
  earning.sort(byPriority);
  promotions.sort(byPriority);

  for (const draft of earning) {
    if (draft.line.matched) earnedBy(draft, ctx);
    else draft.line.calculation = 'a condition is not met';
    holdToLineMaximum(draft.line);
    applyCaps(draft, capsUsed.get(draft.entry.id));
  }
  applyBest(earning);
  for (const draft of promotions) {
    if (draft.line.matched) promotedBy(draft, earning);
    else draft.line.calculation = 'a condition is not met';
    holdToLineMaximum(draft.line);
    applyCaps(draft, capsUsed.get(draft.entry.id));
  }
  applyBest(promotions);

  const lines = [...earning, ...promotions].map((d) => d.line);
  let total = 0;
  for (const line of lines) {
    const left = EARNING_MAX_EVENT_POINTS - total;
    if (line.points > left) {
      const trim: EarningTrim = {
        by: 'eventMaximum',
        before: line.points,
        after: left,
        detail: `no event earns more than ${EARNING_MAX_EVENT_POINTS} points`,
      };
      line.trims.push(trim);
      line.points = left;
    }
    total += line.points;
  }
  const pending = lines.reduce((sum, line) => sum + (line.pendingDays > 0 ? line.points : 0), 0);
  return { lines, total, pending, localDay: day, dayOfWeek: weekday, timeZone };
}
