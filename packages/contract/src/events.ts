import { z } from 'zod';
import { DecimalText, EarningTrim, EventType } from './earning-rules.ts';

/**
 * Events in (issue 32 §1, docs/decisions/097): what a client's system sends when a participant
 * did something (a purchase, a completed course); the rules in force at its time turn it into
 * points (decision 095). Each event is taken once per the client's own id, kept, and answered
 * with what it earned, rule by rule. A key with scope events:write.
 */

/** The program API's event paths, under PROGRAM_API_BASE. */
export const programEventsPaths = {
  /** POST: one event, once per id. */
  events: '/events',
  /** POST: up to PROGRAM_EVENTS_BATCH_MAX events, each on its own, in order. */
  batch: '/events:batch',
  /** GET: the kept event and its lines. */
  event: (id: string) => `/events/${encodeURIComponent(id)}`,
} as const;

export const PROGRAM_EVENT_MAX_ID = 200;
export const PROGRAM_EVENT_MAX_ATTRIBUTES = 50;
export const PROGRAM_EVENT_MAX_ATTRIBUTE_VALUE = 200;
export const PROGRAM_EVENT_MAX_REFERENCES = 10;
export const PROGRAM_EVENTS_BATCH_MAX = 1000;
/** The event types every client has; others are the types of the client's earning rules. */
export const BUILT_IN_EVENT_TYPES = ['purchase', 'return'] as const;

/** Text of a caller: no control characters, well-formed Unicode. */
const printable = (value: string) => value.isWellFormed() && !/\p{Cc}/u.test(value);
const text = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: `${what} is empty` })
    .max(max, { message: `${what} is longer than ${max} characters` })
    .refine(printable, { message: `${what} has control characters` });
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A flat map of short texts, bounded in count and length. */
const flatMap = (what: string, count: number) =>
  z
    .record(text(`a name of ${what}`, 64), text(`a value of ${what}`, PROGRAM_EVENT_MAX_ATTRIBUTE_VALUE))
    .refine((map) => Object.keys(map).length <= count, { message: `at most ${count} ${what}` });

export const ProgramEventRequest = z.strictObject({
  id: text('id', PROGRAM_EVENT_MAX_ID).describe(
    'Your id of the event, unique in the program: the same body again answers the same reply; another body under it is 409',
  ),
  type: EventType.describe(
    'purchase, return, a type the program manager declared (course.completed), or one an earning rule of the program earns on. A return names its original event in references.originalEventId and takes back what that event earned (decision 098)',
  ),
  username: text('username', 200),
  occurredAt: z
    .string()
    .trim()
    .regex(INSTANT, { message: 'occurredAt is an ISO 8601 time with its offset (2026-12-05T14:30:00Z)' })
    .refine((t) => !Number.isNaN(new Date(t).getTime()), { message: 'occurredAt is not a real time' })
    .describe('When it happened: the rules in force then compute it, in the time zone of the program'),
  amount: DecimalText.optional().describe('A decimal string ("120.50"): what points per amount are computed on'),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, { message: 'a currency is a three-letter ISO 4217 code (EUR)' })
    .optional(),
  attributes: flatMap('attributes', PROGRAM_EVENT_MAX_ATTRIBUTES)
    .optional()
    .describe("Texts the rules' conditions read: category, store, sku, channel… (at most 50, each at most 200 characters)"),
  references: flatMap('references', PROGRAM_EVENT_MAX_REFERENCES)
    .optional()
    .describe(
      'Other events this one names. A return must name its original event: {"originalEventId": "ord-17"}; with an amount it is partial (in proportion to the original amount), without one it returns the rest in whole',
    ),
});
export type ProgramEventRequest = z.infer<typeof ProgramEventRequest>;

/** The reference a return names its original event by (decision 098). */
export const RETURN_ORIGINAL_REFERENCE = 'originalEventId';

/** What one rule earned on the event; on a return, what it took back of one line of the original. */
export const ProgramEventLine = z.object({
  ruleId: z.string(),
  /** The rule's version in force at the event's occurredAt. */
  version: z.number().int(),
  name: z.string(),
  /** earn, promotion; return: a return's line, taking back from the original's line of this rule. */
  kind: z.enum(['earn', 'promotion', 'return']),
  /** Signed: a return's line is negative (what it took back). */
  points: z.number().int(),
  /** Pending points are held (not spendable) until the release run credits them, on the client's first day at or after availableAt; on a return's line: taken back from pending points. */
  pending: z.boolean(),
  availableAt: z.string().nullable(),
  /** The program's calendar day (YYYY-MM-DD, its time zone) the release run credits a pending line on, as the participant is told; null: not pending. */
  availableOn: z.string().nullable(),
  /** When the release run credited this pending line; null: not (yet) released. */
  releasedAt: z.string().nullable(),
  /** Of an earning line: the points returns took back of it so far (debt included). */
  reversedPoints: z.number().int(),
  /** Of a return's line: the points it could not take back (the balance was short). */
  debtPoints: z.number().int(),
  /** How the points were reached ("2 points per 1.00 of 120.50 = 241, rounded down"). */
  calculation: z.string(),
  /** Cuts by a cap, a budget, another rule under "best". */
  trims: z.array(EarningTrim),
});
export type ProgramEventLine = z.infer<typeof ProgramEventLine>;

