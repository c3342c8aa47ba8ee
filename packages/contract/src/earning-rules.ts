import { z } from 'zod';

/**
 * Earning rules (issue 32 §2, docs/decisions/095): what a program manager writes so that an event
 * a client's system sends (a purchase, a completed course) earns points. The JSON a rule file,
 * the console's JSON view and the API carry. Amounts and multipliers are decimal strings,
 * computed exactly by the server (never as floating-point numbers); points are whole numbers.
 */

/** The program API's earning-rules paths, under PROGRAM_API_BASE (a key with scope events:write). */
export const programRulesPaths = {
  /** POST: what an event would earn, rule by rule, writing nothing. */
  simulate: '/rules/simulate',
} as const;

/** The largest number of points one rule may earn on one event: a typo guard, as the program API's posting limit. */
export const EARNING_MAX_LINE_POINTS = 10_000_000;
/** The largest number of points one event may earn over all rules (the ledger's column is 32-bit on PostgreSQL). */
export const EARNING_MAX_EVENT_POINTS = 1_000_000_000;
/** Caps and budgets, in points. */
export const EARNING_MAX_CAP_POINTS = 2_000_000_000;

export const EARNING_ROUNDINGS = ['down', 'up', 'nearest'] as const;
export type EarningRounding = (typeof EARNING_ROUNDINGS)[number];
export const EARNING_CAP_PERIODS = ['day', 'month', 'ever'] as const;
export type EarningCapPeriod = (typeof EARNING_CAP_PERIODS)[number];
export const EARNING_STACKINGS = ['add', 'best'] as const;
export const DAYS_OF_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

/** Event types: built in `purchase` and `return`, others declared by the program manager (`course.completed`). */
export const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
export const EventType = z
  .string()
  .trim()
  .regex(EVENT_TYPE_PATTERN, { message: 'an event type is lower case letters, digits and . _ - (at most 64), starting with a letter' });

/** A non-negative decimal amount as text: up to 15 digits, then up to 6 decimals ("120.50"). */
export const DECIMAL_PATTERN = /^\d{1,15}(\.\d{1,6})?$/;
export const DecimalText = z.string().trim().regex(DECIMAL_PATTERN, {
  message: 'an amount is a decimal string such as "10.00" (digits, at most 6 decimals, no sign, no exponent)',
});

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** True for a real calendar day written YYYY-MM-DD. */
export function isCalendarDay(value: string): boolean {
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const at = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}
/** A day in the client's time zone, YYYY-MM-DD. */
export const Day = z.string().trim().refine(isCalendarDay, { message: 'a day is written YYYY-MM-DD (2026-12-01)' });

const nonZero = (value: string) => /[1-9]/.test(value);
const shortText = z.string().trim().min(1).max(200);
const valueList = z.array(shortText).min(1, { message: 'name at least one value' }).max(200);

/**
 * One condition: exactly one of an attribute's value (`in`, `notIn` or `equals`), the amount
 * (`atLeast`, `atMost`), the participant's programs (`anyOf`, `noneOf`) or status (`in`), the
 * day of the week, or a date range (days in the client's time zone, both ends included).
 */
export const EarningCondition = z
  .strictObject({
    attribute: shortText.optional(),
    in: valueList.optional(),
    notIn: valueList.optional(),
    equals: shortText.optional(),
    amount: z
      .strictObject({ atLeast: DecimalText.optional(), atMost: DecimalText.optional() })
      .refine((a) => a.atLeast !== undefined || a.atMost !== undefined, { message: 'an amount condition has atLeast, atMost or both' })
      .optional(),
    programs: z
      .strictObject({ anyOf: valueList.optional(), noneOf: valueList.optional() })
      .refine((p) => p.anyOf !== undefined || p.noneOf !== undefined, { message: 'a programs condition has anyOf, noneOf or both' })
      .optional(),
    status: z.strictObject({ in: valueList }).optional(),
    dayOfWeek: z
      .array(z.enum(DAYS_OF_WEEK, { message: `days of the week are ${DAYS_OF_WEEK.join(', ')}` }))
      .min(1)
      .max(7)
      .optional(),
    date: z
      .strictObject({ from: Day.optional(), to: Day.optional() })
      .refine((d) => d.from !== undefined || d.to !== undefined, { message: 'a date condition has from, to or both' })
      .refine((d) => d.from === undefined || d.to === undefined || d.from <= d.to, { message: 'the date condition ends before it starts' })
      .optional(),
  })
  .superRefine((c, ctx) => {
    const kinds = (['attribute', 'amount', 'programs', 'status', 'dayOfWeek', 'date'] as const).filter((k) => c[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `a condition is exactly one of attribute, amount, programs, status, dayOfWeek or date (this one has ${kinds.length === 0 ? 'none' : kinds.join(' and ')})`,
      });
      return;
    }
    const tests = [c.in, c.notIn, c.equals].filter((t) => t !== undefined).length;
    if (c.attribute !== undefined && tests !== 1)
      ctx.addIssue({ code: 'custom', message: `the attribute condition on "${c.attribute}" has exactly one of in, notIn or equals` });
    if (c.attribute === undefined && tests > 0)
      ctx.addIssue({
        code: 'custom',
        message: 'in, notIn and equals belong to an attribute condition ({"attribute": "category", "in": [...]})',
      });
  });
export type EarningCondition = z.infer<typeof EarningCondition>;

/**
 * What a rule earns: exactly one of a fixed number of `points`; `pointsPer` whole points for each
 * `per` of the amount (the amount of a currency if `currency` is set), rounded as `rounding`
 * says; or, for a promotion, `multiply` what other rules earned on the event (all of them, or
 * those `rules` names), the extra points rounded as `rounding` says.
 */
export const EarningEarn = z
  .strictObject({
    points: z.number().int().min(1).max(EARNING_MAX_LINE_POINTS).optional(),
    pointsPer: z.number().int().min(1).max(1_000_000).optional(),
    per: DecimalText.refine(nonZero, { message: 'per is more than zero' }).optional(),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, { message: 'a currency is a three-letter ISO 4217 code (EUR)' })
      .optional(),
    // Number() only checks the range here (at most 6 decimals); the engine computes with the exact decimal.
    multiply: DecimalText.refine((m) => Number(m) > 1 && Number(m) <= 100, {
      message: 'multiply is more than 1 and at most 100 ("2" doubles what the other rules earned)',
    }).optional(),
    rules: z.array(shortText).min(1).max(100).optional(),
    rounding: z.enum(EARNING_ROUNDINGS, { message: `rounding is ${EARNING_ROUNDINGS.join(', ')}` }).optional(),
  })
  .superRefine((e, ctx) => {
    const kinds = (['points', 'pointsPer', 'multiply'] as const).filter((k) => e[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `earn has exactly one of points, pointsPer (with per) or multiply (this one has ${kinds.length === 0 ? 'none' : kinds.join(' and ')})`,
      });
      return;
    }
    if (e.pointsPer !== undefined && e.per === undefined)
      ctx.addIssue({ code: 'custom', message: 'pointsPer needs per: the amount that earns them ("per": "1.00")' });
    if (e.pointsPer === undefined && (e.per !== undefined || e.currency !== undefined))
      ctx.addIssue({ code: 'custom', message: 'per and currency belong with pointsPer' });
    if (e.multiply === undefined && e.rules !== undefined)
      ctx.addIssue({ code: 'custom', message: 'rules belongs with multiply (a promotion)' });
    if (e.points !== undefined && e.rounding !== undefined)
      ctx.addIssue({ code: 'custom', message: 'a fixed number of points is not rounded' });
  })
  // The rounding is always stated where there is one: "down" unless the rule says otherwise.
  .overwrite((e) => (e.points === undefined && e.rounding === undefined ? { ...e, rounding: 'down' as const } : e));
export type EarningEarn = z.infer<typeof EarningEarn>;

export const EarningCaps = z.strictObject({
  /** The most one participant earns from the rule per day, per month (in the client's time zone) or ever. */
  participant: z
    .strictObject({
      points: z.number().int().min(1).max(EARNING_MAX_CAP_POINTS),
      per: z.enum(EARNING_CAP_PERIODS, { message: `per is ${EARNING_CAP_PERIODS.join(', ')}` }),
    })
    .optional(),
  /** The most the rule gives away in all; it stops earning when spent. */
  budget: z.strictObject({ points: z.number().int().min(1).max(EARNING_MAX_CAP_POINTS) }).optional(),
});
export type EarningCaps = z.infer<typeof EarningCaps>;

const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** A rule as a program manager writes it (a file, the console's JSON view). */
export const EarningRule = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    event: EventType.refine((t) => t !== 'return', {
      message: 'no rule earns on a return: a return takes back what its original event earned',
    }),
    conditions: z.array(EarningCondition).max(30).default([]),
    earn: EarningEarn,
    caps: EarningCaps.default({}),
    /** Points stay pending (not spendable) this many days, e.g. a return window. */
    pendingDays: z.number().int().min(0).max(365).default(0),
    /** The first and last day the rule earns (in the client's time zone, both included); null: open. */
    validFrom: Day.nullable().default(null),
    validUntil: Day.nullable().default(null),
    /** Higher first: the order of the lines, and which rule wins a tie under "best". */
    priority: z.number().int().min(-1000).max(1000).default(0),
    /** add: adds up with the other rules; best: of the rules marked best, only the one earning the most counts. */
    stacking: z.enum(EARNING_STACKINGS, { message: `stacking is ${EARNING_STACKINGS.join(' or ')}` }).default('add'),
    /** What the participant's history and the console call it, per locale. */
    text: z
      .record(z.string().regex(LOCALE_PATTERN, { message: 'text is keyed by locale (en-US)' }), z.string().trim().min(1).max(300))
      .default({}),
  })
  .refine((r) => r.validFrom === null || r.validUntil === null || r.validFrom <= r.validUntil, {
    message: 'validUntil is before validFrom',
    path: ['validUntil'],
  });