/** An event as kept: what was sent, when it came, and what it earned. */
export const ProgramEvent = z.object({
  id: z.string(),
  type: z.string(),
  username: z.string(),
  /** ISO UTC. */
  occurredAt: z.string(),
  receivedAt: z.string(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  attributes: z.record(z.string(), z.string()),
  references: z.record(z.string(), z.string()),
  /** Points credited to the balance when the event came (a return: taken from the balance, negative). */
  points: z.number().int(),
  /** Points earned and held pending when the event came (a return: taken from pending points, negative). */
  pendingPoints: z.number().int(),
  /** Of an original event: the amount returned so far (the returns' amounts, cumulative, at most its own); null: none. */
  returnedAmount: z.string().nullable(),
  /** Of an original event: the points its returns took back so far (debt included), never more than it earned. */
  reversedPoints: z.number().int(),
  /** Of a return: the points it could not take back because the balance was short, a debt the program manager sees. */
  debtPoints: z.number().int(),
  /** The rules whose conditions the event met, in their order (a line may have 0 points: a cap, a budget). */
  lines: z.array(ProgramEventLine),
});
export type ProgramEvent = z.infer<typeof ProgramEvent>;

export const ProgramEventReply = ProgramEvent.extend({
  /** True when this id was taken already with the same body: the event as kept then, nothing new. */
  replayed: z.boolean(),
});
export type ProgramEventReply = z.infer<typeof ProgramEventReply>;

export const ProgramEventParams = z.object({
  id: z
    .string()
    .min(1)
    .max(PROGRAM_EVENT_MAX_ID)
    .regex(/^[^\u0000-\u001f\u007f]+$/),
});
export type ProgramEventParams = z.infer<typeof ProgramEventParams>;

export const ProgramEventBatchRequest = z.strictObject({
  // Each event is checked on its own: a bad one is answered in its place, its neighbours go on.
  events: z
    .array(z.unknown().describe('An event, as POST events takes it'))
    .min(1, { message: 'events is empty' })
    .max(PROGRAM_EVENTS_BATCH_MAX, { message: `at most ${PROGRAM_EVENTS_BATCH_MAX} events in a batch` }),
});
export type ProgramEventBatchRequest = z.infer<typeof ProgramEventBatchRequest>;

/** One event's outcome in a batch: its reply, or its error with the status POST events would have answered. */
export const ProgramEventBatchResult = z.object({
  index: z.number().int(),
  /** The event's id as sent; null when it has none. */
  id: z.string().nullable(),
  status: z.number().int(),
  event: ProgramEventReply.optional(),
  error: z.object({ errorCode: z.number().int(), message: z.string() }).optional(),
});
export type ProgramEventBatchResult = z.infer<typeof ProgramEventBatchResult>;

export const ProgramEventBatchReply = z.object({
  results: z.array(ProgramEventBatchResult),
  /** Events kept now, answered again (replays), refused. */
  created: z.number().int(),
  replayed: z.number().int(),
  failed: z.number().int(),
});
export type ProgramEventBatchReply = z.infer<typeof ProgramEventBatchReply>;

/** The console's participant page: the participant's events, newest first (decision 097). */
export const consoleEventsPaths = {
  participantEvents: '/clients/:clientId/participants/:participantId/events',
} as const;

export const ConsoleParticipantEventsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  /** The page cursor of the previous page's `next`. */
  after: z.string().max(2000).optional(),
});
export type ConsoleParticipantEventsQuery = z.infer<typeof ConsoleParticipantEventsQuery>;

export const ConsoleParticipantEventsPage = z.object({
  events: z.array(ProgramEvent),
  /** What the participant's returns could not take back (the balance was short), over all their events, not only this page. */
  owedPoints: z.number().int(),
  /** The cursor of the next page; null: no more. */
  next: z.string().nullable(),
});
export type ConsoleParticipantEventsPage = z.infer<typeof ConsoleParticipantEventsPage>;