/** The rule as written (input: defaults may be left out). */
export type EarningRuleInput = z.input<typeof EarningRule>;
/** The rule with its defaults filled in: what is stored and computed. */
export type EarningRule = z.output<typeof EarningRule>;

/** The issues of a rule that does not parse, one line each with where they are ("earn.per: …"). */
export function earningRuleProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    return where === '' ? issue.message : `${where}: ${issue.message}`;
  });
}

/** What an event looks like to the rules (the program API's event, or a simulation's). */
export const EarningEvent = z.strictObject({
  /** The client's own id of the event (kept by the events of §1; a simulation may leave it out). */
  id: z.string().trim().min(1).max(200).optional(),
  type: EventType,
  /** The participant; a simulation without one computes for a participant with no programs, active, nothing earned yet. */
  username: z.string().trim().min(1).max(200).optional(),
  /** When it happened, ISO 8601 with its offset; a simulation without one takes now. */
  occurredAt: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, {
      message: 'occurredAt is an ISO 8601 time with its offset (2026-12-05T14:30:00Z)',
    })
    .refine((t) => !Number.isNaN(new Date(t).getTime()), { message: 'occurredAt is not a real time' })
    .optional(),
  amount: DecimalText.optional(),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, { message: 'a currency is a three-letter ISO 4217 code (EUR)' })
    .optional(),
  /** A flat map: category, store, sku, channel… */
  attributes: z
    .record(z.string().min(1).max(64), z.union([z.string().max(200), z.number(), z.boolean()]))
    .refine((a) => Object.keys(a).length <= 50, { message: 'at most 50 attributes' })
    .optional(),
  references: z.record(z.string().min(1).max(64), z.string().max(200)).optional(),
});
export type EarningEvent = z.infer<typeof EarningEvent>;

/** Why a rule's points were cut: its participant cap, its budget, another rule winning under "best", or the most one event may earn. */
export const EarningTrim = z.object({
  by: z.enum(['participantCap', 'budget', 'best', 'eventMaximum', 'lineMaximum']),
  before: z.number().int(),
  after: z.number().int(),
  detail: z.string(),
});
export type EarningTrim = z.infer<typeof EarningTrim>;

/** One rule's line of an event's earnings: what it earned and why. */
export const EarningLine = z.object({
  ruleId: z.string(),
  version: z.number().int(),
  name: z.string(),
  kind: z.enum(['earn', 'promotion']),
  matched: z.boolean(),
  /** Each condition as written, whether the event met it, and what was compared. */
  conditions: z.array(z.object({ condition: z.string(), met: z.boolean(), detail: z.string() })),
  /** Before caps, budget and stacking. */
  computed: z.number().int(),
  /** What the rule earns on the event. */
  points: z.number().int(),
  /** How computed was reached ("2 points per 1.00 of 120.50 = 241, rounded down"). */
  calculation: z.string(),
  trims: z.array(EarningTrim),
  pendingDays: z.number().int(),
  /** The participant cap's period this line counts in (day:2026-12-05, month:2026-12, ever); null without a cap. */
  capPeriod: z.string().nullable(),
  text: z.record(z.string(), z.string()),
});
export type EarningLine = z.infer<typeof EarningLine>;

export const EarningsResult = z.object({
  lines: z.array(EarningLine),
  total: z.number().int(),
  /** Of the total, what stays pending (lines with pendingDays). */
  pending: z.number().int(),
  /** The event's day and weekday in the client's time zone, as the conditions saw them. */
  localDay: z.string(),
  dayOfWeek: z.enum(DAYS_OF_WEEK),
  timeZone: z.string(),
});
export type EarningsResult = z.infer<typeof EarningsResult>;

/** A rule as the console and `rewards rules list` show it: its latest version, and the one in force now. */
export const EarningRuleView = z.object({
  id: z.string(),
  event: z.string(),
  /** The latest version, as last written (it may begin later). */
  version: z.number().int(),
  /** The latest version's first instant (ISO UTC). */
  effectiveFrom: z.string(),
  enabled: z.boolean(),
  rule: EarningRule,
  /** The version in force now; null before the first version begins. */
  inForce: z.object({ version: z.number().int(), enabled: z.boolean() }).nullable(),
  budget: z.object({ points: z.number().int(), used: z.number().int(), left: z.number().int() }).nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
});
export type EarningRuleView = z.infer<typeof EarningRuleView>;

export const SimulationResult = EarningsResult.extend({
  event: z.object({ type: z.string(), occurredAt: z.string(), username: z.string().nullable() }),
});
export type SimulationResult = z.infer<typeof SimulationResult>;
